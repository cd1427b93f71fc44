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
//! # Forced channels
//! Before any node is made, a query whose polygons are joined by a *forced* channel (every
//! polygon between them a 2-edge-connected component of its own: a chain with no cycle, so
//! every path crosses the same polygons in the same order) is answered by the funnel through
//! that channel, which is then the shortest path (`forced.rs`, with the paper it rests on).
//! Every query of a perfect maze is forced; so are those within the tree-shaped parts of other
//! maps. Not on meshes with links, nor under a polygon filter.
//!
//! # In sight
//! A query whose segment from start to goal is clear (an exact raycast reaches the goal) is
//! answered by that segment, the shortest of all curves, without a search (`sight.rs`). It is
//! tested after the forced channels and before any node is made; not on meshes with links nor
//! under a polygon filter.
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
//! pinch vertex has no landmark distance of its own, see [`landmarks`](crate::search::landmarks)).
//!
//! # Cost
//! Every node expansion is O(k) for a polygon of k vertices. The number of nodes is what A* with
//! a Euclidean heuristic explores: everything with `f` below the optimum, so it grows with the
//! detour a path must make; the dead-end pruning saves some, and [`SearchOptions::landmarks`]
//! (precomputed distances, see [`landmarks`](crate::search::landmarks)) raise the heuristic so
//! that it also bounds the detour still to come. Expansions, times and the ratios against the
//! `polyanya` crate on the same meshes and queries are in BENCHMARKS.md, with their commands.
//!
//! # Memory layout
//! On large meshes an expansion's time goes mostly to cache misses, so the search reads the mesh
//! through one record per polygon slot (`Crossing`, kept with the mesh's dead ends and built with
//! them on first use): the slot's vertex id and position, the polygon across, the slot of the
//! same edge there, a cul-de-sac flag and the bridge code. A polygon's records are contiguous, and
//! making a successor reads nothing of the polygon beyond. Per root, the stamp, best `g`, pinch
//! flag and landmark bound share one record; the goal's polygons are a short list, not a
//! per-polygon array. Figures: BENCHMARKS.md (issue 15).
//!
//! # Two instances of the core
//! Most queries use none of the options the core tests for at every node (links, filters,
//! landmarks, sweeps, one-to-all, a bound). The core's functions take `const PLAIN: bool`, and
//! `ExactSearch::is_plain` picks per query: the plain instance is compiled without those tests,
//! the general one is the same source with each test at run time. A property test asks both
//! for the same answers and expansions; BENCHMARKS.md ("Session 33") has what it saves.
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
//! # Sweeps and the corner search
//! A *sweep* is this search restricted to the nodes rooted at its start: it covers what one point
//! sees and records the corners where the search would turn. One sweep per corner builds the
//! [`CornerGraph`]; a corner query ([`SearchMethod::Corner`](crate::search::SearchMethod::Corner))
//! runs a sweep from each end in one A* and joins them through the graph (`sweep.rs`, and the
//! [`corner_graph`](crate::search::corner_graph) module docs).
//!
//! # One-to-all
//! [`ExactSearch::distances_from`] runs the same search from a vertex with no goal until the
//! open list is empty, recording at every interval end that is a vertex the length of the path
//! through the interval's root: the exact distance to every vertex, which the landmarks need. [`ExactSearch`] keeps its node pool, heap and per-vertex arrays
//! between queries (cleared lazily with a generation counter), so a query allocates only its
//! result once the buffers have grown.

mod expand;
mod forced;
mod heuristic;
mod links;
mod one_to_all;
mod partial;
mod sight;
mod sweep;
#[cfg(test)]
mod tests;

use crate::geom::dist;
pub(crate) use expand::for_each_polygon;
use expand::*;
use heuristic::lower_bound;
use links::*;
#[cfg(test)]
pub(crate) use sweep::between_on_fan;
pub(crate) use sweep::{channel_along, channel_through, segment_channel, ChannelBuffers};

use super::corner_graph::{CornerGraph, ViewAnswer, ViewScratch};
use super::endpoint::{locate_endpoint, EndpointRole};
use super::landmarks::Landmarks;
use super::open::Open;
use super::{LinkTraversal, Path, PathError, PathStatus, PolygonFilter, SearchOptions};
use crate::geom::{
    closest_point_on_segment, line_intersection_t, on_segment, orient, Orientation, Vec2,
};
use crate::mesh::dead_ends::{Crossing, DeadEnds};
use crate::mesh::{LinkEdge, LinkId, Location, NavMesh, PolyId, VertexId};
use std::collections::BinaryHeap;

/// Relative slack of root-level pruning: a node rooted at a corner is dropped when its `g`
/// exceeds the best `g` known for that corner by more than this fraction. Pruning less only costs
/// time, never optimality; the slack keeps two routes of equal length that round differently.
pub(crate) const ROOT_PRUNE_SLACK: f64 = 1e-12;

/// How much a landmark bound `a − b` is lowered before use, relative to `|a| + |b|`: the
/// distances are sums of rounded square roots (relative error about the number of segments times
/// 1.1e-16), and their difference could otherwise exceed the true distance by that much and make
/// the search return a path longer than the optimum by as much. The margin scales with the
/// distances subtracted, not with the difference, which may be tiny near the goal.
pub(crate) const LANDMARK_SLACK: f64 = 1e-11;

const NONE: u32 = u32::MAX;
/// The longest goal-polygon list [`ExactSearch::is_goal`] scans.
const FEW_GOALS: usize = 8;
/// Root id of the start point (roots are otherwise vertex ids).
const START: u32 = u32::MAX;
/// Root id of the goal, for the nodes of a corner query's goal sweep.
const GOAL: u32 = u32::MAX - 1;
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
/// `entry` of a corner-graph node (corner search): its root is a corner, expanded over the
/// graph's edges ([`CornerGraph`]).
const CORNER: u32 = u32::MAX - 5;
/// The smallest `entry` that is not an edge slot (nodes from here up are not intervals).
const SPECIAL: u32 = CORNER;

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

/// A reusable context for exact queries (used by [`PathFinder`](crate::search::PathFinder) for
/// [`SearchMethod::Exact`](crate::search::SearchMethod::Exact)). `PathFinder` is the public entry
/// point; it applies the corner offset, which this does not.
#[derive(Clone, Debug, Default)]
pub(crate) struct ExactSearch {
    nodes: Vec<Node>,
    heap: BinaryHeap<Open>,
    /// Successors of the node being expanded (indices into `nodes`).
    succ: Vec<u32>,
    generation: u32,
    /// Per root (vertex, then link ends): generation stamp, best `g` for root-level pruning,
    /// and the landmark bound, in one record (one cache line read per root, not three).
    roots: Vec<RootRecord>,
    /// Per polygon: generation stamp when it holds the goal.
    goal_stamp: Vec<u32>,
    /// The polygons holding the goal in this query, when there are at most [`FEW_GOALS`]
    /// (almost always one or two): [`ExactSearch::is_goal`] scans this instead of reading
    /// `goal_stamp`, a cache miss per expansion on a large mesh. Longer lists are not kept
    /// (`goal_many`), and `goal_stamp` answers.
    goal_polys: Vec<u32>,
    goal_many: bool,
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
    /// Scratch for [`ExactSearch::prepare_links`]: the shortcut edges (see [`link_end`]) with
    /// their direct bound `cost + |landing goal|`, the [`LINK_BOUND_EDGES`] least first.
    link_pick: Vec<(f64, u32)>,
    /// Scratch for [`ExactSearch::prepare_links`]: per picked edge, `D(landing)` as the
    /// Dijkstra over the picked edges settles it.
    link_bound: Vec<f64>,
    /// Scratch for [`ExactSearch::prepare_links`]: picked edges whose bound is final.
    link_settled: Vec<bool>,
    /// The picked directed link edges that can lower the heuristic, by increasing bound (so
    /// the per-node loop stops at the first bound that cannot); at most [`LINK_BOUND_EDGES`].
    link_order: Vec<(f64, u32)>,
    /// A lower bound on the cost to the goal through any shortcut edge that was not picked:
    /// the heuristic never exceeds it (infinite when every shortcut was picked).
    link_cap: f64,
    /// Inside [`ExactSearch::unreachable`]'s search for the nearest reachable point: the query's
    /// own goal, for the partial path of an exhausted budget.
    rerun_goal: Option<Vec2>,
    /// Sweep mode (corner search, see `sweep.rs`): what happens to a successor rooted at a
    /// corner other than the sweep's own root.
    sweep: Sweep,
    /// Per vertex: stamp and least distance at which the current sweep saw it as a corner to
    /// turn at (`Sweep::Collect`); during a corner query, the goal sweep's distances to the goal.
    seen_stamp: Vec<u32>,
    seen_g: Vec<f64>,
    /// The corners the current `Sweep::Collect` sweep saw, in order of first sight.
    seen: Vec<u32>,
    /// Per node of the last corner sweep, the index of its cone (`ExactSearch::swept_cones`).
    cone_of: Vec<u32>,
    /// Per vertex, during a corner query: stamp, best `g` of a corner node, and its heuristic.
    corner_stamp: Vec<u32>,
    corner_g: Vec<f64>,
    corner_h: Vec<f64>,
    /// Per vertex, during a corner query: the node holding its best `g` (valid with
    /// `corner_stamp`).
    corner_node: Vec<u32>,
    /// During a corner query on a graph with hub labels: per hub, the least distance from it
    /// to the goal through a corner that sees the goal (infinite where unknown), and the hubs
    /// set (to reset them).
    hub_t: Vec<f64>,
    hub_touched: Vec<u32>,
    /// The best final node queued so far (bounded corner queries stop on it).
    best_final_node: u32,
    /// The least `f` open when a bounded corner query stopped early (`Path::bound` is the
    /// length's ratio to it); NaN when the path was popped, so proved shortest.
    lower_bound: f64,
    /// Scratch of a corner query answered from the graph's views.
    views: ViewScratch,
    /// Scratch of a query answered through a forced channel (`forced.rs`).
    forced: forced::ForcedScratch,
    /// Tests only: run plain queries through the general core (`PLAIN` false), to check that
    /// the plain one gives the same answers ([`ExactSearch::is_plain`]).
    #[cfg(test)]
    force_general: bool,
    /// Scratch of a query whose goal is in sight (`sight.rs`).
    sight: sight::SightScratch,
}

/// Per root of [`ExactSearch`]: valid when `stamp` is the current generation.
#[derive(Copy, Clone, Debug, Default)]
struct RootRecord {
    /// Generation in which `g` and `alt` were set.
    stamp: u32,
    /// The root is a pinch vertex ([`NavMesh::is_pinch`]): never pruned (`g` stays infinite).
    pinch: bool,
    /// The best `g` the root was reached with (root-level pruning).
    g: f64,
    /// Its landmark bound in this query, NaN until computed.
    alt: f64,
}

/// What a sweep does with a successor that would turn at a corner (see `sweep.rs`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
enum Sweep {
    /// Plain Polyanya: the successor is made, rooted at the corner.
    #[default]
    Off,
    /// Record the corner and its distance (`seen_g`); make nothing.
    Collect,
    /// Corner query: make a corner-graph node rooted there instead.
    Corners,
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
    /// Dead-end pruning: the components of the goal's polygons (`None` in one-to-all mode,
    /// on meshes with links, and for a goal where more than two components meet); the bridges
    /// are `layout`'s.
    goal_parts: Option<[u32; 2]>,
    /// Polygons closed for this query ([`SearchOptions::filter`]), when any are.
    filter: Option<&'a PolygonFilter>,
    /// The mesh has off-mesh links (and this is not one-to-all mode): take-offs, landings and
    /// the link-aware heuristic are on.
    links: bool,
    /// Corner search: the corner graph that expands corner nodes.
    graph: Option<&'a CornerGraph>,
    /// Corner search: stop once the best path found is within `1 + epsilon` of the least `f`
    /// still open (0: exact).
    epsilon: f64,
    /// The mesh's per-slot records ([`Crossing`], kept with its dead ends), fetched once.
    layout: &'a DeadEnds,
    /// The path's channel is wanted ([`SearchOptions::channel`]).
    channel: bool,
}

impl Query<'_> {
    /// A search from `p` with no goal and no options (one-to-all and sweeps).
    fn from_point(mesh: &NavMesh, p: Vec2) -> Query<'_> {
        Query {
            layout: mesh.dead_ends(),
            start: p,
            goal: p,
            landmarks: None,
            goal_parts: None,
            filter: None,
            links: false,
            graph: None,
            epsilon: 0.0,
            channel: true,
        }
    }
}
