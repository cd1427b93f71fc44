//! Geometry in `f64` with exact sign decisions.
//!
//! Every "which side", "convex or not" and "inside or not" question in Portolan goes through
//! [`orient`], which wraps Shewchuk's adaptive-precision `orient2d` from the `robust` crate and
//! answers with an [`Orientation`] enum. Lengths, areas and intersection points are computed in
//! plain `f64`: they are measurements, not decisions.
//!
//! # Axes
//! Portolan uses the mathematical convention: x grows to the right, y grows **up**, and a
//! counter-clockwise (CCW) polygon has a positive signed area. Data in screen coordinates
//! (y down, as in the chapter's figure, MovingAI grids and SVG) works unchanged — every algorithm
//! only needs *consistent* orientation — but on such a screen "counter-clockwise" looks clockwise
//! and a portal's [`left`](crate::search::Portal::left) endpoint is drawn on the right.

#[cfg(any(feature = "mint", feature = "glam"))]
#[cfg_attr(docsrs, doc(cfg(any(feature = "mint", feature = "glam"))))]
pub mod interop;
mod polygon;
mod vec2;

pub use polygon::{
    convex_partition, convex_strictly_apart, convexity, first_touching_pair, point_in_polygon,
    point_in_polygon_strict, polygon_is_simple, segments_cross, signed_area, ConvexFault,
    PointInPolygon, SimplicityError,
};
pub(crate) use polygon::{dedup_ring, orient_if_convex};
pub(crate) use vec2::{dist, norm, norm_guarded};
pub use vec2::{Aabb, Vec2};

/// The smallest move of `p` toward `target` that `ok` accepts: `p` itself if it passes, then
/// `p + t · (target − p)` for `t` = ε, 4ε, 16ε, … below 1 (ε = 2⁻⁵², so 26 of them, the last
/// 1/4), else `target`. For a point that is right in exact arithmetic but rounded a hair off (a
/// projection onto a slanted edge, an interval end), with `target` a point known to pass (a
/// convex polygon's centroid). At most [`NUDGE_PROBES`] calls of `ok`, whatever the points.
pub(crate) fn nudge_toward(p: Vec2, target: Vec2, ok: impl Fn(Vec2) -> bool) -> Vec2 {
    if ok(p) {
        return p;
    }
    // A counted loop, not `while t < 1`: the bound does not rest on float arithmetic. The values
    // of t are exact powers of two, the same as the `while` loop's.
    let mut t = f64::EPSILON;
    for _ in 1..NUDGE_PROBES {
        let r = p.lerp(target, t);
        if ok(r) {
            return r;
        }
        t *= 4.0;
    }
    target
}

/// How many points [`nudge_toward`] tries at most: `p` and 26 steps toward the target.
pub(crate) const NUDGE_PROBES: usize = 27;

/// Which way three points turn, decided exactly.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Orientation {
    /// `c` is to the left of the directed line `a → b` (a counter-clockwise turn when y is up).
    CounterClockwise,
    /// `c` is to the right of the directed line `a → b`.
    Clockwise,
    /// The three points lie on one line (or two of them coincide).
    Collinear,
}

impl Orientation {
    /// `true` for [`Orientation::CounterClockwise`].
    #[inline]
    pub fn is_ccw(self) -> bool {
        self == Orientation::CounterClockwise
    }
    /// `true` for [`Orientation::Clockwise`].
    #[inline]
    pub fn is_cw(self) -> bool {
        self == Orientation::Clockwise
    }
    /// `true` for [`Orientation::Collinear`].
    #[inline]
    pub fn is_collinear(self) -> bool {
        self == Orientation::Collinear
    }
    /// The orientation seen from the other side (`a`, `c`, `b` instead of `a`, `b`, `c`).
    #[inline]
    pub fn reversed(self) -> Orientation {
        match self {
            Orientation::CounterClockwise => Orientation::Clockwise,
            Orientation::Clockwise => Orientation::CounterClockwise,
            Orientation::Collinear => Orientation::Collinear,
        }
    }
}

/// Exact orientation of `c` relative to the directed line `a → b`.
///
/// ```
/// use portolan::geom::{orient, Orientation, Vec2};
/// let (a, b) = (Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0));
/// assert_eq!(orient(a, b, Vec2::new(0.5, 1.0)), Orientation::CounterClockwise);
/// assert_eq!(orient(a, b, Vec2::new(0.5, -1e-300)), Orientation::Clockwise);
/// assert_eq!(orient(a, b, Vec2::new(7.0, 0.0)), Orientation::Collinear);
/// ```
#[inline]
pub fn orient(a: Vec2, b: Vec2, c: Vec2) -> Orientation {
    // Fast filter: the common case is far from degenerate and needs no extended precision.
    let (det, clear) = orient_filtered(a, b, c);
    let det = if clear {
        det
    } else if zero_products(a, b, c) || a == b {
        // Exactly collinear (or two points are one), as grid maps and shared portal ends make
        // points, with no extended precision (which cost a sixth of a maze query's time).
        0.0
    } else {
        orient_exact(a, b, c)
    };
    orientation_of(det)
}

/// `true` when each product of [`orient`]'s determinant, `(a.x - c.x)(b.y - c.y)` and
/// `(a.y - c.y)(b.x - c.x)`, has a factor that is exactly zero (the difference of two floats is
/// zero only when they are equal): the determinant is exactly 0. Points on a line parallel to
/// an axis, which grid maps are full of. Written without short circuits, for callers that
/// combine tests without a branch each ([`orient_static`]).
#[inline]
fn zero_products(a: Vec2, b: Vec2, c: Vec2) -> bool {
    (a.x == c.x || b.y == c.y) & (a.y == c.y || b.x == c.x)
}

/// Shewchuk's adaptive exact determinant of [`orient`] (its slow path): its sign is exact.
///
/// Shewchuk's arithmetic assumes that no product overflows. Where one does (finite points some
/// 1e154 or more apart, such as a target a huge time step throws far off the map), his
/// determinant comes out NaN, which read as "collinear" and put that far point inside every
/// polygon it was tested against. There the points are scaled by one power of two, which
/// changes no sign, so that the largest coordinate is about 2^500, and the determinant is
/// taken again: exact unless the scaling pushes some other coordinate below the normal range
/// (coordinates more than about 2^1000 apart in size), and never NaN.
#[inline]
fn orient_exact(a: Vec2, b: Vec2, c: Vec2) -> f64 {
    let det = shewchuk_orient(a, b, c);
    if det.is_nan() {
        orient_rescaled(a, b, c)
    } else {
        det
    }
}

fn shewchuk_orient(a: Vec2, b: Vec2, c: Vec2) -> f64 {
    robust::orient2d(
        robust::Coord { x: a.x, y: a.y },
        robust::Coord { x: b.x, y: b.y },
        robust::Coord { x: c.x, y: c.y },
    )
}

/// [`orient_exact`] of the three points scaled by the power of two that brings the largest
/// coordinate to about 2^500 (finite points: the callers' are).
#[cold]
fn orient_rescaled(a: Vec2, b: Vec2, c: Vec2) -> f64 {
    let largest = [a.x, a.y, b.x, b.y, c.x, c.y]
        .iter()
        .fold(0.0f64, |m, v| m.max(v.abs()));
    if !largest.is_finite() || largest == 0.0 {
        return 0.0;
    }
    // The binary exponent of the largest coordinate, from its bits (a normal number here: it
    // is past 1e154).
    let exponent = ((largest.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let scale = 2f64.powi((500 - exponent).min(1000));
    shewchuk_orient(a * scale, b * scale, c * scale)
}

/// The orientation a determinant's sign says.
#[inline]
fn orientation_of(det: f64) -> Orientation {
    if det > 0.0 {
        Orientation::CounterClockwise
    } else if det < 0.0 {
        Orientation::Clockwise
    } else {
        Orientation::Collinear
    }
}

/// Shewchuk's `ccwerrboundA`, `(3 + 16ε)ε`: the relative error bound of the plain `f64`
/// orientation determinant, against `|detleft| + |detright|`.
const CCW_ERR_BOUND_A: f64 = (3.0 + 16.0 * f64::EPSILON) * f64::EPSILON;

/// The determinant [`orient`] decides on, in plain `f64`, and whether its sign is certain: not
/// zero, and at least Shewchuk's error bound (`ccwerrboundA`) away from it, so that its sign is
/// the exact one: `orient`'s own fast filter. (Callers that combine several signs without a
/// branch each, the corner search's views, use [`orient_static`], the same test against one
/// bound for a whole box, and fall back to `orient` where one is not certain.)
#[inline]
fn orient_filtered(a: Vec2, b: Vec2, c: Vec2) -> (f64, bool) {
    let detleft = (a.x - c.x) * (b.y - c.y);
    let detright = (a.y - c.y) * (b.x - c.x);
    let det = detleft - detright;
    let detsum = detleft.abs() + detright.abs();
    (det, det != 0.0 && det.abs() >= CCW_ERR_BOUND_A * detsum)
}

/// [`orient_filtered`] with a static error bound ([`static_orient_bound`] of a box holding all
/// three points) in place of the per-call one: a cheaper test, certain where it says so (the
/// bound is at least the per-call one), abstaining a little more often near zero. Also
/// certain, with a determinant of 0, where [`zero_products`] says it is exactly 0 (a tenth of
/// the views' tests on lak303d's scenario).
#[inline]
pub(crate) fn orient_static(a: Vec2, b: Vec2, c: Vec2, bound: f64) -> (f64, bool) {
    let det = (a.x - c.x) * (b.y - c.y) - (a.y - c.y) * (b.x - c.x);
    let zero = zero_products(a, b, c);
    // (0, not `det`: an infinite factor would make the zero product NaN. A select, not a
    // branch: the side lists' tests come out as good as random.)
    let det = if zero { 0.0 } else { det };
    (det, (det.abs() > bound) | zero)
}

/// The error bound [`orient_static`] uses for points in `bounds` (a mesh's, for tests among its
/// vertices and points on it): Shewchuk's `ccwerrboundA` times the largest
/// `|detleft| + |detright|` such points can give (each difference at most the box's width or
/// height, rounded up; each product and the sum too), with a margin. Infinite (every test
/// abstains) for a box that is not finite.
pub(crate) fn static_orient_bound(bounds: Aabb) -> f64 {
    let extent = (bounds.max.x - bounds.min.x).max(bounds.max.y - bounds.min.y);
    let bound =
        CCW_ERR_BOUND_A * 2.0 * extent * extent * (1.0 + 16.0 * f64::EPSILON) * (1.0 + 1e-9);
    if bound.is_finite() {
        bound
    } else {
        f64::INFINITY
    }
}

/// `true` when `a` and `b`, known to be collinear with `v` and different from it, lie on the same
/// ray from `v` (exact: the sign of a difference of two floats is exact).
#[inline]
pub(crate) fn same_ray(v: Vec2, a: Vec2, b: Vec2) -> bool {
    let s = |t: f64| t.partial_cmp(&0.0);
    s(a.x - v.x) == s(b.x - v.x) && s(a.y - v.y) == s(b.y - v.y)
}

/// Twice the signed area of triangle `a b c` in plain `f64` (positive when CCW).
///
/// A measurement, not a decision: use [`orient`] for signs.
#[inline]
pub fn cross3(a: Vec2, b: Vec2, c: Vec2) -> f64 {
    (b - a).cross(c - a)
}

/// Where the segment `p0 → p1` meets the infinite line through `a` and `b`, as the parameter
/// `t` along `p0 → p1` (`p0 + t (p1 - p0)`). `None` when they are parallel.
#[inline]
pub fn line_intersection_t(p0: Vec2, p1: Vec2, a: Vec2, b: Vec2) -> Option<f64> {
    let d = p1 - p0;
    let e = b - a;
    let denom = d.cross(e);
    if denom == 0.0 {
        return None;
    }
    Some((a - p0).cross(e) / denom)
}

/// The point of segment `a b` closest to `p`.
#[inline]
pub fn closest_point_on_segment(p: Vec2, a: Vec2, b: Vec2) -> Vec2 {
    let ab = b - a;
    let len2 = ab.dot(ab);
    if len2 == 0.0 {
        return a;
    }
    let t = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
    a + ab * t
}

/// Distance from `p` to the segment `a b`.
#[inline]
pub fn distance_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f64 {
    p.distance(closest_point_on_segment(p, a, b))
}

/// `true` when `p` lies on the closed segment `a b` (decided exactly).
#[inline]
pub fn on_segment(p: Vec2, a: Vec2, b: Vec2) -> bool {
    // The box test first: it is cheap and rejects almost every call.
    p.x >= a.x.min(b.x)
        && p.x <= a.x.max(b.x)
        && p.y >= a.y.min(b.y)
        && p.y <= a.y.max(b.y)
        && orient(a, b, p).is_collinear()
}

/// The smallest non-zero coordinate magnitude the library accepts: 2⁻³⁰⁰
/// ([`coordinate_in_range`]).
pub const MIN_COORDINATE: f64 = 4.909093465297727e-91;
/// The largest coordinate magnitude the library accepts: 2³⁰⁰ ([`coordinate_in_range`]).
pub const MAX_COORDINATE: f64 = 2.037035976334486e90;

/// Whether `v` is a coordinate the library accepts: 0, or a magnitude from [`MIN_COORDINATE`]
/// to [`MAX_COORDINATE`] (so not sub-normal, not huge, not NaN or infinite). Scenes
/// ([`build`](crate::build())), meshes ([`NavMesh::from_polygons`](crate::NavMesh::from_polygons),
/// so every mesh reader) and query points are held to it, each with a typed error naming the
/// culprit.
///
/// Why this range: Shewchuk's predicates ([`orient`]) are exact only while no product of
/// coordinate differences underflows or overflows, and between 2⁻³⁰⁰ and 2³⁰⁰ every product and
/// error term of `orient2d` stays far inside `f64`'s normal range, as do the squared distances of
/// the searches (at 1e160 they overflowed and the exact search returned a detour). It also keeps
/// the CDT decomposition's overlay grid a normal number: a map's extent is then at least 2⁻³⁵²,
/// where the grid step search used to underflow to 0 and double it forever.
///
/// ```
/// use portolan::geom::coordinate_in_range;
/// assert!(coordinate_in_range(0.0) && coordinate_in_range(-1e90) && coordinate_in_range(1e-90));
/// assert!(!coordinate_in_range(1e160) && !coordinate_in_range(5e-324) && !coordinate_in_range(f64::NAN));
/// ```
#[inline]
pub fn coordinate_in_range(v: f64) -> bool {
    v == 0.0 || (MIN_COORDINATE..=MAX_COORDINATE).contains(&v.abs())
}

/// Both coordinates of `p` in range ([`coordinate_in_range`]): the check every reader, builder
/// and query makes of a point.
#[inline]
pub(crate) fn point_in_range(p: Vec2) -> bool {
    coordinate_in_range(p.x) && coordinate_in_range(p.y)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Points so far apart that Shewchuk's products overflow (his determinant alone is NaN)
    /// keep their orientation, and the collinear stay collinear.
    #[test]
    fn points_far_apart_keep_their_orientation() {
        // Products past f64::MAX: Shewchuk's determinant alone is NaN for these.
        let (a, b) = (Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0));
        let far = |x: f64, y: f64| Vec2::new(x, y);
        assert!(orient(a, b, far(1e301, 1e301)).is_ccw());
        assert!(orient(a, b, far(-2e301, -1e301)).is_cw());
        assert!(orient(a, b, far(3e300, 0.0)).is_collinear());
        // Differences past f64::MAX.
        let (l, r) = (Vec2::new(-1e308, 0.0), Vec2::new(1e308, 0.0));
        assert!(orient(l, r, Vec2::new(0.0, 1.0)).is_ccw());
        assert!(orient(l, r, Vec2::new(0.0, -1e-300)).is_cw());
        assert!(orient(l, r, Vec2::new(5.0, 0.0)).is_collinear());
        // Three far points, all on one line and not.
        let (p, q) = (far(1e300, 1e300), far(-1e300, -1e300));
        assert!(orient(p, q, far(2e300, 2e300)).is_collinear());
        assert!(orient(p, q, far(2e300, 1e300)).is_ccw());
        assert!(orient(q, p, far(2e300, 1e300)).is_cw());
    }

    /// Where `orient_static` says its sign is certain, it is `orient`'s: on random points of
    /// boxes from 1 to 1e9 wide (offset from the origin up to 1e12), and on points within a
    /// few units in the last place of a line, where the determinant is all rounding.
    #[test]
    fn orient_static_is_certain_only_where_right() {
        let mut rng = crate::random::Rng::new(3);
        let (mut certain, mut abstained) = (0usize, 0usize);
        for &(extent, offset) in &[(1.0, 0.0), (512.0, 0.0), (1e4, 1e6), (1e9, 1e12)] {
            let corner = Vec2::new(offset, offset);
            let bound = static_orient_bound(Aabb::new(corner, corner + Vec2::new(extent, extent)));
            let point = |rng: &mut crate::random::Rng| {
                Vec2::new(
                    offset + extent * rng.next_f64(),
                    offset + extent * rng.next_f64(),
                )
            };
            for i in 0..20_000 {
                let (a, b) = (point(&mut rng), point(&mut rng));
                let c = if i % 2 == 0 {
                    point(&mut rng)
                } else {
                    // On the line a → b, moved by a few ulps: nearly collinear.
                    let t = rng.next_f64();
                    let p = a + (b - a) * t;
                    let steps = rng.next_u64() % 5;
                    Vec2::new(f64::from_bits(p.x.to_bits() + steps), p.y)
                };
                if c.x > offset + extent || c.y > offset + extent {
                    continue;
                }
                let (det, clear) = orient_static(a, b, c, bound);
                if clear {
                    certain += 1;
                    assert_eq!(orientation_of(det), orient(a, b, c), "{a:?} {b:?} {c:?}");
                } else {
                    abstained += 1;
                }
            }
        }
        assert!(
            certain > 50_000 && abstained > 1_000,
            "{certain} {abstained}"
        );
        // Lattice points, as on a grid map: collinear triples are exactly 0 and certain where
        // the line is parallel to an axis, and whatever is certain is right.
        let bound = static_orient_bound(Aabb::new(Vec2::ZERO, Vec2::new(8.0, 8.0)));
        let lattice: Vec<Vec2> = (0..9)
            .flat_map(|x| (0..9).map(move |y| Vec2::new(f64::from(x), f64::from(y))))
            .collect();
        let mut axis_zeros = 0;
        for (i, &a) in lattice.iter().enumerate().step_by(7) {
            for &b in lattice.iter().skip(i % 5).step_by(3) {
                for &c in &lattice {
                    let (det, clear) = orient_static(a, b, c, bound);
                    let exact = orient(a, b, c);
                    if clear {
                        assert_eq!(orientation_of(det), exact, "{a:?} {b:?} {c:?}");
                    }
                    if exact.is_collinear()
                        && (a.x == c.x || a.y == c.y)
                        && (b.x == c.x || b.y == c.y)
                    {
                        assert!(clear, "{a:?} {b:?} {c:?}");
                        axis_zeros += 1;
                    }
                }
            }
        }
        assert!(axis_zeros > 100, "{axis_zeros}");
        let huge = |x: f64| static_orient_bound(Aabb::new(Vec2::ZERO, Vec2::new(x, 1.0)));
        assert_eq!(huge(f64::INFINITY), f64::INFINITY);
        assert_eq!(huge(1e300), f64::INFINITY);
    }

    /// `nudge_toward` tries `p`, then t = 2⁻⁵², 2⁻⁵⁰, …, 2⁻², then gives `target`: a fixed,
    /// finite sequence, whatever the points (sub-normal, huge, the same point twice) and however
    /// `ok` answers.
    #[test]
    fn nudge_toward_tries_a_bounded_sequence_then_the_target() {
        let cases = [
            (Vec2::new(0.0, 0.0), Vec2::new(1.0, 1.0)),
            (Vec2::new(5e-324, 0.0), Vec2::new(1e-310, 5e-324)),
            (Vec2::new(-1e300, 1e300), Vec2::new(1e300, -1e300)),
            (Vec2::new(3.0, 4.0), Vec2::new(3.0, 4.0)),
        ];
        for (p, target) in cases {
            let tried = std::cell::RefCell::new(Vec::new());
            let got = nudge_toward(p, target, |r| {
                tried.borrow_mut().push(r);
                false
            });
            assert_eq!(got, target);
            let tried = tried.into_inner();
            assert_eq!(tried.len(), NUDGE_PROBES);
            let want: Vec<Vec2> = std::iter::once(p)
                .chain((0..26).map(|k| p.lerp(target, 2f64.powi(2 * k - 52))))
                .collect();
            assert_eq!(tried, want);
        }
        // The first point accepted is the answer.
        let p = Vec2::new(0.0, 0.0);
        let got = nudge_toward(p, Vec2::new(1.0, 0.0), |r| r.x >= 2f64.powi(-20));
        assert_eq!(got, Vec2::new(2f64.powi(-20), 0.0));
    }

    #[test]
    fn orient_is_exact_near_degenerate() {
        // Classic failure case for naive floating point: points nearly on a line.
        let a = Vec2::new(0.5, 0.5);
        let b = Vec2::new(12.0, 12.0);
        let c = Vec2::new(24.0, 24.0);
        assert_eq!(orient(a, b, c), Orientation::Collinear);
        let c2 = Vec2::new(24.0, 24.0 + 1e-14);
        assert_eq!(orient(a, b, c2), Orientation::CounterClockwise);
        let c3 = Vec2::new(0.5 + f64::EPSILON, 0.5);
        assert_eq!(orient(a, b, c3), Orientation::Clockwise);
    }

    /// The exact-zero shortcut (a factor of each product exactly zero, or two equal points)
    /// says what Shewchuk's predicate says, including where the filter fails for products that
    /// underflow to zero without being zero.
    #[test]
    fn orient_shortcut_agrees_with_the_exact_predicate() {
        let exact = |a, b, c| orientation_of(orient_exact(a, b, c));
        let xs = [0.0, 1.0, -3.0, 5e-324, 1e-200, -1e-170, 2.5, 1e300];
        for &ax in &xs[..4] {
            for &ay in &xs[2..6] {
                for &bx in &xs {
                    for &by in &xs[..5] {
                        for &(cx, cy) in &[(0.0, 0.0), (1.0, 1e-200), (5e-324, -3.0), (2.5, 2.5)] {
                            let (a, b, c) =
                                (Vec2::new(ax, ay), Vec2::new(bx, by), Vec2::new(cx, cy));
                            for (p, q, r) in [(a, b, c), (b, c, a), (c, a, b), (a, a, c), (a, b, b)]
                            {
                                assert_eq!(orient(p, q, r), exact(p, q, r), "{p:?} {q:?} {r:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn orient_antisymmetric() {
        let pts = [
            Vec2::new(0.1, 0.2),
            Vec2::new(3.3, -1.0),
            Vec2::new(1e-9, 7.0),
            Vec2::new(2.0, 2.0),
        ];
        for &a in &pts {
            for &b in &pts {
                for &c in &pts {
                    assert_eq!(orient(a, b, c), orient(a, c, b).reversed());
                    assert_eq!(orient(a, b, c), orient(b, c, a));
                }
            }
        }
    }

    #[test]
    fn closest_point_clamps() {
        let a = Vec2::new(0.0, 0.0);
        let b = Vec2::new(10.0, 0.0);
        assert_eq!(closest_point_on_segment(Vec2::new(-5.0, 3.0), a, b), a);
        assert_eq!(
            closest_point_on_segment(Vec2::new(4.0, 3.0), a, b),
            Vec2::new(4.0, 0.0)
        );
        assert_eq!(distance_to_segment(Vec2::new(13.0, 4.0), a, b), 5.0);
        assert!(on_segment(Vec2::new(3.0, 0.0), a, b));
        assert!(!on_segment(Vec2::new(11.0, 0.0), a, b));
    }

    #[test]
    fn line_intersection() {
        let t = line_intersection_t(
            Vec2::new(0.0, 0.0),
            Vec2::new(10.0, 10.0),
            Vec2::new(0.0, 5.0),
            Vec2::new(1.0, 5.0),
        );
        assert_eq!(t, Some(0.5));
        assert_eq!(
            line_intersection_t(
                Vec2::new(0.0, 0.0),
                Vec2::new(1.0, 0.0),
                Vec2::new(0.0, 1.0),
                Vec2::new(1.0, 1.0)
            ),
            None
        );
    }
}
