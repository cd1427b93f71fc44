//! `DynamicNavMesh`: random edit sequences give, after every update, a valid mesh whose exact
//! path lengths equal those of a tiled build from scratch of the same obstacles; old snapshots keep
//! answering while another thread updates.
//!
//! The property tests run on proptest's deterministic generator (a fixed seed, no regression
//! file): the same cases every run, so they cannot fail on a rare seed, and the number of cases
//! and of compared queries is asserted.

use portolan::dynamic::{DynamicNavMesh, EditError, ObstacleId, PolyRefError};
use portolan::geom::{orient, Orientation};
use portolan::io::movingai::read_map;
use portolan::random::Rng;
use portolan::{BuildOptions, Location, NavMesh, PathFinder, PolyId, Scene, SearchOptions, Vec2};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::cell::Cell;

/// One edit: `kind` picks add (0–3), move, remove or toggle; the numbers pick which obstacle,
/// where and how big (quarter units, so vertices often land on tile borders).
#[derive(Clone, Debug)]
struct Edit {
    kind: u8,
    pick: usize,
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    shape: u8,
}

fn edit() -> impl Strategy<Value = Edit> {
    (
        0u8..7,
        0usize..16,
        0.0..1.0f64,
        0.0..1.0f64,
        1u8..=24,
        1u8..=24,
        0u8..3,
    )
        .prop_map(|(kind, pick, x, y, w, h, shape)| Edit {
            kind,
            pick,
            x,
            y,
            w: w as f64 / 4.0,
            h: h as f64 / 4.0,
            shape,
        })
}

/// A triangle, a rectangle or an L (concave) of size `w × h` at `(x, y)`, on quarter units.
fn shape(e: &Edit, scale: f64) -> Vec<Vec2> {
    let q = |v: f64| (v * 4.0).round() / 4.0;
    let (w, h) = (e.w * scale, e.h * scale);
    let (x, y) = (q(e.x), q(e.y));
    let (w, h) = (q(w).max(0.25), q(h).max(0.25));
    let p = |a: f64, b: f64| Vec2::new(x + a, y + b);
    match e.shape {
        0 => vec![p(0.0, 0.0), p(w, 0.0), p(w * 0.5, h)]
            .into_iter()
            .map(|v| Vec2::new(q(v.x), q(v.y)))
            .collect(),
        1 => vec![p(0.0, 0.0), p(w, 0.0), p(w, h), p(0.0, h)],
        _ => {
            let (a, b) = (q(w * 0.5).max(0.25), q(h * 0.5).max(0.25));
            vec![p(0.0, 0.0), p(w, 0.0), p(w, b), p(a, b), p(a, h), p(0.0, h)]
        }
    }
}

/// Applies `edits` to `nav` with an update after each, checking every snapshot against a build
/// from scratch with `queries` random query pairs. Returns the number of compared queries.
fn run_edits(
    nav: &mut DynamicNavMesh,
    edits: &[Edit],
    queries: usize,
    seed: u64,
) -> Result<usize, TestCaseError> {
    let bounds = nav.snapshot().mesh().bounds();
    let size = bounds.size();
    let scale = (size.x.min(size.y) / 24.0).max(1.0);
    let mut ids: Vec<ObstacleId> = Vec::new();
    let mut removed: Vec<ObstacleId> = Vec::new();
    let mut rng = Rng::new(seed);
    let mut finder = PathFinder::new();
    let exact = SearchOptions::exact();
    let mut compared = 0;
    for e in edits {
        let before = nav.snapshot();
        let pick = |ids: &[ObstacleId]| ids[e.pick % ids.len()];
        match e.kind {
            0..=3 => {
                let mut e2 = e.clone();
                e2.x = bounds.min.x + e.x * size.x;
                e2.y = bounds.min.y + e.y * size.y;
                match nav.add_obstacle(shape(&e2, scale)) {
                    Ok(id) => ids.push(id),
                    Err(EditError::OutsideWorld { .. }) => {}
                    Err(other) => return Err(TestCaseError::fail(format!("add: {other}"))),
                }
            }
            4 if !ids.is_empty() => {
                let by = Vec2::new((e.x - 0.5) * 8.0 * scale, (e.y - 0.5) * 8.0 * scale);
                let by = Vec2::new((by.x * 4.0).round() / 4.0, (by.y * 4.0).round() / 4.0);
                match nav.move_obstacle(pick(&ids), by) {
                    Ok(()) | Err(EditError::OutsideWorld { .. }) => {}
                    Err(other) => return Err(TestCaseError::fail(format!("move: {other}"))),
                }
            }
            5 if !ids.is_empty() => {
                let id = ids.remove(e.pick % ids.len());
                nav.remove_obstacle(id)
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                removed.push(id);
            }
            6 if !ids.is_empty() => {
                let id = pick(&ids);
                let on = e.pick % 2 == 0;
                nav.set_obstacle_enabled(id, on)
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
            }
            _ => {}
        }
        // Removed ids stay unknown.
        for &id in &removed {
            prop_assert_eq!(
                nav.set_obstacle_enabled(id, true),
                Err(EditError::UnknownObstacle(id))
            );
        }
        let report = nav
            .update()
            .map_err(|e| TestCaseError::fail(format!("update: {e}")))?;
        let snap = nav.snapshot();
        let mesh = snap.mesh();
        mesh.check_invariants()
            .map_err(|e| TestCaseError::fail(format!("invariants: {e}")))?;
        // Every polygon of a rebuilt tile is stale in the new snapshot, every other one resolves
        // to the same polygon: the same turning points (a neighbour of a rebuilt tile is split
        // again on their border, which adds or removes vertices on its straight sides only).
        for r in &report.removed {
            let stale = matches!(snap.resolve(*r), Err(PolyRefError::Stale { .. }));
            prop_assert!(stale, "{:?} resolves after its tile was rebuilt", r);
        }
        for p in before.mesh().polygons() {
            let r = before.poly_ref(p).unwrap();
            if let Ok(q) = snap.resolve(r) {
                prop_assert_eq!(
                    turning_points(before.mesh().polygon_points(p)),
                    turning_points(mesh.polygon_points(q))
                );
            } else {
                prop_assert!(report.tiles.contains(&(r.tile as usize)));
            }
        }
        let scratch = nav
            .build_from_scratch()
            .map_err(|e| TestCaseError::fail(format!("scratch: {e}")))?;
        scratch
            .check_invariants()
            .map_err(|e| TestCaseError::fail(format!("scratch invariants: {e}")))?;
        prop_assert_eq!(scratch.polygon_count(), mesh.polygon_count());
        // The tiles' areas summed per tile, the scratch build's per polygon: equal to rounding.
        let area_gap = (scratch.area() - mesh.area()).abs();
        prop_assert!(
            area_gap <= 1e-12 * scratch.area(),
            "areas differ by {}",
            area_gap
        );
        // The patched mesh is the scratch build, polygon for polygon (the scratch build numbers
        // the polygons in tile order, the patched one keeps ids stable across updates; the
        // vertex numbering may differ too): the same rings, neighbours, boxes and centroids,
        // corners and pinches.
        prop_assert_eq!(scratch.vertex_count(), mesh.vertex_count());
        prop_assert_eq!(scratch.bounds(), mesh.bounds());
        let mut per_tile = vec![0u32; nav.grid().columns() * nav.grid().rows()];
        for p in mesh.polygons() {
            let r = snap.poly_ref(p).unwrap();
            per_tile[r.tile as usize] = per_tile[r.tile as usize].max(r.index + 1);
        }
        let first: Vec<u32> = per_tile
            .iter()
            .scan(0, |sum, &c| {
                *sum += c;
                Some(*sum - c)
            })
            .collect();
        let in_scratch = |p: PolyId| {
            let r = snap.poly_ref(p).unwrap();
            PolyId(first[r.tile as usize] + r.index)
        };
        for p in mesh.polygons() {
            let s = in_scratch(p);
            prop_assert!(
                scratch.polygon_points(s).eq(mesh.polygon_points(p)),
                "{}",
                p
            );
            let mapped: Vec<Option<PolyId>> = mesh
                .neighbours(p)
                .iter()
                .map(|n| n.map(in_scratch))
                .collect();
            prop_assert_eq!(scratch.neighbours(s), mapped.as_slice());
            prop_assert_eq!(scratch.polygon_bounds(s), mesh.polygon_bounds(p));
            prop_assert_eq!(scratch.centroid(s), mesh.centroid(p));
            for (&v, &w) in mesh
                .polygon_vertices(p)
                .iter()
                .zip(scratch.polygon_vertices(s))
            {
                prop_assert_eq!(mesh.is_corner(v), scratch.is_corner(w));
                prop_assert_eq!(mesh.is_pinch(v), scratch.is_pinch(w));
                let mut around: Vec<PolyId> = mesh
                    .vertex_polygons(v)
                    .iter()
                    .map(|&q| in_scratch(q))
                    .collect();
                around.sort_unstable();
                let mut want = scratch.vertex_polygons(w).to_vec();
                want.sort_unstable();
                prop_assert_eq!(around, want);
            }
            // Point location finds every polygon at its centroid (the grid is laid out once
            // for the map, not per snapshot).
            prop_assert_eq!(mesh.locate(mesh.centroid(p)).polygon(), Some(p));
        }
        compared += compare_queries(&scratch, mesh, &mut rng, &mut finder, &exact, queries, 1e-9)?;
        // And the tiled free space is the untiled one: the same lengths up to the overlay's
        // rounding of intersection points (2⁻²⁹ of the map's extent).
        let untiled = portolan::build(&nav.scene(), nav.options())
            .map_err(|e| TestCaseError::fail(format!("untiled: {e}")))?;
        compare_queries(
            &untiled,
            mesh,
            &mut rng,
            &mut finder,
            &exact,
            queries / 2,
            1e-6,
        )?;
    }
    Ok(compared)
}

/// A ring's turning points (not the vertices on its straight sides), from its least point
/// (by x, then y), counter-clockwise.
fn turning_points(points: impl Iterator<Item = Vec2>) -> Vec<Vec2> {
    let ring: Vec<Vec2> = points.collect();
    let n = ring.len();
    let mut out: Vec<Vec2> = (0..n)
        .filter(|&i| {
            orient(ring[(i + n - 1) % n], ring[i], ring[(i + 1) % n]) != Orientation::Collinear
        })
        .map(|i| ring[i])
        .collect();
    let least = (0..out.len())
        .min_by(|&a, &b| {
            out[a]
                .x
                .total_cmp(&out[b].x)
                .then(out[a].y.total_cmp(&out[b].y))
        })
        .unwrap_or(0);
    out.rotate_left(least);
    out
}

/// Exact lengths on `a` and `b` for `n` random pairs of points on `a`: equal to `tolerance`
/// relative.
fn compare_queries(
    a: &NavMesh,
    b: &NavMesh,
    rng: &mut Rng,
    finder: &mut PathFinder,
    exact: &SearchOptions,
    n: usize,
    tolerance: f64,
) -> Result<usize, TestCaseError> {
    let bounds = a.bounds();
    let point = |rng: &mut Rng| {
        (0..50)
            .map(|_| {
                Vec2::new(
                    rng.range_f64(bounds.min.x, bounds.max.x),
                    rng.range_f64(bounds.min.y, bounds.max.y),
                )
            })
            .find(|&p| a.locate(p) != Location::Outside)
    };
    let mut compared = 0;
    for _ in 0..n {
        let (Some(s), Some(g)) = (point(rng), point(rng)) else {
            continue;
        };
        let x = finder.find_path(a, s, g, exact).map(|p| p.length);
        let y = finder.find_path(b, s, g, exact).map(|p| p.length);
        match (&x, &y) {
            (Ok(x), Ok(y)) => prop_assert!(
                (x - y).abs() <= tolerance * x.max(1.0),
                "{} -> {}: reference {} vs dynamic {}",
                s,
                g,
                x,
                y
            ),
            _ => prop_assert_eq!(x.is_ok(), y.is_ok(), "{} -> {}: {:?} vs {:?}", s, g, x, y),
        }
        compared += 1;
    }
    Ok(compared)
}

/// Runs `property` on `cases` values of `strategy` from a fixed seed; returns (cases, sum).
fn run_fixed<S: Strategy>(
    cases: u32,
    strategy: S,
    property: impl Fn(S::Value) -> Result<usize, TestCaseError>,
) -> (usize, usize) {
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let (ran, checked) = (Cell::new(0usize), Cell::new(0usize));
    let result = runner.run(&strategy, |value| {
        let n = property(value)?;
        ran.set(ran.get() + 1);
        checked.set(checked.get() + n);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    (ran.get(), checked.get())
}

/// `scene` with every point mapped by `to` (bounds, obstacles, holes and boundary), `to` an
/// increasing map on each axis (a move, a positive scale) so that the bounds stay ordered.
fn mapped(scene: Scene, to: impl Fn(Vec2) -> Vec2) -> Scene {
    let f = |ring: &Vec<Vec2>| ring.iter().map(|&p| to(p)).collect::<Vec<_>>();
    let mut out = Scene::new(portolan::geom::Aabb::new(
        to(scene.bounds.min),
        to(scene.bounds.max),
    ));
    out.obstacles = scene.obstacles.iter().map(f).collect();
    out.holes = scene.holes.clone();
    for h in &mut out.holes {
        h.ring = f(&h.ring);
    }
    out.boundary = scene.boundary.as_ref().map(f);
    out
}

/// Random 24 × 24 scenes of convex obstacles, tiles of 4, 6 or 8 or of sides off the overlay's
/// grid (24 / 7, 5.3), at the origin or moved to a corner off that grid (1234.567, −89.1), point
/// agents and agents of radius 0.5, 6 random edits each.
#[test]
fn random_edits_on_random_scenes_match_a_build_from_scratch() {
    let input = (
        (portolan::testkit::scenes::random_scene(), any::<bool>()),
        0usize..5,
        any::<bool>(),
        prop::collection::vec(edit(), 6),
        any::<u64>(),
    );
    let (cases, compared) = run_fixed(64, input, |((scene, shift), size, radius, edits, seed)| {
        let scene = if shift {
            mapped(scene, |p| p + Vec2::new(1234.567, -89.1))
        } else {
            scene
        };
        let tile = [4.0, 6.0, 8.0, 24.0 / 7.0, 5.3][size];
        let options = BuildOptions::cdt().with_agent_radius(if radius { 0.5 } else { 0.0 });
        let Ok(mut nav) = DynamicNavMesh::new(scene, &options, tile) else {
            // A scene with no walkable space for the radius: nothing to edit.
            return Ok(0);
        };
        run_edits(&mut nav, &edits, 12, seed)
    });
    assert_eq!(cases, 64);
    assert!(compared >= 64 * 6 * 8, "only {compared} queries compared");
}

/// Grid maps: arena (49 × 49) in tiles of 16 and of 49 / 3.3 (off the overlay's grid), 12 cases
/// each, and den011d (247 × 167) in tiles of 32, 6 cases; 8 random edits per case.
#[test]
fn random_edits_on_grid_maps_match_a_build_from_scratch() {
    for (map, tile, cases) in [
        ("arena", 16.0, 12u32),
        ("arena", 49.0 / 3.3, 12),
        ("den011d", 32.0, 6),
    ] {
        let path = portolan::testkit::data_dir().join(format!("movingai/dao/{map}.map"));
        let f = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let scene = read_map(std::io::BufReader::new(f)).unwrap().to_scene();
        let input = (
            prop::collection::vec(edit(), 8),
            any::<bool>(),
            any::<u64>(),
        );
        let (ran, compared) = run_fixed(cases, input, |(edits, radius, seed)| {
            let options = BuildOptions::cdt().with_agent_radius(if radius { 0.5 } else { 0.0 });
            let mut nav = DynamicNavMesh::new(scene.clone(), &options, tile).unwrap();
            run_edits(&mut nav, &edits, 12, seed)
        });
        assert_eq!(ran, cases as usize, "{map}");
        assert!(
            compared >= cases as usize * 8 * 8,
            "{map}: only {compared} queries compared"
        );
    }
}

/// A map whose lower corner is off the overlay's grid: the overlay rounds the points of the
/// map's border to its grid, some of them just outside the bounds. Such a vertex lay in no tile,
/// so when a compaction moved it to a freed id its rings kept the old one, and the next update
/// panicked in the mesh patch (found by a fuzz of edits on moved maps).
#[test]
fn an_edit_on_a_map_whose_corner_is_off_the_grid() {
    let scene = mapped(Scene::default_map(), |p| {
        Vec2::new(p.x * 0.37 + 1234.567, p.y * 0.37 - 89.1)
    });
    let b = scene.bounds;
    let mut nav = DynamicNavMesh::new(scene, &BuildOptions::cdt(), 16.0).unwrap();
    // Nearly all of the map: most tiles lose every polygon and their vertices are compacted.
    let top = b.min.x + (b.max.x - b.min.x) * 0.59;
    let cover = [
        (b.min.x + 1e-3, b.min.y + 1e-3),
        (b.max.x - 1e-3, b.min.y + 1e-3),
        (b.max.x - 1e-3, b.max.y - 1e-3),
        (top, b.max.y - 1e-3),
    ];
    let id = nav.add_obstacle(cover).unwrap();
    nav.update().unwrap();
    nav.snapshot().mesh().check_invariants().unwrap();
    let reference = nav.build_from_scratch().unwrap();
    assert_eq!(
        nav.snapshot().mesh().polygon_count(),
        reference.polygon_count()
    );
    nav.remove_obstacle(id).unwrap();
    nav.update().unwrap();
    nav.snapshot().mesh().check_invariants().unwrap();
    let reference = nav.build_from_scratch().unwrap();
    assert!((nav.snapshot().mesh().area() - reference.area()).abs() <= 1e-9 * reference.area());
}

/// Readers on other threads query the snapshots they hold while the main thread edits and
/// publishes: every answer equals the answer on the same snapshot afterwards, and the first
/// snapshot, held through every update, still gives its first answers.
#[test]
fn queries_on_old_snapshots_run_during_updates() {
    let mut nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 100.0).unwrap();
    let first = nav.snapshot();
    let queries = [
        (Scene::DEFAULT_START, Scene::DEFAULT_GOAL),
        (Vec2::new(20.0, 20.0), Vec2::new(780.0, 430.0)),
        (Vec2::new(20.0, 430.0), Vec2::new(780.0, 20.0)),
    ];
    let lengths = move |mesh: &NavMesh| -> Vec<Option<f64>> {
        let mut finder = PathFinder::new();
        queries
            .iter()
            .map(|&(s, g)| {
                finder
                    .find_path(mesh, s, g, &SearchOptions::exact())
                    .ok()
                    .map(|p| p.length)
            })
            .collect()
    };
    let first_answers = lengths(first.mesh());
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let readers: Vec<_> = (0..2)
        .map(|_| {
            let reader = nav.reader();
            let stop = std::sync::Arc::clone(&stop);
            std::thread::spawn(move || {
                let mut seen = Vec::new();
                loop {
                    let done = stop.load(std::sync::atomic::Ordering::Acquire);
                    let snap = reader.current();
                    seen.push((snap.clone(), lengths(snap.mesh())));
                    if done {
                        return seen;
                    }
                }
            })
        })
        .collect();
    let mut rng = Rng::new(12);
    let mut ids = Vec::new();
    for k in 0..30 {
        let (x, y) = (rng.range_f64(20.0, 760.0), rng.range_f64(20.0, 410.0));
        if k % 3 == 2 {
            let id = ids.remove(0);
            nav.remove_obstacle(id).unwrap();
        } else {
            ids.push(
                nav.add_obstacle([(x, y), (x + 30.0, y), (x + 30.0, y + 20.0), (x, y + 20.0)])
                    .unwrap(),
            );
        }
        nav.update().unwrap();
    }
    stop.store(true, std::sync::atomic::Ordering::Release);
    let mut versions = std::collections::BTreeSet::new();
    let mut checked = 0;
    for r in readers {
        for (snap, answers) in r.join().unwrap() {
            versions.insert(snap.version());
            assert_eq!(lengths(snap.mesh()), answers, "version {}", snap.version());
            checked += 1;
        }
    }
    assert!(checked >= 2);
    assert!(
        versions.contains(&31),
        "the last version was seen: {versions:?}"
    );
    assert_eq!(lengths(first.mesh()), first_answers);
    assert_eq!(first.version(), 1);
}

/// Bad input is a typed error and changes nothing.
#[test]
fn bad_edits_are_typed_errors() {
    let mut nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 100.0).unwrap();
    let ok = nav
        .add_obstacle([(10.0, 10.0), (20.0, 10.0), (15.0, 20.0)])
        .unwrap();
    nav.update().unwrap();
    let version = nav.snapshot().version();
    assert!(matches!(
        nav.add_obstacle([(1.0, 1.0), (5.0, 5.0), (5.0, 1.0), (1.0, 5.0)]),
        Err(EditError::SelfIntersecting { .. })
    ));
    assert!(matches!(
        nav.add_obstacle([(1.0, 1.0), (f64::NAN, 5.0), (5.0, 1.0)]),
        Err(EditError::NonFinite { vertex: 1 })
    ));
    assert!(matches!(
        nav.add_obstacle([(1.0, 1.0), (5.0, 5.0), (900.0, 1.0)]),
        Err(EditError::OutsideWorld { vertex: 2, .. })
    ));
    assert!(matches!(
        nav.add_obstacle([(1.0, 1.0), (2.0, 2.0), (3.0, 3.0)]),
        Err(EditError::Degenerate(_))
    ));
    assert!(matches!(
        nav.move_obstacle(ok, Vec2::new(f64::INFINITY, 0.0)),
        Err(EditError::NonFinite { .. })
    ));
    assert!(matches!(
        nav.move_obstacle(ok, Vec2::new(0.0, 1000.0)),
        Err(EditError::OutsideWorld { .. })
    ));
    nav.remove_obstacle(ok).unwrap();
    for result in [
        nav.remove_obstacle(ok),
        nav.move_obstacle(ok, Vec2::new(1.0, 0.0)),
        nav.set_obstacle_enabled(ok, false),
    ] {
        assert_eq!(result, Err(EditError::UnknownObstacle(ok)));
    }
    assert_eq!(nav.obstacle_count(), 0);
    // The refused edits dirtied nothing; the removal did.
    let report = nav.update().unwrap();
    assert_eq!(report.version, version + 1);
    assert_eq!(report.tiles, vec![0]);
}

/// An update that would leave no walkable space is refused with a typed error and publishes
/// nothing; the kept stitch is restored, so removing the culprit gives the first mesh back.
#[test]
fn an_update_that_leaves_no_walkable_space_publishes_nothing() {
    let scene = Scene::default_map();
    let (w, h) = (scene.bounds.max.x, scene.bounds.max.y);
    let mut nav = DynamicNavMesh::new(scene, &BuildOptions::cdt(), 200.0).unwrap();
    let first = nav.snapshot();
    let small = nav
        .add_obstacle([(10.0, 10.0), (30.0, 10.0), (30.0, 30.0), (10.0, 30.0)])
        .unwrap();
    let all = nav
        .add_obstacle([(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)])
        .unwrap();
    assert!(matches!(
        nav.update(),
        Err(EditError::Build(
            portolan::build::BuildError::NoWalkableSpace
        ))
    ));
    assert_eq!(nav.snapshot().version(), first.version());
    nav.remove_obstacle(all).unwrap();
    nav.remove_obstacle(small).unwrap();
    nav.update().unwrap();
    let mesh = nav.snapshot().mesh().clone();
    mesh.check_invariants().unwrap();
    let scratch = nav.build_from_scratch().unwrap();
    assert_eq!(mesh.polygon_count(), first.mesh().polygon_count());
    assert_eq!(mesh.area(), first.mesh().area());
    for p in mesh.polygons() {
        assert!(mesh.polygon_points(p).eq(scratch.polygon_points(p)));
        assert_eq!(mesh.neighbours(p), scratch.neighbours(p));
    }
}

/// The build options' cancel token stops the first build only: once the mesh is built, a
/// cancelled token (a deadline passed, a request answered) fails no later update.
#[test]
fn the_build_token_does_not_stop_later_updates() {
    let token = portolan::build::CancelToken::new();
    let options = BuildOptions::cdt().with_cancel(token.clone());
    let mut nav = DynamicNavMesh::new(Scene::default_map(), &options, 100.0).unwrap();
    assert!(nav.options().cancel.is_none());
    token.cancel();
    nav.add_obstacle([(10.0, 10.0), (30.0, 10.0), (30.0, 30.0), (10.0, 30.0)])
        .unwrap();
    let report = nav
        .update()
        .expect("an update after the build's token was cancelled");
    assert!(!report.tiles.is_empty());
    nav.snapshot().mesh().check_invariants().unwrap();
    // A token cancelled before the build still stops it.
    let stopped = BuildOptions::cdt().with_cancel(token);
    assert!(matches!(
        DynamicNavMesh::new(Scene::default_map(), &stopped, 100.0),
        Err(portolan::build::BuildError::Cancelled)
    ));
}
