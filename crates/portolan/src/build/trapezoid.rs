//! The chapter's trapezoid decomposition.
//!
//! 1. Draw a vertical line at the x of every obstacle vertex (and the map's sides): the map falls
//!    apart into vertical *slabs* with no vertex strictly inside.
//! 2. In a slab, the non-vertical obstacle edges that cross it never cross each other, so they can
//!    be sorted by height.
//! 3. Between two consecutive edges lies a trapezoid; it is walkable unless the lower edge has solid
//!    above it (an obstacle's lower chain, or the map's top side).
//! 4. A trapezoid bounded by the same pair of edges as one in the slab to its left is merged into it.
//! 5. Trapezoids whose vertical sides overlap on the same line are neighbours; the overlap is their
//!    portal. Each side is split at every corner of the trapezoids across it, so every portal is a
//!    shared edge of the mesh (no T-junctions).
//!
//! ```text
//!   ┌────┬──────────┬────┐      slab lines at every obstacle vertex x;
//!   │    │  ┌────┐  │    │      above and below the obstacle two trapezoids,
//!   │    ├──┘    └──┤    │      left and right of it the tall ones whose
//!   │    │  ██████  │    │      sides carry the obstacle's corners as
//!   │    ├──┐    ┌──┤    │      extra vertices (the portal endpoints)
//!   │    │  └────┘  │    │
//!   └────┴──────────┴────┘
//! ```
//!
//! Unlike the chapter's C++, which uses an epsilon of 1e-3 to merge nearby lines and a
//! point-in-polygon test per trapezoid, this version keeps input x coordinates exact, decides
//! "walkable" from which side of each edge is solid, and shares every computed corner point
//! between the polygons that meet there.
//!
//! Cost: O(S · k log k) for S slabs and k edges crossing a slab, plus O(n log n) for the portals.
//! Requirements: convex obstacles that neither overlap nor touch each other (they may touch the
//! map's sides), inside the bounds, no boundary polygon and no holes; anything else is a
//! [`BuildError`]. With an agent radius ([`build_inflated`]) each obstacle is grown into a convex
//! polygon with rounded corners ([`inflate::inflate_convex`](super::inflate::inflate_convex)) and
//! clipped to the bounds shrunk by the radius; grown obstacles that then overlap are an error
//! (the CDT decomposition unites them instead).

use super::cancel::CHECK_EVERY;
use super::{BuildError, CancelToken};
use crate::geom::{dedup_ring, orient, orient_if_convex, Orientation, Vec2};
use crate::mesh::{InvariantError, NavMesh, PolyId, VertexId};
use crate::scene::Scene;
use std::collections::HashMap;

/// A non-vertical edge, stored left to right.
#[derive(Copy, Clone, Debug)]
struct Edge {
    p: Vec2,
    q: Vec2,
    /// Solid (obstacle or off-map) directly above the edge.
    solid_above: bool,
}

impl Edge {
    /// The edge's height at `x`; exact at the endpoints, and the same bits for the same `x` every
    /// time, so trapezoids that share a corner share the point.
    #[inline]
    fn y_at(&self, x: f64) -> f64 {
        if x == self.p.x {
            self.p.y
        } else if x == self.q.x {
            self.q.y
        } else {
            self.p.y + (self.q.y - self.p.y) * ((x - self.p.x) / (self.q.x - self.p.x))
        }
    }
}

#[derive(Copy, Clone, Debug)]
struct Trap {
    x0: f64,
    x1: f64,
    bottom: usize,
    top: usize,
}

/// Checks the trapezoid decomposition's requirements: simple convex obstacles inside the bounds,
/// pairwise disjoint, no boundary polygon, no holes. Returns the obstacles counter-clockwise.
pub fn check_obstacles(scene: &Scene) -> Result<Vec<Vec<Vec2>>, BuildError> {
    scene.validate_simple()?;
    // Here, not in `build::build` only: this module's own entry points (`build`,
    // `build_inflated`) check through this too. The one rule: `super::check_coordinates`.
    super::check_coordinates(scene)?;
    if scene.boundary.is_some() {
        return Err(BuildError::Unsupported("a boundary polygon"));
    }
    if !scene.holes.is_empty() {
        return Err(BuildError::Unsupported("obstacles with holes"));
    }
    let rings = convex_rings(scene)?;
    let ids: Vec<usize> = (0..rings.len()).collect();
    check_disjoint(&rings, &ids)?;
    Ok(rings)
}

/// The obstacles counter-clockwise, or the first vertex where one is not convex.
fn convex_rings(scene: &Scene) -> Result<Vec<Vec<Vec2>>, BuildError> {
    let mut rings = Vec::with_capacity(scene.obstacles.len());
    for (oi, ring) in scene.obstacles.iter().enumerate() {
        let mut r = ring.clone();
        if crate::geom::signed_area(&r) < 0.0 {
            r.reverse();
        }
        let n = r.len();
        for i in 0..n {
            if orient(r[i], r[(i + 1) % n], r[(i + 2) % n]) == Orientation::Clockwise {
                let vertex = if crate::geom::signed_area(ring) < 0.0 {
                    n - 1 - (i + 1) % n
                } else {
                    (i + 1) % n
                };
                return Err(BuildError::NotConvex {
                    obstacle: oi,
                    vertex,
                });
            }
        }
        rings.push(r);
    }
    Ok(rings)
}

/// Pairwise disjointness, with a sort on min x to skip far-apart pairs; `ids[i]` is the obstacle
/// index that ring `i` stands for (named in the error).
fn check_disjoint(rings: &[Vec<Vec2>], ids: &[usize]) -> Result<(), BuildError> {
    match crate::geom::first_touching_pair(rings) {
        Some((a, b)) => Err(BuildError::Overlap {
            first: ids[a].min(ids[b]),
            second: ids[a].max(ids[b]),
        }),
        None => Ok(()),
    }
}

/// Builds the trapezoid mesh of a scene (checked with [`check_obstacles`]).
pub fn build(scene: &Scene, cancel: &CancelToken) -> Result<NavMesh, BuildError> {
    let rings = check_obstacles(scene)?;
    cancel.check()?;
    build_rings(&rings, scene.bounds.min, scene.bounds.max, cancel)
}

/// Builds the trapezoid mesh for an agent of radius `r`: obstacles grown by `r` with corner arcs of
/// chord angle at most `max_angle`, clipped to the bounds shrunk by `r`.
pub fn build_inflated(
    scene: &Scene,
    r: f64,
    max_angle: f64,
    cancel: &CancelToken,
) -> Result<NavMesh, BuildError> {
    if r <= 0.0 {
        return build(scene, cancel);
    }
    let rings = check_obstacles(scene)?;
    let Some((min, max)) = super::shrunk_bounds(scene.bounds, r) else {
        return Err(BuildError::NoWalkableSpace);
    };
    let mut grown = Vec::with_capacity(rings.len());
    let mut ids = Vec::with_capacity(rings.len());
    for (i, ring) in rings.iter().enumerate() {
        let g = super::inflate::clip_convex_to_rect(
            &super::inflate::inflate_convex(ring, r, max_angle),
            min,
            max,
        );
        if g.is_empty() {
            continue;
        }
        // Growing is exact only as far as the turns of the input are: where a turn underflows to
        // "straight" the grown ring can fold. The sweep needs convex rings, so say so.
        let mut g = g;
        if !orient_if_convex(&mut g) {
            return Err(BuildError::NotConvex {
                obstacle: i,
                vertex: 0,
            });
        }
        grown.push(g);
        ids.push(i);
    }
    cancel.check()?;
    check_disjoint(&grown, &ids)?;
    cancel.check()?;
    build_rings(&grown, min, max, cancel)
}

/// The decomposition of the rectangle `min`–`max` minus convex, disjoint, counter-clockwise rings.
fn build_rings(
    rings: &[Vec<Vec2>],
    min: Vec2,
    max: Vec2,
    cancel: &CancelToken,
) -> Result<NavMesh, BuildError> {
    let mut edges = vec![
        Edge {
            p: min,
            q: Vec2::new(max.x, min.y),
            solid_above: false,
        },
        Edge {
            p: Vec2::new(min.x, max.y),
            q: max,
            solid_above: true,
        },
    ];
    let mut xs = vec![min.x, max.x];
    for r in rings {
        for i in 0..r.len() {
            let (a, b) = (r[i], r[(i + 1) % r.len()]);
            xs.push(a.x);
            if a.x != b.x {
                // CCW (y up): edges running left to right are the lower chain, solid above.
                let solid_above = a.x < b.x;
                let (p, q) = if a.x < b.x { (a, b) } else { (b, a) };
                edges.push(Edge { p, q, solid_above });
            }
        }
    }
    xs.sort_by(f64::total_cmp);
    xs.dedup();

    // Sweep: edges sorted by left x enter the active list; each slab sorts the active edges.
    let mut by_start: Vec<usize> = (0..edges.len()).collect();
    by_start.sort_by(|&a, &b| edges[a].p.x.total_cmp(&edges[b].p.x));
    let mut next_edge = 0;
    let mut active: Vec<usize> = Vec::new();
    let mut traps: Vec<Trap> = Vec::new();
    let mut open: HashMap<(usize, usize), usize> = HashMap::new(); // (bottom, top) → trap index
    let mut still_open: HashMap<(usize, usize), usize> = HashMap::new();
    for s in 0..xs.len() - 1 {
        // A slab sorts its active edges: check every few.
        if s % 64 == 0 {
            cancel.check()?;
        }
        let (x0, x1) = (xs[s], xs[s + 1]);
        while next_edge < by_start.len() && edges[by_start[next_edge]].p.x <= x0 {
            active.push(by_start[next_edge]);
            next_edge += 1;
        }
        active.retain(|&e| edges[e].q.x >= x1);
        let xm = 0.5 * (x0 + x1);
        active.sort_by(|&a, &b| {
            let (ea, eb) = (&edges[a], &edges[b]);
            ea.y_at(xm)
                .total_cmp(&eb.y_at(xm))
                .then((ea.y_at(x0) + ea.y_at(x1)).total_cmp(&(eb.y_at(x0) + eb.y_at(x1))))
                // Coinciding edges (an obstacle along the map side): open space first.
                .then(ea.solid_above.cmp(&eb.solid_above))
        });
        still_open.clear();
        for w in active.windows(2) {
            let (bottom, top) = (w[0], w[1]);
            if edges[bottom].solid_above {
                continue;
            }
            let (eb, et) = (&edges[bottom], &edges[top]);
            if eb.y_at(x0) >= et.y_at(x0) && eb.y_at(x1) >= et.y_at(x1) {
                continue; // zero height: an obstacle lying along the map side
            }
            let idx = match open.get(&(bottom, top)) {
                Some(&i) => {
                    traps[i].x1 = x1;
                    i
                }
                None => {
                    traps.push(Trap {
                        x0,
                        x1,
                        bottom,
                        top,
                    });
                    traps.len() - 1
                }
            };
            still_open.insert((bottom, top), idx);
        }
        std::mem::swap(&mut open, &mut still_open);
    }
    if traps.is_empty() {
        return Err(BuildError::NoWalkableSpace);
    }

    // Every corner on every vertical line, so sides can be split where neighbours meet them.
    let mut line_ys: HashMap<u64, Vec<f64>> = HashMap::new();
    for t in &traps {
        for x in [t.x0, t.x1] {
            let ys = line_ys.entry(x.to_bits()).or_default();
            ys.push(edges[t.bottom].y_at(x));
            ys.push(edges[t.top].y_at(x));
        }
    }
    for ys in line_ys.values_mut() {
        ys.sort_by(f64::total_cmp);
        ys.dedup();
    }

    let mut vertices: Vec<Vec2> = Vec::new();
    let mut vertex_ids: HashMap<(u64, u64), u32> = HashMap::new();
    let mut id = |p: Vec2, vertices: &mut Vec<Vec2>| -> u32 {
        *vertex_ids
            .entry((p.x.to_bits(), (p.y + 0.0).to_bits()))
            .or_insert_with(|| {
                vertices.push(p);
                (vertices.len() - 1) as u32
            })
    };
    let mut polygons = Vec::with_capacity(traps.len());
    cancel.check()?;
    for (ti, t) in traps.iter().enumerate() {
        if ti % CHECK_EVERY == 0 {
            cancel.check()?;
        }
        let (eb, et) = (&edges[t.bottom], &edges[t.top]);
        let (yb0, yb1, yt0, yt1) = (eb.y_at(t.x0), eb.y_at(t.x1), et.y_at(t.x0), et.y_at(t.x1));
        // Corners are rounded: where slabs are thinner than rounding, a corner on a slab line
        // inside this (merged) trapezoid can land exactly on its top or bottom side, a T-junction.
        // Refuse the scene with a typed error rather than return a broken mesh.
        let sides = [
            (Vec2::new(t.x0, yb0), Vec2::new(t.x1, yb1)),
            (Vec2::new(t.x1, yt1), Vec2::new(t.x0, yt0)),
        ];
        if let Some((side, x)) = corner_on_side(&xs, &line_ys, t.x0, t.x1, &sides) {
            let vertex = VertexId(id(x, &mut vertices));
            let edge = if side == 0 { 0 } else { 2 };
            return Err(BuildError::Degenerate(InvariantError::TJunction {
                polygon: PolyId(ti as u32),
                edge,
                vertex,
            }));
        }
        let mut ring: Vec<Vec2> = Vec::with_capacity(8);
        ring.push(Vec2::new(t.x0, yb0));
        ring.push(Vec2::new(t.x1, yb1));
        let right = &line_ys[&t.x1.to_bits()];
        ring.extend(
            right
                .iter()
                .filter(|&&y| y > yb1 && y < yt1)
                .map(|&y| Vec2::new(t.x1, y)),
        );
        ring.push(Vec2::new(t.x1, yt1));
        ring.push(Vec2::new(t.x0, yt0));
        let left = &line_ys[&t.x0.to_bits()];
        ring.extend(
            left.iter()
                .rev()
                .filter(|&&y| y > yb0 && y < yt0)
                .map(|&y| Vec2::new(t.x0, y)),
        );
        let ring = dedup_ring(ring);
        polygons.push(ring.into_iter().map(|p| id(p, &mut vertices)).collect());
    }
    Ok(NavMesh::from_polygons(vertices, polygons)?)
}

/// The first corner that lies exactly on one of a trapezoid's slanted `sides`, on a slab line
/// strictly between `x0` and `x1`: `(side index, point)`. Such a corner can only be a rounding
/// error away from the side's line, so only the few corners nearest the line's height are tested
/// (exactly, with [`orient`]).
fn corner_on_side(
    xs: &[f64],
    line_ys: &HashMap<u64, Vec<f64>>,
    x0: f64,
    x1: f64,
    sides: &[(Vec2, Vec2); 2],
) -> Option<(usize, Vec2)> {
    let lo = xs.partition_point(|&x| x <= x0);
    let hi = xs.partition_point(|&x| x < x1);
    for &x in &xs[lo..hi.max(lo)] {
        let Some(ys) = line_ys.get(&x.to_bits()) else {
            continue;
        };
        for (k, &(p, q)) in sides.iter().enumerate() {
            let y_est = p.y + (q.y - p.y) * ((x - p.x) / (q.x - p.x));
            let j = ys.partition_point(|&y| y < y_est);
            for &y in &ys[j.saturating_sub(2)..(j + 2).min(ys.len())] {
                let c = Vec2::new(x, y);
                if orient(p, q, c) == Orientation::Collinear {
                    return Some((k, c));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Aabb;
    use crate::mesh::PolyId;

    fn rect_scene() -> Scene {
        Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(10.0, 10.0))).with_obstacle([
            (4.0, 4.0),
            (6.0, 4.0),
            (6.0, 6.0),
            (4.0, 6.0),
        ])
    }

    #[test]
    fn empty_map_is_one_polygon() {
        let s = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(10.0, 5.0)));
        let m = build(&s, &CancelToken::new()).unwrap();
        assert_eq!(m.polygon_count(), 1);
        assert_eq!(m.area(), 50.0);
    }

    #[test]
    fn square_obstacle_gives_four_trapezoids_with_split_sides() {
        let m = build(&rect_scene(), &CancelToken::new()).unwrap();
        m.check_invariants().unwrap();
        // Left, below, above, right.
        assert_eq!(m.polygon_count(), 4);
        assert_eq!(m.area(), 100.0 - 4.0);
        // The left trapezoid's right side carries the obstacle's corners: 6 vertices.
        let left = m.locate(Vec2::new(1.0, 5.0)).polygon().unwrap();
        assert_eq!(m.polygon_vertices(left).len(), 6);
        let n: usize = m.neighbours(left).iter().flatten().count();
        assert_eq!(n, 2);
        assert!(m.locate(Vec2::new(5.0, 5.0)).polygon().is_none());
    }

    #[test]
    fn obstacles_along_the_map_sides() {
        let s = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(10.0, 10.0)))
            .with_obstacle([(3.0, 0.0), (5.0, 0.0), (5.0, 6.0), (3.0, 6.0)])
            .with_obstacle([(6.0, 4.0), (8.0, 4.0), (8.0, 10.0), (6.0, 10.0)]);
        let m = build(&s, &CancelToken::new()).unwrap();
        m.check_invariants().unwrap();
        assert!((m.area() - (100.0 - 12.0 - 12.0)).abs() < 1e-9);
        assert!(m.locate(Vec2::new(4.0, 1.0)).polygon().is_none());
        assert!(m.locate(Vec2::new(7.0, 9.0)).polygon().is_none());
        let _ = PolyId(0);
    }

    #[test]
    fn triangles_and_rotated_obstacles() {
        let m = build(&Scene::default_map(), &CancelToken::new()).unwrap();
        m.check_invariants().unwrap();
        let s = Scene::default_map();
        let expect = s.bounds.area() - s.obstacle_area();
        assert!(
            (m.area() - expect).abs() < 1e-9 * expect,
            "{} vs {expect}",
            m.area()
        );
    }

    #[test]
    fn rejects_concave_and_overlapping() {
        let s = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(10.0, 10.0))).with_obstacle([
            (1.0, 1.0),
            (5.0, 1.0),
            (3.0, 2.0),
            (5.0, 4.0),
            (1.0, 4.0),
        ]);
        assert_eq!(
            build(&s, &CancelToken::new()).unwrap_err(),
            BuildError::NotConvex {
                obstacle: 0,
                vertex: 2
            }
        );
        let s = rect_scene().with_obstacle([(5.0, 5.0), (7.0, 5.0), (7.0, 7.0)]);
        assert_eq!(
            build(&s, &CancelToken::new()).unwrap_err(),
            BuildError::Overlap {
                first: 0,
                second: 1
            }
        );
        let touching = rect_scene().with_obstacle([(6.0, 5.0), (8.0, 5.0), (8.0, 7.0)]);
        assert_eq!(
            build(&touching, &CancelToken::new()).unwrap_err(),
            BuildError::Overlap {
                first: 0,
                second: 1
            }
        );
    }

    #[test]
    fn clockwise_obstacles_work_too() {
        let s = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(10.0, 10.0))).with_obstacle([
            (4.0, 6.0),
            (6.0, 6.0),
            (6.0, 4.0),
            (4.0, 4.0),
        ]);
        let m = build(&s, &CancelToken::new()).unwrap();
        m.check_invariants().unwrap();
        assert_eq!(m.area(), 96.0);
    }

    /// Found by the fuzzer (`fuzz/`, target `build_mesh` before the targets were split): with
    /// sub-normal coordinates a slab was so thin that a corner's computed height rounded onto
    /// another trapezoid's edge, a T-junction. Now either a valid mesh or a typed error.
    #[test]
    fn regression_subnormal_slab_makes_a_t_junction() {
        let s = Scene::new(Aabb::new(Vec2::new(-16.0, -16.0), Vec2::new(16.0, 16.0)))
            .with_obstacle([
                (0.75, 8.25),
                (0.0, 2.4245107452363954e-25),
                (3.16966314e-315, 0.0),
            ]);
        // Sub-normal coordinates make products underflow, where no predicate is exact: refused.
        assert!(matches!(
            build(&s, &CancelToken::new()),
            Err(BuildError::CoordinateRange { .. })
        ));
    }

    /// The CDT used to take this scene (its overlay rounded the sub-normal x to 0); the range
    /// rule is now one for both decompositions (`build::check_coordinates`), and names the vertex.
    #[test]
    fn the_same_subnormal_scene_is_refused_by_the_cdt_too() {
        let s = Scene::new(Aabb::new(Vec2::new(-16.0, -16.0), Vec2::new(16.0, 16.0)))
            .with_obstacle([
                (0.75, 8.25),
                (0.0, 2.4245107452363954e-25),
                (3.16966314e-315, 0.0),
            ]);
        let culprit = Vec2::new(3.16966314e-315, 0.0);
        for options in [
            crate::build::BuildOptions::cdt(),
            crate::build::BuildOptions::trapezoid(),
        ] {
            assert_eq!(
                crate::build::build(&s, &options).unwrap_err(),
                BuildError::CoordinateRange {
                    at: crate::build::CoordinateSite::Obstacle {
                        obstacle: 0,
                        vertex: 2
                    },
                    min: culprit,
                    max: culprit,
                }
            );
        }
    }

    /// Found by the fuzzer (`fuzz`, target `build_trapezoid`) after the sub-normal fix above: an
    /// obstacle with tiny coordinates next to sub-normal ones passes the convexity check because
    /// one of its turns underflows to "straight" (the product 1.6e-180 × 3.2e-312 is below the
    /// smallest f64), is grown by an agent radius of 4.8125 into a folded ring, and two trapezoids
    /// then claimed the same edge (`BuildError::Mesh`, an internal error). Grown rings are now
    /// checked, so this is a typed error.
    #[test]
    fn regression_tiny_coordinates_make_a_non_manifold_edge() {
        let s = Scene::new(Aabb::new(Vec2::new(-16.0, -16.0), Vec2::new(16.0, 16.0)))
            .with_obstacle([
                (0.0, 0.0),
                (3.246654855335e-312, 0.0),
                (-2.353437368264535e-185, 9.25),
                (-0.25, 15.25),
                (0.0, -1.6028329769468593e-180),
            ]);
        let max_angle = crate::build::inflate::chord_angle(0.01);
        match build_inflated(&s, 4.8125, max_angle, &CancelToken::new()) {
            Ok(m) => m.check_invariants().unwrap(),
            Err(e) => assert!(!matches!(e, BuildError::Mesh(_)), "{e}"),
        }
    }
}
