//! Free space: the walkable region minus the union of the (inflated) obstacles, as clean polygons
//! with holes.
//!
//! ```text
//!   obstacles ──repair──► solid rings ──(+ inflate pieces)──┐
//!   bounds ∩ boundary ──────────────► walkable region ──────┴─► region − ∪ solid  (one overlay)
//! ```
//!
//! 1. **Repair.** Each obstacle ring loses repeated consecutive vertices. A ring that is already
//!    a convex polygon (checked exactly by [`convexity`](crate::geom::convexity)) is only turned
//!    counter-clockwise; any other ring, or an obstacle with holes, goes through its own overlay
//!    with the non-zero fill rule, which resolves self-intersections (every point the ring winds
//!    around is solid), drops collinear runs and zero-area slivers, and subtracts the holes.
//!    Afterwards every solid ring has the solid on its left: outer rings counter-clockwise, holes
//!    clockwise.
//! 2. **Walkable region.** `bounds`, or the boundary polygon (non-zero fill) clipped to `bounds`.
//! 3. **Inflate.** With an agent radius, a convex obstacle becomes one convex polygon with rounded
//!    corners ([`inflate::inflate_convex`]); other solid rings and the region's outside contribute
//!    the pieces of [`inflate::ring_pieces`]; see [`inflate`] for the error bound.
//! 4. **One overlay:** region minus (solid rings ∪ pieces), non-zero fill. Obstacles that overlap,
//!    touch, or cross the border need no special case: that is what the union and the difference
//!    do. The common case skips it: a rectangular map whose (grown) obstacles are convex, inside
//!    it and pairwise strictly apart is already free space, with the obstacles as holes, or as
//!    notches in the outline where one stands on the border along an edge (`disjoint_fast_path`).
//!
//! The overlay is `i_overlay`'s, which works on a 32-bit integer grid. The grid here is chosen so
//! that conversion is exact for the coordinates a map usually has: its step is a power of two
//! (2⁻¹⁹ for an 800-unit map, about 2⁻²⁸ of the map's extent in general) and its origin a multiple
//! of the step, so integer, half-integer and other dyadic coordinates survive unchanged, and every
//! output point is a multiple of the step (an exact `f64`). Other coordinates move by at most half
//! a step, and intersection points are rounded to the grid; the output polygons never cross.
//!
//! A solid thinner than a step (a near-degenerate sliver, say a triangle whose third vertex is
//! a hair off the line of the other two) is below the grid's resolution: it may be dropped, kept
//! as a slit of zero width, or kept in part, wherever rounding puts its points. A tiled build
//! rounds it tile by tile and may keep other parts of it than the untiled build. Paths then pass
//! where the exact geometry has a wall of sub-grid width, or go around a slit it does not have.
//! The scene validator refuses only exactly collinear rings.
//!
//! Cost: O((n + k) log n) for n input vertices and k intersections (the overlay's sweep).

use super::cancel::CHECK_EVERY;
use super::inflate;
use super::{BuildError, CancelToken, CoordinateSite};
use crate::geom::{dedup_ring, orient_if_convex, signed_area, Aabb, Vec2};
use crate::scene::Scene;
use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay::ShapeType;
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::core::solver::Solver;
use i_overlay::float::overlay::{FloatOverlay, OverlayOptions};
use i_overlay::i_float::adapter::FloatPointAdapter;
use i_overlay::i_float::float::compatible::FloatPointCompatible;
use i_overlay::i_float::float::rect::FloatRect;

impl FloatPointCompatible for Vec2 {
    type Scalar = f64;
    #[inline(always)]
    fn from_xy(x: f64, y: f64) -> Self {
        Vec2::new(x, y)
    }
    #[inline(always)]
    fn x(&self) -> f64 {
        self.x
    }
    #[inline(always)]
    fn y(&self) -> f64 {
        self.y
    }
}

/// Polygons with holes: each shape is a list of rings, the first its outer ring
/// (counter-clockwise), the others its holes (clockwise).
pub type Shapes = Vec<Vec<Vec<Vec2>>>;

/// Bits of the overlay grid used for coordinates (i_overlay's conservative budget for `i32`).
const GRID_BITS: i32 = 29;

/// The free space of a validated scene for an agent of radius `radius` (0 for a point), with
/// corner arcs of chord angle at most `max_angle` (see [`inflate::chord_angle`]).
pub fn free_space(
    scene: &Scene,
    radius: f64,
    max_angle: f64,
    cancel: &CancelToken,
) -> Result<Shapes, BuildError> {
    let b = scene.bounds;
    if super::shrunk_bounds(b, radius).is_none() {
        return Err(BuildError::NoWalkableSpace);
    }
    let rect = b.corners().to_vec();
    // 2. The walkable region.
    let region: Vec<Vec<Vec2>> = match &scene.boundary {
        None => vec![rect],
        Some(ring) => {
            let ring = dedup_ring(ring.clone());
            let mut bbox = b;
            for &p in &ring {
                bbox.include(p);
            }
            let shapes = run_overlay(bbox, &[ring], &[rect], OverlayRule::Intersect)?;
            shapes.into_iter().flatten().collect()
        }
    };
    if region.is_empty() {
        return Err(BuildError::NoWalkableSpace);
    }
    // 1. Solid rings, solid on the left.
    let mut holes_of: Vec<Vec<Vec<Vec2>>> = vec![Vec::new(); scene.obstacles.len()];
    for h in &scene.holes {
        let Some(list) = holes_of.get_mut(h.obstacle) else {
            continue;
        };
        // Each hole is filled on its own (non-zero) before the holes of an obstacle are united:
        // overlapping holes of opposite orientation must not cancel out.
        let mut ring = dedup_ring(h.ring.clone());
        if orient_if_convex(&mut ring) {
            list.push(ring);
        } else if let Some(bbox) = Aabb::from_points(ring.iter().copied()) {
            list.extend(oriented(run_overlay(
                bbox,
                &[ring],
                &[],
                OverlayRule::Subject,
            )?));
        }
    }
    let mut solid: Vec<Vec<Vec2>> = Vec::with_capacity(scene.obstacles.len());
    // Whether each ring of `solid` came through the convex fast path.
    let mut convex: Vec<bool> = Vec::with_capacity(scene.obstacles.len());
    for (oi, ring) in scene.obstacles.iter().enumerate() {
        if oi % CHECK_EVERY == 0 {
            cancel.check()?;
        }
        let mut ring = dedup_ring(ring.clone());

        if holes_of[oi].is_empty() && orient_if_convex(&mut ring) {
            solid.push(ring);
            convex.push(true);
            continue;
        }
        // The holes may reach outside their obstacle: the grid must hold them too.
        let Some(bbox) =
            Aabb::from_points(ring.iter().chain(holes_of[oi].iter().flatten()).copied())
        else {
            continue;
        };
        // An overlay per such obstacle: check before each.
        cancel.check()?;
        let shapes = run_overlay(bbox, &[ring], &holes_of[oi], OverlayRule::Difference)?;
        for r in oriented(shapes) {
            solid.push(r);
            convex.push(false);
        }
    }
    // 3. Inflation pieces.
    let mut pieces: Vec<Vec<Vec2>> = Vec::new();
    if radius > 0.0 {
        for (i, (ring, is_convex)) in solid.iter_mut().zip(convex.iter_mut()).enumerate() {
            if i % CHECK_EVERY == 0 {
                cancel.check()?;
            }
            if *is_convex {
                // One convex polygon with the corner arcs is the same region as the ring, its
                // edge rectangles and corner fans, in one piece instead of 2n.
                *ring = inflate::inflate_convex(ring, radius, max_angle);
                // Growing is exact only as far as the input's turns are: where a turn underflows
                // to "straight" the grown ring can fold, and the fast path needs convex rings.
                *is_convex = orient_if_convex(ring);
            } else {
                inflate::ring_pieces(ring, radius, max_angle, &mut pieces);
            }
        }
    }
    if let Some(free) = disjoint_fast_path(scene, radius, &mut solid, &convex) {
        return Ok(free);
    }
    if radius > 0.0 {
        // The outside of the region is solid: walk its rings backwards.
        for ring in &region {
            let rev: Vec<Vec2> = ring.iter().rev().copied().collect();
            inflate::ring_pieces(&rev, radius, max_angle, &mut pieces);
        }
    }
    cancel.check()?;
    // 4. Region minus everything solid.
    let mut bbox = b;
    for p in region.iter().chain(&solid).chain(&pieces).flatten() {
        bbox.include(*p);
    }
    solid.extend(pieces);
    let free = run_overlay(bbox, &region, &solid, OverlayRule::Difference)?;
    if free.is_empty() {
        return Err(BuildError::NoWalkableSpace);
    }
    Ok(free)
}

/// The common case needs no overlay: a rectangular map (no boundary polygon, no holes) whose
/// obstacles are all convex, lie inside the rectangle (shrunk by the radius) and are pairwise
/// strictly apart. An obstacle may touch the rectangle's border in one place: at one vertex, or
/// along one edge, away from the rectangle's corners (the default map's obstacles stand on its
/// top and bottom sides). Free space is then one polygon, exactly as given: the rectangle, with
/// each obstacle that touches along an edge cut out of its outline as a notch, and the others as
/// holes (one touching at a vertex shares that vertex with the outline).
///
/// ```text
///   ┌────────────────────┐    a vertex contact: the hole shares the vertex
///   │   ◇         ╱╲     │    with the outline
///   │            ╱  ╲    │    an edge contact: the outline walks round the
///   └──────◇────┘    └───┘    obstacle (a notch), backwards along its ring
/// ```
///
/// Such an outline is a simple polygon (the notches are apart, each touches one side once), so
/// the result is a clean polygon with holes. `None` when any condition fails (the overlay handles
/// it: obstacles touching a corner, two sides, one side twice, each other, or crossing the
/// border). Cost: O(n log n) plus a separating-axis test for each pair of obstacles whose boxes
/// overlap.
fn disjoint_fast_path(
    scene: &Scene,
    radius: f64,
    solid: &mut Vec<Vec<Vec2>>,
    convex: &[bool],
) -> Option<Shapes> {
    if scene.boundary.is_some() || !scene.holes.is_empty() || convex.iter().any(|c| !c) {
        return None;
    }
    let r = Vec2::new(radius, radius);
    let (min, max) = (scene.bounds.min + r, scene.bounds.max - r);
    if !(min.x < max.x && min.y < max.y) {
        return None;
    }
    // Coordinates go to spade as they are: they must be in its range (the overlay would round
    // sub-normal ones to its grid instead).
    let in_range = |v: f64| {
        v == 0.0 || (v.abs() >= spade::MIN_ALLOWED_VALUE && v.abs() <= spade::MAX_ALLOWED_VALUE)
    };
    if !solid
        .iter()
        .flatten()
        .chain([&min, &max])
        .all(|p| in_range(p.x) && in_range(p.y))
    {
        return None;
    }
    // Which side of the rectangle a point is on, counter-clockwise from the bottom; at most one
    // (a corner is refused), and where along it, increasing counter-clockwise.
    let side_of = |p: Vec2| -> Option<Option<(u8, f64)>> {
        let on = [p.y == min.y, p.x == max.x, p.y == max.y, p.x == min.x];
        match on.iter().filter(|&&b| b).count() {
            0 => Some(None),
            1 => {
                let side = on.iter().position(|&b| b).expect("one is true") as u8;
                let along = [p.x, p.y, -p.x, -p.y][side as usize];
                Some(Some((side, along)))
            }
            _ => None,
        }
    };
    // Border contacts: (side, position along it, obstacle, first vertex, is an edge).
    let mut contacts: Vec<(u8, f64, usize, usize, bool)> = Vec::new();
    let mut notched = vec![false; solid.len()];
    for (oi, ring) in solid.iter().enumerate() {
        let bb = Aabb::from_points(ring.iter().copied())?;
        if !(bb.min.x >= min.x && bb.min.y >= min.y && bb.max.x <= max.x && bb.max.y <= max.y) {
            return None;
        }
        if bb.min.x > min.x && bb.min.y > min.y && bb.max.x < max.x && bb.max.y < max.y {
            continue;
        }
        let n = ring.len();
        let mut touching: Vec<(usize, u8, f64)> = Vec::new();
        for (i, &p) in ring.iter().enumerate() {
            if let Some((side, along)) = side_of(p)? {
                touching.push((i, side, along));
            }
        }
        match touching.as_slice() {
            [(i, side, along)] => contacts.push((*side, *along, oi, *i, false)),
            [(i, si, ai), (j, sj, _)] if si == sj && (j + n - i) % n == 1 => {
                contacts.push((*si, *ai, oi, *i, true));
            }
            // Vertices 0 and n − 1: the edge from n − 1 round to 0.
            [(i, si, _), (j, sj, aj)] if si == sj && (i + n - j) % n == 1 => {
                contacts.push((*sj, *aj, oi, *j, true));
            }
            _ => return None,
        }
        notched[oi] = contacts.last().is_some_and(|c| c.4);
    }
    if crate::geom::first_touching_pair(solid.as_slice()).is_some() {
        return None;
    }
    contacts.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    // The outline, counter-clockwise from the bottom left corner.
    let corners = [min, Vec2::new(max.x, min.y), max, Vec2::new(min.x, max.y)];
    let mut outline = Vec::with_capacity(4 + contacts.len());
    let mut next_contact = contacts.iter().peekable();
    for (side, &corner) in corners.iter().enumerate() {
        outline.push(corner);
        while let Some(&&(_, _, oi, i, edge)) = next_contact.peek().filter(|c| c.0 == side as u8) {
            next_contact.next();
            let ring = &solid[oi];
            let n = ring.len();
            if edge {
                // The contact edge runs i → i + 1 along this side, the way the outline goes:
                // walk the obstacle backwards from i round to i + 1.
                outline.extend((0..n).map(|k| ring[(i + n - k) % n]));
            } else {
                outline.push(ring[i]);
            }
        }
    }
    let mut shape = Vec::with_capacity(solid.len() + 1);
    shape.push(outline);
    // The others are holes: clockwise. (Taken: `solid` is not needed once this succeeds.)
    for (mut ring, notch) in std::mem::take(solid).into_iter().zip(notched) {
        if !notch {
            ring.reverse();
            shape.push(ring);
        }
    }
    Some(vec![shape])
}

/// Flattens overlay output into rings with the solid on their left.
pub(crate) fn oriented(shapes: Shapes) -> impl Iterator<Item = Vec<Vec2>> {
    shapes.into_iter().flat_map(|shape| {
        shape.into_iter().enumerate().map(|(k, mut ring)| {
            let area = signed_area(&ring);
            if (k == 0 && area < 0.0) || (k > 0 && area > 0.0) {
                ring.reverse();
            }
            ring
        })
    })
}

/// An overlay adapter whose conversions are exact for dyadic coordinates: a power-of-two scale and
/// an origin on the grid (see the module docs).
///
/// Refused ([`CoordinateSite::Overlay`]): a box whose extent is not at least 2⁻⁹⁹³, so that the
/// grid step (2⁻²⁹ of the extent, rounded up to a power of two) is a normal number, or with a
/// coordinate beyond 2⁵⁰⁰ in magnitude. Without the lower limit a sub-normal extent (bounds up to
/// 5e-324, a `.poly` file with sub-normal coordinates) made the step 0, and doubling it never
/// ended. Coordinates that pass [`check_coordinates`](super::check_coordinates) always have an
/// extent of at least 2⁻³⁵².
fn exact_adapter(bbox: Aabb) -> Result<FloatPointAdapter<Vec2, i32>, BuildError> {
    let out_of_range = || BuildError::CoordinateRange {
        at: CoordinateSite::Overlay,
        min: bbox.min,
        max: bbox.max,
    };
    let (p, step) = overlay_grid(bbox).ok_or_else(out_of_range)?;
    let (cx, cy) = (
        bbox.min.x * 0.5 + bbox.max.x * 0.5,
        bbox.min.y * 0.5 + bbox.max.y * 0.5,
    );
    let (ox, oy) = ((cx / step).round() * step, (cy / step).round() * step);
    let rect = FloatRect::new(ox - p, ox + p, oy - p, oy + p).map_err(|_| out_of_range())?;
    FloatPointAdapter::try_with_scale_conservative(rect, 1.0 / step).map_err(|_| out_of_range())
}

/// The grid of the overlay of `bbox` ([`exact_adapter`]): `(p, step)`, `p` the smallest power of
/// two at least the box's extent and `step` the grid's spacing, a power of two. Every multiple
/// of `step` inside the box is a grid point, which the overlay keeps exactly. `None` where the
/// adapter refuses the box (see there).
///
/// The step only grows with the box: a box with the same centre and a larger extent has a step
/// that is a multiple of this one, which is how tile borders are put on every tile overlay's
/// grid ([`TileGrid`](super::tiles::TileGrid)).
pub(crate) fn overlay_grid(bbox: Aabb) -> Option<(f64, f64)> {
    let extent = (bbox.max.x - bbox.min.x).max(bbox.max.y - bbox.min.y);
    // i_overlay's f64 contract: coordinates of magnitude at most 2⁵⁰⁰.
    let limit = 2f64.powi(500);
    // The grid step p · 2⁻²⁹ (p ≥ extent) is then at least f64::MIN_POSITIVE.
    let min_extent = f64::MIN_POSITIVE * 2f64.powi(GRID_BITS);
    let magnitude = [bbox.min.x, bbox.min.y, bbox.max.x, bbox.max.y]
        .iter()
        .fold(0.0f64, |m, v| m.max(v.abs()));
    if !(extent.is_finite() && extent >= min_extent && magnitude <= limit) {
        return None;
    }
    // p: the smallest power of two ≥ extent, so the square [o − p, o + p]² holds the box with
    // room for rounding the origin.
    let p = pow2_at_least(extent);
    let mut step = p / 2f64.powi(GRID_BITS);
    // The origin must be a multiple of the step with at most 52 bits, so that i·step + origin is
    // exact; far from zero the grid gets coarser (as f64 itself does). This ends: step starts at
    // a positive normal power of two (≥ 2⁻¹⁰²²) and the centre is at most 2⁵⁰⁰, so fewer than
    // 1500 doublings bring the quotient below 2⁵².
    let (cx, cy) = (
        bbox.min.x * 0.5 + bbox.max.x * 0.5,
        bbox.min.y * 0.5 + bbox.max.y * 0.5,
    );
    let centre = cx.abs().max(cy.abs());
    while centre / step >= 2f64.powi(52) {
        step *= 2.0;
    }
    (step.is_finite() && step > 0.0 && p.is_finite()).then_some((p, step))
}

/// The smallest power of two ≥ `x`, for a positive normal `x` below 2¹⁰²³, read off its bits: no
/// search, so nothing to end. (This was `2f64.powi(⌈log₂ x⌉)` and a loop doubling it while
/// below `x`; `powi` gives 0 for exponents below −1023, and the loop doubled that 0 forever.)
fn pow2_at_least(x: f64) -> f64 {
    debug_assert!(x.is_normal() && x > 0.0 && x < 2f64.powi(1023));
    const MANTISSA: u64 = (1 << 52) - 1;
    let bits = x.to_bits();
    if bits & MANTISSA == 0 {
        x
    } else {
        // Clear the mantissa and add one to the exponent.
        f64::from_bits((bits & !MANTISSA) + (1 << 52))
    }
}

/// Runs one overlay (non-zero fill) on the exact grid of `bbox`, which must hold every point.
pub(crate) fn run_overlay(
    bbox: Aabb,
    subject: &[Vec<Vec2>],
    clip: &[Vec<Vec2>],
    rule: OverlayRule,
) -> Result<Shapes, BuildError> {
    run_overlay_with(bbox, subject, clip, rule, FillRule::NonZero)
}

/// The complement, within the rectangle `bbox`, of the even-odd fill of `rings` (the symmetric
/// difference of all of them): the solid shapes of a `.poly` map.
pub(crate) fn complement_of_even_odd(
    bbox: Aabb,
    rings: &[Vec<Vec2>],
) -> Result<Shapes, BuildError> {
    let rect = vec![
        bbox.min,
        Vec2::new(bbox.max.x, bbox.min.y),
        bbox.max,
        Vec2::new(bbox.min.x, bbox.max.y),
    ];
    let shapes = run_overlay_with(
        bbox,
        &[rect],
        rings,
        OverlayRule::Difference,
        FillRule::EvenOdd,
    )?;
    Ok(shapes
        .into_iter()
        .map(|shape| oriented(vec![shape]).collect())
        .collect())
}

fn run_overlay_with(
    bbox: Aabb,
    subject: &[Vec<Vec2>],
    clip: &[Vec<Vec2>],
    rule: OverlayRule,
    fill: FillRule,
) -> Result<Shapes, BuildError> {
    let adapter = exact_adapter(bbox)?;
    let mut options: OverlayOptions<f64, i32> = OverlayOptions::default();
    // Keep the points where contours touch (they split edges): the triangulation needs them.
    options.preserve_output_collinear = true;
    options.preserve_input_collinear = false;
    let capacity = subject.iter().chain(clip).map(Vec::len).sum();
    let mut overlay = FloatOverlay::new_custom(adapter, options, Solver::default(), capacity);
    for ring in subject {
        overlay = overlay.unsafe_add_contour(ring, ShapeType::Subject);
    }
    for ring in clip {
        overlay = overlay.unsafe_add_contour(ring, ShapeType::Clip);
    }
    let mut shapes = overlay.overlay(rule, fill);
    // Rings that the grid collapsed are dropped.
    for shape in &mut shapes {
        shape.retain(|ring| ring.len() >= 3);
    }
    shapes.retain(|s| !s.is_empty());
    Ok(shapes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{point_in_polygon, PointInPolygon};

    fn area(shapes: &Shapes) -> f64 {
        shapes.iter().flatten().map(|r| signed_area(r)).sum()
    }

    fn free_at(shapes: &Shapes, p: Vec2) -> bool {
        // Non-zero winding over all rings; p must not lie on a ring.
        let mut inside = 0;
        for r in shapes.iter().flatten() {
            if point_in_polygon(r, p) == PointInPolygon::Inside {
                inside += if signed_area(r) > 0.0 { 1 } else { -1 };
            }
        }
        inside > 0
    }

    fn ten() -> Scene {
        Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(10.0, 10.0)))
    }

    #[test]
    fn overlapping_obstacles_are_united() {
        let s = ten()
            .with_obstacle([(1.0, 1.0), (5.0, 1.0), (5.0, 5.0), (1.0, 5.0)])
            .with_obstacle([(3.0, 3.0), (7.0, 3.0), (7.0, 7.0), (3.0, 7.0)]);
        let f = free_space(&s, 0.0, 1.0, &CancelToken::new()).unwrap();
        assert_eq!(area(&f), 100.0 - 16.0 - 16.0 + 4.0);
        assert!(!free_at(&f, Vec2::new(4.0, 4.0)));
        assert!(free_at(&f, Vec2::new(6.0, 2.0)));
    }

    #[test]
    fn border_crossing_obstacles_are_clipped() {
        let s = ten().with_obstacle([(-5.0, -5.0), (3.0, -5.0), (3.0, 3.0), (-5.0, 3.0)]);
        let f = free_space(&s, 0.0, 1.0, &CancelToken::new()).unwrap();
        assert_eq!(area(&f), 100.0 - 9.0);
    }

    #[test]
    fn self_intersecting_ring_fills_by_non_zero_winding() {
        // A bowtie: two triangles meeting at (5, 5), wound opposite ways.
        let s = ten().with_obstacle([(2.0, 2.0), (8.0, 8.0), (8.0, 2.0), (2.0, 8.0)]);
        let f = free_space(&s, 0.0, 1.0, &CancelToken::new()).unwrap();
        assert_eq!(area(&f), 100.0 - 18.0);
        assert!(!free_at(&f, Vec2::new(3.0, 5.0)));
        assert!(!free_at(&f, Vec2::new(7.0, 5.0)));
        assert!(free_at(&f, Vec2::new(5.0, 3.0)));
    }

    #[test]
    fn holes_and_islands() {
        // A frame with a walkable courtyard, and an island in the courtyard.
        let s = ten()
            .with_obstacle([(1.0, 1.0), (9.0, 1.0), (9.0, 9.0), (1.0, 9.0)])
            .with_hole(0, [(3.0, 3.0), (7.0, 3.0), (7.0, 7.0), (3.0, 7.0)])
            .with_obstacle([(4.0, 4.0), (6.0, 4.0), (6.0, 6.0), (4.0, 6.0)]);
        let f = free_space(&s, 0.0, 1.0, &CancelToken::new()).unwrap();
        assert_eq!(area(&f), 100.0 - 64.0 + 16.0 - 4.0);
        assert!(free_at(&f, Vec2::new(3.5, 3.5)));
        assert!(!free_at(&f, Vec2::new(5.0, 5.0)));
        assert!(!free_at(&f, Vec2::new(2.0, 2.0)));
    }

    #[test]
    fn boundary_polygon_clipped_to_bounds() {
        // A concave boundary sticking out of the bounds on the right.
        let s = ten().with_boundary([
            (0.0, 0.0),
            (12.0, 0.0),
            (12.0, 10.0),
            (5.0, 5.0),
            (0.0, 10.0),
        ]);
        let f = free_space(&s, 0.0, 1.0, &CancelToken::new()).unwrap();
        assert!(free_at(&f, Vec2::new(1.0, 1.0)));
        assert!(!free_at(&f, Vec2::new(5.0, 8.0)));
        for p in f.iter().flatten().flatten() {
            assert!(p.x <= 10.0);
        }
    }

    #[test]
    fn integer_coordinates_survive_exactly() {
        let s = ten()
            .with_obstacle([(1.0, 1.0), (4.0, 1.0), (4.0, 4.0), (1.0, 4.0)])
            .with_obstacle([(2.5, 6.0), (7.25, 6.0), (5.0, 9.5)]);
        let f = free_space(&s, 0.0, 1.0, &CancelToken::new()).unwrap();
        for corner in [
            (1.0, 1.0),
            (4.0, 4.0),
            (2.5, 6.0),
            (7.25, 6.0),
            (5.0, 9.5),
            (10.0, 10.0),
        ] {
            let c = Vec2::from(corner);
            assert!(f.iter().flatten().flatten().any(|&p| p == c), "{c}");
        }
    }

    #[test]
    fn inflation_grows_obstacles_and_shrinks_the_border() {
        let s = ten().with_obstacle([(4.0, 4.0), (6.0, 4.0), (6.0, 6.0), (4.0, 6.0)]);
        let r = 1.0;
        let f = free_space(&s, r, inflate::chord_angle(0.01), &CancelToken::new()).unwrap();
        // Rounded square of side 2 grown by 1: 4 + 4·2 + π (slightly less with chords).
        let grown = 4.0 + 8.0 + std::f64::consts::PI;
        let expect = 8.0 * 8.0 - grown;
        let got = area(&f);
        assert!(got > expect && got < expect + 0.05, "{got} vs {expect}");
        assert!(!free_at(&f, Vec2::new(0.5, 5.0)));
        assert!(free_at(&f, Vec2::new(1.5, 5.0)));
        assert!(!free_at(&f, Vec2::new(3.5, 5.0)));
    }

    /// Found by the fuzzer: a vertex near `-f64::MAX` made the grid's power of two infinite and
    /// the search for it never ended.
    #[test]
    fn regression_huge_coordinates_are_a_range_error_not_a_hang() {
        let s = ten().with_obstacle([(-11.0, 0.0), (-1.200624573978435e308, 2.5), (0.0, 0.0)]);
        assert!(matches!(
            free_space(&s, 0.0, 1.0, &CancelToken::new()),
            Err(BuildError::CoordinateRange { .. })
        ));
    }

    /// 2^e for every exponent of `f64`, sub-normal ones too (`powi` gives 0 below 2⁻¹⁰²³).
    fn pow2(e: i32) -> f64 {
        if e >= -1022 {
            f64::from_bits(((e + 1023) as u64) << 52)
        } else {
            f64::from_bits(1u64 << (e + 1074))
        }
    }

    /// Issue 16: bounds up to 5e-324 (`POST /api/scene`), 1e-310, or a `.poly` file with
    /// sub-normal coordinates hung the build: the grid's power of two came from `powi`, which
    /// underflows to 0 below 2⁻¹⁰²³, and a loop doubled it until it reached the extent. Every
    /// finite box now gets a grid or a range error, at once.
    #[test]
    fn regression_exact_adapter_ends_for_every_finite_box() {
        let min_extent = pow2(GRID_BITS - 1022);
        for e in -1074..=1023 {
            let x = pow2(e);
            assert!(x > 0.0 && x.is_finite(), "{e}");
            for size in [x, x * 1.5, x * 0.75] {
                for corner in [0.0, -size, 1.0, -1e300, 1e150, f64::MAX - size] {
                    let b = Aabb::new(
                        Vec2::new(corner, corner),
                        Vec2::new(corner + size, corner + size * 0.5),
                    );
                    let extent = (b.max.x - b.min.x).max(b.max.y - b.min.y);
                    let magnitude = b.min.x.abs().max(b.max.x.abs());
                    // Refused outside the documented limits; near 2⁵⁰⁰ i_overlay may refuse
                    // the grid's square too, which is the same error.
                    match exact_adapter(b) {
                        Ok(_) => assert!(extent >= min_extent && magnitude <= 2f64.powi(500)),
                        Err(BuildError::CoordinateRange {
                            at: CoordinateSite::Overlay,
                            ..
                        }) => assert!(
                            !(extent >= min_extent && magnitude <= 2f64.powi(490)),
                            "{b:?} refused"
                        ),
                        Err(other) => panic!("{b:?}: {other}"),
                    }
                }
            }
        }
        // Zero size.
        assert!(exact_adapter(Aabb::new(Vec2::ZERO, Vec2::ZERO)).is_err());
        // The free space of such a map, bypassing `build`'s range check: an error, not a hang.
        for max in [5e-324, 1e-310] {
            let s = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(max, max))).with_obstacle([
                (0.0, 0.0),
                (max, 0.0),
                (0.0, max),
            ]);
            assert!(matches!(
                free_space(&s, 0.0, 1.0, &CancelToken::new()),
                Err(BuildError::CoordinateRange {
                    at: CoordinateSite::Overlay,
                    ..
                })
            ));
        }
    }

    /// The grid's power of two is what the search found before: the smallest power of two at or
    /// above the extent (so the meshes of maps in range are unchanged).
    #[test]
    fn pow2_at_least_is_the_smallest_power_of_two_at_or_above() {
        let mut rng = crate::random::Rng::new(16);
        let mut xs: Vec<f64> = (-1022..1023).map(pow2).collect();
        xs.extend((-1022..1022).map(|e| pow2(e) * 1.5));
        xs.extend((-1022..1022).map(|e| pow2(e + 1) * (1.0 - f64::EPSILON / 2.0)));
        xs.extend((0..10_000).map(|_| rng.range_f64(-1000.0, 1000.0).exp2()));
        xs.extend([0.3, 800.0, 450.0, 1e-6, 12345.678]);
        for x in xs {
            let p = pow2_at_least(x);
            assert!(p >= x && p / 2.0 < x, "{x} -> {p}");
            assert_eq!(p.to_bits() & ((1 << 52) - 1), 0, "{x} -> {p}");
            // The old search, for values where powi does not underflow.
            let mut q = 2f64.powi(x.log2().ceil() as i32);
            while q < x {
                q *= 2.0;
            }
            while q / 2.0 >= x {
                q /= 2.0;
            }
            assert_eq!(p, q, "{x}");
        }
    }

    /// Found by the fuzzer: a hole reaching outside its obstacle was converted outside the
    /// overlay grid (a debug assertion in i_overlay; wrong integers in release).
    #[test]
    fn regression_hole_larger_than_its_obstacle() {
        let s = ten()
            .with_obstacle([(2.0, 2.0), (6.0, 2.0), (6.0, 6.0), (2.0, 6.0)])
            .with_hole(0, [(0.0, -29.5), (4.0, 4.0), (-3.0, 4.0)]);
        let f = free_space(&s, 0.0, 1.0, &CancelToken::new()).unwrap();
        // The hole takes the triangle's part of the square out of the obstacle.
        assert!(free_at(&f, Vec2::new(3.0, 3.8)));
        assert!(!free_at(&f, Vec2::new(5.0, 3.0)));
    }

    #[test]
    fn disjoint_convex_obstacles_skip_the_overlay_and_stay_exact() {
        let s = ten()
            .with_obstacle([(1.0, 1.0), (3.0, 1.0), (3.0, 3.0)])
            .with_obstacle([(0.1, 5.0), (0.7, 5.0), (0.3, 5.9)]);
        let f = free_space(&s, 0.0, 1.0, &CancelToken::new()).unwrap();
        // One shape: the rectangle with both obstacles as holes, coordinates as given.
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].len(), 3);
        assert!(f[0][2].contains(&Vec2::new(0.1, 5.0)));
        // Touching the border: the overlay clips, and the result is the same free space.
        let t = ten().with_obstacle([(0.0, 1.0), (3.0, 1.0), (3.0, 3.0)]);
        let g = free_space(&t, 0.0, 1.0, &CancelToken::new()).unwrap();
        assert_eq!(area(&g), 100.0 - 3.0);
        // Overlapping: the overlay unites.
        let o = ten()
            .with_obstacle([(1.0, 1.0), (3.0, 1.0), (3.0, 3.0)])
            .with_obstacle([(2.0, 1.5), (5.0, 1.5), (5.0, 4.0)]);
        let h = free_space(&o, 0.0, 1.0, &CancelToken::new()).unwrap();
        assert_eq!(h[0].len(), 2);
    }

    /// The free space of `scene` through the overlay, bypassing the fast path.
    fn by_overlay(scene: &Scene) -> Shapes {
        let b = scene.bounds;
        let rect = b.corners().to_vec();
        run_overlay(b, &[rect], &scene.obstacles, OverlayRule::Difference).unwrap()
    }

    /// Free space through the fast path agrees with the overlay: same area, same answer at every
    /// point of a unit lattice offset off the obstacles' edges.
    fn agrees_with_overlay(scene: &Scene) -> Shapes {
        let f = free_space(scene, 0.0, 1.0, &CancelToken::new()).unwrap();
        let g = by_overlay(scene);
        assert_eq!(area(&f), area(&g));
        let (w, h) = (scene.bounds.max.x as i32, scene.bounds.max.y as i32);
        for x in 0..w {
            for y in 0..h {
                // The offset keeps the points off the obstacles' edges in these tests (integer
                // endpoints, small slopes), where the two inside tests could differ.
                let p = Vec2::new(x as f64 + 0.25, y as f64 + 0.6);
                assert_eq!(free_at(&f, p), free_at(&g, p), "at {p:?}");
            }
        }
        f
    }

    #[test]
    fn obstacles_standing_on_the_border_skip_the_overlay() {
        // One edge on each side, one vertex on the bottom, one strictly inside.
        let s = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(20.0, 20.0)))
            .with_obstacle([(2.0, 0.0), (5.0, 0.0), (4.0, 3.0)])
            .with_obstacle([(20.0, 4.0), (20.0, 8.0), (17.0, 6.0)])
            .with_obstacle([(15.0, 20.0), (11.0, 20.0), (13.0, 17.0)])
            .with_obstacle([(0.0, 16.0), (0.0, 12.0), (3.0, 14.0)])
            .with_obstacle([(9.0, 0.0), (11.0, 2.0), (7.0, 2.0)])
            .with_obstacle([(8.0, 8.0), (12.0, 8.0), (12.0, 12.0), (8.0, 12.0)]);
        let f = agrees_with_overlay(&s);
        // The fast path's shape: an outline with four notches (4 corners, 4 × 3 notch vertices,
        // the vertex contact) and two holes, every coordinate as given.
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].len(), 3);
        assert_eq!(f[0][0].len(), 4 + 12 + 1);
        assert!(f[0][0].contains(&Vec2::new(4.0, 3.0)));
        let mesh = crate::build::build(&s, &crate::build::BuildOptions::cdt()).unwrap();
        mesh.check_invariants().unwrap();
        assert_eq!(mesh.area(), area(&f));
    }

    #[test]
    fn border_contacts_the_fast_path_refuses_still_come_out_right() {
        let base = || Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(20.0, 20.0)));
        for scene in [
            // A corner.
            base().with_obstacle([(0.0, 0.0), (4.0, 1.0), (1.0, 4.0)]),
            // An edge along a corner's two sides.
            base().with_obstacle([(0.0, 0.0), (4.0, 0.0), (0.0, 4.0)]),
            // Two sides: it splits the map.
            base().with_obstacle([(8.0, 0.0), (12.0, 0.0), (10.0, 20.0)]),
            // One side twice (two vertices, not an edge).
            base().with_obstacle([(4.0, 0.0), (8.0, 3.0), (12.0, 0.0), (8.0, 6.0)]),
            // Three vertices along one side.
            base().with_obstacle([(4.0, 0.0), (6.0, 0.0), (8.0, 0.0), (6.0, 3.0)]),
        ] {
            let f = agrees_with_overlay(&scene);
            let mesh = crate::build::build(&scene, &crate::build::BuildOptions::cdt()).unwrap();
            mesh.check_invariants().unwrap();
            assert_eq!(mesh.area(), area(&f));
        }
    }

    /// Found by the coverage property test: two holes of one obstacle that overlap with opposite
    /// orientations summed to winding 0 in the shared overlay, so their overlap stayed solid.
    #[test]
    fn regression_overlapping_holes_of_opposite_orientation() {
        let s = ten()
            .with_obstacle([(1.0, 1.0), (9.0, 1.0), (9.0, 9.0), (1.0, 9.0)])
            .with_hole(0, [(2.0, 2.0), (6.0, 2.0), (6.0, 6.0), (2.0, 6.0)])
            .with_hole(0, [(4.0, 4.0), (4.0, 8.0), (8.0, 8.0), (8.0, 4.0)]);
        let f = free_space(&s, 0.0, 1.0, &CancelToken::new()).unwrap();
        assert!(free_at(&f, Vec2::new(5.0, 5.0)));
        assert!(free_at(&f, Vec2::new(3.0, 3.0)));
        assert!(free_at(&f, Vec2::new(7.0, 7.0)));
        assert_eq!(area(&f), 100.0 - 64.0 + 16.0 + 16.0 - 4.0);
    }

    #[test]
    fn nothing_walkable_is_an_error() {
        let s = ten().with_obstacle([(-1.0, -1.0), (11.0, -1.0), (11.0, 11.0), (-1.0, 11.0)]);
        assert_eq!(
            free_space(&s, 0.0, 1.0, &CancelToken::new()).unwrap_err(),
            BuildError::NoWalkableSpace
        );
        let s = ten();
        assert_eq!(
            free_space(&s, 5.0, 1.0, &CancelToken::new()).unwrap_err(),
            BuildError::NoWalkableSpace
        );
    }
}
