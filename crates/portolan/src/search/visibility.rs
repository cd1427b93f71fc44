//! The exact shortest path among polygonal obstacles, by visibility graph: slow, simple, and the
//! oracle every faster search is measured against.
//!
//! A shortest path through a polygonal domain is a polyline that bends only at obstacle corners
//! that stick out into free space: anywhere else it could be shortened (Lozano-Pérez and Wesley,
//! *An algorithm for planning collision-free paths among polyhedral obstacles*, CACM 1979). So
//! the graph whose nodes are those corners, the start and the goal, with an edge wherever two
//! nodes see each other, contains the shortest path, and Dijkstra's algorithm (here A* with the
//! straight-line distance, which changes only the speed) finds it.
//!
//! ```text
//!          c1 ┌──────┐ c2           nodes: S, G and the corners c1..c4;
//!      S ·    │██████│    · G       edges: every pair that sees each other
//!         ╲   │██████│   ╱          (S–c1, c1–c2, c2–G, S–c4, ...);
//!          ╲ c4└──────┘c3╱          the shortest path is S c4 c3 G or
//!           ╲___________╱           S c1 c2 G, whichever is shorter
//! ```
//!
//! # Free space
//! The walkable region is the bounds rectangle minus the obstacles, and a path must be a limit of
//! paths that keep strictly clear of every obstacle and of the map sides. So a path may touch a
//! corner or run along an edge (with free space on its other side), but it may not cross an
//! obstacle's interior, leave the bounds, squeeze through a *pinch point* where two obstacles (or
//! an obstacle and a map side) touch, nor slide along a zero-width *slit* between an obstacle
//! lying on a map side and that side. This is what a navigation mesh can represent (its portals
//! have positive length), so mesh paths and the oracle measure the same thing. Obstacles may be
//! any simple polygons (convex or not, either orientation) and may overlap or touch each other
//! and the map sides.
//!
//! # Visibility, exactly
//! A segment `p q` enters an obstacle's interior iff it properly crosses one of its edges, or it
//! leaves one of its *breakpoints* (`p`, or an obstacle vertex lying on the segment) into the
//! interior: between breakpoints it is wholly inside, wholly outside, or along an edge. At a
//! vertex `v` the test asks whether the direction toward `q` (or back toward `p`) lies strictly
//! inside the polygon's angle at `v`, two or three [`orient`] calls on input points, never on a
//! computed one. Where the segment touches an obstacle (a vertex on it, an edge along it, a map
//! side along it), the side of the segment the obstacle lies on is *blocked* there; a segment
//! blocked on both sides at one point of its interior passes a pinch point or a slit. Positions
//! along the segment are compared as coordinates of input points that lie exactly on its line,
//! so this is exact too. Collinear vertices, segments along edges and segments grazing a corner
//! all come out right without a tolerance.
//!
//! A corner is a node when the free directions around it include a reflex wedge (more than a
//! half turn): around a lone convex corner, everything outside the obstacle's angle; where
//! obstacles touch, only what is left outside all of their angles, and the path must arrive and
//! leave within that wedge. A path never needs to bend at a corner without one.
//!
//! # Cost
//! Building: O(c² n) for c corners and n obstacle edges (each pair of corners is checked against
//! the obstacles whose boxes meet the pair's box). A query: O(c n) to connect the start and the
//! goal, then A* in O(c² log c). Fine for the tens of obstacles of a test map; far too slow for a
//! game level, which is what navigation meshes are for.

use crate::geom::{
    on_segment, orient, point_in_polygon, same_ray, Aabb, Orientation, PointInPolygon, Vec2,
};
use crate::scene::{Scene, SceneError};
use crate::search::open::Open;
use crate::search::EndpointRole;
use std::collections::BinaryHeap;

/// Why [`VisibilityGraph::new`] refuses a scene.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum OracleError {
    /// The scene is invalid.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// The scene uses something the oracle does not model.
    #[error("the visibility graph does not model {0}")]
    Unsupported(&'static str),
}

/// Why [`VisibilityGraph::shortest_path`] has no answer; bad input and "no path" are distinct.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum VisibilityError {
    /// A query point is NaN or infinite.
    #[error("the {role} point {point} is not finite")]
    NonFinite {
        /// `"start"` or `"goal"`.
        role: EndpointRole,
        /// The point.
        point: Vec2,
    },
    /// A query point is outside the bounds.
    #[error("the {role} point {point} is outside the bounds")]
    OutsideBounds {
        /// `"start"` or `"goal"`.
        role: EndpointRole,
        /// The point.
        point: Vec2,
    },
    /// A query point is strictly inside an obstacle.
    #[error("the {role} point {point} is inside obstacle {obstacle}")]
    InsideObstacle {
        /// `"start"` or `"goal"`.
        role: EndpointRole,
        /// The point.
        point: Vec2,
        /// The obstacle's index in the scene.
        obstacle: usize,
    },
    /// Start and goal are in free space but not connected.
    #[error("no path: the goal cannot be reached from the start")]
    NoPath,
}

/// An exact shortest path.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ShortestPath {
    /// The polyline from start to goal: the start, the corners it bends at, the goal (a single
    /// point when start and goal coincide).
    pub points: Vec<Vec2>,
    /// Its Euclidean length.
    pub length: f64,
}

/// A corner node: the point, and the open sweep of directions it must not be left or entered
/// through: counter-clockwise from the ray toward `from` to the ray toward `to` (less than a
/// half turn, holding every obstacle angle at the corner).
#[derive(Copy, Clone, Debug)]
struct Corner {
    at: Vec2,
    from: Vec2,
    to: Vec2,
}

impl Corner {
    /// May a path arrive at or leave this corner along the ray toward `x`?
    #[inline]
    fn allows(&self, x: Vec2) -> bool {
        !(orient(self.at, self.from, x).is_ccw() && orient(self.at, x, self.to).is_ccw())
    }
}

/// The visibility graph of a scene, built once and queried many times (`Send + Sync`).
///
/// ```
/// use portolan::search::visibility::VisibilityGraph;
/// use portolan::{geom::Aabb, Scene, Vec2};
///
/// // A 2 × 2 block in the middle of a 10 × 10 map.
/// let scene = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(10.0, 10.0)))
///     .with_obstacle([(4.0, 4.0), (6.0, 4.0), (6.0, 6.0), (4.0, 6.0)]);
/// let graph = VisibilityGraph::new(&scene).unwrap();
/// let path = graph.shortest_path(Vec2::new(2.0, 5.0), Vec2::new(8.0, 5.0)).unwrap();
/// // Around two corners: √5 + 2 + √5.
/// assert!((path.length - (2.0 + 2.0 * 5f64.sqrt())).abs() < 1e-12);
/// assert_eq!(path.points.len(), 4);
/// ```
#[derive(Clone, Debug)]
pub struct VisibilityGraph {
    bounds: Aabb,
    /// The bounds as a counter-clockwise ring.
    frame: [Vec2; 4],
    /// Obstacles, counter-clockwise, in scene order (an outline touching itself split into its
    /// simple loops).
    rings: Vec<Vec<Vec2>>,
    /// The scene obstacle each ring comes from.
    ring_obstacle: Vec<usize>,
    ring_boxes: Vec<Aabb>,
    corners: Vec<Corner>,
    /// `adjacency[i]`: the corners corner `i` sees, with the distance.
    adjacency: Vec<Vec<(u32, f64)>>,
}

/// Splits a ring that visits a point more than once into loops that do not: walking the ring,
/// a point seen before closes the loop since its first visit.
fn split_at_touches(ring: Vec<Vec2>) -> Vec<Vec<Vec2>> {
    let mut loops = Vec::new();
    let mut path: Vec<Vec2> = Vec::with_capacity(ring.len());
    for p in ring {
        if let Some(k) = path.iter().position(|&q| q == p) {
            loops.push(path.split_off(k));
        }
        path.push(p);
    }
    loops.push(path);
    loops
}

/// Does the direction from vertex `v` toward `x` point strictly into the polygon's interior?
/// `u` and `w` are `v`'s neighbours on the counter-clockwise ring (interior on the left).
#[inline]
fn points_inside(u: Vec2, v: Vec2, w: Vec2, x: Vec2) -> bool {
    let left_of_out = orient(v, w, x).is_ccw();
    let left_of_in = orient(u, v, x).is_ccw();
    match orient(u, v, w) {
        // Convex corner: the interior is the wedge left of both edges.
        Orientation::CounterClockwise => left_of_out && left_of_in,
        // Reflex corner: the exterior is the wedge right of (or on) both edges.
        Orientation::Clockwise => left_of_out || left_of_in,
        // Straight on (a simple polygon has no spikes): the interior is the half-plane on the left.
        Orientation::Collinear => left_of_out,
    }
}

/// Positions along the directed segment `p → q`, for points exactly on its line: one coordinate,
/// negated if needed, so that it grows from `p` to `q`. Exact.
#[derive(Copy, Clone, Debug)]
struct Along {
    use_x: bool,
    sign: f64,
}

impl Along {
    fn new(p: Vec2, q: Vec2) -> Along {
        let d = q - p;
        let use_x = d.x.abs() >= d.y.abs();
        let grows = if use_x { q.x > p.x } else { q.y > p.y };
        Along {
            use_x,
            sign: if grows { 1.0 } else { -1.0 },
        }
    }
    #[inline]
    fn key(&self, x: Vec2) -> f64 {
        self.sign * if self.use_x { x.x } else { x.y }
    }
}

/// A stretch `[lo, hi]` (positions along the segment) where the side `left` (or right) of the
/// segment is blocked by an obstacle or the outside of the map.
#[derive(Copy, Clone, Debug)]
struct Blocked {
    left: bool,
    lo: f64,
    hi: f64,
}

/// Analyses the segment `p q` (`p != q`) against the counter-clockwise ring: `true` when it enters
/// the ring's interior; otherwise pushes the stretches where the ring blocks one side of it.
fn enters_or_blocks(ring: &[Vec2], p: Vec2, q: Vec2, along: Along, out: &mut Vec<Blocked>) -> bool {
    let n = ring.len();
    let (kp, kq) = (along.key(p), along.key(q));
    let mut p_is_vertex = false;
    for i in 0..n {
        let (u, a, b) = (ring[(i + n - 1) % n], ring[i], ring[(i + 1) % n]);
        let (oa, ob) = (orient(p, q, a), orient(p, q, b));
        // A proper crossing of edge a b: each segment has the other's ends strictly on opposite
        // sides, so the segment passes from one side of the edge to the other.
        if !oa.is_collinear() && ob == oa.reversed() {
            let op = orient(a, b, p);
            if !op.is_collinear() && orient(a, b, q) == op.reversed() {
                return true;
            }
        }
        if !oa.is_collinear() {
            continue;
        }
        // Edge a b along the segment's line: its interior (on its left) blocks one side where
        // the two overlap.
        if ob.is_collinear() {
            let (ka, kb) = (along.key(a), along.key(b));
            let (lo, hi) = (ka.min(kb).max(kp), ka.max(kb).min(kq));
            if lo < hi {
                out.push(Blocked {
                    left: kb > ka,
                    lo,
                    hi,
                });
            }
        }
        // Vertex a on the segment: a breakpoint.
        let ka = along.key(a);
        if ka < kp || ka > kq {
            continue;
        }
        p_is_vertex |= a == p;
        if (a != q && points_inside(u, a, b, q)) || (a != p && points_inside(u, a, b, p)) {
            return true;
        }
        if a != p && a != q {
            // The ring's angle at a touches the segment from one side (or both: a pinch).
            // (`ob` is already orient(p, q, b).)
            let ou = orient(p, q, u);
            if ou.is_ccw() || ob.is_ccw() {
                out.push(Blocked {
                    left: true,
                    lo: ka,
                    hi: ka,
                });
            }
            if ou.is_cw() || ob.is_cw() {
                out.push(Blocked {
                    left: false,
                    lo: ka,
                    hi: ka,
                });
            }
        }
    }
    if p_is_vertex {
        return false;
    }
    match point_in_polygon(ring, p) {
        PointInPolygon::Inside => true,
        PointInPolygon::Outside => false,
        // On the interior of exactly one edge: entering iff q is on the inner side of it.
        PointInPolygon::Boundary => (0..n).any(|i| {
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            on_segment(p, a, b) && orient(a, b, q).is_ccw()
        }),
    }
}

impl VisibilityGraph {
    /// Validates the scene and builds its visibility graph. Obstacles with walkable holes and a
    /// walkable boundary polygon are not modelled: such scenes are refused
    /// ([`OracleError::Unsupported`]) rather than answered wrongly.
    pub fn new(scene: &Scene) -> Result<VisibilityGraph, OracleError> {
        scene.validate()?;
        if scene.boundary.is_some() {
            return Err(OracleError::Unsupported("a boundary polygon"));
        }
        if !scene.holes.is_empty() {
            return Err(OracleError::Unsupported("obstacles with holes"));
        }
        // Counter-clockwise rings; an outline that visits a point twice (traced grid maps have
        // them) is split there into simple loops, which the corner and pinch tests understand
        // (they look at other rings at a shared point, not at the same ring again).
        let mut rings: Vec<Vec<Vec2>> = Vec::new();
        let mut ring_obstacle = Vec::new();
        for (i, r) in scene.obstacles.iter().enumerate() {
            let mut r = r.clone();
            if crate::geom::signed_area(&r) < 0.0 {
                r.reverse();
            }
            for part in split_at_touches(crate::geom::dedup_ring(r)) {
                if part.len() < 3 {
                    continue; // a spike out and back: no area
                }
                if crate::geom::signed_area(&part) <= 0.0 {
                    return Err(OracleError::Unsupported(
                        "an obstacle outline that touches itself around a free pocket",
                    ));
                }
                rings.push(part);
                ring_obstacle.push(i);
            }
        }
        let ring_boxes: Vec<Aabb> = rings
            .iter()
            // Loops of fewer than 3 vertices were dropped above.
            .map(|r| Aabb::from_points(r.iter().copied()).expect("≥ 3 vertices"))
            .collect();
        let mut graph = VisibilityGraph {
            bounds: scene.bounds,
            frame: scene.bounds.corners(),
            rings,
            ring_obstacle,
            ring_boxes,
            corners: Vec::new(),
            adjacency: Vec::new(),
        };
        for oi in 0..graph.rings.len() {
            for vi in 0..graph.rings[oi].len() {
                if let Some(c) = graph.corner_at(oi, vi) {
                    if !graph.corners.iter().any(|d| d.at == c.at) {
                        graph.corners.push(c);
                    }
                }
            }
        }
        let c = graph.corners.len();
        let mut adjacency = vec![Vec::new(); c];
        for i in 0..c {
            for j in i + 1..c {
                let (a, b) = (graph.corners[i], graph.corners[j]);
                if a.allows(b.at) && b.allows(a.at) && graph.visible(a.at, b.at) {
                    let d = a.at.distance(b.at);
                    adjacency[i].push((j as u32, d));
                    adjacency[j].push((i as u32, d));
                }
            }
        }
        graph.adjacency = adjacency;
        Ok(graph)
    }

    /// Vertex `vi` of obstacle `oi` as a graph node, if the free directions around it include a
    /// reflex wedge (see the module docs).
    fn corner_at(&self, oi: usize, vi: usize) -> Option<Corner> {
        let ring = &self.rings[oi];
        let n = ring.len();
        let (u, v, w) = (ring[(vi + n - 1) % n], ring[vi], ring[(vi + 1) % n]);
        if !orient(u, v, w).is_ccw() {
            return None; // reflex or straight: the obstacle takes at least a half turn
        }
        let b = self.bounds;
        if v.x == b.min.x || v.x == b.max.x || v.y == b.min.y || v.y == b.max.y {
            return None; // the outside of the map takes a half turn
        }
        // Every obstacle angle at v, as (from, to): counter-clockwise from ray v→from to v→to.
        let mut angles = vec![(w, u)];
        for (oj, other) in self.rings.iter().enumerate() {
            if oj == oi || !self.ring_boxes[oj].contains(v) {
                continue;
            }
            let m = other.len();
            for k in 0..m {
                let (a, c) = (other[k], other[(k + 1) % m]);
                if a == v {
                    let prev = other[(k + m - 1) % m];
                    if !orient(prev, a, c).is_ccw() {
                        return None;
                    }
                    angles.push((c, prev));
                } else if c != v && on_segment(v, a, c) {
                    return None; // v on the inside of an edge: a half turn
                }
            }
            if point_in_polygon(other, v) == PointInPolygon::Inside {
                return None; // buried
            }
        }
        // The angles must fit in one sweep of less than a half turn: find its two ends.
        let ends: Vec<Vec2> = angles.iter().flat_map(|&(f, t)| [f, t]).collect();
        let first = ends.iter().copied().find(|&r| {
            ends.iter().all(|&x| match orient(v, r, x) {
                Orientation::CounterClockwise => true,
                Orientation::Clockwise => false,
                Orientation::Collinear => same_ray(v, r, x),
            })
        })?;
        let last = ends.iter().copied().find(|&r| {
            ends.iter().all(|&x| match orient(v, r, x) {
                Orientation::Clockwise => true,
                Orientation::CounterClockwise => false,
                Orientation::Collinear => same_ray(v, r, x),
            })
        })?;
        orient(v, first, last).is_ccw().then_some(Corner {
            at: v,
            from: first,
            to: last,
        })
    }

    /// The graph's corner nodes: obstacle corners with a reflex wedge of free directions.
    pub fn corners(&self) -> impl ExactSizeIterator<Item = Vec2> + '_ {
        self.corners.iter().map(|c| c.at)
    }

    /// The number of corner-to-corner edges (each counted once).
    pub fn edge_count(&self) -> usize {
        self.adjacency.iter().map(Vec::len).sum::<usize>() / 2
    }

    /// Where `p` stands: `Ok` in the bounds and not strictly inside an obstacle (on an obstacle's
    /// boundary counts as free), otherwise why not.
    pub fn classify(&self, p: Vec2, role: EndpointRole) -> Result<(), VisibilityError> {
        if !p.is_finite() {
            return Err(VisibilityError::NonFinite { role, point: p });
        }
        if !self.bounds.contains(p) {
            return Err(VisibilityError::OutsideBounds { role, point: p });
        }
        match self
            .rings
            .iter()
            .zip(&self.ring_boxes)
            .position(|(r, b)| b.contains(p) && point_in_polygon(r, p) == PointInPolygon::Inside)
        {
            Some(ring) => Err(VisibilityError::InsideObstacle {
                role,
                point: p,
                obstacle: self.ring_obstacle[ring],
            }),
            None => Ok(()),
        }
    }

    /// `true` when a path may go straight from `a` to `b`: the segment stays in the bounds, out
    /// of every obstacle's interior, and through no pinch point or slit (see the module docs).
    /// Touching corners and running along edges is allowed. Exact.
    pub fn visible(&self, a: Vec2, b: Vec2) -> bool {
        if !(self.bounds.contains(a) && self.bounds.contains(b)) {
            return false; // the bounds are convex, so two inside points see each other
        }
        if a == b {
            return self.classify(a, EndpointRole::Start).is_ok();
        }
        let along = Along::new(a, b);
        let mut blocked = Vec::new();
        // The outside of the map blocks the outer side of a segment along a map side.
        for i in 0..4 {
            let (f0, f1) = (self.frame[i], self.frame[(i + 1) % 4]);
            if orient(f0, f1, a).is_collinear() && orient(f0, f1, b).is_collinear() {
                blocked.push(Blocked {
                    left: along.key(f1) < along.key(f0),
                    lo: along.key(a),
                    hi: along.key(b),
                });
            }
        }
        let seg = Aabb::new(a, b);
        for (ring, rb) in self.rings.iter().zip(&self.ring_boxes) {
            let apart = rb.min.x > seg.max.x
                || rb.max.x < seg.min.x
                || rb.min.y > seg.max.y
                || rb.max.y < seg.min.y;
            if !apart && enters_or_blocks(ring, a, b, along, &mut blocked) {
                return false;
            }
        }
        // A point strictly inside the segment blocked on both sides: a pinch point or a slit.
        let (ka, kb) = (along.key(a), along.key(b));
        !blocked.iter().filter(|l| l.left).any(|l| {
            blocked.iter().filter(|r| !r.left).any(|r| {
                let (lo, hi) = (l.lo.max(r.lo), l.hi.min(r.hi));
                lo <= hi && hi > ka && lo < kb
            })
        })
    }

    /// The shortest path from `start` to `goal` in free space, or why there is none.
    pub fn shortest_path(&self, start: Vec2, goal: Vec2) -> Result<ShortestPath, VisibilityError> {
        self.classify(start, EndpointRole::Start)?;
        self.classify(goal, EndpointRole::Goal)?;
        if start == goal {
            return Ok(ShortestPath {
                points: vec![start],
                length: 0.0,
            });
        }
        if self.visible(start, goal) {
            return Ok(ShortestPath {
                points: vec![start, goal],
                length: start.distance(goal),
            });
        }
        // Nodes: corners 0..c, then the start (c) and the goal (c + 1).
        let c = self.corners.len();
        let (s, g) = (c, c + 1);
        let node = |i: usize| match i {
            i if i < c => self.corners[i].at,
            i if i == s => start,
            _ => goal,
        };
        let sees_goal: Vec<bool> = self
            .corners
            .iter()
            .map(|k| k.allows(goal) && self.visible(k.at, goal))
            .collect();
        let mut search = Search::new(c + 2);
        search.seed(s, start.distance(goal));
        while let Some(cur) = search.pop() {
            if cur == g {
                break;
            }
            let here = node(cur);
            if cur == s {
                for (i, k) in self.corners.iter().enumerate() {
                    if k.allows(start) && self.visible(start, k.at) {
                        let d = start.distance(k.at);
                        search.relax(s, i, d, k.at.distance(goal));
                    }
                }
                continue;
            }
            for &(j, d) in &self.adjacency[cur] {
                let j = j as usize;
                search.relax(cur, j, d, self.corners[j].at.distance(goal));
            }
            if sees_goal[cur] {
                search.relax(cur, g, here.distance(goal), 0.0);
            }
        }
        if !search.closed[g] {
            return Err(VisibilityError::NoPath);
        }
        let mut points = vec![goal];
        let mut at = g;
        while search.parent[at] != u32::MAX {
            at = search.parent[at] as usize;
            points.push(node(at));
        }
        points.reverse();
        points.dedup();
        Ok(ShortestPath {
            length: crate::search::Path::polyline_length(&points),
            points,
        })
    }
}

/// A* state over node indices.
struct Search {
    dist: Vec<f64>,
    parent: Vec<u32>,
    closed: Vec<bool>,
    heap: BinaryHeap<Open>,
}

impl Search {
    fn new(n: usize) -> Search {
        Search {
            dist: vec![f64::INFINITY; n],
            parent: vec![u32::MAX; n],
            closed: vec![false; n],
            heap: BinaryHeap::new(),
        }
    }

    /// Opens node `n` at distance 0 with heuristic `h`.
    fn seed(&mut self, n: usize, h: f64) {
        self.dist[n] = 0.0;
        self.heap.push(Open::new(h, 0.0, n as u32));
    }

    /// Reaches `to` from `from` by a step of length `step`; `h` is `to`'s heuristic.
    fn relax(&mut self, from: usize, to: usize, step: f64, h: f64) {
        if self.closed[to] {
            return;
        }
        let d = self.dist[from] + step;
        if d < self.dist[to] {
            self.dist[to] = d;
            self.parent[to] = from as u32;
            self.heap.push(Open::new(d + h, d, to as u32));
        }
    }

    /// The open node with the least f, closed; `None` when none is left.
    fn pop(&mut self) -> Option<usize> {
        while let Some(top) = self.heap.pop() {
            let n = top.id() as usize;
            if !self.closed[n] {
                self.closed[n] = true;
                return Some(n);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{build, BuildOptions};
    use crate::random::{random_free_point, random_scene, RandomSceneOptions, Rng};
    use crate::search::{PathFinder, PortalPoint, SearchOptions};
    use proptest::prelude::*;

    fn v(x: f64, y: f64) -> Vec2 {
        Vec2::new(x, y)
    }

    fn map10() -> Scene {
        Scene::new(Aabb::new(Vec2::ZERO, v(10.0, 10.0)))
    }

    fn length(scene: &Scene, a: Vec2, b: Vec2) -> f64 {
        VisibilityGraph::new(scene)
            .unwrap()
            .shortest_path(a, b)
            .unwrap()
            .length
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0)
    }

    #[test]
    fn empty_map_is_a_straight_line() {
        let g = VisibilityGraph::new(&map10()).unwrap();
        let p = g.shortest_path(v(1.0, 1.0), v(9.0, 7.0)).unwrap();
        assert_eq!(p.points, vec![v(1.0, 1.0), v(9.0, 7.0)]);
        assert_eq!(p.length, 10.0);
        assert_eq!(g.corners().count(), 0);
        let p = g.shortest_path(v(3.0, 3.0), v(3.0, 3.0)).unwrap();
        assert_eq!((p.points, p.length), (vec![v(3.0, 3.0)], 0.0));
        // Along the map side is inside the bounds.
        assert_eq!(length(&map10(), v(0.0, 0.0), v(10.0, 0.0)), 10.0);
    }

    #[test]
    fn around_a_square() {
        let s = map10().with_obstacle([(4.0, 4.0), (6.0, 4.0), (6.0, 6.0), (4.0, 6.0)]);
        let g = VisibilityGraph::new(&s).unwrap();
        assert_eq!(g.corners().count(), 4);
        // The four sides, but not the diagonals through the square.
        assert_eq!(g.edge_count(), 4);
        let p = g.shortest_path(v(2.0, 5.0), v(8.0, 5.0)).unwrap();
        assert!(close(p.length, 2.0 + 2.0 * 5f64.sqrt()));
        assert!(
            p.points == vec![v(2.0, 5.0), v(4.0, 6.0), v(6.0, 6.0), v(8.0, 5.0)]
                || p.points == vec![v(2.0, 5.0), v(4.0, 4.0), v(6.0, 4.0), v(8.0, 5.0)]
        );
        // Grazing the top side: straight.
        assert_eq!(length(&s, v(2.0, 6.0), v(8.0, 6.0)), 6.0);
        // Diagonals: through the square, tangent at its corner (6, 6), clear of it.
        assert!(!g.visible(v(3.0, 7.0), v(7.0, 3.0)));
        assert!(g.visible(v(3.0, 9.0), v(9.0, 3.0)));
        assert!(g.visible(v(4.0, 9.0), v(9.0, 4.0)));
        // Starting on the obstacle's side, leaving it outward or along it.
        assert!(g.visible(v(5.0, 6.0), v(5.0, 9.0)));
        assert!(g.visible(v(5.0, 6.0), v(4.0, 6.0)));
        assert!(!g.visible(v(5.0, 6.0), v(5.0, 5.0)));
        assert!(
            !g.visible(v(4.0, 4.0), v(6.0, 6.0)),
            "a corner-to-corner diagonal"
        );
    }

    #[test]
    fn through_a_diamond_or_past_it() {
        let s = map10().with_obstacle([(5.0, 4.0), (6.0, 5.0), (5.0, 6.0), (4.0, 5.0)]);
        let g = VisibilityGraph::new(&s).unwrap();
        // Tangent at the top vertex.
        assert!(g.visible(v(0.0, 6.0), v(10.0, 6.0)));
        // Through two vertices and the interior between them.
        assert!(!g.visible(v(0.0, 5.0), v(10.0, 5.0)));
        let d = length(&s, v(0.0, 5.0), v(10.0, 5.0));
        assert!(close(d, 2.0 * 26f64.sqrt()), "{d}");
        // From one vertex along an edge, and out of a vertex away from the diamond.
        assert!(g.visible(v(4.0, 5.0), v(5.0, 6.0)));
        assert!(g.visible(v(4.0, 5.0), v(1.0, 5.0)));
        assert!(g.visible(v(4.0, 5.0), v(1.0, 8.0)));
        assert!(!g.visible(v(4.0, 5.0), v(5.5, 5.0)));
    }

    #[test]
    fn wall_from_the_border() {
        // A wall standing on the bottom side: the path goes over it.
        let s = map10().with_obstacle([(4.0, 0.0), (6.0, 0.0), (6.0, 8.0), (4.0, 8.0)]);
        let d = length(&s, v(2.0, 2.0), v(8.0, 2.0));
        assert!(close(d, 2.0 * 40f64.sqrt() + 2.0), "{d}");
        // Sliding along the bottom side toward the wall's foot.
        assert_eq!(length(&s, v(0.0, 0.0), v(4.0, 0.0)), 4.0);
        // A wall across the whole map leaves no way.
        let closed = map10().with_obstacle([(4.0, 0.0), (6.0, 0.0), (6.0, 10.0), (4.0, 10.0)]);
        let g = VisibilityGraph::new(&closed).unwrap();
        assert_eq!(
            g.shortest_path(v(2.0, 2.0), v(8.0, 2.0)),
            Err(VisibilityError::NoPath)
        );
        // ...but walking along its face is fine.
        assert_eq!(length(&closed, v(4.0, 1.0), v(4.0, 9.0)), 8.0);
    }

    #[test]
    fn collinear_corners_are_not_turns() {
        // The same wall with extra vertices in the middle of its long sides, clockwise.
        let s = map10().with_obstacle([
            (4.0, 0.0),
            (4.0, 4.0),
            (4.0, 8.0),
            (6.0, 8.0),
            (6.0, 4.0),
            (6.0, 0.0),
        ]);
        let g = VisibilityGraph::new(&s).unwrap();
        // The two top corners; the feet on the map side are no turning points.
        assert_eq!(g.corners().count(), 2);
        let d = length(&s, v(2.0, 2.0), v(8.0, 2.0));
        assert!(close(d, 2.0 * 40f64.sqrt() + 2.0), "{d}");
        // Along the face, through the collinear vertex.
        assert!(g.visible(v(4.0, 1.0), v(4.0, 9.0)));
        assert!(g.visible(v(4.0, 4.0), v(0.0, 4.0)));
        assert!(!g.visible(v(4.0, 4.0), v(5.0, 4.0)));
        // Two obstacles whose top sides are on one line: run along both.
        let s = map10()
            .with_obstacle([(1.0, 2.0), (3.0, 2.0), (3.0, 5.0), (1.0, 5.0)])
            .with_obstacle([(5.0, 1.0), (8.0, 1.0), (8.0, 5.0), (5.0, 5.0)]);
        assert_eq!(length(&s, v(0.0, 5.0), v(9.0, 5.0)), 9.0);
    }

    #[test]
    fn out_of_a_u_shaped_pocket() {
        let s = map10().with_obstacle([
            (2.0, 2.0),
            (8.0, 2.0),
            (8.0, 8.0),
            (6.0, 8.0),
            (6.0, 4.0),
            (4.0, 4.0),
            (4.0, 8.0),
            (2.0, 8.0),
        ]);
        let g = VisibilityGraph::new(&s).unwrap();
        // The two reflex corners (4, 4), (6, 4) are not nodes.
        assert_eq!(g.corners().count(), 6);
        let p = g.shortest_path(v(5.0, 6.0), v(5.0, 1.0)).unwrap();
        let expect = 5f64.sqrt() + 2.0 + 6.0 + 10f64.sqrt();
        assert!(close(p.length, expect), "{p:?}");
        assert_eq!(p.points.len(), 5);
        // Straight down the pocket, onto its floor.
        assert_eq!(length(&s, v(5.0, 9.0), v(5.0, 4.0)), 5.0);
        assert!(!g.visible(v(5.0, 9.0), v(5.0, 3.0)));
    }

    #[test]
    fn a_ring_touching_itself_is_its_loops() {
        // Two thin triangles touching at their tips (5, 5), as two rings and as one outline that
        // visits the tip twice (traced grid maps have such outlines): the same answers. (As one
        // ring, the tip's second visit was ignored: legs along the triangles were blocked, and
        // (2, 6.9) -> (8, 6.9) went the long way round, 9.795 instead of 9.679.)
        let two = map10()
            .with_obstacle([(5.0, 5.0), (1.0, 6.0), (1.0, 7.0)])
            .with_obstacle([(5.0, 5.0), (1.0, 8.0), (1.0, 9.0)]);
        let one = map10().with_obstacle([
            (5.0, 5.0),
            (1.0, 6.0),
            (1.0, 7.0),
            (5.0, 5.0),
            (1.0, 8.0),
            (1.0, 9.0),
        ]);
        let (g2, g1) = (
            VisibilityGraph::new(&two).unwrap(),
            VisibilityGraph::new(&one).unwrap(),
        );
        assert!(g1.visible(v(1.0, 6.0), v(5.0, 5.0)) && g1.visible(v(5.0, 5.0), v(8.0, 6.9)));
        for (a, b) in [
            (v(2.0, 6.9), v(8.0, 6.9)),
            (v(4.0, 3.0), v(4.0, 9.8)),
            (v(2.0, 7.1), v(9.0, 5.0)),
            (v(0.5, 6.5), v(3.0, 9.5)),
        ] {
            let (p2, p1) = (
                g2.shortest_path(a, b).unwrap(),
                g1.shortest_path(a, b).unwrap(),
            );
            assert!(
                close(p1.length, p2.length),
                "{a} -> {b}: one ring {p1:?}, two {p2:?}"
            );
        }
        assert!(close(
            g1.shortest_path(v(2.0, 6.9), v(8.0, 6.9)).unwrap().length,
            9.679_149_368_642_69
        ));
        // A point inside the second loop is inside obstacle 0, the scene's only one.
        assert!(matches!(
            g1.classify(v(1.5, 8.2), EndpointRole::Start),
            Err(VisibilityError::InsideObstacle { obstacle: 0, .. })
        ));
        // An outline closing on itself round a free pocket is refused, not answered wrongly.
        let pocket = map10().with_obstacle([
            (2.0, 2.0),
            (8.0, 2.0),
            (8.0, 8.0),
            (5.0, 8.0),
            (5.0, 6.0),
            (6.0, 6.0),
            (6.0, 4.0),
            (4.0, 4.0),
            (4.0, 6.0),
            (5.0, 6.0),
            (5.0, 8.0),
            (2.0, 8.0),
        ]);
        assert!(matches!(
            VisibilityGraph::new(&pocket),
            Err(OracleError::Unsupported(_))
        ));
    }

    #[test]
    fn pinch_points_are_closed() {
        // Two squares touching at (4, 4): the free space pinches to a point, which no path may
        // pass through (a mesh has no portal there either).
        let s = map10()
            .with_obstacle([(2.0, 2.0), (4.0, 2.0), (4.0, 4.0), (2.0, 4.0)])
            .with_obstacle([(4.0, 4.0), (6.0, 4.0), (6.0, 6.0), (4.0, 6.0)]);
        let g = VisibilityGraph::new(&s).unwrap();
        assert!(!g.visible(v(2.5, 5.5), v(5.5, 2.5)));
        assert!(!g.visible(v(2.5, 5.6), v(5.5, 2.5)));
        // To the pinch point and back out on the same side is fine.
        assert!(g.visible(v(2.5, 5.5), v(4.0, 4.0)));
        // Around either square instead: e.g. (3, 5) → (2, 4) → (2, 2) → (4, 2) → (5, 3).
        let d = g.shortest_path(v(3.0, 5.0), v(5.0, 3.0)).unwrap();
        assert!(close(d.length, 4.0 + 2.0 * 2f64.sqrt()), "{d:?}");
        // The shared corner has no reflex wedge of free directions: not a node.
        assert!(g.corners().all(|c| c != v(4.0, 4.0)));
        assert_eq!(g.corners().count(), 6);

        // Tips of two thin triangles touching: the corner is a node (the free wedge on the far
        // side is reflex), but a path may not use the narrow gap between the tips.
        let s = map10()
            .with_obstacle([(5.0, 5.0), (1.0, 6.0), (1.0, 7.0)])
            .with_obstacle([(5.0, 5.0), (1.0, 8.0), (1.0, 9.0)]);
        let g = VisibilityGraph::new(&s).unwrap();
        assert!(g.corners().any(|c| c == v(5.0, 5.0)));
        // From the gap between the triangles to the right: not through the tips, but out
        // through the open left end and around.
        let (a, b, tip) = (v(2.0, 6.9), v(8.0, 6.9), v(5.0, 5.0));
        assert!(
            g.visible(a, tip) && g.visible(tip, b),
            "both legs alone are clear"
        );
        let p = g.shortest_path(a, b).unwrap();
        assert!(
            p.points[1] == v(1.0, 7.0) || p.points[1] == v(1.0, 8.0),
            "{p:?}"
        );
        assert!(p.length > a.distance(tip) + tip.distance(b) + 1.0);
        // Around the joined tips on their open side: bends at the tip.
        let p = g.shortest_path(v(4.0, 3.0), v(4.0, 9.8)).unwrap();
        assert_eq!(p.points, vec![v(4.0, 3.0), tip, v(4.0, 9.8)]);
    }

    #[test]
    fn overlapping_obstacles() {
        // The corner buried inside the other square is not a node, and the path goes around
        // the union.
        let s = map10()
            .with_obstacle([(2.0, 2.0), (5.0, 2.0), (5.0, 5.0), (2.0, 5.0)])
            .with_obstacle([(4.0, 4.0), (7.0, 4.0), (7.0, 7.0), (4.0, 7.0)]);
        let g = VisibilityGraph::new(&s).unwrap();
        assert_eq!(g.corners().count(), 6);
        let d = g.shortest_path(v(1.0, 1.0), v(8.0, 8.0)).unwrap().length;
        // (1, 1) → (5, 2) → (7, 4) → (8, 8) = √17 + √8 + √17, or its mirror image.
        assert!(close(d, 2.0 * 17f64.sqrt() + 8f64.sqrt()), "{d}");
        // Along an edge of one square that runs inside the other: blocked.
        assert!(!g.visible(v(4.0, 4.5), v(4.0, 8.0)));
    }

    #[test]
    fn slits_along_the_map_side_are_closed() {
        let s = map10().with_obstacle([(4.0, 0.0), (6.0, 0.0), (6.0, 8.0), (4.0, 8.0)]);
        let g = VisibilityGraph::new(&s).unwrap();
        // Under the wall, between its foot and the map side: no.
        assert!(!g.visible(v(2.0, 0.0), v(8.0, 0.0)));
        assert!(!g.visible(v(4.0, 0.0), v(6.0, 0.0)));
        // Up to the foot along the map side: yes.
        assert!(g.visible(v(2.0, 0.0), v(4.0, 0.0)));
        // A diamond touching the bottom side at one vertex: a pinch point.
        let s = map10().with_obstacle([(5.0, 0.0), (6.0, 1.0), (5.0, 2.0), (4.0, 1.0)]);
        let g = VisibilityGraph::new(&s).unwrap();
        assert!(!g.visible(v(2.0, 0.0), v(8.0, 0.0)));
        let d = g.shortest_path(v(3.0, 0.0), v(7.0, 0.0)).unwrap().length;
        let over = v(3.0, 0.0).distance(v(4.0, 1.0)) * 2.0 + 2.0 * 2f64.sqrt();
        assert!(close(d, over), "{d} vs {over}");
    }

    #[test]
    fn bad_queries_are_named() {
        let s = map10().with_obstacle([(4.0, 4.0), (6.0, 4.0), (6.0, 6.0), (4.0, 6.0)]);
        let g = VisibilityGraph::new(&s).unwrap();
        assert_eq!(
            g.shortest_path(v(5.0, 5.0), v(1.0, 1.0)),
            Err(VisibilityError::InsideObstacle {
                role: EndpointRole::Start,
                point: v(5.0, 5.0),
                obstacle: 0
            })
        );
        assert_eq!(
            g.shortest_path(v(1.0, 1.0), v(11.0, 1.0)),
            Err(VisibilityError::OutsideBounds {
                role: EndpointRole::Goal,
                point: v(11.0, 1.0)
            })
        );
        assert!(matches!(
            g.shortest_path(v(f64::NAN, 1.0), v(1.0, 1.0)),
            Err(VisibilityError::NonFinite {
                role: EndpointRole::Start,
                ..
            })
        ));
        // On the boundary is free.
        assert!(g.shortest_path(v(4.0, 5.0), v(6.0, 5.0)).is_ok());
        // Invalid scenes are refused.
        let bad = map10().with_obstacle([(1.0, 1.0), (2.0, 1.0)]);
        assert!(VisibilityGraph::new(&bad).is_err());
        // What it does not model, it refuses.
        let mut holed = map10().with_obstacle([(2.0, 2.0), (8.0, 2.0), (8.0, 8.0), (2.0, 8.0)]);
        holed.holes.push(crate::scene::Hole {
            obstacle: 0,
            ring: vec![v(4.0, 4.0), v(6.0, 4.0), v(6.0, 6.0), v(4.0, 6.0)],
        });
        assert_eq!(
            VisibilityGraph::new(&holed).err(),
            Some(OracleError::Unsupported("obstacles with holes"))
        );
        let mut bounded = map10();
        bounded.boundary = Some(vec![v(1.0, 1.0), v(9.0, 1.0), v(5.0, 9.0)]);
        assert_eq!(
            VisibilityGraph::new(&bounded).err(),
            Some(OracleError::Unsupported("a boundary polygon"))
        );
    }

    #[test]
    fn default_map_oracle_is_at_most_the_funnel() {
        let scene = Scene::default_map();
        let g = VisibilityGraph::new(&scene).unwrap();
        let mesh = build(&scene, &BuildOptions::trapezoid()).unwrap();
        let (a, b) = (Scene::DEFAULT_START, Scene::DEFAULT_GOAL);
        let best = g.shortest_path(a, b).unwrap();
        let funnel = PathFinder::new()
            .find_path(&mesh, a, b, &SearchOptions::default())
            .unwrap();
        assert!(best.length <= funnel.length * (1.0 + 1e-9));
        assert!(best.length >= a.distance(b));
        assert_segments_free(&scene, &best.points);
    }

    /// An independent check that no segment passes through an obstacle: sample it densely with
    /// the point-in-polygon test (which shares no code with the visibility test). Samples of a
    /// segment along an edge are rounded off the edge, so only points clearly inside count.
    fn assert_segments_free(scene: &Scene, points: &[Vec2]) {
        for w in points.windows(2) {
            for k in 1..64 {
                let x = w[0].lerp(w[1], f64::from(k) / 64.0);
                for (oi, o) in scene.obstacles.iter().enumerate() {
                    let depth = (0..o.len())
                        .map(|i| crate::geom::distance_to_segment(x, o[i], o[(i + 1) % o.len()]))
                        .fold(f64::INFINITY, f64::min);
                    assert!(
                        point_in_polygon(o, x) != PointInPolygon::Inside || depth < 1e-9,
                        "segment {} – {} enters obstacle {oi} at {x}",
                        w[0],
                        w[1]
                    );
                }
            }
        }
    }

    fn random_case(seed: u64) -> (Scene, VisibilityGraph, Vec<Vec2>) {
        let scene = random_scene(seed, &RandomSceneOptions::default()).unwrap();
        let graph = VisibilityGraph::new(&scene).unwrap();
        let mut rng = Rng::new(Rng::derive(seed, 1));
        let points = (0..4)
            .map(|_| random_free_point(&mut rng, &scene, 10_000).unwrap())
            .collect();
        (scene, graph, points)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn oracle_is_a_metric_and_beats_the_funnel(seed in any::<u64>()) {
            let (scene, graph, pts) = random_case(seed);
            let mesh = build(&scene, &BuildOptions::trapezoid()).unwrap();
            let mut finder = PathFinder::new();
            let d = |a: Vec2, b: Vec2| graph.shortest_path(a, b).unwrap();
            for i in 0..pts.len() {
                for j in 0..pts.len() {
                    let (a, b) = (pts[i], pts[j]);
                    let best = d(a, b);
                    prop_assert_eq!(best.points.first(), Some(&a));
                    prop_assert_eq!(best.points.last(), Some(&b));
                    prop_assert!(best.length >= a.distance(b) * (1.0 - 1e-12));
                    assert_segments_free(&scene, &best.points);
                    // Straight when visible.
                    if graph.visible(a, b) {
                        prop_assert_eq!(best.length, a.distance(b));
                    }
                    // Symmetric.
                    let back = d(b, a).length;
                    prop_assert!(close(best.length, back), "{} vs {}", best.length, back);
                    // Triangle inequality through every third point.
                    for &c in &pts {
                        prop_assert!(best.length <= (d(a, c).length + d(c, b).length) * (1.0 + 1e-12));
                    }
                    // No path on the mesh is shorter.
                    for pp in [PortalPoint::TowardGoal, PortalPoint::Midpoint] {
                        let f = finder
                            .find_path(&mesh, a, b, &SearchOptions::with_portal_point(pp))
                            .unwrap();
                        prop_assert!(
                            f.length >= best.length * (1.0 - 1e-9),
                            "{:?}: funnel {} < oracle {} for {} → {}", pp, f.length, best.length, a, b
                        );
                    }
                }
            }
        }

        /// The default map has obstacles standing on the map sides (slits, corners on the
        /// border): the oracle must still never lose to the mesh, and never cut through.
        #[test]
        fn default_map_with_random_queries(seed in any::<u64>()) {
            let scene = Scene::default_map();
            let graph = VisibilityGraph::new(&scene).unwrap();
            let mesh = build(&scene, &BuildOptions::trapezoid()).unwrap();
            let mut rng = Rng::new(seed);
            let mut finder = PathFinder::new();
            for _ in 0..8 {
                let a = random_free_point(&mut rng, &scene, 10_000).unwrap();
                let b = random_free_point(&mut rng, &scene, 10_000).unwrap();
                let best = graph.shortest_path(a, b).unwrap();
                assert_segments_free(&scene, &best.points);
                prop_assert!(best.length >= a.distance(b) * (1.0 - 1e-12));
                let f = finder.find_path(&mesh, a, b, &SearchOptions::default()).unwrap();
                prop_assert!(f.length >= best.length * (1.0 - 1e-9), "{} < {}", f.length, best.length);
            }
        }
    }
}
