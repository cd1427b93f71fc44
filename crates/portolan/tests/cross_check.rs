//! Two independent exact answers must agree: the exact search (Polyanya) on a built mesh and the
//! visibility-graph oracle on the scene itself, on seeded random scenes, with both decompositions
//! and with overlapping obstacles (which only the CDT builder accepts: it unions them first).
//! The funnel, a heuristic, is never shorter than either. The exact search with landmarks (a
//! stronger heuristic from precomputed distances) gives the same lengths as without.

use portolan::random::{random_free_point, random_scene, RandomSceneOptions, Rng};
use portolan::search::landmarks::Landmarks;
use portolan::search::visibility::{VisibilityError, VisibilityGraph};
use portolan::{build, BuildOptions, Decomposition, PathError, PathFinder, Scene, SearchOptions};

/// Allowed difference for a path of length `len`. The trapezoid mesh keeps the scene's
/// coordinates, so the two exact answers agree to rounding. The CDT builder first unions the
/// obstacles on `i_overlay`'s 32-bit integer grid, which moves non-dyadic vertices and edge
/// crossings by up to about a grid step (extent / 2^30, some 7e-7 on an 800-wide map): allow ten
/// steps' worth of the map's extent on top.
fn tolerance(decomposition: Decomposition, scene: &Scene, len: f64) -> f64 {
    let extent = scene.bounds.size().x.max(scene.bounds.size().y);
    match decomposition {
        Decomposition::Trapezoid => 1e-9 * len.max(1.0),
        _ => 1e-9 * len.max(1.0) + 1e-8 * extent,
    }
}

/// Checks `queries` random pairs on `scene` built with `decomposition`; returns how many were
/// compared (reachable pairs).
fn check(scene: &Scene, decomposition: Decomposition, seed: u64, queries: usize) -> usize {
    let options = BuildOptions::default().with_decomposition(decomposition);
    let mesh = build(scene, &options).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    let oracle = VisibilityGraph::new(scene).unwrap();
    let with_landmarks = SearchOptions::exact()
        .with_landmarks(Some(std::sync::Arc::new(Landmarks::build(&mesh, 4))));
    let mut finder = PathFinder::new();
    let mut rng = Rng::new(Rng::derive(seed, 99));
    let mut compared = 0;
    for q in 0..queries {
        let (Some(s), Some(g)) = (
            random_free_point(&mut rng, scene, 100),
            random_free_point(&mut rng, scene, 100),
        ) else {
            continue;
        };
        let truth = oracle.shortest_path(s, g);
        let ex = finder.find_path(&mesh, s, g, &SearchOptions::exact());
        match (&truth, &ex) {
            (Ok(t), Ok(e)) => {
                assert!(
                    (e.length - t.length).abs() <= tolerance(decomposition, scene, t.length),
                    "seed {seed} {decomposition:?} query {q} {s} → {g}: exact {} vs oracle {}",
                    e.length,
                    t.length
                );
                let l = finder.find_path(&mesh, s, g, &with_landmarks).unwrap();
                assert!(
                    (l.length - e.length).abs() <= 1e-12 * e.length.max(1.0),
                    "seed {seed} {decomposition:?} query {q} {s} → {g}: with landmarks {} vs {}",
                    l.length,
                    e.length
                );
                let f = finder
                    .find_path(&mesh, s, g, &SearchOptions::default())
                    .unwrap();
                assert!(
                    f.length >= t.length - tolerance(decomposition, scene, t.length),
                    "funnel beat the optimum"
                );
                compared += 1;
            }
            (Err(VisibilityError::NoPath), Err(PathError::NoPath)) => {
                let l = finder.find_path(&mesh, s, g, &with_landmarks);
                assert_eq!(
                    l,
                    Err(PathError::NoPath),
                    "seed {seed} query {q}: with landmarks"
                );
            }
            _ => panic!(
                "seed {seed} {decomposition:?} query {q} {s} → {g}: oracle {truth:?}, exact {ex:?}"
            ),
        }
    }
    compared
}

#[test]
fn exact_equals_the_oracle_on_trapezoid_and_cdt_meshes() {
    let opts = RandomSceneOptions::default();
    let mut compared = 0;
    for seed in 0..200 {
        let scene = random_scene(seed, &opts).unwrap();
        compared += check(&scene, Decomposition::Trapezoid, seed, 15);
        compared += check(&scene, Decomposition::CdtMerged, seed, 15);
    }
    assert!(compared > 4000, "only {compared} reachable pairs compared");
}

#[test]
fn exact_equals_the_oracle_with_overlapping_obstacles() {
    let opts = RandomSceneOptions::default();
    let mut compared = 0;
    for seed in 0..150 {
        // Two independent random scenes on the same map: their obstacles overlap freely.
        let mut scene = random_scene(seed, &opts).unwrap();
        scene
            .obstacles
            .extend(random_scene(seed + 1000, &opts).unwrap().obstacles);
        compared += check(&scene, Decomposition::CdtMerged, seed, 15);
    }
    assert!(compared > 1500, "only {compared} reachable pairs compared");
}
