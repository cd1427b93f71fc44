//! Per-query polygon filters: close parts of the mesh for one query without rebuilding it
//! (Detour's `dtQueryFilter` with polygon flags, in its simplest form).
//!
//! A [`PolygonFilter`] is a set of excluded polygons. Put it in
//! [`SearchOptions::filter`](super::SearchOptions::filter) and neither the channel search nor
//! the exact search ([`SearchMethod::Exact`](super::SearchMethod::Exact), for which a closed polygon is a wall) enters
//! those polygons: a closed door, a collapsed bridge, a cell occupied by a parked vehicle.
//! [`PolygonFilter::exclude_overlapping`] marks every polygon whose interior overlaps a temporary
//! convex obstacle, which makes a usable, **coarse** treatment of dynamic obstacles:
//!
//! ```text
//!   ┌──────┬───────────┬──────┐     the obstacle ▓ overlaps polygons B and C:
//!   │  A   │  B  ▓▓▓   │  C   │     both are closed whole, including the free
//!   │      │     ▓▓▓▓▓▓│▓     │     space around ▓ inside them; A and D stay open
//!   ├──────┴───────────┴──────┤
//!   │           D             │
//!   └─────────────────────────┘
//! ```
//!
//! What it is **not**: the mesh is not cut along the obstacle, so free space inside a closed
//! polygon is lost for the query, and the trapezoid decomposition's tall polygons can make that a
//! large area — a path may detour, or be reported missing, where a re-meshed map would have a way
//! through. Precise dynamic obstacles need the mesh rebuilt around them (Recast's tiles); Portolan
//! does not do that yet. Raycasts ([`raycast`](super::raycast)) ignore filters.
//!
//! Rules: a start polygon that is excluded can still be left (the agent is already there); a goal
//! in excluded polygons only is unreachable (`NoPath`, or a partial path). Cost: a filter is a
//! bit set over the polygons; `exclude_overlapping` tests every polygon's bounding box, then an
//! exact separating-axis test: O(n + k·m) for n polygons, k candidates of m vertices.
//!
//! ```
//! use std::sync::Arc;
//! use portolan::{build, BuildOptions, PathFinder, Scene, SearchOptions, Vec2};
//! use portolan::search::PolygonFilter;
//!
//! let mesh = build(&Scene::default_map(), &BuildOptions::trapezoid()).unwrap();
//! let (start, goal) = (Vec2::new(60.0, 60.0), Vec2::new(60.0, 440.0));
//! let mut finder = PathFinder::new();
//! let open = finder.find_path(&mesh, start, goal, &SearchOptions::default()).unwrap();
//!
//! // A crate dropped in the corridor the path used.
//! let mut filter = PolygonFilter::new();
//! let closed = filter
//!     .exclude_overlapping(&mesh, &[Vec2::new(10.0, 200.0), Vec2::new(140.0, 200.0), Vec2::new(140.0, 210.0), Vec2::new(10.0, 210.0)])
//!     .unwrap();
//! assert!(closed >= 1);
//! let options = SearchOptions::default().with_filter(Some(Arc::new(filter)));
//! let detour = finder.find_path(&mesh, start, goal, &options);
//! assert!(detour.map_or(true, |p| p.length > open.length));
//! ```

use crate::geom::{orient, polygon_is_simple, signed_area, Aabb, Orientation, Vec2};
use crate::mesh::{NavMesh, PolyId};

/// A set of polygons excluded from a query.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PolygonFilter {
    /// Bit `p` set = polygon `p` excluded.
    bits: Vec<u64>,
}

/// Why a temporary obstacle cannot be used.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum FilterError {
    /// A vertex is NaN or infinite.
    #[error("obstacle vertex {vertex} is not finite")]
    NonFinite {
        /// The vertex index.
        vertex: usize,
    },
    /// The ring is not a simple polygon (too few vertices, repeated or crossing edges, zero area).
    #[error("the obstacle is not a simple polygon: {0:?}")]
    NotSimple(crate::geom::SimplicityError),
    /// The ring is not convex at a vertex (split it into convex pieces and exclude each).
    #[error("the obstacle is not convex at vertex {vertex}; split it into convex pieces")]
    NotConvex {
        /// The vertex index.
        vertex: usize,
    },
}

impl PolygonFilter {
    /// A filter that excludes nothing.
    pub fn new() -> PolygonFilter {
        PolygonFilter::default()
    }

    /// Excludes polygon `p`.
    pub fn exclude(&mut self, p: PolyId) {
        let (w, b) = (p.index() / 64, p.index() % 64);
        if self.bits.len() <= w {
            self.bits.resize(w + 1, 0);
        }
        self.bits[w] |= 1 << b;
    }

    /// Lets polygon `p` be used again.
    pub fn include(&mut self, p: PolyId) {
        if let Some(word) = self.bits.get_mut(p.index() / 64) {
            *word &= !(1 << (p.index() % 64));
        }
    }

    /// `true` when `p` is excluded.
    #[inline]
    pub fn is_excluded(&self, p: PolyId) -> bool {
        self.bits
            .get(p.index() / 64)
            .is_some_and(|w| w & (1 << (p.index() % 64)) != 0)
    }

    /// The excluded polygons, in id order.
    pub fn excluded(&self) -> impl Iterator<Item = PolyId> + '_ {
        self.bits.iter().enumerate().flat_map(|(w, &word)| {
            (0..64)
                .filter(move |b| word & (1 << b) != 0)
                .map(move |b| PolyId((w * 64 + b) as u32))
        })
    }

    /// `true` when nothing is excluded.
    pub fn is_empty(&self) -> bool {
        self.bits.iter().all(|&w| w == 0)
    }

    /// Excludes every polygon of `mesh` whose interior overlaps the interior of the convex
    /// polygon `obstacle` (either orientation); touching along an edge or at a point does not
    /// count. Returns how many polygons were newly excluded. Coarse: see the [module docs](self).
    pub fn exclude_overlapping(
        &mut self,
        mesh: &NavMesh,
        obstacle: &[Vec2],
    ) -> Result<usize, FilterError> {
        if let Some(vertex) = obstacle.iter().position(|p| !p.is_finite()) {
            return Err(FilterError::NonFinite { vertex });
        }
        polygon_is_simple(obstacle).map_err(FilterError::NotSimple)?;
        let mut ring = obstacle.to_vec();
        if signed_area(&ring) < 0.0 {
            ring.reverse();
        }
        let n = ring.len();
        for i in 0..n {
            if orient(ring[i], ring[(i + 1) % n], ring[(i + 2) % n]) == Orientation::Clockwise {
                let k = (i + 1) % n;
                // Report the index in the caller's ring.
                let vertex = if signed_area(obstacle) < 0.0 {
                    n - 1 - k
                } else {
                    k
                };
                return Err(FilterError::NotConvex { vertex });
            }
        }
        // The ring is simple with at least 3 vertices (checked), so the box exists.
        let bb = Aabb::from_points(ring.iter().copied()).expect("non-empty ring");
        let mut added = 0;
        for p in mesh.polygons() {
            let pb = mesh.polygon_bounds(p);
            let boxes_overlap = pb.min.x < bb.max.x
                && bb.min.x < pb.max.x
                && pb.min.y < bb.max.y
                && bb.min.y < pb.max.y;
            if !boxes_overlap || self.is_excluded(p) {
                continue;
            }
            let poly: Vec<Vec2> = mesh.polygon_points(p).collect();
            if interiors_overlap(&poly, &ring) {
                self.exclude(p);
                added += 1;
            }
        }
        Ok(added)
    }
}

/// Exact separating-axis test for two convex CCW polygons: their interiors are disjoint iff an
/// edge of one has the other entirely on or right of its line.
fn interiors_overlap(a: &[Vec2], b: &[Vec2]) -> bool {
    let separated_by_edge_of = |p: &[Vec2], q: &[Vec2]| {
        (0..p.len()).any(|i| {
            let (e0, e1) = (p[i], p[(i + 1) % p.len()]);
            q.iter().all(|&x| !orient(e0, e1, x).is_ccw())
        })
    };
    !(separated_by_edge_of(a, b) || separated_by_edge_of(b, a))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{build, BuildOptions};
    use crate::geom::Aabb;
    use crate::scene::Scene;
    use crate::search::{PathError, PathFinder, SearchOptions};
    use crate::testkit::scenes::square_map;
    use std::sync::Arc;

    fn v(x: f64, y: f64) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn set_operations() {
        let mut f = PolygonFilter::new();
        assert!(f.is_empty());
        f.exclude(PolyId(3));
        f.exclude(PolyId(130));
        assert!(f.is_excluded(PolyId(3)) && f.is_excluded(PolyId(130)));
        assert!(!f.is_excluded(PolyId(4)) && !f.is_excluded(PolyId(100_000)));
        assert_eq!(
            f.excluded().collect::<Vec<_>>(),
            vec![PolyId(3), PolyId(130)]
        );
        f.include(PolyId(3));
        f.include(PolyId(9999));
        assert_eq!(f.excluded().collect::<Vec<_>>(), vec![PolyId(130)]);
    }

    #[test]
    fn overlap_is_exact_and_ignores_touching() {
        // Square map with a central obstacle; polygons: left, below, above, right.
        let m = square_map();
        let left = m.locate(v(1.0, 5.0)).polygon().unwrap();
        // Touching the left polygon along its side x = 4 only: nothing closed on that side.
        let mut f = PolygonFilter::new();
        let ring = [v(4.0, 1.0), v(5.0, 1.0), v(5.0, 2.0), v(4.0, 2.0)];
        f.exclude_overlapping(&m, &ring).unwrap();
        assert!(!f.is_excluded(left));
        assert_eq!(
            f.excluded().count(),
            1,
            "only the polygon below the obstacle"
        );
        // Clockwise input works the same.
        let mut g = PolygonFilter::new();
        let mut cw = ring;
        cw.reverse();
        g.exclude_overlapping(&m, &cw).unwrap();
        assert_eq!(f, g);
        // Straddling x = 4: both polygons.
        let mut h = PolygonFilter::new();
        let n = h
            .exclude_overlapping(&m, &[v(3.5, 1.0), v(4.5, 1.0), v(4.5, 2.0)])
            .unwrap();
        assert_eq!(n, 2);
        assert!(h.is_excluded(left));
    }

    #[test]
    fn bad_obstacles_are_named() {
        let m = build(&Scene::default_map(), &BuildOptions::trapezoid()).unwrap();
        let mut f = PolygonFilter::new();
        assert_eq!(
            f.exclude_overlapping(&m, &[v(0.0, 0.0), v(f64::NAN, 1.0), v(1.0, 1.0)]),
            Err(FilterError::NonFinite { vertex: 1 })
        );
        assert!(matches!(
            f.exclude_overlapping(&m, &[v(0.0, 0.0), v(1.0, 1.0)]),
            Err(FilterError::NotSimple(_))
        ));
        // An L shape, not convex at vertex 3.
        let l = [
            v(0.0, 0.0),
            v(2.0, 0.0),
            v(2.0, 1.0),
            v(1.0, 1.0),
            v(1.0, 2.0),
            v(0.0, 2.0),
        ];
        assert_eq!(
            f.exclude_overlapping(&m, &l),
            Err(FilterError::NotConvex { vertex: 3 })
        );
        let mut rev = l;
        rev.reverse();
        assert_eq!(
            f.exclude_overlapping(&m, &rev),
            Err(FilterError::NotConvex { vertex: 2 })
        );
        assert!(f.is_empty(), "failed calls exclude nothing");
    }

    #[test]
    fn a_door_closes_a_split_map() {
        // A wall with a gap (door) at y ∈ [8, 10]: closing the polygon in the gap cuts the map.
        let s = Scene::new(Aabb::new(Vec2::ZERO, v(10.0, 10.0))).with_obstacle([
            (4.0, 0.0),
            (6.0, 0.0),
            (6.0, 8.0),
            (4.0, 8.0),
        ]);
        let m = build(&s, &BuildOptions::trapezoid()).unwrap();
        let (a, b) = (v(1.0, 1.0), v(9.0, 1.0));
        let mut finder = PathFinder::new();
        let open = finder
            .find_path(&m, a, b, &SearchOptions::default())
            .unwrap();
        assert!(open.length > a.distance(b));
        let door = m.locate(v(5.0, 9.0)).polygon().unwrap();
        let mut f = PolygonFilter::new();
        f.exclude(door);
        let opts = SearchOptions::default().with_filter(Some(Arc::new(f)));
        assert_eq!(finder.find_path(&m, a, b, &opts), Err(PathError::NoPath));
        // A goal inside the closed polygon is unreachable; a start inside it can leave.
        assert_eq!(
            finder.find_path(&m, a, v(5.0, 9.0), &opts),
            Err(PathError::NoPath)
        );
        let out = finder.find_path(&m, v(5.0, 9.0), a, &opts).unwrap();
        assert!(out.is_complete());
        assert_eq!(out.channel[0], door);
    }
}
