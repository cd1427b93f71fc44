//! The exact search with landmark tables: same answers, fewer expansions, refusals.

use crate::build::{build, BuildOptions};
use crate::geom::Vec2;
use crate::mesh::{NavMesh, VertexId};
use crate::search::landmarks::*;
use crate::search::polyanya::ExactSearch;
use crate::search::{PathError, PathFinder, SearchOptions};
use crate::testkit::scenes::{grid_point, mesh_of, pinched_squares, random_scene, split_map};
use proptest::prelude::*;
use std::sync::Arc;

fn with(lm: Landmarks) -> SearchOptions {
    SearchOptions::exact().with_landmarks(Some(Arc::new(lm)))
}

/// Two unit squares touching only at (1, 1), and a third square away from both.
fn pinched() -> NavMesh {
    let (mut v, mut polys) = pinched_squares();
    v.extend([(5.0, 5.0), (6.0, 5.0), (6.0, 6.0), (5.0, 6.0)].map(Vec2::from));
    polys.push(vec![7, 8, 9, 10]);
    NavMesh::from_polygons(v, polys).unwrap()
}

/// Each vertex's distance from a point query to it, the reference for the one-to-all search
/// (pinch vertices included: a point query may leave or reach one through any wedge).
fn point_to_point(mesh: &NavMesh, from: VertexId, to: VertexId) -> f64 {
    let r = PathFinder::new().find_path(
        mesh,
        mesh.vertex(from),
        mesh.vertex(to),
        &SearchOptions::exact(),
    );
    match r {
        Ok(p) => p.length,
        Err(PathError::NoPath) => f64::INFINITY,
        Err(e) => panic!("{e}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The one-to-all search gives every vertex the length of the point-to-point exact
    /// search, on both decompositions (the CDT's vertices and walls differ).
    #[test]
    fn one_to_all_distances_equal_point_queries(scene in random_scene(), pick in 0usize..10_000) {
        let cdt = build(&scene, &BuildOptions::default()).unwrap();
        for mesh in [mesh_of(&scene), cdt] {
            let used: Vec<VertexId> = (0..mesh.vertex_count() as u32)
                .map(VertexId)
                .filter(|&v| !mesh.vertex_polygons(v).is_empty())
                .collect();
            let source = used[pick % used.len()];
            let d = ExactSearch::new()
                .distances_from(&mesh, source, &|| Ok(()))
                .unwrap();
            for v in (0..mesh.vertex_count() as u32).map(VertexId) {
                let want = point_to_point(&mesh, source, v);
                let got = d[v.index()];
                prop_assert!(
                    got == want || (got - want).abs() <= 1e-12 * want,
                    "{source:?} → {v:?}: one-to-all {got}, point query {want}"
                );
            }
        }
    }

    /// The one-to-all search run in slices (a check between them) gives the same distances,
    /// bit for bit, whatever the slice: a slice that ends leaves its node open for the next.
    #[test]
    fn one_to_all_in_slices_equals_one_run(scene in random_scene(), pick in 0usize..10_000, slice in 1usize..8) {
        let mesh = build(&scene, &BuildOptions::default()).unwrap();
        let used: Vec<VertexId> = (0..mesh.vertex_count() as u32)
            .map(VertexId)
            .filter(|&v| !mesh.vertex_polygons(v).is_empty())
            .collect();
        let source = used[pick % used.len()];
        let mut search = ExactSearch::new();
        let whole = search.distances_in_slices(&mesh, source, &|| Ok(()), usize::MAX).unwrap();
        let sliced = search.distances_in_slices(&mesh, source, &|| Ok(()), slice).unwrap();
        prop_assert_eq!(whole, sliced);
    }

    /// Landmarks change how fast the exact search is, never what it answers.
    #[test]
    fn landmarks_do_not_change_answers(
        scene in random_scene(),
        count in 0usize..6,
        queries in prop::collection::vec((grid_point(), grid_point()), 12),
    ) {
        let mesh = mesh_of(&scene);
        let lm = with(Landmarks::build(&mesh, count));
        let mut finder = PathFinder::new();
        for (s, g) in queries {
            let plain = finder.find_path(&mesh, s, g, &SearchOptions::exact());
            let fast = finder.find_path(&mesh, s, g, &lm);
            match (&plain, &fast) {
                (Ok(a), Ok(b)) => prop_assert!(
                    (a.length - b.length).abs() <= 1e-12 * a.length.max(1.0),
                    "{s} → {g}: {} plain, {} with landmarks", a.length, b.length
                ),
                _ => prop_assert_eq!(&plain, &fast, "{} → {}", s, g),
            }
        }
    }
}

#[test]
fn pinch_vertices_have_no_landmark_distance_and_islands_share() {
    let mesh = pinched();
    // Three parts of one polygon each: 4 landmarks go 2/1/1, the leftover to the first.
    let lm = Landmarks::build(&mesh, 4);
    assert_eq!(lm.count(), 4);
    assert!(
        lm.sites().iter().all(|&v| v != VertexId(2)),
        "the pinch vertex is no landmark"
    );
    for l in 0..lm.count() {
        assert!(lm.distance(l, VertexId(2)).unwrap().is_nan());
        // Every landmark reaches its own part only.
        let site = lm.sites()[l];
        let part = |v: u32| match v {
            0..=3 => 0,
            4..=6 => 1,
            _ => 2,
        };
        for v in (0..mesh.vertex_count() as u32).filter(|&v| v != 2) {
            let d = lm.distance(l, VertexId(v)).unwrap();
            assert_eq!(
                d.is_finite(),
                part(v) == part(site.0),
                "{site:?} → {v}: {d}"
            );
        }
    }
    // Across the pinch the answer is still "no path", from either side.
    assert_eq!(lm, lm.clone(), "NaN rows compare equal to themselves");
    let opts = with(lm);
    let mut finder = PathFinder::new();
    for (s, g) in [((0.5, 0.5), (1.5, 1.5)), ((1.5, 1.5), (0.2, 0.9))] {
        let r = finder.find_path(&mesh, Vec2::from(s), Vec2::from(g), &opts);
        assert_eq!(r, Err(PathError::NoPath));
    }
    let p = finder
        .find_path(&mesh, Vec2::new(0.1, 0.1), Vec2::new(0.9, 0.8), &opts)
        .unwrap();
    assert_eq!(p.points.len(), 2);
}

#[test]
fn distances_out_of_range_are_none() {
    let mesh = pinched();
    let lm = Landmarks::build(&mesh, 2);
    assert!(lm.distance(0, VertexId(0)).is_some());
    assert_eq!(lm.distance(2, VertexId(0)), None);
    assert_eq!(lm.distance(0, VertexId(mesh.vertex_count() as u32)), None);
}

#[test]
fn no_landmarks_is_allowed_and_changes_nothing() {
    let mesh = split_map();
    let lm = Landmarks::build(&mesh, 0);
    assert_eq!((lm.count(), lm.memory_bytes()), (0, 0));
    let (s, g) = (Vec2::new(1.0, 1.0), Vec2::new(3.0, 9.0));
    let a = PathFinder::new()
        .find_path(&mesh, s, g, &SearchOptions::exact())
        .unwrap();
    let b = PathFinder::new().find_path(&mesh, s, g, &with(lm)).unwrap();
    assert_eq!(a, b);
}

#[test]
fn landmarks_of_another_mesh_are_refused() {
    let mesh = split_map();
    let other = split_map(); // the same geometry, but another mesh
    let opts = with(Landmarks::build(&other, 2));
    let (s, g) = (Vec2::new(1.0, 1.0), Vec2::new(3.0, 9.0));
    assert_eq!(
        PathFinder::new().find_path(&mesh, s, g, &opts),
        Err(PathError::ForeignData {
            option: "landmarks"
        })
    );
    // A clone is the same mesh.
    let ok = PathFinder::new().find_path(&other.clone(), s, g, &opts);
    assert!(ok.is_ok());
    // The message names the option.
    assert_eq!(
        PathError::ForeignData {
            option: "landmarks"
        }
        .to_string(),
        "the landmarks were built for another mesh"
    );
}

#[test]
fn landmarks_cut_expansions_around_a_long_wall() {
    // A comb: walls from the bottom with gaps at the top, a path zig-zagging... simpler:
    // one long wall the path must go around, start and goal close on either side.
    let scene =
        crate::scene::Scene::new(crate::geom::Aabb::new(Vec2::ZERO, Vec2::new(100.0, 100.0)))
            .with_obstacle([(49.0, 0.0), (51.0, 0.0), (51.0, 90.0), (49.0, 90.0)])
            .with_obstacle([(20.0, 20.0), (30.0, 20.0), (30.0, 30.0), (20.0, 30.0)])
            .with_obstacle([(70.0, 40.0), (80.0, 40.0), (80.0, 50.0), (70.0, 50.0)]);
    let mesh = build(&scene, &BuildOptions::default()).unwrap();
    let (s, g) = (Vec2::new(45.0, 5.0), Vec2::new(55.0, 5.0));
    let a = PathFinder::new()
        .find_path(&mesh, s, g, &SearchOptions::exact())
        .unwrap();
    let b = PathFinder::new()
        .find_path(&mesh, s, g, &with(Landmarks::build(&mesh, 4)))
        .unwrap();
    assert!((a.length - b.length).abs() < 1e-9);
    assert!(b.expanded < a.expanded, "{} vs {}", b.expanded, a.expanded);
}

/// A check that fails stops the one-to-all search and the landmark build with its error, and
/// leaves the search reusable.
#[test]
fn a_failing_check_stops_the_one_to_all_search_and_the_landmark_build() {
    use crate::build::BuildError;
    use std::cell::Cell;
    let mesh = build(
        &crate::scene::Scene::default_map(),
        &BuildOptions::default(),
    )
    .unwrap();
    let source = VertexId(0);
    let mut search = ExactSearch::new();
    let whole = search
        .distances_in_slices(&mesh, source, &|| Ok(()), usize::MAX)
        .unwrap();
    // Fails at its third call: after two slices of one expansion.
    let calls = Cell::new(0);
    let third = || {
        calls.set(calls.get() + 1);
        if calls.get() >= 3 {
            Err(BuildError::Cancelled)
        } else {
            Ok(())
        }
    };
    assert_eq!(
        search.distances_in_slices(&mesh, source, &third, 1),
        Err(BuildError::Cancelled)
    );
    assert_eq!(calls.get(), 3);
    // The same search answers in full afterwards.
    assert_eq!(
        search
            .distances_in_slices(&mesh, source, &|| Ok(()), 1)
            .unwrap(),
        whole
    );
    let token = crate::build::CancelToken::new();
    token.cancel();
    assert_eq!(
        Landmarks::build_until(&mesh, 4, &|| token.check()).err(),
        Some(BuildError::Cancelled)
    );
    let built = Landmarks::build_until(&mesh, 4, &|| Ok(())).unwrap();
    assert_eq!(built, Landmarks::build(&mesh, 4));
}
