//! Inflating obstacles by the agent radius (the chapter's first pitfall: a point agent's mesh lets
//! a round agent scrape walls).
//!
//! A disc-shaped agent of radius `r` fits wherever its centre is at least `r` from every obstacle,
//! so the centre moves in the free space of the obstacles grown by `r`: the Minkowski sum
//! `S ⊕ D(r)`. For a polygon `S` (outer ring counter-clockwise, holes clockwise, solid on the left
//! of every edge) that sum is the union of
//!
//! ```text
//!   S itself,
//!   one rectangle per edge, swept r to the right (outward)      ┌──────────┐ ← r
//!   one circular fan per convex corner, between the two         │  edge    │
//!   outward normals                                          ╭──●══════════●──╮
//!                                                             fan  ██ solid ██  fan
//! ```
//! because every point within `r` of `S` but outside it has its nearest point of `S` either inside
//! an edge (then it is in that edge's rectangle) or at a convex corner (then it is in that
//! corner's fan); reflex corners are nobody's nearest point from outside.
//!
//! # Error bound
//! A fan's arc is replaced by a polyline with its vertices *on* the circle, so the inflated
//! obstacle lies within distance `r` of the original everywhere and contains every point closer
//! than `r − e`, where `e = r (1 − cos(θ / 2))` is the sagitta of one chord of angle `θ`. The
//! chord angle is chosen as the largest with `e ≤ arc_error · r`
//! ([`BuildOptions::arc_error`](super::BuildOptions::arc_error), default 1% of `r`), so a full
//! circle takes ⌈2π / θ⌉ chords (23 at 1%). Flat sides sit at exactly `r`. Computing the union
//! then rounds every vertex to the overlay grid of the map (see [`super::free_space`]), a further
//! error far below `e` for any sensible radius.
//!
//! The outer walkable boundary shrinks by the same rule: its outside is solid, and the outside's
//! edges are the boundary's edges walked the other way.
//!
//! Cost: O(n + Σ fan segments) pieces for a ring of n vertices, then one union for all rings.

use crate::geom::{dedup_ring, orient, Orientation, Vec2};

/// The chord angle θ whose sagitta is `ratio · r`: `θ = 2 acos(1 − ratio)`, computed as
/// `4 asin(sqrt(ratio / 2))` (the same angle, since `1 − cos(θ/2) = 2 sin²(θ/4)`), which keeps
/// its precision for small ratios where `1 − ratio` rounds to 1 (it gave θ = 0 from about
/// 1e-16 down).
///
/// `ratio` must lie in (0, 1]; the result is in (0, π].
pub fn chord_angle(ratio: f64) -> f64 {
    4.0 * (ratio.clamp(0.0, 1.0) / 2.0).sqrt().asin()
}

/// The outward (right-hand) unit normal of the directed edge `a → b` (solid on the left).
#[inline]
fn right_normal(a: Vec2, b: Vec2) -> Option<Vec2> {
    let d = b - a;
    Vec2::new(d.y, -d.x).normalized()
}

/// Points of the arc from `v + r·n1` counter-clockwise to `v + r·n2` (both included, computed
/// exactly as the rectangle corners are), with chords of angle at most `max_angle`.
fn arc(v: Vec2, n1: Vec2, n2: Vec2, r: f64, max_angle: f64, out: &mut Vec<Vec2>) {
    let start = n1.y.atan2(n1.x);
    let mut sweep = n2.y.atan2(n2.x) - start;
    if sweep < 0.0 {
        sweep += std::f64::consts::TAU;
    }
    // A convex corner turns by less than π; a sweep near a full turn is rounding of a corner that
    // barely turns at all.
    if sweep > 1.5 * std::f64::consts::PI {
        sweep = 0.0;
    }
    let k = (sweep / max_angle).ceil().max(1.0) as usize;
    out.push(v + n1 * r);
    for j in 1..k {
        let t = start + sweep * (j as f64 / k as f64);
        out.push(v + Vec2::new(t.cos(), t.sin()) * r);
    }
    out.push(v + n2 * r);
}

/// Appends the pieces whose union with the ring is the ring grown by `r`: one rectangle per edge
/// and one fan per convex corner, each counter-clockwise. The ring must have the solid on its
/// left (outer rings counter-clockwise, holes clockwise) and no repeated consecutive vertices.
pub fn ring_pieces(ring: &[Vec2], r: f64, max_angle: f64, out: &mut Vec<Vec<Vec2>>) {
    let n = ring.len();
    if n < 2 || r <= 0.0 {
        return;
    }
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        let Some(nb) = right_normal(a, b) else {
            continue;
        };
        out.push(vec![a, a + nb * r, b + nb * r, b]);
        // The corner at b, between this edge and the next.
        let c = ring[(i + 2) % n];
        if orient(a, b, c) == Orientation::CounterClockwise {
            if let Some(nc) = right_normal(b, c) {
                let mut fan = vec![b];
                arc(b, nb, nc, r, max_angle, &mut fan);
                out.push(fan);
            }
        }
    }
}

/// A convex counter-clockwise polygon grown by `r` with rounded corners: the convex polygon whose
/// vertices are the corner arcs of [`ring_pieces`] (the chapter's approach for convex obstacles,
/// used by the trapezoid decomposition).
pub fn inflate_convex(ring: &[Vec2], r: f64, max_angle: f64) -> Vec<Vec2> {
    let n = ring.len();
    if r <= 0.0 {
        return ring.to_vec();
    }
    let mut out = Vec::with_capacity(n * 4);
    for i in 0..n {
        let (a, b, c) = (ring[(i + n - 1) % n], ring[i], ring[(i + 1) % n]);
        match (right_normal(a, b), right_normal(b, c)) {
            (Some(n1), Some(n2)) => {
                if orient(a, b, c) == Orientation::CounterClockwise {
                    arc(b, n1, n2, r, max_angle, &mut out);
                } else {
                    out.push(b + n1 * r);
                    out.push(b + n2 * r);
                }
            }
            (Some(n1), None) => out.push(b + n1 * r),
            (None, Some(n2)) => out.push(b + n2 * r),
            (None, None) => {}
        }
    }
    // Arc points of corners closer than a billionth of the radius stand for one corner: merging
    // them moves the outline by less than that, far inside the arc error, and spares the
    // decompositions slivers whose width is a rounding error.
    let close = r * 1e-9;
    out.dedup_by(|b, a| a.distance(*b) <= close);
    while out.len() > 1 && out[0].distance(out[out.len() - 1]) <= close {
        out.pop();
    }
    // Drop vertices that rounding left on a straight line or turned slightly back.
    let mut changed = true;
    while changed && out.len() > 3 {
        changed = false;
        let mut i = 0;
        while i < out.len() && out.len() > 3 {
            let m = out.len();
            let (p, q, s) = (out[(i + m - 1) % m], out[i], out[(i + 1) % m]);
            if orient(p, q, s) != Orientation::CounterClockwise {
                out.remove(i);
                changed = true;
            } else {
                i += 1;
            }
        }
    }
    out
}

/// Clips a convex counter-clockwise polygon to an axis-aligned rectangle (Sutherland–Hodgman).
/// New vertices on a side `x = c` get exactly `x = c` (likewise for y), so the result lies inside
/// the rectangle. Returns an empty vector when nothing is left.
pub fn clip_convex_to_rect(ring: &[Vec2], min: Vec2, max: Vec2) -> Vec<Vec2> {
    let mut poly = ring.to_vec();
    // (axis is x?, bound, keep points with coordinate >= bound?)
    for (on_x, c, keep_ge) in [
        (true, min.x, true),
        (true, max.x, false),
        (false, min.y, true),
        (false, max.y, false),
    ] {
        if poly.is_empty() {
            break;
        }
        let coord = |p: Vec2| if on_x { p.x } else { p.y };
        let inside = |p: Vec2| {
            if keep_ge {
                coord(p) >= c
            } else {
                coord(p) <= c
            }
        };
        let cut = |p: Vec2, q: Vec2| {
            let t = (c - coord(p)) / (coord(q) - coord(p));
            if on_x {
                Vec2::new(c, (p.y + (q.y - p.y) * t).clamp(p.y.min(q.y), p.y.max(q.y)))
            } else {
                Vec2::new((p.x + (q.x - p.x) * t).clamp(p.x.min(q.x), p.x.max(q.x)), c)
            }
        };
        let n = poly.len();
        let mut next = Vec::with_capacity(n + 2);
        for i in 0..n {
            let (p, q) = (poly[i], poly[(i + 1) % n]);
            match (inside(p), inside(q)) {
                (true, true) => next.push(q),
                (true, false) => next.push(cut(p, q)),
                (false, true) => {
                    next.push(cut(p, q));
                    next.push(q);
                }
                (false, false) => {}
            }
        }
        poly = dedup_ring(next);
    }
    // Collinear leftovers (a sliver on a side) carry no area.
    poly.retain({
        let snapshot = poly.clone();
        let m = snapshot.len();
        let mut i = 0;
        move |_| {
            let keep = m < 3
                || orient(
                    snapshot[(i + m - 1) % m],
                    snapshot[i],
                    snapshot[(i + 1) % m],
                ) != Orientation::Collinear;
            i += 1;
            keep
        }
    });
    if poly.len() < 3 {
        poly.clear();
    }
    poly
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::signed_area;

    fn square() -> Vec<Vec2> {
        crate::testkit::scenes::square(2.0)
    }

    #[test]
    fn chord_angle_matches_the_sagitta() {
        for ratio in [0.001, 0.01, 0.1, 0.5] {
            let t = chord_angle(ratio);
            let sagitta = 1.0 - (t / 2.0).cos();
            assert!((sagitta - ratio).abs() < 1e-12, "{ratio}: {sagitta}");
        }
        assert!((chord_angle(1.0) - std::f64::consts::PI).abs() < 1e-12);
        // Small ratios keep their angle (2 acos(1 − 1e-17) was 0).
        let t = chord_angle(1e-17);
        assert!((t - 4.0 * (5e-18f64).sqrt()).abs() < 1e-20, "{t}");
        assert!(chord_angle(crate::build::MIN_ARC_ERROR) > 2.8e-3);
    }

    #[test]
    fn pieces_of_a_square() {
        let mut pieces = Vec::new();
        ring_pieces(&square(), 1.0, chord_angle(0.01), &mut pieces);
        // Four rectangles and four fans, all counter-clockwise.
        assert_eq!(pieces.len(), 8);
        for p in &pieces {
            assert!(signed_area(p) > 0.0, "{p:?}");
        }
        // Each fan's vertices (but the centre) are at distance 1 from its corner.
        for fan in pieces.iter().filter(|p| p.len() > 4) {
            for q in &fan[1..] {
                assert!((q.distance(fan[0]) - 1.0).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn reflex_corners_get_no_fan() {
        // An L: one reflex corner at (1, 1).
        let l = vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 2.0),
            Vec2::new(0.0, 2.0),
        ];
        let mut pieces = Vec::new();
        ring_pieces(&l, 0.5, chord_angle(0.01), &mut pieces);
        assert_eq!(pieces.len(), 6 + 5);
    }

    #[test]
    fn inflated_convex_stays_convex_and_within_error() {
        let ratio = 0.01;
        let r = 3.0;
        let grown = inflate_convex(&square(), r, chord_angle(ratio));
        let n = grown.len();
        for i in 0..n {
            assert_eq!(
                orient(grown[i], grown[(i + 1) % n], grown[(i + 2) % n]),
                Orientation::CounterClockwise
            );
        }
        // Every vertex is at distance r from the square; every edge midpoint at ≥ r (1 − ratio).
        let dist = |p: Vec2| {
            let sq = square();
            (0..4)
                .map(|i| crate::geom::distance_to_segment(p, sq[i], sq[(i + 1) % 4]))
                .fold(f64::INFINITY, f64::min)
        };
        for i in 0..n {
            assert!((dist(grown[i]) - r).abs() < 1e-9);
            let mid = grown[i].lerp(grown[(i + 1) % n], 0.5);
            assert!(dist(mid) >= r * (1.0 - ratio) - 1e-9, "{}", dist(mid));
        }
    }

    #[test]
    fn clipping_to_a_rectangle() {
        let tri = vec![
            Vec2::new(-1.0, -1.0),
            Vec2::new(3.0, -1.0),
            Vec2::new(1.0, 3.0),
        ];
        let c = clip_convex_to_rect(&tri, Vec2::new(0.0, 0.0), Vec2::new(2.0, 2.0));
        assert!(c.len() >= 4);
        for p in &c {
            assert!(p.x >= 0.0 && p.x <= 2.0 && p.y >= 0.0 && p.y <= 2.0, "{p}");
        }
        assert!(signed_area(&c) > 0.0);
        let away = vec![
            Vec2::new(5.0, 5.0),
            Vec2::new(6.0, 5.0),
            Vec2::new(6.0, 6.0),
        ];
        assert!(clip_convex_to_rect(&away, Vec2::ZERO, Vec2::new(2.0, 2.0)).is_empty());
    }
}
