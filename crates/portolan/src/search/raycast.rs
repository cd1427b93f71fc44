//! Raycast on a navigation mesh: can an agent walk in a straight line from here to there?
//!
//! This is Detour's `dtNavMeshQuery::raycast`: start in the polygon holding the start point and
//! walk along the segment `start → end` from polygon to polygon through the edges it crosses, until
//! the end lies in the current polygon (**reached**) or the segment leaves through a wall (**hit**,
//! with the wall, its normal and the parameter `t` of the hit).
//!
//! ```text
//!   ┌─────────┬──────┬─────────┐
//!   │ s ─────────────────►×    │      s → e leaves polygon A through a portal (into B),
//!   │    A    │  B   │ ████ e  │      B through a portal (into C), and C through the
//!   │         │      │ ████    │      obstacle's wall: a hit at ×, visited = [A, B, C]
//!   └─────────┴──────┴─────────┘
//! ```
//!
//! # Exactness
//! Every decision is an exact [`orient`] sign against the line through the *input* points `start`
//! and `end`; the walk never decides anything from a computed intersection point. In a convex
//! polygon the vertices to the right of the line and those to the left form two runs; the segment
//! leaves the polygon where the right run ends and the left run begins, either through the inside
//! of an edge or through a vertex lying exactly on the line. Leaving through a vertex, the walk
//! continues in the polygon around that vertex whose (closed) corner contains the direction of
//! the ray; when none does, the ray hits the obstacle at the vertex. A ray running along edges
//! follows them from vertex to vertex. So rays through vertices, along walls and along portals are
//! all decided without tolerance: the ray is **clear** exactly when the closed segment lies in the
//! closed mesh (touching a wall or grazing an obstacle's corner is allowed, entering it is not).
//! Only the reported `t`, hit point and normal are measurements in plain `f64`.
//!
//! # Cost
//! O(k · m) for the k polygons crossed, with m vertices each (plus the polygons around a vertex
//! when the ray passes through one). No allocation beyond the `visited` list, and
//! [`raycast_into`] reuses a caller's buffer for that.
//!
//! # Example
//! ```
//! use portolan::{build, BuildOptions, Scene, Vec2};
//! use portolan::search::raycast::{raycast, RayOutcome};
//!
//! let mesh = build(&Scene::default_map(), &BuildOptions::trapezoid()).unwrap();
//! // Along the bottom of the map, into the slanted left side of the obstacle standing on it,
//! // which runs from (318, 0) up to (301, 249).
//! let ray = raycast(&mesh, Vec2::new(20.0, 20.0), Vec2::new(600.0, 20.0)).unwrap();
//! let RayOutcome::Hit(hit) = ray.outcome else { panic!("the obstacle is in the way") };
//! let x = 318.0 - 17.0 * 20.0 / 249.0;
//! assert!((hit.point.x - x).abs() < 1e-9 && hit.point.y == 20.0);
//! assert!(hit.normal.x < 0.0); // the wall faces back toward the start
//! assert!((hit.t - (x - 20.0) / 580.0).abs() < 1e-12);
//! // A clear line of sight.
//! assert!(raycast(&mesh, Vec2::new(20.0, 20.0), Vec2::new(290.0, 20.0)).unwrap().is_clear());
//! ```

use crate::geom::{line_intersection_t, orient, point_in_range, Orientation, Vec2};
use crate::mesh::{Location, NavMesh, PolyId, VertexId};
use std::cmp::Ordering;

/// The result of a raycast: what stopped it, and the polygons it went through.
#[derive(Clone, Debug, PartialEq)]
pub struct Raycast {
    /// Whether the end was reached, or which wall was hit.
    pub outcome: RayOutcome,
    /// The polygons the ray passed through, in order, start polygon first (Detour's `path`).
    pub visited: Vec<PolyId>,
}

impl Raycast {
    /// `true` when the whole segment lies on the mesh.
    pub fn is_clear(&self) -> bool {
        matches!(self.outcome, RayOutcome::Reached { .. })
    }
    /// The wall hit, if any.
    pub fn hit(&self) -> Option<&WallHit> {
        match &self.outcome {
            RayOutcome::Hit(h) => Some(h),
            RayOutcome::Reached { .. } => None,
        }
    }
    /// How far along `start → end` the ray got: 1 when the end was reached, the hit's `t` otherwise.
    pub fn t(&self) -> f64 {
        self.hit().map_or(1.0, |h| h.t)
    }
}

/// How a raycast ended.
#[derive(Clone, Debug, PartialEq)]
pub enum RayOutcome {
    /// The segment lies on the mesh; `polygon` holds the end point.
    Reached {
        /// The polygon the walk ended in (it holds the end point, possibly on its boundary).
        polygon: PolyId,
    },
    /// The segment leaves the mesh at a wall.
    Hit(WallHit),
}

/// Where a ray left the mesh.
#[derive(Clone, Debug, PartialEq)]
pub struct WallHit {
    /// The parameter of the hit along `start → end`, in `[0, 1]` (measured, not exact).
    pub t: f64,
    /// The hit point: `start + t (end - start)` for a hit inside a wall edge, the vertex itself
    /// for a hit at a vertex.
    pub point: Vec2,
    /// The polygon whose edge is the wall.
    pub polygon: PolyId,
    /// The wall's edge index in `polygon` (from vertex `edge` to the next).
    pub edge: usize,
    /// The wall's unit normal, pointing into `polygon` (the walkable side, toward the start).
    pub normal: Vec2,
    /// `Some(v)` when the ray left the mesh exactly through vertex `v`; the wall reported is then
    /// the first wall at `v` met turning clockwise from the ray's direction.
    pub vertex: Option<VertexId>,
}

/// Which end of a ray a point is, in [`RaycastError::NonFinite`].
///
/// ```
/// use portolan::search::raycast::RayEnd;
/// assert_eq!(RayEnd::End.to_string(), "end");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RayEnd {
    /// Where the ray starts.
    Start,
    /// The point the ray is cast toward.
    End,
}

impl std::fmt::Display for RayEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RayEnd::Start => "start",
            RayEnd::End => "end",
        })
    }
}

/// Why a raycast could not run.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RaycastError {
    /// A point is NaN or infinite.
    #[error("the raycast {end} point {point} is not finite")]
    NonFinite {
        /// Which end of the ray.
        end: RayEnd,
        /// The point.
        point: Vec2,
    },
    /// A point has a coordinate outside the range the library accepts
    /// ([`coordinate_in_range`](crate::geom::coordinate_in_range), as for a path query's
    /// points): a ray toward a point far beyond any mesh would measure its hit in overflowing
    /// arithmetic (a ray cast 1e308 units once reported its hit at its start).
    #[error("the raycast {end} point ({:e}, {:e}) is out of the supported coordinate range (each coordinate 0 or of magnitude 2^-300 to 2^300)", .point.x, .point.y)]
    OutOfRange {
        /// Which end of the ray.
        end: RayEnd,
        /// The point.
        point: Vec2,
    },
    /// The start is not on the mesh. (The end may be anywhere in range: a ray toward it hits a
    /// wall.)
    #[error("the raycast start {0} is not on the navigation mesh")]
    StartOffMesh(Vec2),
    /// The walk found the mesh inconsistent around `polygon` (overlapping polygons or a
    /// T-junction; [`NavMesh::check_invariants`] names the fault).
    #[error("the mesh is inconsistent around {polygon}; run check_invariants")]
    BrokenMesh {
        /// The polygon where the walk got stuck.
        polygon: PolyId,
    },
}

/// Casts a ray from `start` toward `end` over the mesh; see the [module docs](self).
pub fn raycast(mesh: &NavMesh, start: Vec2, end: Vec2) -> Result<Raycast, RaycastError> {
    let mut visited = Vec::new();
    let outcome = raycast_into(mesh, start, end, &mut visited)?;
    Ok(Raycast { outcome, visited })
}

/// [`raycast`] writing the visited polygons into a reused buffer (cleared first).
pub fn raycast_into(
    mesh: &NavMesh,
    start: Vec2,
    end: Vec2,
    visited: &mut Vec<PolyId>,
) -> Result<RayOutcome, RaycastError> {
    visited.clear();
    if !start.is_finite() {
        return Err(RaycastError::NonFinite {
            end: RayEnd::Start,
            point: start,
        });
    }
    if !end.is_finite() {
        return Err(RaycastError::NonFinite {
            end: RayEnd::End,
            point: end,
        });
    }
    for (which, point) in [(RayEnd::Start, start), (RayEnd::End, end)] {
        if !point_in_range(point) {
            return Err(RaycastError::OutOfRange { end: which, point });
        }
    }
    raycast_located(mesh, start, mesh.locate(start), end, visited)
}

/// [`raycast_into`] from a start already located at `loc` (as [`NavMesh::locate`] would say),
/// both points finite.
pub(crate) fn raycast_located(
    mesh: &NavMesh,
    start: Vec2,
    loc: Location,
    end: Vec2,
    visited: &mut Vec<PolyId>,
) -> Result<RayOutcome, RaycastError> {
    visited.clear();
    let ray = Ray { s: start, e: end };
    let mut poly = match loc {
        Location::Outside => return Err(RaycastError::StartOffMesh(start)),
        Location::InPolygon(p) => p,
        loc if start == end => {
            // Located, so there is a polygon.
            let p = loc.polygon().expect("located on the mesh");
            visited.push(p);
            return Ok(RayOutcome::Reached { polygon: p });
        }
        Location::OnEdge {
            polygon,
            edge,
            neighbour,
        } => {
            let (a, b) = mesh.edge(polygon, edge);
            match (orient(a, b, end), neighbour) {
                (Orientation::Clockwise, Some(q)) => q,
                (Orientation::Clockwise, None) => {
                    visited.push(polygon);
                    return Ok(RayOutcome::Hit(edge_hit(mesh, &ray, polygon, edge, 0.0)));
                }
                _ => polygon,
            }
        }
        Location::OnVertex { vertex, polygon } => {
            match polygon_containing_direction(mesh, vertex, end, None) {
                Some(p) => p,
                None => {
                    visited.push(polygon);
                    return vertex_hit(mesh, &ray, vertex, polygon).map(RayOutcome::Hit);
                }
            }
        }
    };
    visited.push(poly);
    // The edge the ray entered `poly` through, as (its end right of the line, its end left of
    // it), when it came through an edge's inside.
    let mut entry = None;
    // Each step moves strictly forward along the ray, and a line meets a convex polygon in one
    // segment, so no polygon is entered twice: the bound only guards against broken meshes.
    for _ in 0..=mesh.polygon_count() {
        let exit = entry.and_then(|e| exit_after(mesh, poly, e, &ray));
        let Some(exit) = exit.or_else(|| exit_of(mesh, poly, &ray)) else {
            return Err(RaycastError::BrokenMesh { polygon: poly });
        };
        entry = None;
        match exit {
            Exit::Edge(i) => {
                let (a, b) = mesh.edge(poly, i);
                if orient(a, b, end) != Orientation::Clockwise {
                    return Ok(RayOutcome::Reached { polygon: poly });
                }
                match mesh.neighbours(poly)[i] {
                    Some(q) => {
                        let vs = mesh.polygon_vertices(poly);
                        entry = Some((vs[i], vs[(i + 1) % vs.len()]));
                        poly = q;
                    }
                    None => {
                        let t = line_intersection_t(start, end, a, b)
                            .unwrap_or(0.0)
                            .clamp(0.0, 1.0);
                        return Ok(RayOutcome::Hit(edge_hit(mesh, &ray, poly, i, t)));
                    }
                }
            }
            Exit::Vertex(k) => {
                let v = mesh.polygon_vertices(poly)[k];
                if ray.along(mesh.vertex(v), end) != Ordering::Greater {
                    return Ok(RayOutcome::Reached { polygon: poly });
                }
                match polygon_containing_direction(mesh, v, end, Some(poly)) {
                    Some(q) => poly = q,
                    None => return vertex_hit(mesh, &ray, v, poly).map(RayOutcome::Hit),
                }
            }
        }
        visited.push(poly);
    }
    Err(RaycastError::BrokenMesh { polygon: poly })
}

/// The ray's supporting line, from the input points.
struct Ray {
    s: Vec2,
    e: Vec2,
}

impl Ray {
    /// Orders two points lying exactly on the line by their position along `s → e` (`Greater`
    /// when `b` is further than `a`). Exact: on the line, the coordinate of the dominant axis is
    /// a strictly monotone function of the position, so coordinates are compared, not computed.
    fn along(&self, a: Vec2, b: Vec2) -> Ordering {
        let d = self.e - self.s;
        let (ca, cb, forward) = if d.x.abs() >= d.y.abs() {
            (a.x, b.x, d.x > 0.0)
        } else {
            (a.y, b.y, d.y > 0.0)
        };
        let o = cb.total_cmp(&ca);
        if forward {
            o
        } else {
            o.reverse()
        }
    }
    /// The parameter of a point on (or near) the line.
    fn t_of(&self, p: Vec2) -> f64 {
        let d = self.e - self.s;
        let len2 = d.length_squared();
        if len2 > 0.0 {
            ((p - self.s).dot(d) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        }
    }
}

#[cfg_attr(test, derive(Debug, PartialEq, Clone))]
enum Exit {
    /// Through the inside of edge `i`.
    Edge(usize),
    /// Through the vertex at position `k` of the polygon.
    Vertex(usize),
}

/// Where the ray's line leaves the polygon (the end of its chord in the ray's direction).
/// `None` only when the polygon does not touch the line (the walk is inconsistent).
fn exit_of(mesh: &NavMesh, poly: PolyId, ray: &Ray) -> Option<Exit> {
    let vs = mesh.polygon_vertices(poly);
    let n = vs.len();
    let pt = |i: usize| mesh.vertex(vs[i % n]);
    let side = |i: usize| orient(ray.s, ray.e, pt(i));
    // One pass, one orient per vertex: the sides, and where the counter-clockwise boundary goes
    // from the right run to the left run (or to the vertex between them) — where the ray leaves
    // when the line crosses the polygon. A convex polygon has one such place; an edge lying on
    // the line is impossible then (the polygon would be on one side).
    let (mut has_left, mut has_right) = (false, false);
    let first = side(0);
    let mut here = first;
    let mut exit = None;
    for i in 0..n {
        let next = if i + 1 == n { first } else { side(i + 1) };
        match here {
            Orientation::CounterClockwise => has_left = true,
            Orientation::Clockwise => {
                has_right = true;
                if exit.is_none() {
                    exit = match next {
                        Orientation::CounterClockwise => Some(Exit::Edge(i)),
                        Orientation::Collinear => Some(Exit::Vertex((i + 1) % n)),
                        Orientation::Clockwise => None,
                    };
                }
            }
            Orientation::Collinear => {}
        }
        here = next;
    }
    if has_left && has_right {
        return exit;
    }
    // The line only touches the boundary: along an edge (or a run of collinear edges) or at one
    // vertex. Leave through the touching vertex furthest along the ray.
    (0..n)
        .filter(|&i| side(i).is_collinear())
        .max_by(|&i, &j| ray.along(pt(j), pt(i)))
        .map(Exit::Vertex)
}

/// [`exit_of`] for a polygon the ray entered through the inside of an edge, whose ends are
/// `right` (strictly right of the line) and `left` (strictly left): walking counter-clockwise
/// from `right`, the first vertex not right of the line ends the right run there, so only the
/// vertices of that run are tested (about half the polygon's, where `exit_of` tests all).
/// `None` when `q` has no such edge (a broken mesh; the caller scans instead).
fn exit_after(
    mesh: &NavMesh,
    q: PolyId,
    (right, left): (VertexId, VertexId),
    ray: &Ray,
) -> Option<Exit> {
    let vs = mesh.polygon_vertices(q);
    let n = vs.len();
    // In `q` the edge runs from `left` to `right` (the other way round from the polygon behind).
    let r = vs.iter().position(|&v| v == right)?;
    if vs[if r == 0 { n - 1 } else { r - 1 }] != left {
        return None;
    }
    let mut prev = r;
    loop {
        let k = if prev + 1 == n { 0 } else { prev + 1 };
        if vs[k] == left {
            // Back at `left`: the right run ends at the edge into it.
            return Some(Exit::Edge(prev));
        }
        match orient(ray.s, ray.e, mesh.vertex(vs[k])) {
            Orientation::Clockwise => prev = k,
            Orientation::CounterClockwise => return Some(Exit::Edge(prev)),
            Orientation::Collinear => return Some(Exit::Vertex(k)),
        }
    }
}

/// The neighbours of `v` in polygon `p`: the vertex before it and the vertex after it.
fn corner_at(mesh: &NavMesh, p: PolyId, v: VertexId) -> Option<(usize, Vec2, Vec2)> {
    let vs = mesh.polygon_vertices(p);
    let k = vs.iter().position(|&x| x == v)?;
    let n = vs.len();
    Some((
        k,
        mesh.vertex(vs[(k + n - 1) % n]),
        mesh.vertex(vs[(k + 1) % n]),
    ))
}

/// A polygon around `v` (other than `from`) whose closed corner at `v` contains the direction
/// from `v` toward `toward` (a point on the ray beyond `v`). A ray that comes from polygon `from`
/// and passes through a pinch vertex ([`NavMesh::is_pinch`]) stays in `from`'s wedge: it may not
/// squeeze through the point into another.
fn polygon_containing_direction(
    mesh: &NavMesh,
    v: VertexId,
    toward: Vec2,
    from: Option<PolyId>,
) -> Option<PolyId> {
    let pv = mesh.vertex(v);
    let pinch_from = from.filter(|_| mesh.is_pinch(v));
    mesh.vertex_polygons(v).iter().copied().find(|&q| {
        Some(q) != from
            && pinch_from.is_none_or(|p| mesh.same_wedge(v, p, q))
            && corner_at(mesh, q, v).is_some_and(|(_, u, w)| {
                // Left of (or on) both edge lines at a convex corner: inside the closed wedge.
                !orient(pv, w, toward).is_cw() && !orient(u, pv, toward).is_cw()
            })
    })
}

fn edge_hit(mesh: &NavMesh, ray: &Ray, poly: PolyId, edge: usize, t: f64) -> WallHit {
    let (a, b) = mesh.edge(poly, edge);
    WallHit {
        t,
        point: hit_point(ray, a, b, t),
        polygon: poly,
        edge,
        normal: inward_normal(a, b),
        vertex: None,
    }
}

/// `start + t (end - start)`, kept on the wall: coordinates that the ray or the wall fix exactly
/// (axis-parallel ones, as on grid maps) are copied rather than computed, and the point is clamped
/// to the wall's bounding box.
fn hit_point(ray: &Ray, a: Vec2, b: Vec2, t: f64) -> Vec2 {
    if t == 0.0 {
        return ray.s;
    }
    let mut p = ray.s.lerp(ray.e, t);
    if ray.s.x == ray.e.x {
        p.x = ray.s.x;
    }
    if ray.s.y == ray.e.y {
        p.y = ray.s.y;
    }
    if a.x == b.x {
        p.x = a.x;
    }
    if a.y == b.y {
        p.y = a.y;
    }
    Vec2::new(
        p.x.clamp(a.x.min(b.x), a.x.max(b.x)),
        p.y.clamp(a.y.min(b.y), a.y.max(b.y)),
    )
}

/// The unit normal of edge `a → b` of a counter-clockwise polygon, pointing inside.
fn inward_normal(a: Vec2, b: Vec2) -> Vec2 {
    // Edges have non-zero length (checked when the mesh is built).
    (b - a).perp().normalized().unwrap_or(Vec2::ZERO)
}

/// The ray leaves the mesh at vertex `v`: report the first wall met turning clockwise from the
/// ray's direction (one of the two walls of the obstacle corner the ray enters).
fn vertex_hit(
    mesh: &NavMesh,
    ray: &Ray,
    v: VertexId,
    current: PolyId,
) -> Result<WallHit, RaycastError> {
    let pv = mesh.vertex(v);
    // Each wall at v as (polygon, edge index, the wall's other endpoint).
    let mut best: Option<(PolyId, usize, Vec2)> = None;
    for &q in mesh.vertex_polygons(v) {
        let Some((k, u, w)) = corner_at(mesh, q, v) else {
            continue;
        };
        let n = mesh.polygon_vertices(q).len();
        let nbs = mesh.neighbours(q);
        for (edge, other) in [((k + n - 1) % n, u), (k, w)] {
            if nbs[edge].is_some() {
                continue;
            }
            let closer =
                best.is_none_or(|(_, _, x)| clockwise_from(ray, pv, other, x) == Ordering::Less);
            if closer {
                best = Some((q, edge, other));
            }
        }
    }
    let (polygon, edge, _) = best.ok_or(RaycastError::BrokenMesh { polygon: current })?;
    let (a, b) = mesh.edge(polygon, edge);
    Ok(WallHit {
        t: ray.t_of(pv),
        point: pv,
        polygon,
        edge,
        normal: inward_normal(a, b),
        vertex: Some(v),
    })
}

/// Compares the clockwise angles from the ray's direction to the directions `v → x` and
/// `v → y` (`Less` when `x` comes first), exactly.
fn clockwise_from(ray: &Ray, v: Vec2, x: Vec2, y: Vec2) -> Ordering {
    // The ray's direction from v is the direction s → e; `v + (e - s)` would be computed, so use
    // orientations against the line through s and e translated to v: the sign of
    // cross(e - s, x - v) is orient(s, e, s + (x - v)) — also computed. Instead, classify with
    // the exact line through s and e, on which v lies: x is right of the direction iff it is
    // right of the line s → e (v on that line).
    let half = |p: Vec2| -> u8 {
        match orient(ray.s, ray.e, p) {
            Orientation::Clockwise => 1,
            Orientation::Collinear => {
                if ray.along(v, p) == Ordering::Greater {
                    0 // straight ahead: angle 0
                } else {
                    2 // straight back: 180°
                }
            }
            Orientation::CounterClockwise => 3,
        }
    };
    let (hx, hy) = (half(x), half(y));
    if hx != hy {
        return hx.cmp(&hy);
    }
    match orient(v, x, y) {
        // y is clockwise of x: x comes first.
        Orientation::Clockwise => Ordering::Less,
        Orientation::CounterClockwise => Ordering::Greater,
        Orientation::Collinear => Ordering::Equal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{build, BuildOptions};
    use crate::scene::Scene;
    use crate::search::visibility::VisibilityGraph;
    use crate::testkit::scenes::{
        grid_point, mesh_of, point_is_free, random_scene, ray_end, segment_is_free, square_map,
    };
    use proptest::prelude::*;

    /// Walking from the entry edge finds the exit the full scan finds, at every polygon a ray
    /// enters through an edge's inside: random rays on a random grid map (whose lines pass
    /// through vertices and along edges) and on the default map.
    #[test]
    fn the_exit_after_an_entry_edge_is_the_scans() {
        let grid = crate::random_grid::random_blocked_grid(24, 24, 0.2, 9).unwrap();
        let meshes = [
            build(&grid.to_scene(), &BuildOptions::cdt()).unwrap(),
            build(&Scene::default_map(), &BuildOptions::cdt()).unwrap(),
        ];
        let mut rng = crate::random::Rng::new(4);
        let (mut walked, mut through_vertex) = (0usize, 0usize);
        for mesh in &meshes {
            let b = mesh.bounds();
            // Points on the lattice (rays along edges and through vertices) and anywhere.
            let point = |rng: &mut crate::random::Rng, lattice: bool| {
                let (x, y) = (
                    b.min.x + (b.max.x - b.min.x) * rng.next_f64(),
                    b.min.y + (b.max.y - b.min.y) * rng.next_f64(),
                );
                if lattice {
                    v(x.round(), y.round())
                } else {
                    v(x, y)
                }
            };
            for i in 0..3000 {
                let (s, e) = (point(&mut rng, i % 2 == 0), point(&mut rng, i % 3 == 0));
                let Some(mut poly) = mesh.locate(s).polygon() else {
                    continue;
                };
                let ray = Ray { s, e };
                let mut entry = None;
                for _ in 0..mesh.polygon_count() {
                    let Some(exit) = exit_of(mesh, poly, &ray) else {
                        break;
                    };
                    if let Some(en) = entry {
                        assert_eq!(exit_after(mesh, poly, en, &ray), Some(exit.clone()));
                        walked += 1;
                    }
                    match exit {
                        Exit::Edge(k) => {
                            let (a, c) = mesh.edge(poly, k);
                            if orient(a, c, e) != Orientation::Clockwise {
                                break;
                            }
                            let Some(q) = mesh.neighbours(poly)[k] else {
                                break;
                            };
                            let vs = mesh.polygon_vertices(poly);
                            entry = Some((vs[k], vs[(k + 1) % vs.len()]));
                            poly = q;
                        }
                        Exit::Vertex(_) => {
                            through_vertex += 1;
                            break;
                        }
                    }
                }
            }
        }
        assert!(
            walked > 3_000 && through_vertex > 100,
            "{walked} {through_vertex}"
        );
    }

    fn v(x: f64, y: f64) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn clear_ray_visits_a_connected_run_of_polygons() {
        let m = square_map();
        let r = raycast(&m, v(1.0, 1.0), v(9.0, 2.0)).unwrap();
        assert!(r.is_clear());
        assert_eq!(r.t(), 1.0);
        assert!(r.visited.len() >= 2);
        for w in r.visited.windows(2) {
            let adjacent = m.shared_edge(w[0], w[1]).is_some();
            let share_vertex = m
                .polygon_vertices(w[0])
                .iter()
                .any(|x| m.polygon_vertices(w[1]).contains(x));
            assert!(adjacent || share_vertex, "{:?}", r.visited);
        }
        let RayOutcome::Reached { polygon } = r.outcome else {
            unreachable!()
        };
        assert!(m.locate_in(polygon, v(9.0, 2.0)).is_some());
    }

    #[test]
    fn head_on_wall_hit_reports_edge_point_and_normal() {
        let m = square_map();
        let r = raycast(&m, v(1.0, 5.0), v(9.0, 5.0)).unwrap();
        let h = r.hit().expect("the obstacle blocks");
        assert_eq!(h.point, v(4.0, 5.0));
        assert!((h.t - 3.0 / 8.0).abs() < 1e-15);
        assert_eq!(h.normal, v(-1.0, 0.0));
        assert_eq!(h.vertex, None);
        let (a, b) = m.edge(h.polygon, h.edge);
        assert_eq!((a.x, b.x), (4.0, 4.0), "the obstacle's left side");
        assert!(m.neighbours(h.polygon)[h.edge].is_none());
        assert_eq!(r.visited.last(), Some(&h.polygon));
    }

    #[test]
    fn rays_along_walls_and_through_corners() {
        let m = square_map();
        // Along the obstacle's bottom wall, past both corners: clear.
        assert!(raycast(&m, v(1.0, 4.0), v(9.0, 4.0)).unwrap().is_clear());
        // Along the map's bottom side: clear.
        assert!(raycast(&m, v(0.0, 0.0), v(10.0, 0.0)).unwrap().is_clear());
        // Grazing the corner (4, 4) diagonally: clear.
        assert!(raycast(&m, v(2.0, 6.0), v(6.0, 2.0)).unwrap().is_clear());
        // Through the corner (4, 4) into the obstacle: hit exactly at the vertex.
        let r = raycast(&m, v(1.0, 1.0), v(9.0, 9.0)).unwrap();
        let h = r.hit().expect("enters the obstacle at its corner");
        assert_eq!(h.point, v(4.0, 4.0));
        assert!(h.vertex.is_some());
        assert!((h.t - 3.0 / 8.0).abs() < 1e-15);
        // The first wall clockwise from the direction (1, 1) is the bottom wall (pointing +x).
        let (a, b) = m.edge(h.polygon, h.edge);
        assert_eq!(a.y, 4.0);
        assert_eq!(b.y, 4.0);
        assert_eq!(h.normal, v(0.0, -1.0));
        // Off the map through its corner.
        let r = raycast(&m, v(9.0, 9.0), v(11.0, 11.0)).unwrap();
        assert_eq!(r.hit().unwrap().point, v(10.0, 10.0));
        // Along the map's top side, beyond its corner.
        let r = raycast(&m, v(5.0, 10.0), v(12.0, 10.0)).unwrap();
        let h = r.hit().unwrap();
        assert_eq!(h.point, v(10.0, 10.0));
        assert_eq!(
            h.normal,
            v(-1.0, 0.0),
            "the right side of the map is in the way"
        );
    }

    #[test]
    fn a_ray_leaves_a_pinch_into_any_wedge_but_never_passes_through_one() {
        // Two unit squares touching only at (1, 1).
        let (vs, polys) = crate::testkit::scenes::pinched_squares();
        let m = NavMesh::from_polygons(vs, polys).unwrap();
        let p = v(1.0, 1.0);
        // From the pinch into either square, and from either square to the pinch: clear.
        for q in [v(0.5, 0.5), v(1.5, 1.5), v(1.0, 0.0), v(2.0, 2.0)] {
            assert!(raycast(&m, p, q).unwrap().is_clear(), "{p} -> {q}");
            assert!(raycast(&m, q, p).unwrap().is_clear(), "{q} -> {p}");
        }
        // Through the pinch from one square into the other: the walls meet at the point.
        let r = raycast(&m, v(0.5, 0.5), v(1.5, 1.5)).unwrap();
        let h = r.hit().expect("blocked at the pinch");
        assert_eq!((h.point, h.vertex), (p, Some(VertexId(2))));
        assert_eq!(h.t, 0.5);
        assert_eq!(r.visited, vec![PolyId(0)]);
        assert!(!raycast(&m, v(1.5, 1.5), v(0.25, 0.25)).unwrap().is_clear());
    }

    #[test]
    fn starting_on_walls_and_vertices() {
        let m = square_map();
        // On the obstacle's left wall, pointing into it: hit at t = 0.
        let r = raycast(&m, v(4.0, 5.0), v(5.0, 5.0)).unwrap();
        let h = r.hit().unwrap();
        assert_eq!((h.t, h.point), (0.0, v(4.0, 5.0)));
        // The same point, pointing away: clear.
        assert!(raycast(&m, v(4.0, 5.0), v(1.0, 5.0)).unwrap().is_clear());
        // On the obstacle's corner: into it is a hit, away from it is clear, along it is clear.
        assert_eq!(
            raycast(&m, v(4.0, 4.0), v(5.0, 5.0))
                .unwrap()
                .hit()
                .unwrap()
                .t,
            0.0
        );
        assert!(raycast(&m, v(4.0, 4.0), v(1.0, 1.0)).unwrap().is_clear());
        assert!(raycast(&m, v(4.0, 4.0), v(4.0, 0.0)).unwrap().is_clear());
        assert!(raycast(&m, v(4.0, 4.0), v(6.0, 4.0)).unwrap().is_clear());
        // A zero-length ray on the mesh is clear.
        assert!(raycast(&m, v(4.0, 4.0), v(4.0, 4.0)).unwrap().is_clear());
        assert!(raycast(&m, v(2.0, 2.0), v(2.0, 2.0)).unwrap().is_clear());
    }

    #[test]
    fn bad_input_is_an_error() {
        let m = square_map();
        assert!(matches!(
            raycast(&m, v(f64::NAN, 1.0), v(2.0, 2.0)),
            Err(RaycastError::NonFinite {
                end: RayEnd::Start,
                ..
            })
        ));
        assert!(matches!(
            raycast(&m, v(1.0, 1.0), v(f64::INFINITY, 2.0)),
            Err(RaycastError::NonFinite {
                end: RayEnd::End,
                ..
            })
        ));
        assert_eq!(
            raycast(&m, v(5.0, 5.0), v(1.0, 1.0)),
            Err(RaycastError::StartOffMesh(v(5.0, 5.0)))
        );
        assert_eq!(
            raycast(&m, v(-1.0, 5.0), v(1.0, 1.0)),
            Err(RaycastError::StartOffMesh(v(-1.0, 5.0)))
        );
        // An end off the mesh is not an error: the ray hits the wall on the way.
        let r = raycast(&m, v(1.0, 5.0), v(-3.0, 5.0)).unwrap();
        assert_eq!(r.hit().unwrap().point, v(0.0, 5.0));
        // An end past the coordinate range is (a ray toward (1e308, 5) once hit at its start),
        // and so is a start there.
        assert_eq!(
            raycast(&m, v(1.0, 5.0), v(1e308, 5.0)),
            Err(RaycastError::OutOfRange {
                end: RayEnd::End,
                point: v(1e308, 5.0)
            })
        );
        assert!(matches!(
            raycast(&m, v(1e-320, 5.0), v(1.0, 1.0)),
            Err(RaycastError::OutOfRange {
                end: RayEnd::Start,
                ..
            })
        ));
        // The range's edge is in it: the hit is where the wall is.
        let r = raycast(&m, v(1.0, 5.0), v(-(2f64.powi(300)), 5.0)).unwrap();
        assert_eq!(r.hit().unwrap().point, v(0.0, 5.0));
        let r = raycast(&m, v(1.0, 5.0), v(5.0, 5.0)).unwrap();
        assert_eq!(r.hit().unwrap().point, v(4.0, 5.0));
    }

    #[test]
    fn default_map_rays_agree_with_the_scene() {
        let scene = Scene::default_map();
        let m = build(&scene, &BuildOptions::trapezoid()).unwrap();
        // A deterministic spread of rays with float coordinates.
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut hits = 0;
        for _ in 0..2000 {
            let s = v(next() * 800.0, next() * 450.0);
            let e = v(next() * 800.0, next() * 450.0);
            match raycast(&m, s, e) {
                Err(RaycastError::StartOffMesh(_)) => assert!(!point_is_free(&scene, s)),
                Err(e) => panic!("{e}"),
                Ok(r) => {
                    assert_eq!(r.is_clear(), segment_is_free(&scene, s, e), "{s} → {e}");
                    hits += usize::from(!r.is_clear());
                }
            }
        }
        assert!(hits > 100, "the sample exercises hits ({hits})");
    }

    /// Checks a ray against the visibility-graph oracle's `visible`, which follows the same rule
    /// as every search: touching walls and corners is fine, passing through a pinch point (where
    /// an obstacle touches another, or the map side, at one point) is not.
    fn check_ray(
        scene: &Scene,
        oracle: &VisibilityGraph,
        m: &NavMesh,
        s: Vec2,
        e: Vec2,
    ) -> Result<(), TestCaseError> {
        match raycast(m, s, e) {
            Err(RaycastError::StartOffMesh(_)) => {
                prop_assert!(!point_is_free(scene, s), "start {s} is free but rejected");
            }
            Err(err) => return Err(TestCaseError::fail(format!("{s} → {e}: {err}"))),
            Ok(r) => {
                prop_assert_eq!(
                    r.is_clear(),
                    oracle.visible(s, e),
                    "{} → {}: {:?}",
                    s,
                    e,
                    r.outcome
                );
                prop_assert!(!r.visited.is_empty());
                prop_assert!(m.locate_in(r.visited[0], s).is_some());
                match &r.outcome {
                    RayOutcome::Reached { polygon } => {
                        prop_assert_eq!(Some(polygon), r.visited.last());
                        prop_assert!(m.locate_in(*polygon, e).is_some());
                    }
                    RayOutcome::Hit(h) => {
                        prop_assert!((0.0..=1.0).contains(&h.t));
                        prop_assert!(m.neighbours(h.polygon)[h.edge].is_none(), "not a wall");
                        let (a, b) = m.edge(h.polygon, h.edge);
                        let scale = 1e-9 * (1.0 + s.distance(e));
                        prop_assert!(crate::geom::distance_to_segment(h.point, a, b) <= scale);
                        prop_assert!(h.point.distance(s.lerp(e, h.t)) <= scale);
                        prop_assert!((h.normal.length() - 1.0).abs() < 1e-12);
                        prop_assert!(h.normal.dot(b - a).abs() <= 1e-12 * a.distance(b));
                        // The hit point itself is on the mesh.
                        prop_assert!(m.locate(h.point) != Location::Outside || h.t > 0.0);
                    }
                }
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]
        #[test]
        fn clear_iff_brute_force_on_random_trapezoid_meshes(
            scene in random_scene(),
            rays in prop::collection::vec((grid_point(), ray_end()), 40),
        ) {
            let m = mesh_of(&scene);
            let oracle = VisibilityGraph::new(&scene).unwrap();
            for (s, e) in rays {
                check_ray(&scene, &oracle, &m, s, e)?;
            }
            // Rays between obstacle vertices: the hardest degenerate cases.
            let corners: Vec<Vec2> = scene.obstacles.iter().flatten().copied().collect();
            for (i, &s) in corners.iter().enumerate() {
                for &e in corners.iter().skip(i + 1).step_by(3) {
                    check_ray(&scene, &oracle, &m, s, e)?;
                    check_ray(&scene, &oracle, &m, e, s)?;
                }
            }
        }
    }
}
