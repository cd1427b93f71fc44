//! Snapping: the nearest point of the mesh to a point off it, and points pulled inside a
//! polygon where rounding left them a hair outside.

use super::*;

impl NavMesh {
    /// The point of the mesh nearest to `p` within `max_distance`, with its polygon.
    ///
    /// A point already on the mesh is returned unchanged. This is how a start or goal clicked in an
    /// obstacle or off the map is snapped onto the mesh (the chapter's fourth pitfall). The point
    /// returned is always located in the polygon returned ([`NavMesh::locate_in`] accepts it), even
    /// where the exact projection onto a slanted edge is not representable in `f64`.
    pub fn nearest_point(&self, p: Vec2, max_distance: f64) -> Option<(PolyId, Vec2)> {
        if !p.is_finite() || max_distance.is_nan() {
            return None;
        }
        if let Some(poly) = self.locate(p).polygon() {
            return Some((poly, p));
        }
        let mut best: Option<(f64, PolyId, Vec2)> = None;
        self.locator
            .visit_rings(p, max_distance, |poly, ring_distance| {
                if let Some((d, _, _)) = best {
                    if ring_distance > d {
                        return false;
                    }
                }
                let bb = self.poly_bounds[poly.index()];
                let dx = (bb.min.x - p.x).max(p.x - bb.max.x).max(0.0);
                let dy = (bb.min.y - p.y).max(p.y - bb.max.y).max(0.0);
                if dx.hypot(dy) > max_distance || best.is_some_and(|(d, _, _)| dx.hypot(dy) >= d) {
                    return true;
                }
                let (d, q) = self.project_onto_boundary(poly, p);
                if d <= max_distance && best.is_none_or(|(bd, _, _)| d < bd) {
                    best = Some((d, poly, q));
                }
                true
            });
        best.map(|(_, poly, q)| (poly, self.pull_inside(poly, q)))
    }

    /// The point of polygon `poly` closest to `x`: `x` itself when the polygon holds it, otherwise
    /// its projection onto the polygon's boundary, nudged inside where rounding left it a hair out
    /// (so [`NavMesh::locate_in`] always accepts the result).
    pub fn closest_point_in(&self, poly: PolyId, x: Vec2) -> Vec2 {
        let (_, q) = self.nearest_in(poly, x);
        self.pull_inside(poly, q)
    }

    /// The closest point of `poly` to `x` and its distance, not yet pulled inside: for searches
    /// that compare many polygons and nudge only the winner ([`NavMesh::pull_inside`]).
    pub(crate) fn nearest_in(&self, poly: PolyId, x: Vec2) -> (f64, Vec2) {
        if self.locate_in(poly, x).is_some() {
            return (0.0, x);
        }
        self.project_onto_boundary(poly, x)
    }

    /// The closest point of the boundary of `poly` to `x`, and its distance (not nudged).
    pub(super) fn project_onto_boundary(&self, poly: PolyId, x: Vec2) -> (f64, Vec2) {
        let vs = self.polygon_vertices(poly);
        let mut best = (f64::INFINITY, self.vertex(vs[0]));
        for i in 0..vs.len() {
            let (a, b) = self.edge(poly, i);
            let q = crate::geom::closest_point_on_segment(x, a, b);
            let d = x.distance(q);
            if d < best.0 {
                best = (d, q);
            }
        }
        best
    }

    /// `q` lies on the boundary of `poly` in exact arithmetic, but a point projected onto a slanted
    /// edge is rounded and can land a hair outside. Moves it toward the polygon's centroid (strictly
    /// inside, the polygon being convex) by the smallest step that [`NavMesh::locate_in`] accepts,
    /// so that a snapped point is always on the mesh.
    pub(crate) fn pull_inside(&self, poly: PolyId, q: Vec2) -> Vec2 {
        crate::geom::nudge_toward(q, self.centroid(poly), |r| {
            self.locate_in(poly, r).is_some()
        })
    }
}
