//! Corner offset: keep the agent off obstacle corners (the chapter's exercise 3).
//!
//! A funnel path turns exactly at obstacle corners, so an agent following it brushes every
//! corner. This pass moves each turning point `c` (not the start or the goal) a distance `r` out
//! along the *outer* bisector of the turn, away from the obstacle that the path wraps around:
//!
//! ```text
//!              c' = c + r · b̂        b̂ = unit(unit(c - p) - unit(n - c))
//!              ·
//!              ╎ r                   the obstacle sits inside the angle p c n;
//!     p ───────● c                   the outer bisector points away from it
//!             ╱██╲
//!            ╱ ██ ╲
//!           n
//! ```
//!
//! # Never off the mesh
//! A pushed point must stay on the mesh, and so must the path. The points are processed in order;
//! for turning point `i` the pass tries the offsets `r`, `r/2`, `r/4` and finally `0` (the
//! original corner) and keeps the first for which three [`raycast`]s are clear: from the corner to
//! the moved point, from the (already final) previous point to it, and from it to the original
//! next point. The next point's own check then covers the segment from this one. So every point
//! and every segment of the result lies on the mesh (touching walls is allowed), and each moved
//! point is at distance `r`, `r/2` or `r/4` from its corner — or not moved, where even `r/4` does
//! not fit. Start, goal and straight-through points are never moved; neither is a point where the
//! path reverses (no bisector).
//!
//! This is a margin at the turns, not an agent radius: between turns the path may still run along
//! a wall. For clearance everywhere, build the mesh from obstacles inflated by the radius.
//!
//! Cost: O(k) raycasts for k turning points (each O(polygons crossed)).
//!
//! ```
//! use portolan::{build, BuildOptions, PathFinder, Scene, SearchOptions};
//!
//! let mesh = build(&Scene::default_map(), &BuildOptions::trapezoid()).unwrap();
//! let mut finder = PathFinder::new();
//! let tight = finder
//!     .find_path(&mesh, Scene::DEFAULT_START, Scene::DEFAULT_GOAL, &SearchOptions::default())
//!     .unwrap();
//! let options = SearchOptions::default().with_corner_offset(8.0);
//! let loose = finder
//!     .find_path(&mesh, Scene::DEFAULT_START, Scene::DEFAULT_GOAL, &options)
//!     .unwrap();
//! assert_eq!(tight.points.len(), loose.points.len());
//! for (c, moved) in tight.points.iter().zip(&loose.points).skip(1).take(tight.points.len() - 2) {
//!     assert!((c.distance(*moved) - 8.0).abs() < 1e-9); // every corner here has room
//! }
//! ```

use super::raycast::raycast;
use crate::geom::{orient, Vec2};
use crate::mesh::NavMesh;

/// How many times a blocked offset is halved before the corner is left where it was.
const HALVINGS: usize = 2;

/// The unit outer bisector at `c` of the turn `p → c → n`, or `None` when the path goes straight
/// on or reverses (or a segment has zero length).
pub fn outer_bisector(p: Vec2, c: Vec2, n: Vec2) -> Option<Vec2> {
    if orient(p, c, n).is_collinear() {
        return None;
    }
    // Plain square roots (`Vec2::normalized` uses `hypot`): the crowd calls this per agent and
    // step.
    let unit = |v: Vec2| {
        let len = crate::geom::norm(v);
        (len > 0.0 && len.is_finite()).then(|| v / len)
    };
    let incoming = unit(c - p)?;
    let outgoing = unit(n - c)?;
    unit(incoming - outgoing)
}

/// Moves every turning point of `points` out by `r` along its outer bisector, shortening moves
/// that would leave the mesh; see the [module docs](self) for the rule. `r` must be finite and
/// ≥ 0 (anything else leaves the path unchanged). Returns how many points moved.
pub fn offset_corners(mesh: &NavMesh, points: &mut [Vec2], r: f64) -> usize {
    if !(r.is_finite() && r > 0.0) || points.len() < 3 {
        return 0;
    }
    let clear = |a: Vec2, b: Vec2| raycast(mesh, a, b).is_ok_and(|ray| ray.is_clear());
    let mut moved = 0;
    for i in 1..points.len() - 1 {
        let (prev, c, next) = (points[i - 1], points[i], points[i + 1]);
        let Some(b) = outer_bisector(prev, c, next) else {
            continue;
        };
        let mut d = r;
        for _ in 0..=HALVINGS {
            let q = c + b * d;
            if q.is_finite() && clear(c, q) && clear(prev, q) && clear(q, next) {
                points[i] = q;
                moved += 1;
                break;
            }
            d *= 0.5;
        }
    }
    moved
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{build, BuildOptions};
    use crate::geom::Aabb;
    use crate::mesh::Location;
    use crate::scene::Scene;
    use crate::search::{PathError, PathFinder, SearchOptions};

    fn v(x: f64, y: f64) -> Vec2 {
        Vec2::new(x, y)
    }

    fn all_clear(mesh: &NavMesh, pts: &[Vec2]) -> bool {
        pts.windows(2)
            .all(|w| raycast(mesh, w[0], w[1]).unwrap().is_clear())
    }

    #[test]
    fn bisector_points_away_from_the_wrapped_corner() {
        // Going right then down around a corner below-left of the turn: push up-right.
        let b = outer_bisector(v(0.0, 0.0), v(1.0, 0.0), v(1.0, -1.0)).unwrap();
        let s = std::f64::consts::FRAC_1_SQRT_2;
        assert!((b - v(s, s)).length() < 1e-15);
        assert_eq!(outer_bisector(v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0)), None);
        assert_eq!(outer_bisector(v(0.0, 0.0), v(1.0, 0.0), v(0.0, 0.0)), None);
        assert_eq!(outer_bisector(v(1.0, 0.0), v(1.0, 0.0), v(0.0, 0.0)), None);
    }

    #[test]
    fn default_query_corners_move_by_r_and_stay_on_the_mesh() {
        let (_, m, base) = crate::testkit::scenes::default_query();
        let mut f = PathFinder::new();
        assert!(base.points.len() >= 3, "the default query turns");
        for r in [1.0, 5.0, 12.5] {
            let opts = SearchOptions::default().with_corner_offset(r);
            let p = f
                .find_path(&m, Scene::DEFAULT_START, Scene::DEFAULT_GOAL, &opts)
                .unwrap();
            assert_eq!(p.points.len(), base.points.len());
            assert_eq!(p.points[0], base.points[0]);
            assert_eq!(p.points.last(), base.points.last());
            for (c, q) in base.points[1..base.points.len() - 1]
                .iter()
                .zip(&p.points[1..])
            {
                // The full push where there is room; near the tight corner (301, 249) the 12.5 push
                // is halved so the path next to it stays on the mesh.
                let moved = c.distance(*q);
                if r <= 5.0 {
                    assert!((moved - r).abs() < 1e-9 * r.max(1.0), "{c} → {q}");
                } else {
                    assert!(moved > 0.0 && moved <= r * (1.0 + 1e-12), "{c} → {q}");
                }
                assert_ne!(m.locate(*q), Location::Outside);
                // Moved out of the obstacle's corner region: not a mesh vertex any more.
                assert!(!matches!(m.locate(*q), Location::OnVertex { .. }));
            }
            assert!(all_clear(&m, &p.points));
            assert!((p.length - Path::polyline_length(&p.points)).abs() < 1e-9);
            assert!(p.length >= base.length);
        }
    }

    #[test]
    fn narrow_gaps_shorten_the_push() {
        // A corridor 2 wide bending around an obstacle: a push of 10 cannot fit.
        let s = Scene::new(Aabb::new(Vec2::ZERO, v(10.0, 10.0))).with_obstacle([
            (0.0, 2.0),
            (8.0, 2.0),
            (8.0, 8.0),
            (0.0, 8.0),
        ]);
        let m = build(&s, &BuildOptions::trapezoid()).unwrap();
        let mut pts = vec![v(1.0, 1.0), v(8.0, 2.0), v(8.0, 8.0), v(1.0, 9.0)];
        assert!(all_clear(&m, &pts));
        let before = pts.clone();
        let moved = offset_corners(&m, &mut pts, 10.0);
        assert!(all_clear(&m, &pts), "{pts:?}");
        for (c, q) in before[1..3].iter().zip(&pts[1..3]) {
            let d = c.distance(*q);
            assert!(d < 10.0 - 1e-9);
            assert!(
                d == 0.0 || (d - 2.5).abs() < 1e-9 || (d - 5.0).abs() < 1e-9,
                "{d}"
            );
            assert_ne!(m.locate(*q), Location::Outside);
        }
        assert!(moved <= 2);
        // With room, the full push.
        let mut pts = before.clone();
        assert_eq!(offset_corners(&m, &mut pts, 1.0), 2);
        assert!((pts[1].distance(before[1]) - 1.0).abs() < 1e-12);
        assert!(all_clear(&m, &pts));
    }

    #[test]
    fn bad_offsets_are_rejected_by_find_path() {
        let m = build(&Scene::default_map(), &BuildOptions::trapezoid()).unwrap();
        let mut f = PathFinder::new();
        for bad in [-1.0, f64::NAN, f64::INFINITY] {
            let opts = SearchOptions::default().with_corner_offset(bad);
            assert!(matches!(
                f.find_path(&m, Scene::DEFAULT_START, Scene::DEFAULT_GOAL, &opts),
                Err(PathError::InvalidOption {
                    option: "corner_offset",
                    ..
                })
            ));
        }
        // offset_corners itself leaves the path alone.
        let mut pts = vec![v(60.0, 60.0), v(230.0, 300.0), v(740.0, 390.0)];
        let before = pts.clone();
        assert_eq!(offset_corners(&m, &mut pts, f64::NAN), 0);
        assert_eq!(pts, before);
    }

    use crate::search::Path;
    use crate::testkit::check_counted;
    use crate::testkit::scenes::{grid_point, mesh_of, random_scene};
    use proptest::prelude::*;

    #[test]
    fn offset_paths_stay_on_random_meshes() {
        let input = (
            random_scene(),
            prop::collection::vec((grid_point(), grid_point()), 20),
            prop_oneof![Just(0.5), Just(1.5), Just(4.0)],
        );
        let moved = check_counted(file!(), 64, input, |(scene, queries, r)| {
            let mut moved = 0;
            let m = mesh_of(&scene);
            let mut f = PathFinder::new();
            let opts = SearchOptions::default().with_corner_offset(r);
            for (a, b) in queries {
                let Ok(base) = f.find_path(&m, a, b, &SearchOptions::default()) else {
                    continue;
                };
                // The funnel's own path is clear by the raycast (exact scenes).
                prop_assert!(all_clear(&m, &base.points), "funnel path {:?}", base.points);
                let p = f.find_path(&m, a, b, &opts).unwrap();
                prop_assert_eq!(p.points.len(), base.points.len());
                prop_assert!(all_clear(&m, &p.points), "offset path {:?}", p.points);
                for q in &p.points {
                    prop_assert!(m.locate(*q) != Location::Outside);
                }
                let n = p.points.len();
                prop_assert_eq!(p.points[0], base.points[0]);
                prop_assert_eq!(p.points[n - 1], base.points[n - 1]);
                // Each turning point took the first of r, r/2, r/4 that fits, and stayed put
                // only where none does: replay the rule's fit test from the final previous point.
                let fits = |prev: Vec2, c: Vec2, q: Vec2, next: Vec2| {
                    all_clear(&m, &[c, q]) && all_clear(&m, &[prev, q, next])
                };
                for i in 1..n - 1 {
                    let (prev, c, next) = (p.points[i - 1], base.points[i], base.points[i + 1]);
                    let dist = c.distance(p.points[i]);
                    let Some(b) = outer_bisector(prev, c, next) else {
                        prop_assert_eq!(p.points[i], c, "no bisector, yet moved");
                        continue;
                    };
                    let tries = [r, r / 2.0, r / 4.0];
                    let taken = tries
                        .iter()
                        .position(|&x| (dist - x).abs() <= 1e-9 * (1.0 + r));
                    prop_assert!(
                        taken.is_some() || dist == 0.0,
                        "moved {} for r = {}",
                        dist,
                        r
                    );
                    moved += usize::from(taken.is_some());
                    let skipped = taken.unwrap_or(tries.len());
                    for &x in &tries[..skipped] {
                        prop_assert!(
                            !fits(prev, c, c + b * x, next),
                            "offset {} fits at {:?}",
                            x,
                            c
                        );
                    }
                    if let Some(k) = taken {
                        prop_assert!(
                            (p.points[i] - (c + b * tries[k])).length() <= 1e-9 * (1.0 + r)
                        );
                    }
                }
            }
            Ok(moved)
        });
        // The rule must have been exercised: about 540 corners move in the 64 cases.
        assert!(moved >= 200, "only {moved} corners moved");
    }
}
