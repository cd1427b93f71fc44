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
                if orient(p, shared, q).is_collinear() && !continues_forward(p, shared, q) {
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

/// For three collinear points with `a ≠ b`: `true` when `c` lies beyond `b` as seen from `a`
/// (the walk `a → b → c` goes straight on), `false` when it turns back (or `c = b`). Exact:
/// coordinate comparisons only, no rounded dot product (which underflows at subnormal scale).
#[inline]
fn continues_forward(a: Vec2, b: Vec2, c: Vec2) -> bool {
    // A line that is not vertical is ordered by x; a vertical one by y.
    let (a, b, c) = if a.x != b.x {
        (a.x, b.x, c.x)
    } else {
        (a.y, b.y, c.y)
    };
    b != c && (a < b) == (b < c)
}

/// Why a ring is not a convex counter-clockwise polygon ([`convexity`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ConvexFault {
    /// The ring turns clockwise at this vertex.
    Reflex(usize),
    /// The ring folds back on itself at this (collinear) vertex.
    FoldBack(usize),
    /// Every vertex is collinear.
    ZeroArea,
    /// Left turns everywhere, but the ring winds around more than once (a pentagram).
    WindsTwice,
}

/// Checks, exactly, that the ring of `n` points given by `pt` is convex and counter-clockwise.
/// Collinear vertices are allowed where the ring goes straight on. Consecutive equal points are
/// the caller's to reject first.
pub fn convexity(n: usize, pt: impl Fn(usize) -> Vec2) -> Result<(), ConvexFault> {
    let at = |i: usize| pt(i % n);
    let mut any_turn = false;
    for i in 0..n {
        match orient(at(i), at(i + 1), at(i + 2)) {
            Orientation::Clockwise => return Err(ConvexFault::Reflex((i + 1) % n)),
            Orientation::CounterClockwise => any_turn = true,
            Orientation::Collinear => {
                if !continues_forward(at(i), at(i + 1), at(i + 2)) {
                    return Err(ConvexFault::FoldBack((i + 1) % n));
                }
            }
        }
    }
    if !any_turn {
        return Err(ConvexFault::ZeroArea);
    }
    // Left turns everywhere can still wind around twice. A convex polygon goes up once and
    // down once: exactly one change from rising to falling edges in the cyclic sequence of
    // non-horizontal edge directions.
    let rising = |i: usize| {
        let dy = at(i + 1).y - at(i).y;
        (dy != 0.0).then_some(dy > 0.0)
    };
    let signs = (0..n).filter_map(rising);
    let (mut first, mut prev, mut peaks) = (None, None, 0);
    for s in signs {
        if prev == Some(true) && !s {
            peaks += 1;
        }
        first.get_or_insert(s);
        prev = Some(s);
    }
    if prev == Some(true) && first == Some(false) {
        peaks += 1;
    }
    if peaks != 1 {
        return Err(ConvexFault::WindsTwice);
    }
    Ok(())
}

/// Turns `ring` counter-clockwise if it is a convex polygon in either orientation and says
/// whether it is one, by [`convexity`] (exact; collinear vertices allowed where the ring goes
/// straight on). A ring with fewer than three vertices or a repeated consecutive vertex is not
/// convex; a ring that is not convex is left as it was.
pub(crate) fn orient_if_convex(ring: &mut [Vec2]) -> bool {
    let n = ring.len();
    if n < 3 || (0..n).any(|i| ring[i] == ring[(i + 1) % n]) {
        return false;
    }
    if convexity(n, |i| ring[i]).is_ok() {
        return true;
    }
    ring.reverse();
    if convexity(n, |i| ring[i]).is_ok() {
        return true;
    }
    ring.reverse();
    false
}

/// The closed ring without repeated consecutive vertices, nor a last vertex equal to the first.
pub(crate) fn dedup_ring(mut ring: Vec<Vec2>) -> Vec<Vec2> {
    ring.dedup();
    // After `dedup` the new last vertex differs from the one popped, hence from the first: one
    // pop at most.
    if ring.len() > 1 && ring.first() == ring.last() {
        ring.pop();
    }
    ring
}

/// Cuts a simple counter-clockwise polygon into convex pieces along diagonals between its
/// vertices, exactly: ear clipping (an ear is a strict left turn whose closed triangle holds no
/// other vertex), then Hertel–Mehlhorn (two pieces sharing a diagonal are merged while the
/// union stays convex). Each piece lists indices into `poly`, counter-clockwise, and passes
/// [`convexity`]. `None` when the polygon is not simple and counter-clockwise, or when collinear
/// vertices leave no ear that avoids them.
///
/// O(n³) in the worst case: meant for repairing single small polygons, not for meshing.
pub fn convex_partition(poly: &[Vec2]) -> Option<Vec<Vec<usize>>> {
    let n = poly.len();
    if polygon_is_simple(poly).is_err() || signed_area(poly) <= 0.0 {
        return None;
    }
    if convexity(n, |i| poly[i]).is_ok() {
        return Some(vec![(0..n).collect()]);
    }
    // Ear clipping.
    let mut ring: Vec<usize> = (0..n).collect();
    let mut pieces: Vec<Vec<usize>> = Vec::with_capacity(n - 2);
    while ring.len() > 3 {
        let m = ring.len();
        let ear = (0..m).find(|&i| {
            let (a, b, c) = (ring[(i + m - 1) % m], ring[i], ring[(i + 1) % m]);
            let (pa, pb, pc) = (poly[a], poly[b], poly[c]);
            orient(pa, pb, pc) == Orientation::CounterClockwise
                && ring.iter().all(|&j| {
                    j == a
                        || j == b
                        || j == c
                        || orient(pa, pb, poly[j]) == Orientation::Clockwise
                        || orient(pb, pc, poly[j]) == Orientation::Clockwise
                        || orient(pc, pa, poly[j]) == Orientation::Clockwise
                })
        })?;
        let m = ring.len();
        pieces.push(vec![
            ring[(ear + m - 1) % m],
            ring[ear],
            ring[(ear + 1) % m],
        ]);
        ring.remove(ear);
    }
    if orient(poly[ring[0]], poly[ring[1]], poly[ring[2]]) != Orientation::CounterClockwise {
        return None;
    }
    pieces.push(ring);
    // Hertel–Mehlhorn: merge across shared diagonals while convex.
    let mut merged = true;
    while merged {
        merged = false;
        'pairs: for i in 0..pieces.len() {
            for j in i + 1..pieces.len() {
                if let Some(u) = join(&pieces[i], &pieces[j]) {
                    if convexity(u.len(), |k| poly[u[k]]).is_ok() {
                        pieces[i] = u;
                        pieces.swap_remove(j);
                        merged = true;
                        break 'pairs;
                    }
                }
            }
        }
    }
    Some(pieces)
}

/// The union of two counter-clockwise index cycles sharing one edge (`a → b` in `p`, `b → a` in
/// `q`), as one cycle; `None` when they share no edge.
fn join(p: &[usize], q: &[usize]) -> Option<Vec<usize>> {
    let (np, nq) = (p.len(), q.len());
    for i in 0..np {
        let (a, b) = (p[i], p[(i + 1) % np]);
        if let Some(j) = (0..nq).find(|&j| q[j] == b && q[(j + 1) % nq] == a) {
            // p from b round to a, then q from a round to b, skipping the shared ends.
            let mut out: Vec<usize> = (1..=np).map(|k| p[(i + k) % np]).collect();
            out.extend((2..nq).map(|k| q[(j + k) % nq]));
            return Some(out);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq() -> Vec<Vec2> {
        crate::testkit::scenes::square(2.0)
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

    fn pts(v: &[(f64, f64)]) -> Vec<Vec2> {
        v.iter().map(|&p| p.into()).collect()
    }

    /// An L of three unit squares: concave at (1, 1), its vertex 3.
    fn l_shape() -> Vec<Vec2> {
        pts(&[
            (0.0, 0.0),
            (2.0, 0.0),
            (2.0, 1.0),
            (1.0, 1.0),
            (1.0, 2.0),
            (0.0, 2.0),
        ])
    }

    fn check_partition(poly: &[Vec2], pieces: &[Vec<usize>]) {
        let mut area = 0.0;
        for piece in pieces {
            let ring: Vec<Vec2> = piece.iter().map(|&i| poly[i]).collect();
            assert_eq!(convexity(ring.len(), |i| ring[i]), Ok(()), "{ring:?}");
            area += signed_area(&ring);
        }
        let whole = signed_area(poly);
        assert!((area - whole).abs() <= 1e-9 * whole, "{area} vs {whole}");
    }

    #[test]
    fn orient_if_convex_turns_convex_rings_only() {
        let mut ccw = sq();
        assert!(orient_if_convex(&mut ccw));
        assert_eq!(ccw, sq());
        let mut cw: Vec<Vec2> = sq().into_iter().rev().collect();
        assert!(orient_if_convex(&mut cw));
        assert_eq!(signed_area(&cw), 4.0);
        // Not convex: left as it was, in either orientation.
        let star: Vec<Vec2> = (0..5)
            .map(|k| {
                let t = -(k as f64) * 4.0 * std::f64::consts::PI / 5.0;
                Vec2::new(t.cos(), t.sin())
            })
            .collect();
        for ring in [l_shape(), l_shape().into_iter().rev().collect(), star] {
            let mut r = ring.clone();
            assert!(!orient_if_convex(&mut r));
            assert_eq!(r, ring);
        }
        let mut repeated = pts(&[(0.0, 0.0), (2.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)]);
        assert!(!orient_if_convex(&mut repeated));
        assert!(!orient_if_convex(&mut pts(&[(0.0, 0.0), (1.0, 1.0)])));
    }

    #[test]
    fn dedup_ring_drops_repeats_and_the_closing_vertex() {
        let ring = pts(&[
            (0.0, 0.0),
            (0.0, 0.0),
            (1.0, 0.0),
            (1.0, 1.0),
            (1.0, 1.0),
            (0.0, 0.0),
            (0.0, 0.0),
        ]);
        assert_eq!(dedup_ring(ring), pts(&[(0.0, 0.0), (1.0, 0.0), (1.0, 1.0)]));
        assert_eq!(
            dedup_ring(pts(&[(3.0, 4.0), (3.0, 4.0)])),
            pts(&[(3.0, 4.0)])
        );
        assert_eq!(dedup_ring(Vec::new()), Vec::new());
    }

    #[test]
    fn convexity_names_the_fault() {
        let sq = sq();
        assert_eq!(convexity(4, |i| sq[i]), Ok(()));
        let cw: Vec<Vec2> = sq.iter().rev().copied().collect();
        assert!(matches!(
            convexity(4, |i| cw[i]),
            Err(ConvexFault::Reflex(_))
        ));
        let l = l_shape();
        assert_eq!(convexity(6, |i| l[i]), Err(ConvexFault::Reflex(3)));
        let flat = pts(&[(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)]);
        assert_eq!(convexity(3, |i| flat[i]), Err(ConvexFault::FoldBack(2)));
        let back = pts(&[(0.0, 0.0), (2.0, 0.0), (1.0, 0.0), (1.0, 1.0)]);
        assert_eq!(convexity(4, |i| back[i]), Err(ConvexFault::FoldBack(1)));
        // A pentagram turns left at every vertex and winds twice.
        let star: Vec<Vec2> = (0..5)
            .map(|k| {
                let t = std::f64::consts::TAU * (2 * k) as f64 / 5.0;
                Vec2::new(t.cos(), t.sin())
            })
            .collect();
        assert_eq!(convexity(5, |i| star[i]), Err(ConvexFault::WindsTwice));
        // Collinear vertices going straight on are fine.
        let run = pts(&[(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (2.0, 1.0)]);
        assert_eq!(convexity(4, |i| run[i]), Ok(()));
    }

    #[test]
    fn fold_back_is_exact_at_subnormal_scale() {
        // Runs of collinear vertices a subnormal step apart, whose rounded dot products underflow
        // to zero: only comparisons decide. (The turns are at a normal scale: `orient` itself is
        // exact only where products of coordinate differences do not underflow.)
        let t = 1e-310;
        let back = pts(&[(0.0, 0.0), (2.0 * t, 0.0), (t, 0.0), (1.0, 1.0)]);
        assert_eq!(convexity(4, |i| back[i]), Err(ConvexFault::FoldBack(1)));
        let run = pts(&[(0.0, 0.0), (t, 0.0), (2.0 * t, 0.0), (1.0, 1.0)]);
        assert_eq!(convexity(4, |i| run[i]), Ok(()));
        let spike = pts(&[(0.0, 0.0), (2.0 * t, 0.0), (t, 0.0), (0.0, 1.0)]);
        assert!(polygon_is_simple(&spike).is_err());
        let (o, up, up2, up3) = (
            Vec2::new(0.0, 0.0),
            Vec2::new(0.0, t),
            Vec2::new(0.0, 2.0 * t),
            Vec2::new(0.0, 3.0 * t),
        );
        assert!(continues_forward(o, up, up2));
        assert!(!continues_forward(up2, up, up3));
    }

    #[test]
    fn convex_partition_of_simple_shapes() {
        let sq = sq();
        assert_eq!(convex_partition(&sq), Some(vec![vec![0, 1, 2, 3]]));
        let l = l_shape();
        let pieces = convex_partition(&l).unwrap();
        assert_eq!(pieces.len(), 2, "{pieces:?}");
        check_partition(&l, &pieces);
        // A comb with collinear runs along its spine.
        let comb = pts(&[
            (0.0, 0.0),
            (5.0, 0.0),
            (5.0, 3.0),
            (4.0, 3.0),
            (4.0, 1.0),
            (3.0, 1.0),
            (3.0, 3.0),
            (2.0, 3.0),
            (2.0, 1.0),
            (1.0, 1.0),
            (1.0, 3.0),
            (0.0, 3.0),
        ]);
        let pieces = convex_partition(&comb).unwrap();
        check_partition(&comb, &pieces);
        assert!(
            pieces.len() <= 4 * 3,
            "Hertel–Mehlhorn is within 4× the optimum (3)"
        );
        // Clockwise, or self-intersecting: no partition.
        let cw: Vec<Vec2> = l.iter().rev().copied().collect();
        assert_eq!(convex_partition(&cw), None);
        let bow = pts(&[(0.0, 0.0), (1.0, 1.0), (1.0, 0.0), (0.0, 1.0)]);
        assert_eq!(convex_partition(&bow), None);
    }

    #[test]
    #[allow(clippy::approx_constant)] // the file's coordinates, digit for digit
    fn an_ulp_of_bend_is_cut_exactly() {
        // Face 1 of Polyanya's `bad-collinear2-rot45.mesh`: its first three vertices lie on a
        // 45° line before rounding; after it the middle one is an ulp to the reflex side.
        let p = pts(&[
            (0.0, 1.4142135623730951),
            (0.7071067811865476, 2.121320343559643),
            (1.4142135623730951, 2.8284271247461903),
            (0.7071067811865476, 3.5355339059327378),
            (-1.4142135623730951, 1.4142135623730951),
            (-0.7071067811865476, 0.7071067811865476),
        ]);
        assert_eq!(convexity(p.len(), |i| p[i]), Err(ConvexFault::Reflex(1)));
        let pieces = convex_partition(&p).unwrap();
        assert_eq!(pieces.len(), 2, "{pieces:?}");
        check_partition(&p, &pieces);
    }

    proptest::proptest! {
        /// Random star-shaped polygons (simple by construction) always split into convex
        /// pieces that tile them.
        #[test]
        fn star_shapes_split_into_convex_pieces(
            radii in proptest::collection::vec(1u32..20, 3..24),
        ) {
            let n = radii.len();
            let poly: Vec<Vec2> = radii
                .iter()
                .enumerate()
                .map(|(k, &r)| {
                    let t = std::f64::consts::TAU * k as f64 / n as f64;
                    // Integer-ish coordinates make collinear triples common.
                    Vec2::new((r as f64 * t.cos()).round(), (r as f64 * t.sin()).round())
                })
                .collect();
            proptest::prop_assume!(polygon_is_simple(&poly).is_ok() && signed_area(&poly) > 0.0);
            let pieces = convex_partition(&poly);
            proptest::prop_assert!(pieces.is_some(), "{poly:?}");
            check_partition(&poly, &pieces.unwrap());
        }
    }
}
