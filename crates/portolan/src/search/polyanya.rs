//! Exact any-angle search on a navigation mesh: Polyanya.
//!
//! Written from the paper: M. Cui, D. Harabor, A. Grastien, *Compromise-free Pathfinding on a
//! Navigation Mesh*, IJCAI 2017. It returns a Euclidean shortest path between two points of the
//! mesh, without preprocessing.
//!
//! # Search nodes
//! A node is an *interval* `I = [right, left]` on an edge of the mesh, a *root* `r` (the start or a
//! mesh vertex) from which every point of `I` is visible, the length `g` of a shortest path to `r`,
//! and the polygon `Q` on the far side of `I`. It stands for every path that goes straight from
//! `r` through `I` into `Q`:
//!
//! ```text
//!            c2 ───────── c3             Q's far edges, seen from r, run from right to left.
//!           ╱  ╲ observable ╱╲           The rays r→right and r→left cut them into:
//!          ╱    ╲  (root r) ╱  ╲          - the observable part between the rays (root r),
//!    c1  ╱ non-  ╲         ╱    ╲ c4      - non-observable parts outside them, only reachable
//!       ╱ observ. ╲       ╱      ╲          by turning at an interval end that is a mesh vertex
//!  a = c0  (root a) right ── left   b       on a wall (root a or b, g grows by |r a|).
//!        ╲           ╲    ╱
//!          ╲          ╲  ╱
//!                      r
//! ```
//!
//! # Successors and evaluation
//! Expanding a node projects its interval through `Q` onto `Q`'s other edges: observable
//! successors keep the root; non-observable ones (only where the interval ends at a *corner* of the
//! mesh, a vertex touching a wall) take that corner as their root. When `Q` holds the goal, a
//! final node is made instead (through the root if the goal is between the rays, else through the
//! corner on its side). `f = g + h`, where `h` is the shortest `r → p → goal` over `p ∈ I`,
//! mirroring the goal across the interval's line when it lies on the root's side (the paper's
//! admissible interval heuristic). The search is A*: the first final node popped is optimal.
//!
//! A node whose root lies on its interval's line sees nothing through it, unless the root is an
//! interval end (the paper's `([b, c], b)` successors): then all of the next polygon is visible
//! from the root, and the search walks around the corner polygon by polygon until a wall.
//!
//! # Pruning (the paper's four, and two small additions)
//! - **collinear**: an interval whose line passes through its root, not at an end, is dropped,
//!   unless its nearer end is a corner reached along that line: the path then turns there, and
//!   the corner becomes the root (this is what lets a path run along a straight wall of several
//!   collinear edges and turn at one of its vertices);
//! - **cul-de-sac**: a successor entering a polygon with no other neighbour that does not hold
//!   the goal is dropped; and, beyond the paper, one crossing a *bridge* of the mesh (a portal
//!   that is the only way into a part of it, [`NavMesh::dead_ends`]) away from the goal: the
//!   path would have to come back through the same edge. On `scene_mp_2p_01` this saves 8% of
//!   the expansions;
//! - **intermediate**: a node with a single successor is not queued; that successor is expanded at
//!   once (it still counts as expanded), without computing its heuristic;
//! - **root level**: each corner keeps the best `g` it was reached with; a node rooted there
//!   with a larger `g` is dropped (a shortest path never goes through a corner it could reach
//!   sooner). A relative slack of [`ROOT_PRUNE_SLACK`] keeps ties that differ only by rounding.
//!   Pinch vertices are left out: each of their wedges has its own best `g`;
//! - nodes whose `f` exceeds the length of a path already found are not queued.
//!
//! # Exactness
//! Every side decision is an exact [`orient`] call on *stored* points (mesh vertices and the
//! start). A node does not keep its interval's ends, which would be rounded intersection points:
//! it keeps the two sides of its cone as lines through stored points (the root and a vertex, or a
//! side inherited unchanged from its parent). So "is this vertex inside the cone?" and "does the
//! interval end exactly at this corner?" get the same exact answer however long the chain of
//! nodes; rounded interval ends are computed only for the heuristic of queued nodes. (Deciding
//! with rounded ends loses paths: a sliver interval rounds to a point, a corner rounds off its
//! interval's end, and the turn there is never made.)
//!
//! # Endpoints
//! Start and goal may be any point of the mesh: inside a polygon, on an edge, on a vertex, on the
//! boundary. The search starts from every polygon holding the start (the paper's answer to an
//! ambiguous start) and stops at the first final node into any polygon holding the goal, so it
//! returns the shortest path over all of them. That settles the *pinch* vertices
//! ([`NavMesh::is_pinch`]), where the free space is two or more wedges touching at one point (a
//! grid map's double corner): an end there leaves or arrives through whichever wedge is
//! shorter, while no path passes *through* one from a wedge into another, because polygons meet
//! there at a vertex and never at an edge. (The original Polyanya reports such an end as
//! ambiguous, and the GPPC benchmarks allow only the south-east wedge; see
//! [`NavMesh::is_pinch`] for the rule every search and the oracle follow.)
//!
//! Two details keep that exact. Root-level pruning does not apply at a pinch vertex, whose best
//! `g` differs per wedge. With landmarks, a pinch end's distance bounds are the weakest over the
//! polygons holding it: its distance is the least over its wedges, and a path arriving through
//! one wedge cannot go on into another, so the triangle inequality holds per polygon only (a
//! pinch vertex has no landmark distance of its own, see [`landmarks`](super::landmarks)).
//!
//! # Cost
//! Every node expansion is O(k) for a polygon of k vertices. The number of nodes is what A* with
//! a Euclidean heuristic explores: everything with `f` below the optimum, so it grows with the
//! detour a path must make. On the 2,000 published queries of the Iron Harvest mesh
//! `scene_mp_2p_01` (3,860 triangles) it averages about 4,500 expansions (4,900 without the
//! dead-end pruning) and about half a millisecond per query, 2.5 times as fast as the `polyanya`
//! crate on the same mesh (BENCHMARKS.md). With 16 [`SearchOptions::landmarks`] (precomputed
//! distances, see [`landmarks`](super::landmarks)) the heuristic also bounds the detour still to
//! come, and the same queries take about 1,530 expansions, 6.3–6.7 times as fast as the crate.
//!
//! # Off-mesh links
//! On a mesh with [links](crate::mesh::links), a link's take-off point is reached like the goal:
//! straight from a node's root when its cone holds the point, or around the corner on its side.
//! That makes a take-off pseudo node and a *landing* node, rooted at the link's end at `g` plus
//! the link's cost, which is queued and, when popped, expanded like a start point. A landing is
//! kept only when it *strictly* improves
//! on the best made at that point (what follows does not depend on how the search got there, and
//! a cycle of free links would otherwise land again and again). The goal's straight line is then no longer
//! the end of the story (a link elsewhere may be cheaper), so nodes are not dropped when the goal
//! is in sight, dead-end pruning is off, and a polygon holding a take-off is no cul-de-sac. The
//! heuristic stays admissible however cheap a link is: per query, Dijkstra over the directed
//! link edges that are shortcuts (cheaper than the straight line between their ends; no other
//! link can lower a bound) gives each a lower bound `B` on the cost of going on through it (its
//! cost, then straight lines between link ends and the goal), and a node's `h` is the least of
//! its interval heuristic toward the goal and, per shortcut, toward the take-off point plus `B`
//! (bounds sorted, so the loop stops at the first that cannot help; nothing without shortcuts).
//! Landmarks measure the mesh alone, and are refused with links.
//!
//! # One-to-all
//! [`ExactSearch::distances_from`] runs the same search from a vertex with no goal until the
//! open list is empty, recording at every interval end that is a vertex the length of the path
//! through the interval's root: the exact distance to every vertex, which the landmarks need. [`ExactSearch`] keeps its node pool, heap and per-vertex arrays
//! between queries (cleared lazily with a generation counter), so a query allocates only its
//! result once the buffers have grown.

use super::channel::locate_endpoint;
use super::landmarks::Landmarks;
use super::open::Open;
use super::{LinkTraversal, Path, PathError, PathStatus, PolygonFilter, SearchOptions};
use crate::geom::{
    closest_point_on_segment, line_intersection_t, on_segment, orient, Orientation, Vec2,
};
use crate::mesh::dead_ends::DeadEnds;
use crate::mesh::{LinkEdge, LinkId, Location, NavMesh, PolyId, VertexId};
use std::collections::BinaryHeap;

/// Relative slack of root-level pruning: a node rooted at a corner is dropped when its `g`
/// exceeds the best `g` known for that corner by more than this fraction. Pruning less only costs
/// time, never optimality; the slack keeps two routes of equal length that round differently.
pub const ROOT_PRUNE_SLACK: f64 = 1e-12;

/// How much a landmark bound `a − b` is lowered before use, relative to `|a| + |b|`: the
/// distances are sums of rounded square roots (relative error about the number of segments times
/// 1.1e-16), and their difference could otherwise exceed the true distance by that much and make
/// the search return a path longer than the optimum by as much. The margin scales with the
/// distances subtracted, not with the difference, which may be tiny near the goal.
pub const LANDMARK_SLACK: f64 = 1e-11;

const NONE: u32 = u32::MAX;
/// Root id of the start point (roots are otherwise vertex ids).
const START: u32 = u32::MAX;
/// `entry` of a final node (one that reaches the goal).
const FINAL: u32 = u32::MAX;
/// `entry` of a start node (not expandable; it only names the start polygon).
const ORIGIN: u32 = u32::MAX - 1;
/// `entry` of a pseudo node recording a corner the path walked from along a wall.
const VIA: u32 = u32::MAX - 2;
/// `entry` of a pseudo node whose root is where the path takes an off-mesh link.
const TAKEOFF: u32 = u32::MAX - 3;
/// `entry` of a node whose root is where an off-mesh link lands: expanded like a start point.
const LANDING: u32 = u32::MAX - 4;
/// The smallest `entry` that is not an edge slot (nodes from here up are not intervals).
const SPECIAL: u32 = LANDING;

/// A search node: an interval on the edge through which it enters `poly`, 40 bytes.
///
/// The interval's ends are computed points, needed only for the heuristic of queued nodes, so
/// they are not stored. The cone they span is kept exactly, as two lines through stored points
/// (vertex ids, or [`START`]) that pass through the root: the cone is left of `right_line` and
/// right of `left_line` (both directed away from the root). Inheriting these lines instead of recomputing rays through computed points is what
/// keeps "does the interval end exactly at this vertex?" an exact question along a whole chain of
/// nodes.
#[derive(Copy, Clone, Debug)]
struct Node {
    /// Length of a shortest path from the start to the root.
    g: f64,
    /// Vertex id of the root, or [`START`].
    root: u32,
    /// The polygon entered.
    poly: u32,
    /// Slot of the entry edge in `poly`, or [`FINAL`] / [`ORIGIN`] / [`VIA`].
    entry: u32,
    /// The node this one was generated from, or [`NONE`].
    parent: u32,
    /// The cone's right side: the directed line through these two points.
    right_line: [u32; 2],
    /// The cone's left side.
    left_line: [u32; 2],
}

/// A reusable context for exact queries (used by [`PathFinder`](super::PathFinder) for
/// [`SearchMethod::Exact`](super::SearchMethod::Exact)).
///
/// ```
/// use portolan::geom::Vec2;
/// use portolan::mesh::NavMesh;
/// use portolan::search::polyanya::ExactSearch;
/// use portolan::SearchOptions;
///
/// // A U-shaped corridor: 3 × 3 square minus the middle of the bottom row and the centre column.
/// let v = vec![
///     Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(1.0, 2.0), Vec2::new(2.0, 2.0),
///     Vec2::new(2.0, 0.0), Vec2::new(3.0, 0.0), Vec2::new(3.0, 3.0), Vec2::new(0.0, 3.0),
///     Vec2::new(0.0, 2.0), Vec2::new(3.0, 2.0),
/// ];
/// let polys = vec![vec![0, 1, 2, 8], vec![8, 2, 3, 9, 6, 7], vec![4, 5, 9, 3]];
/// let mesh = NavMesh::from_polygons(v, polys).unwrap();
/// let mut search = ExactSearch::new();
/// let path = search
///     .find_path(&mesh, Vec2::new(0.5, 0.5), Vec2::new(2.5, 0.5), &SearchOptions::default())
///     .unwrap();
/// // Up the left arm, over the two inner corners, down the right arm.
/// assert_eq!(path.points[1..3], [Vec2::new(1.0, 2.0), Vec2::new(2.0, 2.0)]);
/// let expected = 2.0 * (0.5f64.powi(2) + 1.5f64.powi(2)).sqrt() + 1.0;
/// assert!((path.length - expected).abs() < 1e-12);
/// ```
#[derive(Clone, Debug, Default)]
pub struct ExactSearch {
    nodes: Vec<Node>,
    heap: BinaryHeap<Open>,
    /// Successors of the node being expanded (indices into `nodes`).
    succ: Vec<u32>,
    generation: u32,
    /// Per vertex: generation stamp and best `g` for root-level pruning.
    root_stamp: Vec<u32>,
    root_g: Vec<f64>,
    /// Per polygon: generation stamp when it holds the goal.
    goal_stamp: Vec<u32>,
    /// Length of the best path found so far in this query (a queued final node).
    best_final: f64,
    /// One-to-all mode ([`ExactSearch::distances_from`]): no goal, no cul-de-sac pruning, and
    /// every vertex an interval ends at gets its distance recorded in `reach`.
    one_to_all: bool,
    reach: Vec<f64>,
    /// Per landmark, lower and upper bounds on its distance to the goal (queries with
    /// [`SearchOptions::landmarks`]), and the landmark bound of the start as a root.
    alt_goal: Vec<(f64, f64)>,
    alt_start_bounds: Vec<(f64, f64)>,
    alt_start: f64,
    /// Per vertex: its landmark bound in this query, NaN until computed (valid with `root_stamp`).
    alt_h: Vec<f64>,
    /// Per directed link edge `k` (see [`link_end`]): a lower bound on the cost from its take-off
    /// point to the goal through it, `cost + D(landing)`; infinite for edges that do not exist
    /// or are no shortcut (see [`ExactSearch::prepare_links`]).
    link_bound: Vec<f64>,
    /// Scratch for [`ExactSearch::prepare_links`]: directed link edges whose bound is final.
    link_settled: Vec<bool>,
    /// The directed link edges that can lower the heuristic, by increasing bound (so the
    /// per-node loop stops at the first bound that cannot).
    link_order: Vec<(f64, u32)>,
    /// Inside [`ExactSearch::unreachable`]'s search for the nearest reachable point: the query's
    /// own goal, for the partial path of an exhausted budget.
    rerun_goal: Option<Vec2>,
}

impl ExactSearch {
    /// An empty context; it grows to the mesh on first use.
    pub fn new() -> ExactSearch {
        ExactSearch::default()
    }

    fn reset(&mut self, mesh: &NavMesh) {
        // Roots are vertices, then the take-off and landing points of the directed link edges.
        let (nv, np) = (
            mesh.vertex_count() + 4 * mesh.links().len(),
            mesh.polygon_count(),
        );
        if self.root_stamp.len() < nv {
            self.root_stamp.resize(nv, 0);
            self.root_g.resize(nv, 0.0);
            self.alt_h.resize(nv, f64::NAN);
        }
        if self.goal_stamp.len() < np {
            self.goal_stamp.resize(np, 0);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.root_stamp.iter_mut().for_each(|s| *s = 0);
            self.goal_stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
        self.nodes.clear();
        self.heap.clear();
        self.succ.clear();
        self.best_final = f64::INFINITY;
    }

    /// Finds a shortest path from `start` to `goal` (on a mesh with off-mesh links, the cheapest,
    /// counting each link at its cost; [`Path::links`] says which segments are links). These
    /// options apply: `snap`, `landmarks` (not on a mesh with links: [`PathError::Unsupported`]),
    /// `filter` (closed polygons are walls for this query; a start polygon may be left, a goal
    /// only in closed polygons is unreachable), `max_expanded` (search nodes expanded, then
    /// [`PathError::SearchLimit`]) and `allow_partial` (an unreachable goal gives the shortest
    /// path to the reachable point nearest it; an exhausted budget, the path to the point
    /// nearest the goal that the search has seen). The other fields are for the funnel search
    /// and are ignored.
    ///
    /// [`Path::channel`] lists the polygons the search carried the path through, start polygon
    /// first, goal polygon last; consecutive ones share an edge (or are joined by a link taken),
    /// so the list is a channel that contains the path. [`Path::expanded`] counts expanded
    /// search nodes.
    pub fn find_path(
        &mut self,
        mesh: &NavMesh,
        start: Vec2,
        goal: Vec2,
        options: &SearchOptions,
    ) -> Result<Path, PathError> {
        let landmarks = match &options.landmarks {
            Some(lm) if lm.mesh_id() != mesh.instance_id() => {
                return Err(PathError::ForeignData {
                    option: "landmarks",
                })
            }
            // Landmark distances are measured on the mesh alone: a link can beat them.
            Some(_) if mesh.has_links() => {
                return Err(PathError::Unsupported {
                    method: "exact",
                    option: "landmarks on a mesh with off-mesh links",
                })
            }
            Some(lm) => Some(&**lm),
            None => None,
        };
        if mesh.vertex_count() + 4 * mesh.links().len() >= SPECIAL as usize {
            return Err(PathError::Unsupported {
                method: "exact",
                option: "off-mesh links (too many for its 32-bit node ids)",
            });
        }
        let (s, sloc) = locate_endpoint(mesh, start, options.snap, "start")?;
        let (t, tloc) = locate_endpoint(mesh, goal, options.snap, "goal")?;
        self.reset(mesh);
        let gen = self.generation;
        // A goal only in closed polygons is unreachable; the start may be left even when its
        // polygon is closed (the agent is already there).
        let filter = options.filter.as_deref().filter(|f| !f.is_empty());
        let open = |p: PolyId| filter.is_none_or(|f| !f.is_excluded(p));
        let mut goal_open = false;
        for_each_polygon(mesh, tloc, |p| {
            if open(p) {
                self.goal_stamp[p.index()] = gen;
                goal_open = true;
            }
        });
        if !goal_open {
            return self.unreachable(mesh, s, sloc, t, options);
        }
        // Same polygon: a straight segment (polygons are convex) — unless a link could be
        // cheaper, which the search then finds (the start's own polygons hold the goal).
        let mut shared = None;
        let links = mesh.has_links();
        if links {
            self.prepare_links(mesh, t);
        }
        for_each_polygon(mesh, sloc, |p| {
            if shared.is_none() && self.goal_stamp[p.index()] == gen {
                shared = Some(p);
            }
        });
        let shared = shared.filter(|_| !links || self.point_h_links(mesh, s, t) >= s.distance(t));
        if let Some(p) = shared {
            let points = if s == t { vec![s] } else { vec![s, t] };
            return Ok(Path {
                length: s.distance(t),
                points,
                channel: vec![p],
                expanded: 0,
                status: PathStatus::Complete,
                links: Vec::new(),
            });
        }
        // The goal's components: one, or two for a goal on a bridge; a goal on a vertex where
        // more meet is rare enough to search without dead-end pruning. (Off-mesh links lead out
        // of dead ends: no pruning on meshes with links.)
        let dead_ends = (!links).then(|| mesh.dead_ends());
        let mut goal_parts = [u32::MAX; 2];
        let mut more = false;
        if let Some(de) = dead_ends {
            for_each_polygon(mesh, tloc, |p| {
                let c = de.component(p);
                if !goal_parts.contains(&c) {
                    match goal_parts.iter_mut().find(|x| **x == u32::MAX) {
                        Some(free) => *free = c,
                        None => more = true,
                    }
                }
            });
        }
        let q = Query {
            start: s,
            goal: t,
            landmarks,
            dead_ends: dead_ends.filter(|_| !more).map(|de| (de, goal_parts)),
            filter,
            links,
        };
        if let Some(lm) = landmarks {
            self.prepare_landmarks(mesh, lm, sloc, tloc, s, t);
        }
        self.push_start_nodes(mesh, &q, sloc);
        let mut expanded = 0usize;
        match self.run(mesh, &q, &mut expanded, options.max_expanded) {
            Outcome::Found(node) => Ok(self.path_to(mesh, node, &q, expanded, t)),
            Outcome::Limited if options.allow_partial => {
                Ok(self.nearest_reached(mesh, &q, expanded))
            }
            Outcome::Limited => Err(PathError::SearchLimit { expanded }),
            Outcome::Exhausted => self.unreachable(mesh, s, sloc, t, options),
        }
    }

    /// The search ran out of [`SearchOptions::max_expanded`]: the path to the point nearest the
    /// goal among what the nodes generated so far see (each node's root sees its interval; a
    /// root on the entry edge sees the whole polygon), or the start itself, marked
    /// [`PartialReason::SearchLimit`](super::PartialReason::SearchLimit).
    fn nearest_reached(&self, mesh: &NavMesh, q: &Query, expanded: usize) -> Path {
        // (Inside `unreachable`'s search toward the nearest reachable point: still nearest the
        // query's own goal.)
        let goal = self.rerun_goal.unwrap_or(q.goal);
        let mut best: (f64, Option<u32>, Vec2) = (dist(q.start, goal), None, q.start);
        for (i, n) in self.nodes.iter().enumerate() {
            if n.entry >= SPECIAL {
                continue; // final, origin, landing and pseudo nodes
            }
            let seen = match self.interval(mesh, q, n) {
                Some((_, right, left)) => closest_point_on_segment(goal, right, left),
                None => goal,
            };
            let (_, p) = mesh.nearest_in(PolyId(n.poly), seen);
            let d = dist(p, goal);
            if d < best.0 {
                best = (d, Some(i as u32), p);
            }
        }
        let mut path = match best.1 {
            // Nudged into the polygon (the interval's rounded ends may sit a hair off it), and
            // into the cone until the last leg is clear: an interval end, rounded, can lie a
            // hair past the corner that bounds the cone, and the leg then grazes it. The root
            // sees every point strictly inside its interval (or all of the polygon, when it is
            // on the entry edge).
            Some(i) => {
                let n = self.nodes[i as usize];
                let end = mesh.pull_inside(PolyId(n.poly), best.2);
                let root = Self::root_point(mesh, q, n.root);
                let inside = match self.interval(mesh, q, &n) {
                    Some((_, right, left)) => (right + left) * 0.5,
                    None => mesh.centroid(PolyId(n.poly)),
                };
                let end = crate::geom::nudge_toward(end, inside, |p| {
                    mesh.locate_in(PolyId(n.poly), p).is_some()
                        && super::raycast::raycast(mesh, root, p).is_ok_and(|r| r.is_clear())
                });
                self.path_to(mesh, i, q, expanded, end)
            }
            None => Path {
                length: 0.0,
                points: vec![q.start],
                // The first node is the origin node of a start polygon.
                channel: self
                    .nodes
                    .first()
                    .map(|n| PolyId(n.poly))
                    .into_iter()
                    .collect(),
                expanded,
                status: PathStatus::Complete,
                links: Vec::new(),
            },
        };
        path.status = PathStatus::Partial(super::PartialReason::SearchLimit);
        path
    }

    /// The goal `t` cannot be reached from `s`: [`PathError::NoPath`], or with
    /// [`SearchOptions::allow_partial`] the shortest path to the point closest to the goal in
    /// the part of the mesh the start can reach (found by a walk over the open polygons from
    /// the start's), marked [`PartialReason::Unreachable`](super::PartialReason::Unreachable).
    fn unreachable(
        &mut self,
        mesh: &NavMesh,
        s: Vec2,
        sloc: Location,
        t: Vec2,
        options: &SearchOptions,
    ) -> Result<Path, PathError> {
        if !options.allow_partial {
            return Err(PathError::NoPath);
        }
        let filter = options.filter.as_deref();
        let open = |p: PolyId| filter.is_none_or(|f| !f.is_excluded(p));
        // Reuse the goal stamps as "reached" marks under a fresh generation.
        self.reset(mesh);
        let gen = self.generation;
        let mut stack: Vec<PolyId> = Vec::new();
        for_each_polygon(mesh, sloc, |p| {
            self.goal_stamp[p.index()] = gen;
            stack.push(p);
        });
        let mut best: Option<(f64, Vec2, PolyId)> = None;
        while let Some(p) = stack.pop() {
            let (d, q) = mesh.nearest_in(p, t);
            if best.is_none_or(|(b, _, _)| d < b) {
                best = Some((d, q, p));
            }
            let across = mesh.neighbours(p).iter().flatten().copied();
            for n in across.chain(mesh.links_from(p).iter().map(|e| e.to_polygon)) {
                if self.goal_stamp[n.index()] != gen && open(n) {
                    self.goal_stamp[n.index()] = gen;
                    stack.push(n);
                }
            }
        }
        let Some((_, end, poly)) = best else {
            return Err(PathError::NoPath);
        };
        // Into the polygon where rounding left the projection a hair out. (The point may be a
        // pinch vertex where this part touches an unreachable one; an end there may arrive
        // through any of its wedges, so the search below reaches it.)
        let end = mesh.pull_inside(poly, end);
        // The point is reachable (the walk above crossed edges and links, as the search does).
        // Under the same budget the search may still run out first: then the partial path of
        // the budget, toward that point. `rerun_goal` keeps a broken invariant from recursing.
        if self.rerun_goal.is_some() {
            return Err(PathError::NoPath);
        }
        let reachable = SearchOptions {
            allow_partial: true,
            snap: super::Snap::Reject,
            ..options.clone()
        };
        self.rerun_goal = Some(t);
        let found = self.find_path(mesh, s, end, &reachable);
        self.rerun_goal = None;
        let mut path = found.map_err(|_| PathError::NoPath)?;
        if path.status == PathStatus::Complete {
            path.status = PathStatus::Partial(super::PartialReason::Unreachable);
        }
        Ok(path)
    }

    /// Exact distances from vertex `source` to every vertex of the mesh (`f64::INFINITY` for
    /// vertices it cannot reach): Polyanya without a goal, run until its open list is empty.
    ///
    /// Every interval end that is a vertex `v`, seen from root `r`, records `g(r) + |r v|`, the
    /// length of a real path; the search reaches every vertex along a shortest path to it
    /// (Polyanya is complete for any target point), so the minimum recorded is the distance.
    /// Cul-de-sac pruning is off (dead ends have vertices too) and `f = g`. Cost: one search
    /// over the whole mesh, each corner a root once or a few times.
    ///
    /// A source on a pinch vertex ([`NavMesh::is_pinch`]) leaves through any of its wedges.
    pub fn distances_from(&mut self, mesh: &NavMesh, source: VertexId) -> Vec<f64> {
        self.reset(mesh);
        let mut reach = std::mem::take(&mut self.reach);
        reach.clear();
        reach.resize(mesh.vertex_count(), f64::INFINITY);
        reach[source.index()] = 0.0;
        let Some(&polygon) = mesh.vertex_polygons(source).first() else {
            return reach; // a vertex no polygon uses
        };
        self.reach = reach;
        self.one_to_all = true;
        let loc = Location::OnVertex {
            vertex: source,
            polygon,
        };
        let q = Query {
            start: mesh.vertex(source),
            goal: mesh.vertex(source),
            landmarks: None,
            dead_ends: None,
            filter: None,
            links: false,
        };
        self.push_start_nodes(mesh, &q, loc);
        let mut expanded = 0;
        self.run(mesh, &q, &mut expanded, None);
        self.one_to_all = false;
        std::mem::take(&mut self.reach)
    }

    /// Per landmark, bounds on its distance to the goal from the goal polygons' vertices, each
    /// of which sees the goal: `d(L, v) - |v t| <= d(L, t) <= d(L, v) + |v t|`; and the bound
    /// for the start as a root.
    fn prepare_landmarks(
        &mut self,
        mesh: &NavMesh,
        lm: &Landmarks,
        sloc: Location,
        tloc: Location,
        s: Vec2,
        t: Vec2,
    ) {
        // On a pinch vertex the distance is the least over its wedges, and a path arriving
        // through one wedge cannot go on into another: each polygon's vertices bound the
        // distance through that polygon only, so the bounds are the weakest over the polygons
        // (least lower bound, greatest upper bound). Elsewhere every vertex of every polygon
        // holding the point bounds the one distance.
        let bounds = |loc: Location, p: Vec2, out: &mut Vec<(f64, f64)>| {
            out.clear();
            out.resize(lm.count(), (f64::NEG_INFINITY, f64::INFINITY));
            let pinch = is_pinch(mesh, loc);
            let mut first = true;
            for_each_polygon(mesh, loc, |poly| {
                let mut one = [(f64::NEG_INFINITY, f64::INFINITY)].repeat(lm.count());
                let target = if pinch { &mut one } else { &mut *out };
                for &v in mesh.polygon_vertices(poly) {
                    let dv = dist(mesh.vertex(v), p);
                    for (b, &d) in target.iter_mut().zip(lm.row(v)) {
                        b.0 = b.0.max(d - dv);
                        b.1 = b.1.min(d + dv);
                    }
                }
                if pinch {
                    for (b, o) in out.iter_mut().zip(&one) {
                        *b = if first {
                            *o
                        } else {
                            (b.0.min(o.0), b.1.max(o.1))
                        };
                    }
                    first = false;
                }
            });
        };
        let mut start = std::mem::take(&mut self.alt_start_bounds);
        bounds(sloc, s, &mut start);
        let mut goal = std::mem::take(&mut self.alt_goal);
        bounds(tloc, t, &mut goal);
        self.alt_start = start
            .iter()
            .zip(&goal)
            .map(|(&(sl, su), &(gl, gu))| lower_bound(sl, gu).max(lower_bound(gl, su)))
            .fold(0.0, f64::max);
        self.alt_goal = goal;
        self.alt_start_bounds = start;
    }

    /// The landmark lower bound on the distance from `root` to the goal (triangle inequality
    /// through each landmark, each difference shrunk by [`LANDMARK_SLACK`] against rounding),
    /// computed once per root and query.
    #[inline]
    fn landmark_h(&mut self, lm: &Landmarks, root: u32) -> f64 {
        if root == START {
            return self.alt_start;
        }
        let r = root as usize;
        if self.root_stamp[r] == self.generation && !self.alt_h[r].is_nan() {
            return self.alt_h[r];
        }
        let mut h = 0.0f64;
        for (&d, &(lb, ub)) in lm.row(VertexId(root)).iter().zip(&self.alt_goal) {
            // Unreachable pairs give infinities (a valid bound) or NaN, which `max` skips.
            h = h.max(lower_bound(d, ub)).max(lower_bound(lb, d));
        }
        self.alt_h[r] = h;
        h
    }

    /// Start nodes: every edge of every start polygon that does not hold the start (those lead
    /// to polygons that are start polygons too). An edge whose line only passes through the
    /// start is reached by walking along that line (see `successor`). Queues them.
    fn push_start_nodes(&mut self, mesh: &NavMesh, q: &Query, sloc: Location) {
        self.expand_point(mesh, q, NONE, START, 0.0, sloc);
        if let Some(first) = self.queue_successors(mesh, q) {
            let n = self.nodes[first as usize];
            let f = n.g + self.node_h(mesh, q, &n);
            self.heap.push(Open {
                f,
                g: n.g,
                id: first,
            });
        }
    }

    /// The successors of a point root (the start, or where a link lands) at distance `g`,
    /// located at `loc`. Per polygon holding the point (open ones; the start's may be closed):
    /// an origin node naming the polygon, then one node per edge that does not hold the point;
    /// with links, also the goal and the link take-offs in the polygon, which the point sees
    /// (polygons are convex).
    fn expand_point(
        &mut self,
        mesh: &NavMesh,
        q: &Query,
        parent: u32,
        root: u32,
        g: f64,
        loc: Location,
    ) {
        let x = Self::root_point(mesh, q, root);
        for_each_polygon(mesh, loc, |p| {
            if root != START && q.filter.is_some_and(|f| f.is_excluded(p)) {
                return;
            }
            let origin = self.push_point_node(g, root, p.0, ORIGIN, parent);
            if q.links {
                if self.goal_stamp[p.index()] == self.generation {
                    self.final_node(mesh, q, origin, root, g);
                }
                for e in mesh.links_from(p) {
                    self.take_off(mesh, q, origin, root, g, e);
                }
            }
            let vs = mesh.polygon_vertices(p);
            let n = vs.len();
            for i in 0..n {
                let (ia, ib) = (vs[i], vs[(i + 1) % n]);
                let (a, b) = (mesh.vertex(ia), mesh.vertex(ib));
                if on_segment(x, a, b) {
                    continue;
                }
                let (from, to) = (End::Vertex(ia.0), End::Vertex(ib.0));
                self.successor(mesh, q, origin, p, i, root, g, from, to);
            }
        });
    }

    /// Per directed link edge, a lower bound on the cost of reaching the goal `t` by taking it:
    /// its cost plus `D(landing)`, where `D(x) = min(|x t|, min over edges j of
    /// |x from_j| + cost_j + D(to_j))` (straight lines between link ends and the goal), by
    /// Dijkstra over the edges: O(k²) for k directed edges. With these the heuristic
    /// ([`ExactSearch::point_h_links`]) stays admissible however cheap a link is.
    ///
    /// Only *shortcuts* (cost below the straight distance between the ends) take part: for any
    /// other link, `h(from) + cost + D(to) ≥ h(to) + D(to)` by the triangle inequality (the
    /// interval heuristic is a shortest distance through the interval), which the goal's or
    /// another link's term already bounds from below, so it could never lower a bound. Links
    /// that are only dearer ways across a wall cost the heuristic nothing.
    fn prepare_links(&mut self, mesh: &NavMesh, t: Vec2) {
        let k = 2 * mesh.links().len();
        let (d, done) = (&mut self.link_bound, &mut self.link_settled);
        d.clear();
        done.clear();
        for j in 0..k {
            let (from, to, cost) = link_end(mesh, j);
            let exists = j.is_multiple_of(2) || mesh.links()[j / 2].bidirectional;
            let shortcut = exists && cost < dist(from, to);
            d.push(if shortcut { dist(to, t) } else { f64::INFINITY });
            done.push(!shortcut);
        }
        while let Some(j) = (0..k)
            .filter(|&j| !done[j])
            .min_by(|&a, &b| d[a].total_cmp(&d[b]))
        {
            done[j] = true;
            let (from, _, cost) = link_end(mesh, j);
            let via = cost + d[j];
            for i in 0..k {
                if !done[i] {
                    let (_, to, _) = link_end(mesh, i);
                    d[i] = d[i].min(dist(to, from) + via);
                }
            }
        }
        self.link_order.clear();
        for (j, b) in d.iter_mut().enumerate() {
            *b += link_end(mesh, j).2;
            if b.is_finite() {
                self.link_order.push((*b, j as u32));
            }
        }
        self.link_order.sort_by(|x, y| x.0.total_cmp(&y.0));
    }

    /// A lower bound on the cost from point `x` to the goal `t` on a mesh with links: straight
    /// there, or straight to a shortcut's take-off and on at least its bound.
    fn point_h_links(&self, mesh: &NavMesh, x: Vec2, t: Vec2) -> f64 {
        self.links_h(mesh, dist(x, t), |f| dist(x, f))
    }

    /// `h` lowered through the shortcuts: the least of `h` and, per shortcut, `to(take-off)`
    /// (a lower bound on the way there) plus its bound.
    #[inline]
    fn links_h(&self, mesh: &NavMesh, mut h: f64, to: impl Fn(Vec2) -> f64) -> f64 {
        for &(b, j) in &self.link_order {
            if b >= h {
                break; // the bounds only grow from here
            }
            h = h.min(to(link_end(mesh, j as usize).0) + b);
        }
        h
    }

    /// The path reaches the take-off point of link edge `e` straight from `root` (at distance
    /// `g`; `root` sees it). Makes a pseudo node for the corner `root` when it is not the
    /// parent's root, a take-off pseudo node, and the landing node, queued like any node and
    /// expanded like a start. A landing is kept only when it improves on the best made there.
    fn take_off(
        &mut self,
        mesh: &NavMesh,
        q: &Query,
        parent: u32,
        root: u32,
        g: f64,
        e: &LinkEdge,
    ) {
        if q.filter.is_some_and(|f| f.is_excluded(e.to_polygon)) {
            return;
        }
        let j = 2 * e.link.index() + usize::from(e.reversed);
        let up = (mesh.vertex_count() + 2 * j) as u32;
        let g_up = g + dist(Self::root_point(mesh, q, root), e.from);
        let g_down = g_up + e.cost;
        // What follows a landing does not depend on how the search got there: a landing that
        // does not strictly improve on one already made adds nothing. (Letting equal ones
        // through, as `root_ok` does for corners, loops forever on a cycle of free links.)
        // Decided first, so that a refused landing leaves no nodes behind.
        let down = up + 1;
        let i = down as usize;
        if self.root_stamp[i] == self.generation && g_down >= self.root_g[i] {
            return;
        }
        let (parent_root, poly) = {
            let p = &self.nodes[parent as usize];
            (p.root, p.poly)
        };
        let mut parent = parent;
        if root != parent_root {
            if !self.root_ok(mesh, root, g) {
                return;
            }
            parent = self.push_point_node(g, root, poly, VIA, parent);
        }
        // Records the landing's `g` (it improves, so `root_ok` accepts it). Take-off points need
        // no record: their nodes are never queued, and their `g` follows the landing's.
        self.root_ok(mesh, down, g_down);
        let takeoff = self.push_point_node(g_up, up, poly, TAKEOFF, parent);
        let landing = self.push_point_node(g_down, down, e.to_polygon.0, LANDING, takeoff);
        self.succ.push(landing);
    }

    /// Pushes a node that is a point, not an interval (origin, final, corner, take-off and
    /// landing nodes: their cone lines are never read) and returns its index.
    #[inline]
    fn push_point_node(&mut self, g: f64, root: u32, poly: u32, entry: u32, parent: u32) -> u32 {
        self.nodes.push(Node {
            g,
            root,
            poly,
            entry,
            parent,
            right_line: [root, root],
            left_line: [root, root],
        });
        self.nodes.len() as u32 - 1
    }

    /// Expands node `idx`: a landing node like a start point, any other through its polygon.
    #[inline]
    fn expand_node(&mut self, mesh: &NavMesh, q: &Query, idx: u32) {
        let n = self.nodes[idx as usize];
        if n.entry == LANDING {
            let at = Self::root_point(mesh, q, n.root);
            self.expand_point(mesh, q, idx, n.root, n.g, mesh.locate(at));
        } else {
            self.expand(mesh, q, idx);
        }
    }

    /// The A* loop: pops nodes until a final node comes out, the list is empty, or `limit`
    /// expansions are done.
    fn run(
        &mut self,
        mesh: &NavMesh,
        q: &Query,
        expanded: &mut usize,
        limit: Option<usize>,
    ) -> Outcome {
        while let Some(Open { id: node, .. }) = self.heap.pop() {
            let n = self.nodes[node as usize];
            if n.entry == FINAL {
                return Outcome::Found(node);
            }
            if n.root != START
                && self.root_stamp[n.root as usize] == self.generation
                && n.g > self.root_g[n.root as usize] * (1.0 + ROOT_PRUNE_SLACK)
            {
                continue;
            }
            let mut cur = node;
            loop {
                if limit.is_some_and(|l| *expanded >= l) {
                    return Outcome::Limited;
                }
                *expanded += 1;
                self.expand_node(mesh, q, cur);
                // Intermediate pruning: a lone successor is expanded at once.
                if self.succ.len() == 1 && self.nodes[self.succ[0] as usize].entry != FINAL {
                    cur = self.succ[0];
                    self.succ.clear();
                    continue;
                }
                // The best successor, if it would be the next node popped anyway, skips the heap.
                match self.queue_successors(mesh, q) {
                    Some(next) => cur = next,
                    None => break,
                }
            }
        }
        Outcome::Exhausted
    }

    /// Queues the successors of the last expansion, computing their `f` (only queued nodes
    /// need a heuristic: a lone successor is expanded at once). Returns the successor with the
    /// smallest `f` instead of queueing it when it would be the very next node popped (its `f`
    /// is below everything queued), which saves a push and a pop without changing the order of
    /// expansion.
    fn queue_successors(&mut self, mesh: &NavMesh, q: &Query) -> Option<u32> {
        let mut best: Option<Open> = None;
        for i in 0..self.succ.len() {
            let idx = self.succ[i];
            let n = self.nodes[idx as usize];
            let f = if n.entry == FINAL {
                self.best_final = self.best_final.min(n.g);
                n.g
            } else {
                n.g + self.node_h(mesh, q, &n)
            };
            // A node that cannot beat a path already found would never be popped before it.
            if f > self.best_final {
                continue;
            }
            let open = Open { f, g: n.g, id: idx };
            if n.entry != FINAL && best.is_none_or(|b| f < b.f) {
                if let Some(b) = best.replace(open) {
                    self.heap.push(b);
                }
            } else {
                self.heap.push(open);
            }
        }
        self.succ.clear();
        let b = best?;
        if b.f > self.best_final {
            return None;
        }
        if self.heap.peek().is_none_or(|top| b.f < top.f) {
            return Some(b.id);
        }
        self.heap.push(b);
        None
    }

    /// The heuristic of a queued node: the paper's interval heuristic, raised to the landmark
    /// bound of its root when the query has [`SearchOptions::landmarks`]. 0 in one-to-all mode,
    /// which expands in order of `g` (ordering by the distance to the interval instead measured
    /// slower: fewer roots are settled before their nodes spread).
    fn node_h(&mut self, mesh: &NavMesh, q: &Query, n: &Node) -> f64 {
        if self.one_to_all {
            return 0.0;
        }
        if n.entry == LANDING {
            return self.point_h_links(mesh, Self::root_point(mesh, q, n.root), q.goal);
        }
        let interval = self.interval(mesh, q, n);
        let mut h = match interval {
            None => dist(Self::root_point(mesh, q, n.root), q.goal),
            Some((r, right, left)) => interval_h(r, right, left, q.goal),
        };
        if q.links {
            // Through the interval to a shortcut's take-off point, then on at least its bound.
            h = match interval {
                None => self.point_h_links(mesh, Self::root_point(mesh, q, n.root), q.goal),
                Some((r, right, left)) => self.links_h(mesh, h, |f| interval_h(r, right, left, f)),
            };
        }
        match q.landmarks {
            Some(lm) => h.max(self.landmark_h(lm, n.root)),
            None => h,
        }
    }

    /// A node's root and its interval's (rounded) right and left ends; `None` when the root is
    /// an end of the entry edge (it sees the whole polygon).
    #[inline]
    fn interval(&self, mesh: &NavMesh, q: &Query, n: &Node) -> Option<(Vec2, Vec2, Vec2)> {
        let vs = mesh.polygon_vertices(PolyId(n.poly));
        let k = n.entry as usize;
        let (b_id, a_id) = (vs[k], vs[wrap(k + 1, vs.len())]);
        if n.root == a_id.0 || n.root == b_id.0 {
            return None;
        }
        let r = Self::root_point(mesh, q, n.root);
        let (a, b) = (mesh.vertex(a_id), mesh.vertex(b_id));
        let (rp, rq) = (
            Self::point(mesh, q, n.right_line[0]),
            Self::point(mesh, q, n.right_line[1]),
        );
        let (lp, lq) = (
            Self::point(mesh, q, n.left_line[0]),
            Self::point(mesh, q, n.left_line[1]),
        );
        let right = if orient(rp, rq, a) == Orientation::Clockwise {
            ray_exit(rp, rq, a, b)
        } else {
            a
        };
        let left = if orient(lp, lq, b) == Orientation::CounterClockwise {
            ray_exit(lp, lq, a, b)
        } else {
            b
        };
        Some((r, right, left))
    }

    #[inline]
    fn point(mesh: &NavMesh, q: &Query, id: u32) -> Vec2 {
        Self::root_point(mesh, q, id)
    }

    #[inline]
    fn root_point(mesh: &NavMesh, q: &Query, root: u32) -> Vec2 {
        let nv = mesh.vertex_count();
        if root == START {
            q.start
        } else if (root as usize) < nv {
            mesh.vertices()[root as usize]
        } else {
            // A link's take-off (even) or landing (odd) point.
            let j = root as usize - nv;
            let (from, to, _) = link_end(mesh, j / 2);
            if j.is_multiple_of(2) {
                from
            } else {
                to
            }
        }
    }

    /// Root-level pruning: `true` when `root` may carry `g` (and records it as the best).
    #[inline]
    fn root_ok(&mut self, mesh: &NavMesh, root: u32, g: f64) -> bool {
        if root == START {
            return true;
        }
        let i = root as usize;
        // A pinch vertex has one best `g` per wedge, and what follows depends on the wedge:
        // not pruned there.
        if i < mesh.vertex_count() && mesh.is_pinch(VertexId(root)) {
            return true;
        }
        if self.root_stamp[i] == self.generation {
            if g > self.root_g[i] * (1.0 + ROOT_PRUNE_SLACK) {
                return false;
            }
            if g < self.root_g[i] {
                self.root_g[i] = g;
            }
        } else {
            self.root_stamp[i] = self.generation;
            self.root_g[i] = g;
            self.alt_h[i] = f64::NAN;
        }
        true
    }

    /// Makes the successor whose interval runs from `right` to `left` on edge `slot` of `poly`
    /// (counter-clockwise in `poly`), entering the polygon across it, with root `root` at
    /// distance `g` from the start.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn successor(
        &mut self,
        mesh: &NavMesh,
        q: &Query,
        parent: u32,
        poly: PolyId,
        slot: usize,
        root: u32,
        g: f64,
        right: End,
        left: End,
    ) {
        if self.one_to_all {
            self.record(mesh, q, root, g, right);
            self.record(mesh, q, root, g, left);
        }
        let Some(next) = mesh.neighbours(poly)[slot] else {
            return;
        };
        // A closed polygon is a wall for this query.
        if q.filter.is_some_and(|f| f.is_excluded(next)) {
            return;
        }
        // Dead-end pruning: a bridge is crossed only toward the goal.
        if let Some((de, parts)) = q.dead_ends {
            if !de.may_cross(mesh, poly, slot, parts[0])
                && (parts[1] == u32::MAX || !de.may_cross(mesh, poly, slot, parts[1]))
            {
                return;
            }
        }
        let vs = mesh.polygon_vertices(poly);
        let (ea, eb) = (vs[slot], vs[wrap(slot + 1, vs.len())]);
        let (mut root, mut g, mut parent) = (root, g, parent);
        let original_root = root;
        let mut cone = (right.line(root), left.line(root));
        if root != ea.0 && root != eb.0 {
            let r = Self::root_point(mesh, q, root);
            let (pa, pb) = (mesh.vertex(ea), mesh.vertex(eb));
            if orient(pa, pb, r).is_collinear() {
                // A root on the edge's line sees nothing through it (collinear pruning), except
                // by walking along the line to the interval's nearer end and turning there,
                // which a taut path does only at a corner. That end becomes the root.
                let (id, end) = if dist(r, pa) <= dist(r, pb) {
                    (ea, right)
                } else {
                    (eb, left)
                };
                if end != End::Vertex(id.0) || !is_corner(mesh, q, id) {
                    return;
                }
                g += dist(r, mesh.vertex(id));
                root = id.0;
                // A root at an end of the edge sees all of the next polygon: no cone to keep.
                cone = ([root, root], [root, root]);
            }
        }
        // One pass over `next`: its neighbour count (cul-de-sac pruning) and the slot of the
        // shared edge, which runs eb → ea in `next` (a convex polygon lists a vertex once, so
        // the slot starting at eb is that edge).
        let nv = mesh.polygon_vertices(next);
        let nb = mesh.neighbours(next);
        let (mut entry, mut open_edges) = (usize::MAX, 0usize);
        for (i, (&v, n)) in nv.iter().zip(nb).enumerate() {
            if v == eb {
                entry = i;
            }
            open_edges += usize::from(n.is_some());
        }
        if entry == usize::MAX {
            return; // not a manifold edge; NavMesh guarantees this does not happen
        }
        debug_assert_eq!(nv[wrap(entry + 1, nv.len())], ea);
        // Cul-de-sac pruning.
        let goal_here = self.goal_stamp[next.index()] == self.generation;
        if !goal_here
            && open_edges < 2
            && !self.one_to_all
            && (!q.links || mesh.links_from(next).is_empty())
        {
            return;
        }
        if root != self.nodes[parent as usize].root && !self.root_ok(mesh, root, g) {
            return;
        }
        if root != original_root {
            // Keep the corner walked from, for the path: a pseudo node that is never expanded.
            let poly = self.nodes[parent as usize].poly;
            parent = self.push_point_node(g, original_root, poly, VIA, parent);
        }
        let idx = self.nodes.len() as u32;
        self.nodes.push(Node {
            g,
            root,
            poly: next.0,
            entry: entry as u32,
            parent,
            right_line: cone.0,
            left_line: cone.1,
        });
        self.succ.push(idx);
    }

    /// One-to-all mode: an interval end that is a vertex is reached from `root` in a straight line.
    #[inline]
    fn record(&mut self, mesh: &NavMesh, q: &Query, root: u32, g: f64, end: End) {
        if let End::Vertex(v) = end {
            let d = g + dist(Self::root_point(mesh, q, root), mesh.vertices()[v as usize]);
            let r = &mut self.reach[v as usize];
            if d < *r {
                *r = d;
            }
        }
    }

    /// A final node: the goal reached straight from `root` (at distance `g` from the start).
    fn final_node(&mut self, mesh: &NavMesh, q: &Query, parent: u32, root: u32, g: f64) {
        if !self.root_ok(mesh, root, g) {
            return;
        }
        let total = g + dist(Self::root_point(mesh, q, root), q.goal);
        let poly = self.nodes[parent as usize].poly;
        let idx = self.push_point_node(total, root, poly, FINAL, parent);
        self.succ.push(idx);
    }

    /// Projects node `idx` through the polygon it enters; successors go to `self.succ`.
    fn expand(&mut self, mesh: &NavMesh, q: &Query, idx: u32) {
        let n = self.nodes[idx as usize];
        let poly = PolyId(n.poly);
        let vs = mesh.polygon_vertices(poly);
        let size = vs.len();
        let k = n.entry as usize;
        let (b_id, a_id) = (vs[k], vs[wrap(k + 1, size)]);
        let r = Self::root_point(mesh, q, n.root);
        let goal_here = self.goal_stamp[poly.index()] == self.generation;
        // The far chain c_0 = a, c_1, ..., c_m = b; far edge j runs c_j → c_{j+1} = slot(j).
        let m = size - 1;
        let slot = |j: usize| wrap(k + 1 + j, size);
        let c = |j: usize| mesh.vertex(vs[wrap(k + 1 + j, size)]);
        let id = |j: usize| vs[wrap(k + 1 + j, size)].0;
        if n.root == a_id.0 || n.root == b_id.0 {
            // The root is an end of the entry edge (a corner being walked around): all of the
            // polygon is visible from it.
            if goal_here {
                self.final_node(mesh, q, idx, n.root, n.g);
                if !q.links {
                    return;
                }
            }
            if q.links {
                for e in mesh.links_from(poly) {
                    self.take_off(mesh, q, idx, n.root, n.g, e);
                }
            }
            for j in 0..m {
                let (from, to) = (End::Vertex(id(j)), End::Vertex(id(j + 1)));
                self.successor(mesh, q, idx, poly, slot(j), n.root, n.g, from, to);
            }
            return;
        }
        // Otherwise the root lies strictly on the far side of the entry edge (by construction).
        let (a, b) = (mesh.vertex(a_id), mesh.vertex(b_id));
        let rl = n.right_line;
        let ll = n.left_line;
        let (rp, rq) = (Self::point(mesh, q, rl[0]), Self::point(mesh, q, rl[1]));
        let (lp, lq) = (Self::point(mesh, q, ll[0]), Self::point(mesh, q, ll[1]));
        // Does the interval end exactly at the entry edge's vertices? (Exact: the cone's sides
        // are lines through stored points.)
        let a_on_right = rl[1] == a_id.0 || orient(rp, rq, a).is_collinear();
        let b_on_left = ll[1] == b_id.0 || orient(lp, lq, b).is_collinear();
        let right_turn = a_on_right && is_corner(mesh, q, a_id);
        let left_turn = b_on_left && is_corner(mesh, q, b_id);
        if goal_here {
            let t = q.goal;
            let sr = orient(rp, rq, t);
            let sl = orient(lp, lq, t);
            if sr != Orientation::Clockwise && sl != Orientation::CounterClockwise {
                // Visible: nothing through this polygon can beat the straight line (but a
                // link somewhere may).
                self.final_node(mesh, q, idx, n.root, n.g);
                if !q.links {
                    return;
                }
            } else if sr == Orientation::Clockwise {
                if right_turn {
                    self.final_node(mesh, q, idx, a_id.0, n.g + dist(r, a));
                }
            } else if left_turn {
                self.final_node(mesh, q, idx, b_id.0, n.g + dist(r, b));
            }
        }
        if q.links {
            // Link take-offs in this polygon, reached like the goal: straight from the root
            // when the cone holds them, else around the corner on their side.
            for e in mesh.links_from(poly) {
                let sr = orient(rp, rq, e.from);
                let sl = orient(lp, lq, e.from);
                if sr != Orientation::Clockwise && sl != Orientation::CounterClockwise {
                    self.take_off(mesh, q, idx, n.root, n.g, e);
                } else if sr == Orientation::Clockwise {
                    if right_turn {
                        self.take_off(mesh, q, idx, a_id.0, n.g + dist(r, a), e);
                    }
                } else if left_turn {
                    self.take_off(mesh, q, idx, b_id.0, n.g + dist(r, b), e);
                }
            }
        }
        // Where the right side leaves the polygon: far edge `er`, from `pr` (a vertex, or where
        // the right line cuts the edge).
        let mut j = 1;
        let mut side = orient(rp, rq, c(1));
        while j < m && side == Orientation::Clockwise {
            j += 1;
            side = orient(rp, rq, c(j));
        }
        let (er, pr) = match side {
            Orientation::Collinear => (j, End::Vertex(id(j))),
            Orientation::CounterClockwise => {
                if j == 1 && a_on_right {
                    (0, End::Vertex(id(0)))
                } else {
                    (j - 1, End::Cut(rl))
                }
            }
            // Even b is right of the cone: nothing observable.
            Orientation::Clockwise => (m, End::Vertex(id(m))),
        };
        // Where the left side leaves: far edge `el1 - 1`, up to `pl`.
        let mut j = m - 1;
        let mut side = orient(lp, lq, c(j));
        while j > 0 && side == Orientation::CounterClockwise {
            j -= 1;
            side = orient(lp, lq, c(j));
        }
        let (el1, pl) = match side {
            Orientation::Collinear => (j, End::Vertex(id(j))),
            Orientation::Clockwise => {
                if j + 1 == m && b_on_left {
                    (m, End::Vertex(id(m)))
                } else {
                    (j + 1, End::Cut(ll))
                }
            }
            Orientation::CounterClockwise => (0, End::Vertex(id(0))),
        };
        // Observable successors: far edges er ..= el1 - 1, keeping the root. None is empty: two
        // distinct lines through the root meet an edge that misses the root at distinct points.
        for j in er..el1 {
            let from = if j == er { pr } else { End::Vertex(id(j)) };
            let to = if j + 1 == el1 {
                pl
            } else {
                End::Vertex(id(j + 1))
            };
            self.successor(mesh, q, idx, poly, slot(j), n.root, n.g, from, to);
        }
        // Non-observable successors: turn at a corner that ends the interval. The side facing
        // the old cone is the old cone's side, which passes through the corner.
        // (The turn's `g` costs a square root, so it is computed only when the turn has a
        // successor.)
        if right_turn && (er > 0 || (er < m && matches!(pr, End::Cut(_)))) {
            let g = n.g + dist(r, a);
            for j in 0..er.min(m) {
                let (from, to) = (End::Vertex(id(j)), End::Vertex(id(j + 1)));
                self.successor(mesh, q, idx, poly, slot(j), a_id.0, g, from, to);
            }
            if er < m && matches!(pr, End::Cut(_)) {
                let from = End::Vertex(id(er));
                self.successor(mesh, q, idx, poly, slot(er), a_id.0, g, from, End::Cut(rl));
            }
        }
        if left_turn && (el1 < m || (el1 >= 1 && matches!(pl, End::Cut(_)))) {
            let g = n.g + dist(r, b);
            if el1 >= 1 && matches!(pl, End::Cut(_)) {
                let to = End::Vertex(id(el1));
                self.successor(
                    mesh,
                    q,
                    idx,
                    poly,
                    slot(el1 - 1),
                    b_id.0,
                    g,
                    End::Cut(ll),
                    to,
                );
            }
            for j in el1..m {
                let (from, to) = (End::Vertex(id(j)), End::Vertex(id(j + 1)));
                self.successor(mesh, q, idx, poly, slot(j), b_id.0, g, from, to);
            }
        }
    }

    /// Rebuilds the path through node `idx` (a final node, or any node for a partial path),
    /// ending at `end` (the goal, or a point its root sees).
    fn path_to(&self, mesh: &NavMesh, idx: u32, q: &Query, expanded: usize, end: Vec2) -> Path {
        let mut points = vec![end];
        let mut channel: Vec<PolyId> = Vec::new();
        // Links taken, as (directed link edge, index of its take-off point in `points`), which
        // is built backwards.
        let mut links: Vec<(usize, usize)> = Vec::new();
        let mut last_root = NONE - 2;
        let mut i = idx;
        while i != NONE {
            let n = &self.nodes[i as usize];
            if n.root != last_root {
                let p = Self::root_point(mesh, q, n.root);
                // A take-off point always gets its own entry, right before its landing point
                // (a zero-length link is still a link segment).
                if points.last() != Some(&p) || n.entry == TAKEOFF {
                    points.push(p);
                }
                if n.entry == TAKEOFF {
                    let j = (n.root as usize - mesh.vertex_count()) / 2;
                    links.push((j, points.len() - 1));
                }
                last_root = n.root;
            }
            // (A landing node names one polygon holding the landing point; the origin node after
            // it names the one the path goes on in.)
            if n.entry != LANDING && channel.last() != Some(&PolyId(n.poly)) {
                channel.push(PolyId(n.poly));
            }
            i = n.parent;
        }
        points.reverse();
        channel.reverse();
        let last = points.len() - 1;
        let links = links
            .iter()
            .rev()
            .map(|&(j, at)| LinkTraversal {
                link: LinkId((j / 2) as u32),
                segment: last - at,
                reversed: j % 2 == 1,
            })
            .collect();
        Path {
            length: Path::polyline_length(&points),
            points,
            channel,
            expanded,
            status: PathStatus::Complete,
            links,
        }
    }
}

/// How the A* loop ended.
enum Outcome {
    /// A final node was popped: the path ends there.
    Found(u32),
    /// The open list ran empty: the goal is unreachable.
    Exhausted,
    /// The expansion budget ran out first.
    Limited,
}

/// One end of a successor's interval: a mesh vertex, or where a cone side (a line through
/// stored points) cuts the edge.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum End {
    Vertex(u32),
    Cut([u32; 2]),
}

impl End {
    /// The cone side through this end, seen from `root`.
    #[inline]
    fn line(self, root: u32) -> [u32; 2] {
        match self {
            End::Vertex(v) => [root, v],
            End::Cut(l) => l,
        }
    }
}

/// The start and goal as the search sees them.
struct Query<'a> {
    start: Vec2,
    goal: Vec2,
    landmarks: Option<&'a Landmarks>,
    /// The mesh's bridges and the components of the goal's polygons (`None` in one-to-all mode).
    dead_ends: Option<(&'a DeadEnds, [u32; 2])>,
    /// Polygons closed for this query ([`SearchOptions::filter`]), when any are.
    filter: Option<&'a PolygonFilter>,
    /// The mesh has off-mesh links (and this is not one-to-all mode): take-offs, landings and
    /// the link-aware heuristic are on.
    links: bool,
}

/// Directed link edge `j` of the mesh (link `j / 2`, taken backwards when `j` is odd): its
/// take-off point, landing point and cost.
#[inline]
fn link_end(mesh: &NavMesh, j: usize) -> (Vec2, Vec2, f64) {
    let l = &mesh.links()[j / 2];
    if j.is_multiple_of(2) {
        (l.from, l.to, l.cost)
    } else {
        (l.to, l.from, l.cost)
    }
}

/// `a − b` lowered by [`LANDMARK_SLACK`] of the magnitudes: a lower bound on a true difference
/// of distances that `a` and `b` approximate (NaN or infinite where they are).
#[inline]
fn lower_bound(a: f64, b: f64) -> f64 {
    (a - b) - LANDMARK_SLACK * (a.abs() + b.abs())
}

/// `true` when `v` touches a wall: of the mesh, or of a polygon closed for this query (a vertex
/// of a closed polygon with an open one around it touches an edge between the two).
#[inline]
fn is_corner(mesh: &NavMesh, q: &Query, v: VertexId) -> bool {
    mesh.is_corner(v)
        || q.filter
            .is_some_and(|f| mesh.vertex_polygons(v).iter().any(|&p| f.is_excluded(p)))
}

/// `i mod n` for `i < 2n` without a division (a fifth of an expansion's time with `%`).
#[inline(always)]
fn wrap(i: usize, n: usize) -> usize {
    if i >= n {
        i - n
    } else {
        i
    }
}

/// Euclidean distance without `hypot`'s overflow guard (a fifth of the search time with it);
/// mesh coordinates are far from the range where squaring overflows.
#[inline]
fn dist(a: Vec2, b: Vec2) -> f64 {
    let (dx, dy) = (a.x - b.x, a.y - b.y);
    (dx * dx + dy * dy).sqrt()
}

/// Where the ray from `r` through `x` leaves through the segment `p q` (which it crosses).
#[inline]
fn ray_exit(r: Vec2, x: Vec2, p: Vec2, q: Vec2) -> Vec2 {
    match line_intersection_t(p, q, r, x) {
        Some(t) => p.lerp(q, t.clamp(0.0, 1.0)),
        // Parallel: cannot happen for a segment whose ends lie on both sides of the ray.
        None => p,
    }
}

/// The paper's heuristic: the shortest `r → p → t` over `p` in the interval `[right, left]`,
/// with `t` mirrored across the interval's line when it is on the root's side.
#[inline]
fn interval_h(r: Vec2, right: Vec2, left: Vec2, t: Vec2) -> f64 {
    let side_t = orient(right, left, t);
    let d = left - right;
    let len2 = d.dot(d);
    // (A sliver interval may round to a point: then there is no line to mirror across.)
    let t = if len2 > 0.0 && side_t != Orientation::Collinear && side_t == orient(right, left, r) {
        let foot = right + d * ((t - right).dot(d) / len2);
        foot * 2.0 - t
    } else {
        t
    };
    if orient(r, right, t) == Orientation::Clockwise {
        dist(r, right) + dist(right, t)
    } else if orient(r, left, t) == Orientation::CounterClockwise {
        dist(r, left) + dist(left, t)
    } else {
        dist(r, t)
    }
}

/// Calls `f` for every polygon holding a located point.
fn for_each_polygon(mesh: &NavMesh, loc: Location, mut f: impl FnMut(PolyId)) {
    match loc {
        Location::InPolygon(p) => f(p),
        Location::OnEdge {
            polygon, neighbour, ..
        } => {
            f(polygon);
            if let Some(n) = neighbour {
                f(n);
            }
        }
        Location::OnVertex { vertex, .. } => {
            for &p in mesh.vertex_polygons(vertex) {
                f(p);
            }
        }
        Location::Outside => {}
    }
}

/// `true` for a point exactly on a pinch vertex ([`NavMesh::is_pinch`]).
fn is_pinch(mesh: &NavMesh, loc: Location) -> bool {
    matches!(loc, Location::OnVertex { vertex, .. } if mesh.is_pinch(vertex))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Snap;

    /// A U-shaped corridor around the block [1, 2] × [0, 2] (left arm A, top B, right arm C), and
    /// a separate square D at x ∈ [10, 11].
    fn u_mesh() -> NavMesh {
        let v = [
            (0.0, 0.0),
            (1.0, 0.0),
            (1.0, 2.0),
            (2.0, 2.0),
            (2.0, 0.0),
            (3.0, 0.0),
            (3.0, 3.0),
            (0.0, 3.0),
            (0.0, 2.0),
            (3.0, 2.0),
            (10.0, 0.0),
            (11.0, 0.0),
            (11.0, 1.0),
            (10.0, 1.0),
        ];
        let polys = vec![
            vec![0, 1, 2, 8],
            vec![8, 2, 3, 9, 6, 7],
            vec![4, 5, 9, 3],
            vec![10, 11, 12, 13],
        ];
        NavMesh::from_polygons(v.iter().map(|&p| p.into()).collect(), polys).unwrap()
    }

    fn find(m: &NavMesh, s: (f64, f64), g: (f64, f64)) -> Result<Path, PathError> {
        ExactSearch::new().find_path(m, s.into(), g.into(), &SearchOptions::default())
    }

    fn h(x: f64, y: f64) -> f64 {
        x.hypot(y)
    }

    #[test]
    fn around_the_block_from_polygon_to_polygon() {
        let p = find(&u_mesh(), (0.5, 0.5), (2.5, 0.5)).unwrap();
        assert_eq!(
            p.points,
            vec![
                Vec2::new(0.5, 0.5),
                Vec2::new(1.0, 2.0),
                Vec2::new(2.0, 2.0),
                Vec2::new(2.5, 0.5)
            ]
        );
        assert!((p.length - (2.0 * h(0.5, 1.5) + 1.0)).abs() < 1e-12);
        assert_eq!(p.channel, vec![PolyId(0), PolyId(1), PolyId(2)]);
        assert!(p.expanded > 0);
    }

    #[test]
    fn same_polygon_and_same_point() {
        let m = u_mesh();
        let p = find(&m, (0.2, 0.2), (0.8, 1.9)).unwrap();
        assert_eq!(p.points.len(), 2);
        assert_eq!(p.expanded, 0);
        assert_eq!(p.channel, vec![PolyId(0)]);
        let p = find(&m, (0.2, 0.2), (0.2, 0.2)).unwrap();
        assert_eq!(p.points, vec![Vec2::new(0.2, 0.2)]);
        assert_eq!(p.length, 0.0);
        // On a shared vertex: the same point is in every polygon around it.
        let p = find(&m, (1.0, 2.0), (1.0, 2.0)).unwrap();
        assert_eq!(p.length, 0.0);
    }

    #[test]
    fn start_on_a_corner_vertex() {
        // (1, 2): the path runs along the wall y = 2, whose next edge is a portal seen edge-on.
        let p = find(&u_mesh(), (1.0, 2.0), (2.5, 0.5)).unwrap();
        assert!(
            (p.length - (1.0 + h(0.5, 1.5))).abs() < 1e-12,
            "{:?}",
            p.points
        );
        assert_eq!(p.points[1], Vec2::new(2.0, 2.0));
    }

    #[test]
    fn start_on_a_portal_edge() {
        // (0.5, 2) lies on the portal between A and B.
        let p = find(&u_mesh(), (0.5, 2.0), (2.5, 0.5)).unwrap();
        assert!(
            (p.length - (1.5 + h(0.5, 1.5))).abs() < 1e-12,
            "{:?}",
            p.points
        );
    }

    #[test]
    fn start_on_a_wall_edge() {
        // (0, 1) lies on A's outer wall.
        let p = find(&u_mesh(), (0.0, 1.0), (3.0, 1.0)).unwrap();
        assert!(
            (p.length - 2.0 * h(1.0, 1.0) - 1.0).abs() < 1e-12,
            "{:?}",
            p.points
        );
    }

    #[test]
    fn goal_on_a_vertex_and_on_an_edge() {
        let m = u_mesh();
        let p = find(&m, (0.5, 0.5), (3.0, 3.0)).unwrap();
        assert!((p.length - (h(0.5, 1.5) + h(2.0, 1.0))).abs() < 1e-12);
        let p = find(&m, (0.5, 0.5), (2.0, 1.0)).unwrap(); // on C's wall
        assert!(
            (p.length - (h(0.5, 1.5) + 1.0 + 1.0)).abs() < 1e-12,
            "{:?}",
            p.points
        );
    }

    #[test]
    fn separate_components_have_no_path() {
        assert_eq!(
            find(&u_mesh(), (0.5, 0.5), (10.5, 0.5)),
            Err(PathError::NoPath)
        );
    }

    #[test]
    fn an_unreachable_goal_under_a_tiny_budget_is_still_a_partial_path() {
        // The walk to the nearest reachable point needs more than the budget: the budget's
        // partial path toward it (it used to be NoPath).
        // From the U's left arm toward the separate square: the nearest reachable point is at
        // the bottom of the right arm, round two corners.
        let u = u_mesh();
        let (s, g) = (Vec2::new(0.5, 0.5), Vec2::new(10.5, 0.5));
        let mut search = ExactSearch::new();
        let full = SearchOptions {
            allow_partial: true,
            ..SearchOptions::default()
        };
        let p = search.find_path(&u, s, g, &full).unwrap();
        assert_eq!(p.points.last(), Some(&Vec2::new(3.0, 0.5)));
        assert!(p.points.len() == 4 && !p.is_complete());
        for budget in [0, 1, 2] {
            let options = SearchOptions {
                allow_partial: true,
                max_expanded: Some(budget),
                ..SearchOptions::default()
            };
            let p = search.find_path(&u, s, g, &options).unwrap();
            assert_eq!(p.points[0], s);
            assert!(!p.is_complete(), "budget {budget}");
            let end = *p.points.last().unwrap();
            assert!(end.distance(g) <= s.distance(g));
        }
    }

    #[test]
    fn off_mesh_points_are_rejected_or_snapped() {
        let m = u_mesh();
        assert_eq!(
            find(&m, (1.5, 1.0), (2.5, 0.5)),
            Err(PathError::StartOffMesh(Vec2::new(1.5, 1.0)))
        );
        assert_eq!(
            find(&m, (0.5, 0.5), (5.0, 5.0)),
            Err(PathError::GoalOffMesh(Vec2::new(5.0, 5.0)))
        );
        assert!(matches!(
            find(&m, (f64::NAN, 0.0), (0.5, 0.5)),
            Err(PathError::NonFinite { which: "start", .. })
        ));
        let opts = SearchOptions {
            snap: Snap::Within(1.0),
            ..SearchOptions::default()
        };
        let p = ExactSearch::new()
            .find_path(&m, Vec2::new(1.2, 1.0), Vec2::new(2.5, 0.5), &opts)
            .unwrap();
        assert_eq!(p.points[0], Vec2::new(1.0, 1.0), "snapped to the wall");
    }

    #[test]
    fn a_pinch_end_takes_any_wedge_and_no_path_passes_a_pinch() {
        // Two unit squares touching only at (1, 1).
        let (v, polys) = crate::search::test_scenes::pinched_squares();
        let m = NavMesh::from_polygons(v, polys).unwrap();
        let d = 0.5f64.sqrt();
        assert_eq!(find(&m, (1.0, 1.0), (0.5, 0.5)).unwrap().length, d);
        assert_eq!(find(&m, (0.5, 0.5), (1.0, 1.0)).unwrap().length, d);
        assert_eq!(find(&m, (1.0, 1.0), (1.5, 1.5)).unwrap().length, d);
        assert_eq!(find(&m, (1.5, 1.5), (1.0, 1.0)).unwrap().length, d);
        assert_eq!(
            find(&m, (1.0, 1.0), (1.0, 1.0)).unwrap().points,
            [Vec2::new(1.0, 1.0)]
        );
        // The path may not squeeze through the pinch.
        assert_eq!(find(&m, (0.5, 0.5), (1.5, 1.5)), Err(PathError::NoPath));
        assert_eq!(find(&m, (1.5, 1.5), (0.0, 0.0)), Err(PathError::NoPath));
    }

    #[test]
    fn a_reused_context_answers_like_a_fresh_one() {
        let m = u_mesh();
        let queries = [
            ((0.5, 0.5), (2.5, 0.5)),
            ((2.9, 0.1), (0.1, 0.1)),
            ((0.5, 0.5), (10.5, 0.5)),
            ((1.0, 2.0), (2.0, 2.0)),
            ((0.1, 2.9), (2.5, 1.0)),
        ];
        let mut reused = ExactSearch::new();
        for _ in 0..3 {
            for &(s, g) in &queries {
                let a = reused.find_path(&m, s.into(), g.into(), &SearchOptions::default());
                assert_eq!(a, find(&m, s, g));
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// Closing polygons with a filter is the same as deleting them from the mesh: the exact
        /// search with the filter (and with landmarks built on the whole mesh, whose bound stays
        /// admissible: closing polygons only lengthens paths) answers like the exact search on
        /// the mesh of the open polygons alone.
        /// The same on a grid of unit squares, whose inner vertices touch no wall until a
        /// filter closes a square next to them: then the path may turn there.
        #[test]
        fn a_filter_on_a_grid_is_the_grid_without_the_closed_squares(
            closed_bits in proptest::prelude::any::<u64>(),
            queries in proptest::collection::vec(((0.0f64..6.0, 0.0f64..6.0), (0.0f64..6.0, 0.0f64..6.0)), 12),
        ) {
            use crate::search::PolygonFilter;
            use std::sync::Arc;
            const N: u32 = 6;
            let vertices: Vec<Vec2> = (0..=N)
                .flat_map(|y| (0..=N).map(move |x| Vec2::new(x as f64, y as f64)))
                .collect();
            let cell = |x: u32, y: u32| {
                let v = |x: u32, y: u32| y * (N + 1) + x;
                vec![v(x, y), v(x + 1, y), v(x + 1, y + 1), v(x, y + 1)]
            };
            let cells: Vec<Vec<u32>> = (0..N).flat_map(|y| (0..N).map(move |x| cell(x, y))).collect();
            // About a third of the squares closed.
            let closed = |i: usize| (closed_bits >> (i % 64)) & 1 == 1 && (closed_bits >> ((i + 17) % 64)) & 1 == 1;
            let mesh = NavMesh::from_polygons(vertices.clone(), cells.clone()).unwrap();
            let mut filter = PolygonFilter::new();
            let mut open = Vec::new();
            for (i, c) in cells.into_iter().enumerate() {
                if closed(i) {
                    filter.exclude(PolyId(i as u32));
                } else {
                    open.push(c);
                }
            }
            proptest::prop_assume!(!open.is_empty());
            let sub = NavMesh::from_polygons(vertices, open).unwrap();
            let filtered = SearchOptions {
                filter: Some(Arc::new(filter)),
                ..SearchOptions::default()
            };
            let mut search = ExactSearch::new();
            for ((sx, sy), (gx, gy)) in queries {
                let (s, g) = (Vec2::new(sx, sy), Vec2::new(gx, gy));
                let inside_open = |x: Vec2| matches!(mesh.locate(x), Location::InPolygon(p) if !closed(p.index()));
                if !(inside_open(s) && inside_open(g)) {
                    continue;
                }
                let want = search.find_path(&sub, s, g, &SearchOptions::default()).map(|p| p.length);
                let got = search.find_path(&mesh, s, g, &filtered).map(|p| p.length);
                match (want, got) {
                    (Ok(a), Ok(b)) => proptest::prop_assert!(
                        (a - b).abs() <= 1e-12 * a.max(1.0),
                        "{s} → {g}: {a} on the open squares, {b} with the filter"
                    ),
                    (a, b) => proptest::prop_assert_eq!(a, b),
                }
            }
        }

        #[test]
        fn a_filter_is_the_mesh_without_the_closed_polygons(
            scene in crate::search::test_scenes::random_scene(),
            closed_bits in proptest::prelude::any::<u64>(),
            queries in proptest::collection::vec(
                (crate::search::test_scenes::grid_point(), crate::search::test_scenes::grid_point()),
                10,
            ),
        ) {
            use crate::search::landmarks::Landmarks;
            use crate::search::PolygonFilter;
            use std::sync::Arc;
            let mesh = crate::search::test_scenes::mesh_of(&scene);
            let closed = |p: PolyId| (closed_bits >> (p.index() % 64)) & 1 == 1 && p.index().is_multiple_of(3);
            let mut filter = PolygonFilter::new();
            let open: Vec<Vec<u32>> = mesh
                .polygons()
                .filter(|&p| {
                    if closed(p) {
                        filter.exclude(p);
                    }
                    !closed(p)
                })
                .map(|p| mesh.polygon_vertices(p).iter().map(|v| v.0).collect())
                .collect();
            proptest::prop_assume!(!open.is_empty());
            let sub = NavMesh::from_polygons(mesh.vertices().to_vec(), open).unwrap();
            let filtered = SearchOptions {
                filter: Some(Arc::new(filter)),
                ..SearchOptions::default()
            };
            let with_landmarks = SearchOptions {
                landmarks: Some(Arc::new(Landmarks::build(&mesh, 3))),
                ..filtered.clone()
            };
            let mut search = ExactSearch::new();
            for (s, g) in queries {
                let inside_open = |x: Vec2| matches!(mesh.locate(x), Location::InPolygon(p) if !closed(p));
                if !(inside_open(s) && inside_open(g)) {
                    continue;
                }
                let want = search.find_path(&sub, s, g, &SearchOptions::default());
                for options in [&filtered, &with_landmarks] {
                    let got = search.find_path(&mesh, s, g, options);
                    match (&want, &got) {
                        (Ok(a), Ok(b)) => proptest::prop_assert!(
                            (a.length - b.length).abs() <= 1e-12 * a.length.max(1.0),
                            "{s} → {g}: {} on the open polygons, {} with the filter", a.length, b.length
                        ),
                        _ => proptest::prop_assert_eq!(&want.as_ref().map(|p| p.length), &got.as_ref().map(|p| p.length)),
                    }
                }
            }
        }
    }

    #[test]
    fn partial_paths_end_at_the_closest_reachable_point() {
        use crate::search::{PartialReason, PolygonFilter};
        let partial = SearchOptions {
            allow_partial: true,
            ..SearchOptions::default()
        };
        let mut search = ExactSearch::new();
        // A map cut in two by a wall: the point of the wall's face nearest the goal.
        let m = crate::search::test_scenes::split_map();
        let (a, b) = (Vec2::new(1.0, 1.0), Vec2::new(9.0, 7.0));
        assert_eq!(
            search.find_path(&m, a, b, &SearchOptions::default()),
            Err(PathError::NoPath)
        );
        let p = search.find_path(&m, a, b, &partial).unwrap();
        assert_eq!(p.status, PathStatus::Partial(PartialReason::Unreachable));
        assert_eq!(p.points, vec![a, Vec2::new(4.0, 7.0)]);
        // A reachable goal: the complete path, as without the option.
        let q = search
            .find_path(&m, a, Vec2::new(3.0, 9.0), &partial)
            .unwrap();
        assert!(q.is_complete());
        // The goal in a closed arm of the U: up the left arm and along the top, to the point of
        // the open top nearest the goal, turning at the corner (1, 2).
        let u = u_mesh();
        let mut filter = PolygonFilter::new();
        filter.exclude(PolyId(2));
        let closed = SearchOptions {
            filter: Some(std::sync::Arc::new(filter)),
            ..partial.clone()
        };
        let p = search
            .find_path(&u, Vec2::new(0.5, 0.5), Vec2::new(2.5, 1.0), &closed)
            .unwrap();
        assert_eq!(p.status, PathStatus::Partial(PartialReason::Unreachable));
        assert_eq!(*p.points.last().unwrap(), Vec2::new(2.5, 2.0));
        assert!(
            (p.length - (h(0.5, 1.5) + 1.5)).abs() < 1e-12,
            "{:?}",
            p.points
        );
        // A pocket closed off by an obstacle that touches both map sides: its nearest point to
        // the goal is where it touches the obstacle, a pinch vertex, reached from the pocket's
        // side (an end on a pinch may arrive through any of its wedges).
        let pocket = crate::search::test_scenes::mesh_of(
            &crate::scene::Scene::new(crate::geom::Aabb::new(Vec2::ZERO, Vec2::new(24.0, 24.0)))
                .with_obstacle([(0.0, 4.0), (4.0, 0.0), (0.0, 5.0)]),
        );
        let p = search
            .find_path(&pocket, Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0), &partial)
            .unwrap();
        assert_eq!(p.status, PathStatus::Partial(PartialReason::Unreachable));
        assert_eq!(p.points, [Vec2::new(0.0, 0.0), Vec2::new(4.0, 0.0)]);
        // Another island entirely: the nearest point of the start's own part.
        let p = search
            .find_path(&u, Vec2::new(0.5, 0.5), Vec2::new(10.5, 0.5), &partial)
            .unwrap();
        assert_eq!(*p.points.last().unwrap(), Vec2::new(3.0, 0.5));
    }

    #[test]
    fn a_search_limit_is_an_error_or_a_partial_path_toward_the_goal() {
        use crate::search::PartialReason;
        let m = crate::build::build(
            &crate::scene::Scene::default_map(),
            &crate::build::BuildOptions::trapezoid(),
        )
        .unwrap();
        let (a, b) = (
            crate::scene::Scene::DEFAULT_START,
            crate::scene::Scene::DEFAULT_GOAL,
        );
        let mut search = ExactSearch::new();
        let full = search
            .find_path(&m, a, b, &SearchOptions::default())
            .unwrap();
        assert!(full.expanded > 4);
        let limited = |max: usize, partial: bool| SearchOptions {
            max_expanded: Some(max),
            allow_partial: partial,
            ..SearchOptions::default()
        };
        assert_eq!(
            search.find_path(&m, a, b, &limited(4, false)),
            Err(PathError::SearchLimit { expanded: 4 })
        );
        // A budget that suffices changes nothing.
        let enough = search
            .find_path(&m, a, b, &limited(full.expanded, false))
            .unwrap();
        assert_eq!(enough, full);
        // Partial paths: valid (every segment on the mesh), marked, and never further from the
        // goal than the start; a larger budget gets at least as close.
        let mut last = f64::INFINITY;
        for max in [0, 1, 4, 16, full.expanded / 2] {
            let p = search.find_path(&m, a, b, &limited(max, true)).unwrap();
            assert_eq!(p.status, PathStatus::Partial(PartialReason::SearchLimit));
            let end = *p.points.last().unwrap();
            assert!(end.distance(b) <= a.distance(b));
            assert!(
                end.distance(b) <= last + 1e-9,
                "{max}: {} after {last}",
                end.distance(b)
            );
            last = end.distance(b);
            for w in p.points.windows(2) {
                let r = crate::search::raycast::raycast(&m, w[0], w[1]).unwrap();
                assert!(
                    r.is_clear() || r.t() > 1.0 - 1e-9,
                    "{max}: {w:?} hits a wall"
                );
            }
        }
        assert!(
            last < 0.75 * a.distance(b),
            "half the budget gets well on the way: {last}"
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

        /// With `allow_partial`, a reachable goal gives the same path; an unreachable one a
        /// partial path on the mesh that ends no further from the goal than it started.
        #[test]
        fn partial_paths_on_random_scenes(
            scene in crate::search::test_scenes::random_scene(),
            queries in proptest::collection::vec(
                (crate::search::test_scenes::grid_point(), crate::search::test_scenes::grid_point()),
                12,
            ),
        ) {
            let mesh = crate::search::test_scenes::mesh_of(&scene);
            let partial = SearchOptions { allow_partial: true, ..SearchOptions::default() };
            let mut search = ExactSearch::new();
            for (s, g) in queries {
                let plain = search.find_path(&mesh, s, g, &SearchOptions::default());
                let p = search.find_path(&mesh, s, g, &partial);
                match plain {
                    Err(PathError::NoPath) => {
                        let p = p.unwrap();
                        proptest::prop_assert!(!p.is_complete());
                        let (first, last) = (p.points[0], *p.points.last().unwrap());
                        proptest::prop_assert!(last.distance(g) <= first.distance(g) + 1e-9);
                        for x in &p.points {
                            proptest::prop_assert!(mesh.locate(*x) != Location::Outside);
                        }
                    }
                    other => proptest::prop_assert_eq!(other, p),
                }
                // Under a small budget too: a path (never NoPath for a reachable start), ending
                // no further from the goal than the start, every leg clear.
                for budget in [1, 3, 8] {
                    let opts = SearchOptions { max_expanded: Some(budget), ..partial.clone() };
                    let Ok(p) = search.find_path(&mesh, s, g, &opts) else {
                        proptest::prop_assert!(mesh.locate(s) == Location::Outside || mesh.locate(g) == Location::Outside);
                        continue;
                    };
                    let (first, last) = (p.points[0], *p.points.last().unwrap());
                    proptest::prop_assert!(last.distance(g) <= first.distance(g) + 1e-9,
                        "budget {}: {:?}", budget, p.points);
                    for w in p.points.windows(2) {
                        let clear = crate::search::raycast::raycast(&mesh, w[0], w[1]).is_ok_and(|r| r.is_clear());
                        proptest::prop_assert!(clear, "budget {}: leg {} -> {} of {:?}", budget, w[0], w[1], p.points);
                    }
                }
            }
        }
    }

    #[test]
    fn a_goal_only_in_closed_polygons_is_unreachable() {
        use crate::search::PolygonFilter;
        let m = u_mesh();
        let mut filter = PolygonFilter::new();
        filter.exclude(PolyId(2));
        let opts = SearchOptions {
            filter: Some(std::sync::Arc::new(filter)),
            ..SearchOptions::default()
        };
        let mut search = ExactSearch::new();
        // The goal is in the closed right arm.
        let r = search.find_path(&m, Vec2::new(0.5, 0.5), Vec2::new(2.5, 0.5), &opts);
        assert_eq!(r, Err(PathError::NoPath));
        // From inside the closed arm, the agent may still leave it.
        let p = search
            .find_path(&m, Vec2::new(2.5, 0.5), Vec2::new(0.5, 0.5), &opts)
            .unwrap();
        assert!((p.length - (2.0 * h(0.5, 1.5) + 1.0)).abs() < 1e-12);
        // A goal on the edge between the closed arm and the open top is reachable.
        let p = search
            .find_path(&m, Vec2::new(0.5, 0.5), Vec2::new(2.5, 2.0), &opts)
            .unwrap();
        assert!(p.length > 0.0);
    }

    #[test]
    fn heuristic_is_a_lower_bound() {
        let (r, right, left) = (
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(-1.0, 1.0),
        );
        // Goal beyond the interval and inside the cone: the straight line.
        assert_eq!(interval_h(r, right, left, Vec2::new(0.0, 5.0)), 5.0);
        // Outside the cone: through the nearer end.
        let t = Vec2::new(5.0, 2.0);
        assert_eq!(
            interval_h(r, right, left, t),
            r.distance(right) + right.distance(t)
        );
        // On the root's side: mirrored across the interval's line (y = 1).
        assert!((interval_h(r, right, left, Vec2::new(0.0, -3.0)) - 5.0).abs() < 1e-12);
    }
}
