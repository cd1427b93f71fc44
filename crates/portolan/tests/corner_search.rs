//! The corner search ([`SearchMethod::Corner`]): exact on every published query and on random
//! scenes, within its stated bound with an epsilon, valid paths, typed errors, and the fallbacks
//! to the plain exact search.

use portolan::io::movingai::read_map;
use portolan::io::polyanya_mesh;
use portolan::io::scenario;
use portolan::mesh::{NavMesh, OffMeshLink, PolyId, VertexId};
use portolan::search::corner_graph::CornerGraph;
use portolan::testkit::{check_counted, data_dir, path_fault, same_without_channel, scenes};
use portolan::{
    build, BuildOptions, PathError, PathFinder, PolygonFilter, SearchMethod, SearchOptions, Vec2,
};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use std::sync::Arc;

fn grid_mesh(path: &str) -> NavMesh {
    let f = std::fs::File::open(data_dir().join(path)).unwrap();
    let map = read_map(std::io::BufReader::new(f)).unwrap();
    build(&map.to_scene(), &BuildOptions::cdt()).unwrap()
}

fn file_mesh(path: &str) -> NavMesh {
    let f = std::fs::File::open(data_dir().join(path)).unwrap();
    polyanya_mesh::read(std::io::BufReader::new(f)).unwrap()
}

fn queries(path: &str) -> Vec<scenario::Scenario> {
    let f = std::fs::File::open(data_dir().join(path)).unwrap();
    scenario::read(std::io::BufReader::new(f)).unwrap()
}

/// Every leg of `path` is clear, and its channel is a chain of polygons that share edges, from
/// a polygon holding the start to one holding the goal ([`path_fault`]).
fn assert_valid(mesh: &NavMesh, points: &[Vec2], channel: &[PolyId], what: &str) {
    if let Some(fault) = path_fault(mesh, points, channel) {
        panic!("{what}: {fault}");
    }
}

/// Every query of the file, on the graph as the build fits it and on one that answers every
/// query from its views (which the fit may drop, on small maps or under load: they must be
/// tested all the same): the corner search's length equals the exact search's (1e-9), it is
/// proved optimal, and its path is valid. Returns how many queries had a path (counted once).
fn check_file(mesh: &NavMesh, scen: &str) -> usize {
    let with_views = CornerGraph::build_with_views(mesh);
    assert!(with_views.answers_from_views(), "{scen}: labels and views");
    let fitted = CornerGraph::build(mesh);
    // Labels only with views that answer, whichever way the timed fit went.
    assert_eq!(
        fitted.answers_from_views(),
        fitted.label_entries().is_some(),
        "{scen}: labels without views"
    );
    let mut found = 0;
    for (k, graph) in [fitted, with_views].into_iter().enumerate() {
        let n = check_graph(mesh, scen, Arc::new(graph));
        assert!(k == 0 || n == found, "{scen}: {n} paths against {found}");
        found = n;
    }
    found
}

fn check_graph(mesh: &NavMesh, scen: &str, graph: Arc<CornerGraph>) -> usize {
    let views = graph.answers_from_views();
    let corner = SearchOptions::corner(graph);
    let mut finder = PathFinder::new();
    let mut found = 0;
    for (i, q) in queries(scen).iter().enumerate() {
        let exact = finder.find_path(mesh, q.start, q.goal, &SearchOptions::exact());
        let fast = finder.find_path(mesh, q.start, q.goal, &corner);
        let what = format!("{scen} query {i} (views: {views})");
        for (options, with) in [(SearchOptions::exact(), &exact), (corner.clone(), &fast)] {
            if let Err(e) =
                same_without_channel(&mut finder, mesh, (q.start, q.goal), &options, with)
            {
                panic!("{what}, {:?} search: {e}", options.method);
            }
        }
        match (exact, fast) {
            (Ok(e), Ok(c)) => {
                assert!(
                    (c.length - e.length).abs() <= 1e-9 * e.length.max(1.0),
                    "{what}: corner {} vs exact {}",
                    c.length,
                    e.length
                );
                assert_eq!(c.bound, Some(1.0), "{what}");
                assert_valid(mesh, &c.points, &c.channel, &what);
                found += 1;
            }
            (Err(PathError::NoPath), Err(PathError::NoPath)) => {}
            (e, c) => panic!("{what}: exact {e:?}, corner {c:?}"),
        }
    }
    found
}

#[test]
fn corner_search_equals_the_exact_search_on_every_published_query() {
    let mut total = 0;
    for map in portolan::testkit::GRID_MAPS {
        let mesh = grid_mesh(map);
        total += check_file(&mesh, &format!("{map}.scen"));
    }
    for (mesh, scen) in [
        (
            "polyanya/meshes/scene_mp_2p_01.mesh",
            "polyanya/meshes/scene_mp_2p_01.mesh.scen",
        ),
        (
            "polyanya/meshes/arena-merged.mesh",
            "polyanya/scenarios/arena.scen",
        ),
    ] {
        total += check_file(&file_mesh(mesh), scen);
    }
    // 160 + 780 + 1,060 + 2,519 + 201 + 2,000 + 160 queries, all with a path.
    assert_eq!(total, 6_880);
}

#[test]
fn with_an_epsilon_the_length_stays_within_the_proved_bound() {
    let mesh = file_mesh("polyanya/meshes/scene_mp_2p_01.mesh");
    let graph = Arc::new(CornerGraph::build(&mesh));
    let mut finder = PathFinder::new();
    let all = queries("polyanya/meshes/scene_mp_2p_01.mesh.scen");
    let mut checked = 0;
    for eps in [0.01, 0.05, 0.2] {
        let options = SearchOptions::corner(Arc::clone(&graph)).with_epsilon(eps);
        let mut expanded = (0, 0);
        for q in all.iter().step_by(4) {
            let e = finder
                .find_path(&mesh, q.start, q.goal, &SearchOptions::exact())
                .unwrap();
            let exact_corner = finder
                .find_path(
                    &mesh,
                    q.start,
                    q.goal,
                    &SearchOptions::corner(Arc::clone(&graph)),
                )
                .unwrap();
            let c = finder.find_path(&mesh, q.start, q.goal, &options).unwrap();
            let bound = c.bound.expect("the corner search proves a bound");
            assert!(
                bound >= 1.0 && bound <= 1.0 + eps,
                "bound {bound} for epsilon {eps}"
            );
            assert!(
                c.length <= bound * e.length * (1.0 + 1e-12),
                "length {} over bound {bound} × {}",
                c.length,
                e.length
            );
            assert!(c.length >= e.length * (1.0 - 1e-12));
            assert_valid(&mesh, &c.points, &c.channel, "epsilon query");
            expanded.0 += c.expanded;
            expanded.1 += exact_corner.expanded;
            checked += 1;
        }
        // Stopping early saves work.
        assert!(expanded.0 <= expanded.1, "epsilon {eps}: {expanded:?}");
    }
    assert_eq!(checked, 1_500);
}

/// The corner search against the exact search on `pairs`, twice: with the views answering every
/// query whatever the build's sample says (`build_with_views`), and as the build chose (views,
/// a plain try first for short queries, or the plain search): same lengths (1e-9), proved bound
/// 1, valid paths, same errors. Returns the pairs with a path.
fn same_as_exact(
    mesh: &NavMesh,
    pairs: Vec<(Vec2, Vec2)>,
    what: &str,
) -> Result<usize, TestCaseError> {
    let graphs = [
        SearchOptions::corner(Arc::new(CornerGraph::build_with_views(mesh))),
        SearchOptions::corner(Arc::new(CornerGraph::build(mesh))),
    ];
    let mut finder = PathFinder::new();
    let mut n = 0;
    for (s, g) in pairs {
        let exact = finder.find_path(mesh, s, g, &SearchOptions::exact());
        for corner in &graphs {
            let fast = finder.find_path(mesh, s, g, corner);
            let bare = same_without_channel(&mut finder, mesh, (s, g), corner, &fast);
            prop_assert!(bare.is_ok(), "{s} -> {g}: {}\n{what}", bare.unwrap_err());
            match (&exact, fast) {
                (Ok(e), Ok(c)) => {
                    prop_assert!(
                        (c.length - e.length).abs() <= 1e-9 * e.length.max(1.0),
                        "{s} -> {g}: corner {} vs exact {}: {:?} / {:?}\n{what}",
                        c.length,
                        e.length,
                        c.points,
                        e.points
                    );
                    prop_assert_eq!(c.bound, Some(1.0));
                    assert_valid(mesh, &c.points, &c.channel, what);
                }
                (Err(a), Err(b)) => prop_assert_eq!(a, &b),
                (e, c) => prop_assert!(false, "{s} -> {g}: exact {e:?}, corner {c:?}\n{what}"),
            }
        }
        n += usize::from(exact.is_ok());
    }
    Ok(n)
}

#[test]
fn corner_search_equals_the_exact_search_on_random_scenes() {
    let pairs = prop::collection::vec((scenes::grid_point(), scenes::grid_point()), 8);
    let checked = check_counted(
        file!(),
        48,
        (scenes::random_scene(), pairs),
        |(scene, pairs)| same_as_exact(&scenes::mesh_of(&scene), pairs, "random scene"),
    );
    assert!(checked >= 100, "only {checked} queries had a path");
}

#[test]
fn graph_edges_are_clear_lines_of_sight_between_corners() {
    let mesh = grid_mesh("movingai/dao/den011d.map");
    let graph = CornerGraph::build(&mesh);
    let mut edges = 0;
    for v in (0..mesh.vertex_count() as u32).map(VertexId) {
        for w in graph.edges(v) {
            assert!(graph.is_corner(v) && graph.is_corner(w));
            assert!(portolan::raycast(&mesh, mesh.vertex(v), mesh.vertex(w))
                .unwrap()
                .is_clear());
            edges += 1;
        }
    }
    assert_eq!(edges, graph.edge_count());
    assert!(graph.corner_count() > 100 && edges > 1_000);
}

#[test]
fn bad_input_and_foreign_graphs_are_typed_errors() {
    let mesh = grid_mesh("movingai/dao/arena.map");
    let other = grid_mesh("movingai/dao/arena.map");
    let graph = Arc::new(CornerGraph::build(&other));
    let mut finder = PathFinder::new();
    let (s, g) = (Vec2::new(10.0, 10.0), Vec2::new(40.0, 40.0));
    assert_eq!(
        finder.find_path(&mesh, s, g, &SearchOptions::corner(Arc::clone(&graph))),
        Err(PathError::ForeignData {
            option: "corner graph"
        })
    );
    let without = SearchOptions::exact().with_method(SearchMethod::Corner);
    assert!(matches!(
        finder.find_path(&mesh, s, g, &without),
        Err(PathError::Unsupported {
            method: "corner",
            ..
        })
    ));
    let graph = Arc::new(CornerGraph::build(&mesh));
    for eps in [f64::NAN, -0.1, f64::INFINITY] {
        let o = SearchOptions::corner(Arc::clone(&graph)).with_epsilon(eps);
        assert!(matches!(
            finder.find_path(&mesh, s, g, &o),
            Err(PathError::InvalidOption {
                option: "epsilon",
                ..
            })
        ));
    }
    let o = SearchOptions::corner(Arc::clone(&graph));
    assert_eq!(
        finder.find_path(&mesh, Vec2::new(-5.0, 1.0), g, &o),
        Err(PathError::StartOffMesh(Vec2::new(-5.0, 1.0)))
    );
    assert!(matches!(
        finder.find_path(&mesh, s, Vec2::new(f64::NAN, 1.0), &o),
        Err(PathError::NonFinite { .. })
    ));
}

#[test]
fn filters_links_and_budgets_fall_back_to_the_plain_exact_search() {
    let mesh = grid_mesh("movingai/dao/den011d.map");
    let graph = Arc::new(CornerGraph::build(&mesh));
    let mut finder = PathFinder::new();
    let q = &queries("movingai/dao/den011d.map.scen")[700];
    let corner = SearchOptions::corner(Arc::clone(&graph));
    // A filter closing a polygon of the exact path: the corner search answers the same.
    let exact = finder
        .find_path(&mesh, q.start, q.goal, &SearchOptions::exact())
        .unwrap();
    let closed = exact.channel[exact.channel.len() / 2];
    let mut closed_one = PolygonFilter::new();
    closed_one.exclude(closed);
    let filter = Some(Arc::new(closed_one));
    let a = finder
        .find_path(
            &mesh,
            q.start,
            q.goal,
            &SearchOptions::exact().with_filter(filter.clone()),
        )
        .map(|p| p.length);
    let b = finder
        .find_path(&mesh, q.start, q.goal, &corner.clone().with_filter(filter))
        .map(|p| p.length);
    assert_eq!(a, b);
    // A budget: the plain search's, counted in its nodes.
    let limited = corner.clone().with_max_expanded(Some(3));
    assert!(matches!(
        finder.find_path(&mesh, q.start, q.goal, &limited),
        Err(PathError::SearchLimit { .. })
    ));
    // Links: the graph measures the mesh alone; the plain search takes the link.
    let link = OffMeshLink::new(q.start, q.goal, 1.0);
    let linked = mesh.clone().with_links(vec![link]).unwrap();
    let graph = Arc::new(CornerGraph::build(&linked));
    let p = finder
        .find_path(&linked, q.start, q.goal, &SearchOptions::corner(graph))
        .unwrap();
    assert_eq!(p.links.len(), 1);
    assert_eq!(p.cost(&linked), 1.0);
}

/// Random grid maps: diagonal pinches between blocked cells everywhere, endpoints at cell
/// centres and on grid vertices (pinch vertices among them). The corner search, answered from
/// its views where it can, gives the exact search's lengths.
#[test]
fn corner_search_equals_the_exact_search_on_random_grid_maps() {
    let case = scenes::random_grid_case(16, 0.3, 12);
    let checked = check_counted(
        file!(),
        40,
        case,
        |(text, pairs)| match scenes::grid_case_mesh(&text) {
            Some(mesh) => same_as_exact(&mesh, pairs, &text),
            None => Ok(0),
        },
    );
    assert!(checked >= 150, "only {checked} queries had a path");
}
