//! The index's memory budget ([`MAX_INDEX_BYTES`](super::MAX_INDEX_BYTES)): a graph built
//! under a budget too small for all of it drops its parts in the documented order (the labels'
//! links, the views' strips, then their cells, then their chains, then the views, then the
//! labels, then the landmarks or the edges),
//! holds no more than the budget, and still answers every query of a published map exactly,
//! with a valid channel; a graph without its channel caches is saved and loaded like any other.

use super::cells::Cells;
use super::{CornerGraph, CornerGraphOptions, HubLabels, Views, LANDMARKS};
use crate::build::{build, BuildOptions, CancelToken};
use crate::geom::Vec2;
use crate::mesh::NavMesh;
use crate::search::{PathFinder, SearchOptions};
use crate::testkit::{data_dir, path_fault};
use std::sync::Arc;

/// den011d's mesh and its scenario's queries (a cave map whose views answer every query).
fn den011d() -> (NavMesh, Vec<(Vec2, Vec2)>) {
    let open = |p: &str| std::fs::File::open(data_dir().join(p)).unwrap();
    let map = crate::testkit::data_map("movingai/dao/den011d.map");
    let mesh = build(&map.to_scene(), &BuildOptions::cdt()).unwrap();
    let scen = open("movingai/dao/den011d.map.scen");
    let queries = crate::io::scenario::read(std::io::BufReader::new(scen)).unwrap();
    (mesh, queries.iter().map(|q| (q.start, q.goal)).collect())
}

/// Untimed options but for the labels' time limit.
fn limited(label_time: Option<std::time::Duration>) -> CornerGraphOptions {
    CornerGraphOptions::untimed().with_time_limits(label_time, None)
}

/// The untimed graph of `mesh` within `budget` bytes.
fn within(mesh: &NavMesh, budget: usize) -> CornerGraph {
    CornerGraph::build_within(
        mesh,
        &CornerGraphOptions::untimed(),
        budget,
        &CancelToken::new(),
    )
    .unwrap()
}

/// Every pair answered by `graph` as by the exact search (1e-9), each leg clear and the channel
/// a chain of polygons sharing edges from the start's polygon to the goal's.
fn same_as_exact(mesh: &NavMesh, graph: CornerGraph, pairs: &[(Vec2, Vec2)], what: &str) {
    let corner = SearchOptions::corner(Arc::new(graph));
    let mut finder = PathFinder::new();
    for &(s, t) in pairs {
        let e = finder
            .find_path(mesh, s, t, &SearchOptions::exact())
            .unwrap();
        let c = finder.find_path(mesh, s, t, &corner).unwrap();
        assert!(
            (c.length - e.length).abs() <= 1e-9 * e.length.max(1.0),
            "{what}: {s} -> {t}: corner {} vs exact {}",
            c.length,
            e.length
        );
        if let Some(fault) = path_fault(mesh, &c.points, &c.channel) {
            panic!("{what}: {s} -> {t}: {fault}");
        }
    }
}

/// The bytes of `views`' per-edge strips, of its cells and of its cones' chains.
fn caches(views: &Views) -> (usize, usize, usize) {
    (
        (views.strip_at.len() + views.strips.len()) * 4,
        views.cells.memory_bytes(),
        views.cone_node.len() * 4 + views.tree.len() * 8,
    )
}

#[test]
fn a_budget_drops_the_channel_caches_first_and_answers_stay_exact() {
    let (mesh, pairs) = den011d();
    let full = within(&mesh, usize::MAX);
    let views = full.views.as_ref().expect("den011d keeps its views");
    let (strips, cells, chains) = caches(views);
    assert!(strips > 0 && cells > 0 && chains > 0);
    let total = full.memory_bytes();

    // Room for all but the strips, and not for the strips with coarse cells either: the strips
    // go, the chains and the fine cells stay.
    let coarse = Cells::build(&mesh, &full, views, false).memory_bytes();
    assert!(coarse + strips > cells, "{coarse} + {strips} vs {cells}");
    let g = within(&mesh, total - strips);
    let v = g
        .views
        .as_ref()
        .expect("the views fit without their strips");
    assert!(v.strip_at.is_empty() && v.strips.is_empty());
    assert_eq!((&v.tree, &v.cells), (&views.tree, &views.cells));
    assert_eq!(g.labels, full.labels);
    assert!(g.memory_bytes() <= total - strips);
    // Saved and loaded like any other.
    let loaded = CornerGraph::from_bytes(&g.to_bytes(), &mesh).unwrap();
    assert_eq!(loaded.memory_bytes(), g.memory_bytes());
    same_as_exact(&mesh, loaded, &pairs, "without strips");

    // Room for neither the strips nor the cells: both go, the chains stay.
    let g = within(&mesh, total - strips - cells);
    let v = g
        .views
        .as_ref()
        .expect("the views fit without strips and cells");
    assert!(v.strips.is_empty() && v.cells == Cells::default());
    assert_eq!(v.tree, views.tree);
    assert!(g.memory_bytes() <= total - strips - cells);
    let loaded = CornerGraph::from_bytes(&g.to_bytes(), &mesh).unwrap();
    assert_eq!(loaded.views.as_ref().unwrap().cells, Cells::default());
    same_as_exact(&mesh, loaded, &pairs, "without strips or cells");

    // Room for neither: both go, the views answer with cast channels. (Taken from the full
    // graph: a build under this budget forecasts its labels past it, `past_forecast`, and
    // keeps neither them nor the views.)
    let bare = views.memory_bytes() - strips - cells - chains;
    let mut short = views.clone();
    assert!(
        !short.fit_memory(bare - 1),
        "the views alone pass the budget"
    );
    let mut g = full.clone();
    assert!(g.views.as_mut().unwrap().fit_memory(bare));
    let v = g.views.as_ref().unwrap();
    assert!(v.strips.is_empty() && v.tree.is_empty() && v.cone_node.is_empty());
    assert_eq!(v.cells, Cells::default());
    assert_eq!(
        (v.corner.len(), v.cones.len()),
        (views.corner.len(), views.cones.len())
    );
    assert!(g.answers_from_views());
    assert_eq!(g.memory_bytes(), total - strips - cells - chains);
    let loaded = CornerGraph::from_bytes(&g.to_bytes(), &mesh).unwrap();
    same_as_exact(&mesh, loaded, &pairs, "without strips, cells or chains");
}

/// The labels' links are the first part a budget drops: with room for everything but half the
/// links, the views keep their strips, cells and chains and the links go; with less, the links
/// go and the views drop what they must. Either way the ways are read back by a search per
/// corner, the answers stay exact, and a saved index says so (a load does not derive them
/// again).
#[test]
fn a_budget_drops_the_labels_links_first() {
    let (mesh, pairs) = den011d();
    let full = within(&mesh, usize::MAX);
    let views = full.views.as_ref().expect("den011d keeps its views");
    let links = full.labels.as_ref().unwrap().link_bytes();
    let (strips, cells, _) = caches(views);
    assert!(links > 0 && strips > 0 && cells > 0);
    for (budget, whole, what) in [
        (
            full.memory_bytes() - links / 2,
            true,
            "all but half the links",
        ),
        (
            full.memory_bytes() - strips - cells - links / 2,
            false,
            "neither strips, cells nor half the links",
        ),
    ] {
        let g = within(&mesh, budget);
        let labels = g.labels.as_ref().expect("the labels stay");
        assert!(!labels.has_links() && labels.link_bytes() == 0, "{what}");
        let v = g.views.as_ref().expect("the views fit without the links");
        assert_eq!(v.tree, views.tree, "{what}: the chains stay");
        if whole {
            assert_eq!(v, views, "{what}: the views keep every part");
        }
        assert!(g.memory_bytes() <= budget, "{what}");
        let loaded = CornerGraph::from_bytes(&g.to_bytes(), &mesh).unwrap();
        assert!(!loaded.labels.as_ref().unwrap().has_links());
        assert_eq!(loaded.memory_bytes(), g.memory_bytes());
        same_as_exact(&mesh, loaded, &pairs, what);
    }
    // A graph whose views and links all fit keeps its links, and a load derives them again.
    assert!(full.labels.as_ref().unwrap().has_links());
    let loaded = CornerGraph::from_bytes(&full.to_bytes(), &mesh).unwrap();
    assert_eq!(loaded.labels, full.labels);
}

/// The strips are made last, and kept only whole and within the room left: one byte short of
/// the views with them, none are added (the making stops once past the room); with exactly
/// that room, the same strips as a build without a budget; without the cones' chains (which the
/// budget drops after the strips), none whatever the room.
#[test]
fn strips_are_added_only_where_they_fit_whole() {
    let (mesh, _) = den011d();
    let full = within(&mesh, usize::MAX);
    let views = full.views.as_ref().expect("den011d keeps its views");
    let total = views.memory_bytes();
    let mut bare = views.clone();
    bare.strip_at = Vec::new();
    bare.strips = Vec::new();
    let mut short = bare.clone();
    assert!(!short.add_strips(&mesh, &full, total - 1));
    assert!(short.strip_at.is_empty() && short.strips.is_empty());
    let mut exact = bare.clone();
    assert!(exact.add_strips(&mesh, &full, total));
    assert_eq!(exact.memory_bytes(), total);
    assert_eq!(
        (&exact.strip_at, &exact.strips),
        (&views.strip_at, &views.strips)
    );
    let mut chainless = bare;
    chainless.tree = Vec::new();
    chainless.cone_node = Vec::new();
    assert!(!chainless.add_strips(&mesh, &full, usize::MAX));
    assert!(chainless.strips.is_empty());
}

/// The cells are added only whole, within the room left and with the cones' chains (the budget
/// drops the cells before the chains); the strips only with the cells (it drops the strips
/// first).
#[test]
fn cells_are_added_only_where_they_fit_and_the_chains_are_kept() {
    let (mesh, _) = den011d();
    let full = within(&mesh, usize::MAX);
    let views = full.views.as_ref().expect("den011d keeps its views");
    let mut bare = views.clone();
    bare.strip_at = Vec::new();
    bare.strips = Vec::new();
    bare.cells = Cells::default();
    let with_cells = bare.memory_bytes() + views.cells.memory_bytes();
    let mut short = bare.clone();
    assert!(!short.add_cells(&mesh, &full, with_cells - 1, true));
    assert_eq!(short.cells, Cells::default());
    // Without the cells, no strips either, whatever the room.
    assert!(!short.add_strips(&mesh, &full, usize::MAX));
    assert!(short.strips.is_empty());
    let mut exact = bare.clone();
    assert!(exact.add_cells(&mesh, &full, with_cells, true));
    assert_eq!(exact.cells, views.cells);
    assert_eq!(exact.memory_bytes(), with_cells);
    let mut chainless = bare;
    chainless.tree = Vec::new();
    chainless.cone_node = Vec::new();
    assert!(!chainless.add_cells(&mesh, &full, usize::MAX, true));
    assert_eq!(chainless.cells, Cells::default());
}

/// The cells are cut finely where the strips fit with them, and coarsely where only that
/// leaves the strips room; either way every query is answered exactly.
#[test]
fn the_cells_are_cut_coarsely_where_fine_cells_leave_the_strips_no_room() {
    let (mesh, pairs) = den011d();
    let full = within(&mesh, usize::MAX);
    let views = full.views.as_ref().expect("den011d keeps its views");
    let fine = views.cells.memory_bytes();
    let coarse = Cells::build(&mesh, &full, views, false);
    assert!(!views.strips.is_empty());
    assert_eq!(views.cells, Cells::build(&mesh, &full, views, true));
    assert!(
        coarse.memory_bytes() < fine,
        "den011d has polygons cut finely"
    );
    // Made within their bytes exactly, and not a byte less.
    let made = Cells::build_within(&mesh, &full, views, true, fine);
    assert_eq!(made.as_ref(), Some(&views.cells));
    assert!(Cells::build_within(&mesh, &full, views, true, fine - 1).is_none());
    let (strips, _, _) = caches(views);
    assert!(
        fine <= coarse.memory_bytes() + strips,
        "fine cells alone fit the room"
    );
    let budget = full.memory_bytes() - fine + coarse.memory_bytes();
    let g = within(&mesh, budget);
    let v = g.views.as_ref().expect("views");
    assert_eq!(v.cells, coarse);
    assert_eq!(v.strips, views.strips);
    assert_eq!(g.memory_bytes(), budget);
    same_as_exact(&mesh, g, &pairs, "coarse cells");
}

#[test]
fn a_budget_short_of_the_views_drops_them_then_the_labels_then_the_edges() {
    let (mesh, pairs) = den011d();
    let full = within(&mesh, usize::MAX);
    let labels = full.labels.as_ref().map_or(0, HubLabels::memory_bytes);
    let views = full.views.as_ref().map_or(0, Views::memory_bytes);
    let edges = full.memory_bytes() - labels - views;
    let landmarks = LANDMARKS * 4 * mesh.vertex_count();

    // The labels fit, the views (even bare) do not: the views go; the labels stay as the
    // swept search's heuristic (the untimed build's choice), without their links (which only
    // the views read), with the edges, and no landmarks (which that heuristic would not read).
    let budget = edges + landmarks + labels;
    let g = within(&mesh, budget);
    assert!(g.views.is_none());
    let mut unlinked = full.labels.clone().unwrap();
    unlinked.drop_links();
    assert_eq!(g.labels.as_ref(), Some(&unlinked));
    assert_eq!(g.edge_count(), full.edge_count());
    assert!(g.answers_from_edges() && g.landmarks().is_none());
    assert!(g.memory_bytes() <= budget);
    let loaded = CornerGraph::from_bytes(&g.to_bytes(), &mesh).unwrap();
    assert_eq!(loaded, g);
    same_as_exact(&mesh, loaded, &pairs, "labels without views");

    // Edges and labels fit, not the views, in a timed build: the labels stay only with the
    // swept search, where the sample finds it faster than the best way without them, and the
    // graph stays within its budget.
    let timed = CornerGraphOptions::default()
        .with_time_limits(None, None)
        .with_memory_budget(Some(budget));
    let g = CornerGraph::build_with(&mesh, &timed, &CancelToken::new()).unwrap();
    assert!(g.views.is_none());
    assert!(g.labels.is_none() || (g.answers_from_edges() && g.landmarks().is_none()));
    assert!(g.memory_bytes() <= budget);
    same_as_exact(&mesh, g, &pairs, "labels without views, timed");

    // The labels do not fit beside the edges: they go, and the edges stay with landmarks.
    let budget = edges + landmarks;
    let g = within(&mesh, budget);
    assert!(g.labels.is_none() && g.views.is_none());
    assert_eq!(g.edge_count(), full.edge_count());
    assert!(g.answers_from_edges() && g.landmarks().is_some());
    assert!(g.memory_bytes() <= budget);
    same_as_exact(&mesh, g, &pairs, "without views");

    // Edges and landmarks do not fit together: the edges, swept, without landmarks (the untimed
    // build's choice; a timed one picks the faster of that and the landmarks without edges).
    let budget = edges + landmarks - 1;
    let g = within(&mesh, budget);
    assert!(g.labels.is_none() && g.views.is_none());
    assert_eq!(g.edge_count(), full.edge_count());
    assert!(g.answers_from_edges() && g.landmarks().is_none());
    assert!(g.memory_bytes() <= budget);
    same_as_exact(&mesh, g, &pairs, "without landmarks");

    // The edges do not fit: none, and the plain search answers, with the landmarks where they
    // fit (den011d's landmarks, 64 bytes a vertex, outweigh its 5-byte edges: they do not).
    let bare = edges - super::EDGE_BYTES * full.edge_count();
    assert!(
        bare + landmarks >= edges,
        "den011d: landmarks past its edges"
    );
    let budget = edges - 1;
    let g = within(&mesh, budget);
    assert!(g.labels.is_none() && g.views.is_none());
    assert_eq!(g.edge_count(), 0);
    assert!(!g.answers_from_edges() && !g.answers_from_views());
    assert!(g.landmarks().is_none());
    assert!(g.memory_bytes() <= budget);
    let loaded = CornerGraph::from_bytes(&g.to_bytes(), &mesh).unwrap();
    assert_eq!(loaded.edge_count(), 0);
    same_as_exact(&mesh, loaded, &pairs, "without edges");
}

/// Where the edges outweigh the landmarks (an open grid, about 32 edges a vertex) and only the
/// landmarks fit, the edges go and the plain search answers with the landmarks, exactly.
#[test]
fn landmarks_that_fit_where_the_edges_do_not_stay() {
    let map = crate::random_grid::random_blocked_grid(64, 64, 0.1, 3).unwrap();
    let mesh = build(&map.to_scene(), &BuildOptions::cdt()).unwrap();
    let full = within(&mesh, usize::MAX);
    let labels = full.labels.as_ref().map_or(0, HubLabels::memory_bytes);
    let views = full.views.as_ref().map_or(0, Views::memory_bytes);
    let edges = full.memory_bytes() - labels - views;
    let bare = edges - super::EDGE_BYTES * full.edge_count();
    let landmarks = LANDMARKS * 4 * mesh.vertex_count();
    assert!(bare + landmarks < edges, "the edges outweigh the landmarks");
    let budget = bare + landmarks;
    let g = within(&mesh, budget);
    assert!(g.labels.is_none() && g.views.is_none());
    assert_eq!(g.edge_count(), 0);
    assert!(!g.answers_from_edges() && g.landmarks().is_some());
    assert!(g.memory_bytes() <= budget);
    let loaded = CornerGraph::from_bytes(&g.to_bytes(), &mesh).unwrap();
    assert_eq!(
        (loaded.edge_count(), loaded.landmarks().is_some()),
        (0, true)
    );
    let mut rng = crate::random::Rng::new(31);
    let mut cell = || {
        let (x, y) = crate::testkit::random_free_cell(&map, &mut rng);
        Vec2::new(x as f64 + 0.5, y as f64 + 0.5)
    };
    // Pairs the exact search connects (a random grid may have closed pockets).
    let mut finder = PathFinder::new();
    let pairs: Vec<(Vec2, Vec2)> = (0..100)
        .map(|_| (cell(), cell()))
        .filter(|&(s, t)| {
            finder
                .find_path(&mesh, s, t, &SearchOptions::exact())
                .is_ok()
        })
        .collect();
    assert!(pairs.len() >= 80, "only {} connected pairs", pairs.len());
    same_as_exact(&mesh, loaded, &pairs, "landmarks without edges");
}

/// The options' budget is the one a build keeps within: the same graph as `build_within`
/// with it, at each step of the drop order and below the corners' own size (all dropped:
/// the plain search answers); and every graph answers exactly.
#[test]
fn the_options_budget_is_the_budget_kept() {
    let (mesh, pairs) = den011d();
    let full = within(&mesh, usize::MAX);
    let bare = 16 * mesh.vertex_count() + 4;
    let some: Vec<_> = pairs.iter().copied().step_by(17).collect();
    for budget in [
        full.memory_bytes(),
        full.memory_bytes() / 2,
        200_000,
        bare,
        0,
    ] {
        let options = CornerGraphOptions::untimed().with_memory_budget(Some(budget));
        assert_eq!(options.budget_for(mesh.polygon_count()), budget);
        let g = CornerGraph::build_with(&mesh, &options, &CancelToken::new()).unwrap();
        assert_eq!(g, within(&mesh, budget), "budget {budget}");
        assert!(g.memory_bytes() <= budget.max(bare), "budget {budget}");
        if budget <= bare {
            assert_eq!(g.memory_bytes(), bare);
            assert!(!g.answers_from_edges() && !g.answers_from_views());
            assert!(g.landmarks().is_none());
        }
        same_as_exact(&mesh, g, &some, &format!("budget {budget}"));
    }
    // No budget given: the mesh's.
    let default = CornerGraphOptions::untimed();
    assert_eq!(
        default.budget_for(mesh.polygon_count()),
        CornerGraph::memory_budget(mesh.polygon_count())
    );
}

/// The labels of a build are those of no budget at all; a budget under their size, or under
/// one entry per corner, gives none.
#[test]
fn the_labels_budget_is_cut_to_the_memory_left() {
    let (mesh, _) = den011d();
    let full = within(&mesh, usize::MAX);
    let labels = full.labels.as_ref().unwrap();
    let graph = CornerGraph::build_with_views(&mesh);
    assert_eq!(graph.labels.as_ref(), Some(labels));
    let row = |c: u32| full.weighted_edges(&mesh, c).collect::<Vec<_>>();
    let corners: Vec<u32> = (0..mesh.vertex_count() as u32)
        .filter(|&v| full.turns[v as usize][0] != super::NONE)
        .collect();
    let n = mesh.vertex_count();
    let none = CancelToken::new();
    let same = HubLabels::build(n, &corners, &row, usize::MAX, &none).unwrap();
    assert_eq!(same.as_ref(), Some(labels));
    // The budget bounds the labels without their links (which a graph drops where they do
    // not fit).
    let exact = labels.memory_bytes() - labels.link_bytes();
    let fits = HubLabels::build(n, &corners, &row, exact, &none).unwrap();
    assert_eq!(fits.as_ref(), Some(labels));
    assert!(HubLabels::build(n, &corners, &row, exact - 1, &none)
        .unwrap()
        .is_none());
    assert!(HubLabels::build(n, &corners, &row, 0, &none)
        .unwrap()
        .is_none());
}

/// Landmarks past their time limit are none (the build goes on without them); a cancelled build
/// is still an error; without a limit they are built.
#[test]
fn landmarks_past_their_time_limit_are_none() {
    use super::landmarks_within;
    use crate::build::BuildError;
    use std::time::Duration;
    let (mesh, _) = den011d();
    let none = CancelToken::new();
    assert!(matches!(
        landmarks_within(&mesh, Some(Duration::ZERO), &none),
        Ok(None)
    ));
    assert!(landmarks_within(&mesh, None, &none).unwrap().is_some());
    assert!(
        landmarks_within(&mesh, Some(Duration::from_secs(3600)), &none)
            .unwrap()
            .is_some()
    );
    let stopped = CancelToken::new();
    stopped.cancel();
    for limit in [None, Some(Duration::ZERO)] {
        assert_eq!(
            landmarks_within(&mesh, limit, &stopped).err(),
            Some(BuildError::Cancelled)
        );
    }
}

/// Labels past their time limit are none, and the views with them: the graph sweeps its edges
/// and answers exactly; a cancelled build is still an error.
#[test]
fn labels_past_their_time_limit_are_none() {
    use crate::build::BuildError;
    use std::time::Duration;
    let (mesh, pairs) = den011d();
    let none = CancelToken::new();
    let g = CornerGraph::build_within(&mesh, &limited(Some(Duration::ZERO)), usize::MAX, &none)
        .unwrap();
    assert!(g.labels.is_none() && g.views.is_none() && g.answers_from_edges());
    same_as_exact(&mesh, g, &pairs, "labels past their limit");
    let g = CornerGraph::build_within(
        &mesh,
        &limited(Some(Duration::from_secs(3600))),
        usize::MAX,
        &none,
    )
    .unwrap();
    assert!(g.labels.is_some());
    let stopped = CancelToken::new();
    stopped.cancel();
    let err =
        CornerGraph::build_within(&mesh, &limited(Some(Duration::ZERO)), usize::MAX, &stopped);
    assert_eq!(err.err(), Some(BuildError::Cancelled));
}

/// [`CornerGraph::build_with`] takes its time limits from the options: with none left, no
/// labels, no views and no landmarks (a graph that still answers every query exactly, by its
/// swept edges); with none at all, labels and views.
#[test]
fn the_options_set_the_time_limits() {
    use std::time::Duration;
    let (mesh, pairs) = den011d();
    let none = CancelToken::new();
    let zero =
        CornerGraphOptions::untimed().with_time_limits(Some(Duration::ZERO), Some(Duration::ZERO));
    let g = CornerGraph::build_with(&mesh, &zero, &none).unwrap();
    assert!(g.labels.is_none() && g.views.is_none() && g.landmarks().is_none());
    same_as_exact(&mesh, g, &pairs, "no time for labels or landmarks");
    let unlimited = CornerGraph::build_with(&mesh, &CornerGraphOptions::untimed(), &none).unwrap();
    assert!(unlimited.labels.is_some() && unlimited.answers_from_views());
}
