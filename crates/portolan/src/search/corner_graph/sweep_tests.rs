//! The swept corner search of graphs without hub labels ([`CornerGraph::answers_from_edges`]):
//! exact, with a valid path, with the landmarks' heuristic and without, on random scenes, random
//! grid maps with pinches, and a published map. The build keeps such a graph only where its
//! labels pass their budget (open maps, too large for a test) and the sweeps pay, so these
//! tests take a graph with labels and views and drop them.

use super::CornerGraph;
use crate::build::{build, BuildOptions};
use crate::geom::Vec2;
use crate::mesh::NavMesh;
use crate::search::landmarks::Landmarks;
use crate::search::{PathError, PathFinder, SearchOptions};
use crate::testkit::{check_counted, data_dir, path_fault, scenes};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use std::sync::Arc;

/// `mesh`'s graph without labels or views, sweeping its edges: with `landmarks` of them, or
/// none.
fn sweeping(mesh: &NavMesh, landmarks: usize) -> CornerGraph {
    let mut g = CornerGraph::build_with_views(mesh);
    g.labels = None;
    g.views = None;
    g.landmarks = (landmarks > 0).then(|| Arc::new(Landmarks::build(mesh, landmarks)));
    g.sweeps = true;
    assert!(g.answers_from_edges() && !g.answers_from_views());
    g
}

/// The swept search on `pairs` with and without landmarks, against the exact search: the same
/// length (1e-9) and errors, bound 1, every leg clear and the channel a chain of polygons
/// sharing edges from the start's polygon to the goal's. Returns the pairs with a path.
fn same_as_exact(
    mesh: &NavMesh,
    pairs: &[(Vec2, Vec2)],
    what: &str,
) -> Result<usize, TestCaseError> {
    let graphs = [0, 4].map(|k| SearchOptions::corner(Arc::new(sweeping(mesh, k))));
    let mut finder = PathFinder::new();
    let mut n = 0;
    for &(s, g) in pairs {
        let exact = finder.find_path(mesh, s, g, &SearchOptions::exact());
        for (k, corner) in graphs.iter().enumerate() {
            let fast = finder.find_path(mesh, s, g, corner);
            let what = format!("{s} -> {g}, landmarks {}: {what}", k * 4);
            match (&exact, fast) {
                (Ok(e), Ok(c)) => {
                    prop_assert!(
                        (c.length - e.length).abs() <= 1e-9 * e.length.max(1.0),
                        "corner {} vs exact {}: {:?} / {:?}\n{}",
                        c.length,
                        e.length,
                        c.points,
                        e.points,
                        what
                    );
                    prop_assert_eq!(c.bound, Some(1.0), "{}", what);
                    let fault = path_fault(mesh, &c.points, &c.channel);
                    prop_assert!(fault.is_none(), "{:?}: {}", fault, what);
                }
                (Err(a), Err(b)) => prop_assert_eq!(a, &b, "{}", what),
                (e, c) => prop_assert!(false, "exact {:?}, corner {:?}: {}", e, c, what),
            }
        }
        n += usize::from(exact.is_ok());
    }
    Ok(n)
}

#[test]
fn swept_search_equals_the_exact_search_on_random_scenes() {
    let pairs = prop::collection::vec((scenes::grid_point(), scenes::grid_point()), 8);
    let checked = check_counted(
        file!(),
        32,
        (scenes::random_scene(), pairs),
        |(scene, pairs)| same_as_exact(&scenes::mesh_of(&scene), &pairs, "random scene"),
    );
    assert!(checked >= 60, "only {checked} queries had a path");
}

/// Random 16 × 16 grid maps, 30% blocked: pinch vertices between diagonal blocked cells, ends
/// at cell centres and on grid vertices.
#[test]
fn swept_search_equals_the_exact_search_on_random_grid_maps() {
    let case = scenes::random_grid_case(16, 0.3, 12);
    let checked = check_counted(
        file!(),
        24,
        case,
        |(text, pairs)| match scenes::grid_case_mesh(&text) {
            Some(mesh) => same_as_exact(&mesh, &pairs, &text),
            None => Ok(0),
        },
    );
    assert!(checked >= 100, "only {checked} queries had a path");
}

/// Every query of den011d's scenario (a cave map, long queries around many walls).
#[test]
fn swept_search_equals_the_exact_search_on_a_published_map() {
    let open = |p: &str| std::fs::File::open(data_dir().join(p)).unwrap();
    let map = crate::testkit::data_map("movingai/dao/den011d.map");
    let mesh = build(&map.to_scene(), &BuildOptions::cdt()).unwrap();
    let scen = open("movingai/dao/den011d.map.scen");
    let queries = crate::io::scenario::read(std::io::BufReader::new(scen)).unwrap();
    let pairs: Vec<_> = queries.iter().map(|q| (q.start, q.goal)).collect();
    let found = same_as_exact(&mesh, &pairs, "den011d").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(found, pairs.len());
    // The queries did sweep (the plain search would give the same answers): with an epsilon
    // only the swept search stops early, with a path within its stated bound, and it does on
    // some of these queries (the graph is built without timed choices, so the count is fixed).
    let bounded = SearchOptions::corner(Arc::new(sweeping(&mesh, 0))).with_epsilon(0.3);
    let mut finder = PathFinder::new();
    let mut early = 0;
    for &(s, g) in &pairs {
        let exact = finder
            .find_path(&mesh, s, g, &SearchOptions::exact())
            .unwrap();
        let p = finder.find_path(&mesh, s, g, &bounded).unwrap();
        let bound = p.bound.expect("the corner search states its bound");
        assert!((1.0..=1.3).contains(&bound), "{s} -> {g}: bound {bound}");
        assert!(p.length <= bound * exact.length * (1.0 + 1e-12));
        assert!(p.length >= exact.length * (1.0 - 1e-12));
        early += usize::from(bound > 1.0);
    }
    assert!(
        early > 0,
        "no query stopped early: the edges were not swept"
    );
    // Off the mesh: the same typed error as the exact search.
    let far = Vec2::new(-10.0, -10.0);
    let corner = SearchOptions::corner(Arc::new(sweeping(&mesh, 0)));
    let r = PathFinder::new().find_path(&mesh, far, pairs[0].1, &corner);
    assert!(matches!(r, Err(PathError::StartOffMesh(_))), "{r:?}");
}
