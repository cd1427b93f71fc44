//! Simple polygons as slices of points.

use super::{orient, Orientation, Vec2};

/// The signed area of a polygon (positive when counter-clockwise, y up).
pub fn signed_area(poly: &[Vec2]) -> f64 {
    let n = poly.len();
    if n < 3 {
        return 0.0;
    }
    // Shoelace around the first vertex, which keeps the sums small for far-from-origin data.
    let o = poly[0];
    let mut twice = 0.0;
    for i in 1..n - 1 {
        twice += (poly[i] - o).cross(poly[i + 1] - o);
    }
    twice * 0.5
}

/// Where a point is relative to a polygon.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PointInPolygon {
    /// Strictly inside.
    Inside,
    /// On an edge or a vertex.
    Boundary,
    /// Strictly outside.
    Outside,
}

/// Classifies `p` against a simple polygon of either orientation (exact: crossing-number test
/// whose every side decision is [`orient`]).
pub fn point_in_polygon(poly: &[Vec2], p: Vec2) -> PointInPolygon {
    let n = poly.len();
    let mut inside = false;
    for i in 0..n {
        let a = poly[i];
        let b = poly[(i + 1) % n];
        if super::on_segment(p, a, b) {
            return PointInPolygon::Boundary;
        }
        // Half-open rule on y so that a vertex is counted once.
        if (a.y > p.y) != (b.y > p.y) {
            // Is p left of the upward edge?
            let (lo, hi) = if a.y < b.y { (a, b) } else { (b, a) };
            if orient(lo, hi, p) == Orientation::CounterClockwise {
                inside = !inside;
            }
        }
    }
    if inside {
        PointInPolygon::Inside
    } else {
        PointInPolygon::Outside
    }
}

/// `true` when `p` is strictly inside the polygon (not on its boundary).
pub fn point_in_polygon_strict(poly: &[Vec2], p: Vec2) -> bool {
    point_in_polygon(poly, p) == PointInPolygon::Inside
}

/// `true` when the closed segments `a b` and `c d` share at least one point.
pub fn segments_cross(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> bool {
    let o1 = orient(a, b, c);
    let o2 = orient(a, b, d);
    let o3 = orient(c, d, a);
    let o4 = orient(c, d, b);
    if o1 != o2 && o3 != o4 {
        return true;
    }
    (o1.is_collinear() && super::on_segment(c, a, b))
        || (o2.is_collinear() && super::on_segment(d, a, b))
        || (o3.is_collinear() && super::on_segment(a, c, d))
        || (o4.is_collinear() && super::on_segment(b, c, d))
}

/// Two convex counter-clockwise polygons are strictly apart (no common point) iff one has an edge
/// with the whole other polygon strictly on its outer (right) side. Exact.
pub fn convex_strictly_apart(a: &[Vec2], b: &[Vec2]) -> bool {
    let separates = |p: &[Vec2], q: &[Vec2]| {
        (0..p.len()).any(|i| {
            let (e0, e1) = (p[i], p[(i + 1) % p.len()]);
            q.iter()
                .all(|&x| orient(e0, e1, x) == Orientation::Clockwise)
        })
    };
    separates(a, b) || separates(b, a)
}

/// The first pair `(i, j)`, `i < j` in sweep order, of convex counter-clockwise polygons that are
/// not strictly apart, or `None` when all are pairwise disjoint. A sweep on the bounding boxes'
/// min x skips pairs whose boxes cannot meet.
pub fn first_touching_pair(rings: &[Vec<Vec2>]) -> Option<(usize, usize)> {
    let boxes: Vec<Option<super::Aabb>> = rings
        .iter()
        .map(|r| super::Aabb::from_points(r.iter().copied()))
        .collect();
    let min_x = |i: usize| boxes[i].map_or(f64::INFINITY, |b| b.min.x);
    let mut order: Vec<usize> = (0..rings.len()).filter(|&i| boxes[i].is_some()).collect();
    order.sort_by(|&a, &b| min_x(a).total_cmp(&min_x(b)));
    for (k, &a) in order.iter().enumerate() {
        let ba = boxes[a].expect("filtered to rings with points");
        for &b in &order[k + 1..] {
            let bb = boxes[b].expect("filtered to rings with points");
            if bb.min.x > ba.max.x {
                break;
            }
            if bb.min.y > ba.max.y || bb.max.y < ba.min.y {
                continue;
            }
            if !convex_strictly_apart(&rings[a], &rings[b]) {
                return Some((a, b));
            }
        }
    }
    None
}

/// Why a ring of points is not a simple polygon.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SimplicityError {
    /// Fewer than three points.
    TooFewVertices,
    /// Vertex `index` equals the vertex after it.
    DuplicateVertex {
        /// The first of the two equal vertices.
        index: usize,
    },
    /// The area is zero (every vertex on one line).
    ZeroArea,
    /// Edge `first` (from vertex `first` to the next) meets edge `second` where they are not
    /// neighbours.
    SelfIntersection {
        /// The first edge.
        first: usize,
        /// The second edge.
        second: usize,
    },
}

/// Checks that the ring is a simple polygon: at least three distinct consecutive vertices,
/// non-zero area, and no two edges touching except neighbours at their shared vertex.
///
/// O(n²); meant for input validation of obstacles with up to a few thousand vertices.
pub fn polygon_is_simple(poly: &[Vec2]) -> Result<(), SimplicityError> {
    let n = poly.len();
    if n < 3 {
        return Err(SimplicityError::TooFewVertices);
    }
    for i in 0..n {
        if poly[i] == poly[(i + 1) % n] {
            return Err(SimplicityError::DuplicateVertex { index: i });
        }
    }
    if signed_area(poly) == 0.0
        && poly
            .windows(3)
            .all(|w| orient(w[0], w[1], w[2]).is_collinear())
    {
        return Err(SimplicityError::ZeroArea);
    }
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        for j in i + 1..n {
            let (c, d) = (poly[j], poly[(j + 1) % n]);
            let adjacent_next = j == i + 1;
            let adjacent_prev = i == 0 && j == n - 1;
            if adjacent_next || adjacent_prev {
                // Neighbours share one vertex; they must not overlap beyond it (a spike).
                let (shared, p, q) = if adjacent_next { (b, a, d) } else { (a, b, c) };
                if orient(p, shared, q).is_collinear() && (p - shared).dot(q - shared) > 0.0 {
                    return Err(SimplicityError::SelfIntersection {
                        first: i,
                        second: j,
                    });
                }
                continue;
            }
            if segments_cross(a, b, c, d) {
                return Err(SimplicityError::SelfIntersection {
                    first: i,
                    second: j,
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq() -> Vec<Vec2> {
        vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 2.0),
            Vec2::new(0.0, 2.0),
        ]
    }

    #[test]
    fn area_and_orientation() {
        assert_eq!(signed_area(&sq()), 4.0);
        let mut r = sq();
        r.reverse();
        assert_eq!(signed_area(&r), -4.0);
    }

    #[test]
    fn point_classification() {
        let s = sq();
        assert_eq!(
            point_in_polygon(&s, Vec2::new(1.0, 1.0)),
            PointInPolygon::Inside
        );
        assert_eq!(
            point_in_polygon(&s, Vec2::new(2.0, 1.0)),
            PointInPolygon::Boundary
        );
        assert_eq!(
            point_in_polygon(&s, Vec2::new(0.0, 0.0)),
            PointInPolygon::Boundary
        );
        assert_eq!(
            point_in_polygon(&s, Vec2::new(3.0, 1.0)),
            PointInPolygon::Outside
        );
        // A ray through a vertex must not double count.
        let diamond = [
            Vec2::new(0.0, -1.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(0.0, 1.0),
            Vec2::new(-1.0, 0.0),
        ];
        assert_eq!(
            point_in_polygon(&diamond, Vec2::new(-0.5, 0.0)),
            PointInPolygon::Inside
        );
        assert_eq!(
            point_in_polygon(&diamond, Vec2::new(-2.0, 0.0)),
            PointInPolygon::Outside
        );
    }

    #[test]
    fn simplicity() {
        assert_eq!(polygon_is_simple(&sq()), Ok(()));
        let bowtie = [
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 2.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(0.0, 2.0),
        ];
        assert!(matches!(
            polygon_is_simple(&bowtie),
            Err(SimplicityError::SelfIntersection { .. })
        ));
        let flat = [
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(2.0, 0.0),
        ];
        assert!(polygon_is_simple(&flat).is_err());
        let dup = [
            Vec2::new(0.0, 0.0),
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(0.0, 1.0),
        ];
        assert_eq!(
            polygon_is_simple(&dup),
            Err(SimplicityError::DuplicateVertex { index: 0 })
        );
        assert_eq!(
            polygon_is_simple(&[Vec2::ZERO, Vec2::new(1.0, 0.0)]),
            Err(SimplicityError::TooFewVertices)
        );
    }
}
