//! Unit tests of the exact search.

use super::heuristic::interval_h;
use super::*;
use crate::search::Snap;

/// A U-shaped corridor around the block [1, 2] × [0, 2] (left arm A, top B, right arm C), and
/// a separate square D at x ∈ [10, 11].
fn u_mesh() -> NavMesh {
    let v = [
        (0.0, 0.0),
        (1.0, 0.0),
        (1.0, 2.0),
        (2.0, 2.0),
        (2.0, 0.0),
        (3.0, 0.0),
        (3.0, 3.0),
        (0.0, 3.0),
        (0.0, 2.0),
        (3.0, 2.0),
        (10.0, 0.0),
        (11.0, 0.0),
        (11.0, 1.0),
        (10.0, 1.0),
    ];
    let polys = vec![
        vec![0, 1, 2, 8],
        vec![8, 2, 3, 9, 6, 7],
        vec![4, 5, 9, 3],
        vec![10, 11, 12, 13],
    ];
    NavMesh::from_polygons(v.iter().map(|&p| p.into()).collect(), polys).unwrap()
}

fn find(m: &NavMesh, s: (f64, f64), g: (f64, f64)) -> Result<Path, PathError> {
    ExactSearch::new().find_path(m, s.into(), g.into(), &SearchOptions::default())
}

fn h(x: f64, y: f64) -> f64 {
    x.hypot(y)
}

#[test]
fn around_the_block_from_polygon_to_polygon() {
    let p = find(&u_mesh(), (0.5, 0.5), (2.5, 0.5)).unwrap();
    assert_eq!(
        p.points,
        vec![
            Vec2::new(0.5, 0.5),
            Vec2::new(1.0, 2.0),
            Vec2::new(2.0, 2.0),
            Vec2::new(2.5, 0.5)
        ]
    );
    assert!((p.length - (2.0 * h(0.5, 1.5) + 1.0)).abs() < 1e-12);
    assert_eq!(p.channel, vec![PolyId(0), PolyId(1), PolyId(2)]);
    // The U is a chain of polygons with no cycle: its one channel is funnelled, no node
    // expanded (`forced.rs`).
    assert_eq!(p.expanded, 0);
}

#[test]
fn same_polygon_and_same_point() {
    let m = u_mesh();
    let p = find(&m, (0.2, 0.2), (0.8, 1.9)).unwrap();
    assert_eq!(p.points.len(), 2);
    assert_eq!(p.expanded, 0);
    assert_eq!(p.channel, vec![PolyId(0)]);
    let p = find(&m, (0.2, 0.2), (0.2, 0.2)).unwrap();
    assert_eq!(p.points, vec![Vec2::new(0.2, 0.2)]);
    assert_eq!(p.length, 0.0);
    // On a shared vertex: the same point is in every polygon around it.
    let p = find(&m, (1.0, 2.0), (1.0, 2.0)).unwrap();
    assert_eq!(p.length, 0.0);
}

#[test]
fn start_on_a_corner_vertex() {
    // (1, 2): the path runs along the wall y = 2, whose next edge is a portal seen edge-on.
    let p = find(&u_mesh(), (1.0, 2.0), (2.5, 0.5)).unwrap();
    assert!(
        (p.length - (1.0 + h(0.5, 1.5))).abs() < 1e-12,
        "{:?}",
        p.points
    );
    assert_eq!(p.points[1], Vec2::new(2.0, 2.0));
}

#[test]
fn start_on_a_portal_edge() {
    // (0.5, 2) lies on the portal between A and B.
    let p = find(&u_mesh(), (0.5, 2.0), (2.5, 0.5)).unwrap();
    assert!(
        (p.length - (1.5 + h(0.5, 1.5))).abs() < 1e-12,
        "{:?}",
        p.points
    );
}

#[test]
fn start_on_a_wall_edge() {
    // (0, 1) lies on A's outer wall.
    let p = find(&u_mesh(), (0.0, 1.0), (3.0, 1.0)).unwrap();
    assert!(
        (p.length - 2.0 * h(1.0, 1.0) - 1.0).abs() < 1e-12,
        "{:?}",
        p.points
    );
}

#[test]
fn goal_on_a_vertex_and_on_an_edge() {
    let m = u_mesh();
    let p = find(&m, (0.5, 0.5), (3.0, 3.0)).unwrap();
    assert!((p.length - (h(0.5, 1.5) + h(2.0, 1.0))).abs() < 1e-12);
    let p = find(&m, (0.5, 0.5), (2.0, 1.0)).unwrap(); // on C's wall
    assert!(
        (p.length - (h(0.5, 1.5) + 1.0 + 1.0)).abs() < 1e-12,
        "{:?}",
        p.points
    );
}

#[test]
fn separate_components_have_no_path() {
    assert_eq!(
        find(&u_mesh(), (0.5, 0.5), (10.5, 0.5)),
        Err(PathError::NoPath)
    );
}

#[test]
fn an_unreachable_goal_under_a_tiny_budget_is_still_a_partial_path() {
    // The walk to the nearest reachable point needs more than the budget: the budget's
    // partial path toward it (it used to be NoPath).
    // From the U's left arm toward the separate square: the nearest reachable point is at
    // the bottom of the right arm, round two corners.
    let u = u_mesh();
    let (s, g) = (Vec2::new(0.5, 0.5), Vec2::new(10.5, 0.5));
    let mut search = ExactSearch::new();
    let full = SearchOptions::default().with_allow_partial(true);
    let p = search.find_path(&u, s, g, &full).unwrap();
    assert_eq!(p.points.last(), Some(&Vec2::new(3.0, 0.5)));
    assert!(p.points.len() == 4 && !p.is_complete());
    for budget in [0, 1, 2] {
        let options = SearchOptions::default()
            .with_allow_partial(true)
            .with_max_expanded(Some(budget));
        let p = search.find_path(&u, s, g, &options).unwrap();
        assert_eq!(p.points[0], s);
        assert!(!p.is_complete(), "budget {budget}");
        let end = *p.points.last().unwrap();
        assert!(end.distance(g) <= s.distance(g));
    }
}

#[test]
fn off_mesh_points_are_rejected_or_snapped() {
    let m = u_mesh();
    assert_eq!(
        find(&m, (1.5, 1.0), (2.5, 0.5)),
        Err(PathError::StartOffMesh(Vec2::new(1.5, 1.0)))
    );
    assert_eq!(
        find(&m, (0.5, 0.5), (5.0, 5.0)),
        Err(PathError::GoalOffMesh(Vec2::new(5.0, 5.0)))
    );
    assert!(matches!(
        find(&m, (f64::NAN, 0.0), (0.5, 0.5)),
        Err(PathError::NonFinite {
            role: EndpointRole::Start,
            ..
        })
    ));
    let opts = SearchOptions::default().with_snap(Snap::Within(1.0));
    let p = ExactSearch::new()
        .find_path(&m, Vec2::new(1.2, 1.0), Vec2::new(2.5, 0.5), &opts)
        .unwrap();
    assert_eq!(p.points[0], Vec2::new(1.0, 1.0), "snapped to the wall");
}

#[test]
fn a_pinch_end_takes_any_wedge_and_no_path_passes_a_pinch() {
    // Two unit squares touching only at (1, 1).
    let (v, polys) = crate::testkit::scenes::pinched_squares();
    let m = NavMesh::from_polygons(v, polys).unwrap();
    let d = 0.5f64.sqrt();
    assert_eq!(find(&m, (1.0, 1.0), (0.5, 0.5)).unwrap().length, d);
    assert_eq!(find(&m, (0.5, 0.5), (1.0, 1.0)).unwrap().length, d);
    assert_eq!(find(&m, (1.0, 1.0), (1.5, 1.5)).unwrap().length, d);
    assert_eq!(find(&m, (1.5, 1.5), (1.0, 1.0)).unwrap().length, d);
    assert_eq!(
        find(&m, (1.0, 1.0), (1.0, 1.0)).unwrap().points,
        [Vec2::new(1.0, 1.0)]
    );
    // The path may not squeeze through the pinch.
    assert_eq!(find(&m, (0.5, 0.5), (1.5, 1.5)), Err(PathError::NoPath));
    assert_eq!(find(&m, (1.5, 1.5), (0.0, 0.0)), Err(PathError::NoPath));
}

#[test]
fn a_reused_context_answers_like_a_fresh_one() {
    let m = u_mesh();
    let queries = [
        ((0.5, 0.5), (2.5, 0.5)),
        ((2.9, 0.1), (0.1, 0.1)),
        ((0.5, 0.5), (10.5, 0.5)),
        ((1.0, 2.0), (2.0, 2.0)),
        ((0.1, 2.9), (2.5, 1.0)),
    ];
    let mut reused = ExactSearch::new();
    for _ in 0..3 {
        for &(s, g) in &queries {
            let a = reused.find_path(&m, s.into(), g.into(), &SearchOptions::default());
            assert_eq!(a, find(&m, s, g));
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Closing polygons with a filter is the same as deleting them from the mesh: the exact
    /// search with the filter (and with landmarks built on the whole mesh, whose bound stays
    /// admissible: closing polygons only lengthens paths) answers like the exact search on
    /// the mesh of the open polygons alone.
    /// The same on a grid of unit squares, whose inner vertices touch no wall until a
    /// filter closes a square next to them: then the path may turn there.
    #[test]
    fn a_filter_on_a_grid_is_the_grid_without_the_closed_squares(
        closed_bits in proptest::prelude::any::<u64>(),
        queries in proptest::collection::vec(((0.0f64..6.0, 0.0f64..6.0), (0.0f64..6.0, 0.0f64..6.0)), 12),
    ) {
        use crate::search::PolygonFilter;
        use std::sync::Arc;
        const N: u32 = 6;
        let vertices: Vec<Vec2> = (0..=N)
            .flat_map(|y| (0..=N).map(move |x| Vec2::new(x as f64, y as f64)))
            .collect();
        let cell = |x: u32, y: u32| {
            let v = |x: u32, y: u32| y * (N + 1) + x;
            vec![v(x, y), v(x + 1, y), v(x + 1, y + 1), v(x, y + 1)]
        };
        let cells: Vec<Vec<u32>> = (0..N).flat_map(|y| (0..N).map(move |x| cell(x, y))).collect();
        // About a third of the squares closed.
        let closed = |i: usize| (closed_bits >> (i % 64)) & 1 == 1 && (closed_bits >> ((i + 17) % 64)) & 1 == 1;
        let mesh = NavMesh::from_polygons(vertices.clone(), cells.clone()).unwrap();
        let mut filter = PolygonFilter::new();
        let mut open = Vec::new();
        for (i, c) in cells.into_iter().enumerate() {
            if closed(i) {
                filter.exclude(PolyId(i as u32));
            } else {
                open.push(c);
            }
        }
        proptest::prop_assume!(!open.is_empty());
        let sub = NavMesh::from_polygons(vertices, open).unwrap();
        let filtered = SearchOptions::default().with_filter(Some(Arc::new(filter)));
        let mut search = ExactSearch::new();
        for ((sx, sy), (gx, gy)) in queries {
            let (s, g) = (Vec2::new(sx, sy), Vec2::new(gx, gy));
            let inside_open = |x: Vec2| matches!(mesh.locate(x), Location::InPolygon(p) if !closed(p.index()));
            if !(inside_open(s) && inside_open(g)) {
                continue;
            }
            let want = search.find_path(&sub, s, g, &SearchOptions::default()).map(|p| p.length);
            let got = search.find_path(&mesh, s, g, &filtered).map(|p| p.length);
            match (want, got) {
                (Ok(a), Ok(b)) => proptest::prop_assert!(
                    (a - b).abs() <= 1e-12 * a.max(1.0),
                    "{s} → {g}: {a} on the open squares, {b} with the filter"
                ),
                (a, b) => proptest::prop_assert_eq!(a, b),
            }
        }
    }

    #[test]
    fn a_filter_is_the_mesh_without_the_closed_polygons(
        scene in crate::testkit::scenes::random_scene(),
        closed_bits in proptest::prelude::any::<u64>(),
        queries in proptest::collection::vec(
            (crate::testkit::scenes::grid_point(), crate::testkit::scenes::grid_point()),
            10,
        ),
    ) {
        use crate::search::landmarks::Landmarks;
        use crate::search::PolygonFilter;
        use std::sync::Arc;
        let mesh = crate::testkit::scenes::mesh_of(&scene);
        let closed = |p: PolyId| (closed_bits >> (p.index() % 64)) & 1 == 1 && p.index().is_multiple_of(3);
        let mut filter = PolygonFilter::new();
        let open: Vec<Vec<u32>> = mesh
            .polygons()
            .filter(|&p| {
                if closed(p) {
                    filter.exclude(p);
                }
                !closed(p)
            })
            .map(|p| mesh.polygon_vertices(p).iter().map(|v| v.0).collect())
            .collect();
        proptest::prop_assume!(!open.is_empty());
        let sub = NavMesh::from_polygons(mesh.vertices().to_vec(), open).unwrap();
        let filtered = SearchOptions::default().with_filter(Some(Arc::new(filter)));
        let with_landmarks = filtered.clone().with_landmarks(Some(Arc::new(Landmarks::build(&mesh, 3))));
        let mut search = ExactSearch::new();
        for (s, g) in queries {
            let inside_open = |x: Vec2| matches!(mesh.locate(x), Location::InPolygon(p) if !closed(p));
            if !(inside_open(s) && inside_open(g)) {
                continue;
            }
            let want = search.find_path(&sub, s, g, &SearchOptions::default());
            for options in [&filtered, &with_landmarks] {
                let got = search.find_path(&mesh, s, g, options);
                match (&want, &got) {
                    (Ok(a), Ok(b)) => proptest::prop_assert!(
                        (a.length - b.length).abs() <= 1e-12 * a.length.max(1.0),
                        "{s} → {g}: {} on the open polygons, {} with the filter", a.length, b.length
                    ),
                    _ => proptest::prop_assert_eq!(&want.as_ref().map(|p| p.length), &got.as_ref().map(|p| p.length)),
                }
            }
        }
    }
}

/// The plain search's core, compiled without the options' tests (`ExactSearch::is_plain`),
/// gives every plain query the same answer, to the bit, and expands the same nodes as the
/// general core, where each test runs (and finds its option off). Fails if a mode that the
/// plain core leaves out is not in `is_plain`'s list, or if the plain core drops a test that
/// a plain query needs.
#[test]
fn the_plain_core_answers_as_the_general_one() {
    let checked = crate::testkit::check_counted(
        file!(),
        64,
        (
            crate::testkit::scenes::random_scene(),
            proptest::collection::vec(
                (
                    crate::testkit::scenes::grid_point(),
                    crate::testkit::scenes::grid_point(),
                ),
                12,
            ),
        ),
        |(scene, queries)| {
            let mesh = crate::testkit::scenes::mesh_of(&scene);
            let (mut plain, mut general) = (ExactSearch::new(), ExactSearch::new());
            general.force_general = true;
            let mut checked = 0;
            for (s, g) in queries {
                let a = plain.find_path(&mesh, s, g, &SearchOptions::exact());
                let b = general.find_path(&mesh, s, g, &SearchOptions::exact());
                match (&a, &b) {
                    (Ok(a), Ok(b)) => {
                        proptest::prop_assert_eq!(&a.points, &b.points, "{} → {}", s, g);
                        proptest::prop_assert_eq!(&a.channel, &b.channel);
                        proptest::prop_assert_eq!(a.expanded, b.expanded);
                        checked += usize::from(a.expanded > 0);
                    }
                    _ => proptest::prop_assert_eq!(a.is_ok(), b.is_ok(), "{} → {}", s, g),
                }
            }
            Ok(checked)
        },
    );
    // Most random pairs need a search (not a straight line nor a forced channel).
    assert!(checked >= 64, "only {checked} searched queries");
}

#[test]
fn partial_paths_end_at_the_closest_reachable_point() {
    use crate::search::{PartialReason, PolygonFilter};
    let partial = SearchOptions::default().with_allow_partial(true);
    let mut search = ExactSearch::new();
    // A map cut in two by a wall: the point of the wall's face nearest the goal.
    let m = crate::testkit::scenes::split_map();
    let (a, b) = (Vec2::new(1.0, 1.0), Vec2::new(9.0, 7.0));
    assert_eq!(
        search.find_path(&m, a, b, &SearchOptions::default()),
        Err(PathError::NoPath)
    );
    let p = search.find_path(&m, a, b, &partial).unwrap();
    assert_eq!(p.status, PathStatus::Partial(PartialReason::Unreachable));
    assert_eq!(p.points, vec![a, Vec2::new(4.0, 7.0)]);
    // A reachable goal: the complete path, as without the option.
    let q = search
        .find_path(&m, a, Vec2::new(3.0, 9.0), &partial)
        .unwrap();
    assert!(q.is_complete());
    // The goal in a closed arm of the U: up the left arm and along the top, to the point of
    // the open top nearest the goal, turning at the corner (1, 2).
    let u = u_mesh();
    let mut filter = PolygonFilter::new();
    filter.exclude(PolyId(2));
    let closed = partial
        .clone()
        .with_filter(Some(std::sync::Arc::new(filter)));
    let p = search
        .find_path(&u, Vec2::new(0.5, 0.5), Vec2::new(2.5, 1.0), &closed)
        .unwrap();
    assert_eq!(p.status, PathStatus::Partial(PartialReason::Unreachable));
    assert_eq!(*p.points.last().unwrap(), Vec2::new(2.5, 2.0));
    assert!(
        (p.length - (h(0.5, 1.5) + 1.5)).abs() < 1e-12,
        "{:?}",
        p.points
    );
    // A pocket closed off by an obstacle that touches both map sides: its nearest point to
    // the goal is where it touches the obstacle, a pinch vertex, reached from the pocket's
    // side (an end on a pinch may arrive through any of its wedges).
    let pocket = crate::testkit::scenes::mesh_of(
        &crate::scene::Scene::new(crate::geom::Aabb::new(Vec2::ZERO, Vec2::new(24.0, 24.0)))
            .with_obstacle([(0.0, 4.0), (4.0, 0.0), (0.0, 5.0)]),
    );
    let p = search
        .find_path(&pocket, Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0), &partial)
        .unwrap();
    assert_eq!(p.status, PathStatus::Partial(PartialReason::Unreachable));
    assert_eq!(p.points, [Vec2::new(0.0, 0.0), Vec2::new(4.0, 0.0)]);
    // Another island entirely: the nearest point of the start's own part.
    let p = search
        .find_path(&u, Vec2::new(0.5, 0.5), Vec2::new(10.5, 0.5), &partial)
        .unwrap();
    assert_eq!(*p.points.last().unwrap(), Vec2::new(3.0, 0.5));
}

#[test]
fn a_search_limit_is_an_error_or_a_partial_path_toward_the_goal() {
    use crate::search::PartialReason;
    let m = crate::build::build(
        &crate::scene::Scene::default_map(),
        &crate::build::BuildOptions::trapezoid(),
    )
    .unwrap();
    let (a, b) = (
        crate::scene::Scene::DEFAULT_START,
        crate::scene::Scene::DEFAULT_GOAL,
    );
    let mut search = ExactSearch::new();
    let full = search
        .find_path(&m, a, b, &SearchOptions::default())
        .unwrap();
    assert!(full.expanded > 4);
    let limited = |max: usize, partial: bool| {
        SearchOptions::default()
            .with_max_expanded(Some(max))
            .with_allow_partial(partial)
    };
    assert_eq!(
        search.find_path(&m, a, b, &limited(4, false)),
        Err(PathError::SearchLimit { expanded: 4 })
    );
    // A budget that suffices changes nothing.
    let enough = search
        .find_path(&m, a, b, &limited(full.expanded, false))
        .unwrap();
    assert_eq!(enough, full);
    // Partial paths: valid (every segment on the mesh), marked, and never further from the
    // goal than the start; a larger budget gets at least as close.
    let mut last = f64::INFINITY;
    for max in [0, 1, 4, 16, full.expanded / 2] {
        let p = search.find_path(&m, a, b, &limited(max, true)).unwrap();
        assert_eq!(p.status, PathStatus::Partial(PartialReason::SearchLimit));
        let end = *p.points.last().unwrap();
        assert!(end.distance(b) <= a.distance(b));
        assert!(
            end.distance(b) <= last + 1e-9,
            "{max}: {} after {last}",
            end.distance(b)
        );
        last = end.distance(b);
        for w in p.points.windows(2) {
            let r = crate::search::raycast::raycast(&m, w[0], w[1]).unwrap();
            assert!(
                r.is_clear() || r.t() > 1.0 - 1e-9,
                "{max}: {w:?} hits a wall"
            );
        }
    }
    assert!(
        last < 0.75 * a.distance(b),
        "half the budget gets well on the way: {last}"
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// With `allow_partial`, a reachable goal gives the same path; an unreachable one a
    /// partial path on the mesh that ends no further from the goal than it started.
    #[test]
    fn partial_paths_on_random_scenes(
        scene in crate::testkit::scenes::random_scene(),
        queries in proptest::collection::vec(
            (crate::testkit::scenes::grid_point(), crate::testkit::scenes::grid_point()),
            12,
        ),
    ) {
        let mesh = crate::testkit::scenes::mesh_of(&scene);
        let partial = SearchOptions::default().with_allow_partial(true);
        let mut search = ExactSearch::new();
        for (s, g) in queries {
            let plain = search.find_path(&mesh, s, g, &SearchOptions::default());
            let p = search.find_path(&mesh, s, g, &partial);
            match plain {
                Err(PathError::NoPath) => {
                    let p = p.unwrap();
                    proptest::prop_assert!(!p.is_complete());
                    let (first, last) = (p.points[0], *p.points.last().unwrap());
                    proptest::prop_assert!(last.distance(g) <= first.distance(g) + 1e-9);
                    for x in &p.points {
                        proptest::prop_assert!(mesh.locate(*x) != Location::Outside);
                    }
                }
                other => proptest::prop_assert_eq!(other, p),
            }
            // Under a small budget too: a path (never NoPath for a reachable start), ending
            // no further from the goal than the start, every leg clear.
            for budget in [1, 3, 8] {
                let opts = partial.clone().with_max_expanded(Some(budget));
                let Ok(p) = search.find_path(&mesh, s, g, &opts) else {
                    proptest::prop_assert!(mesh.locate(s) == Location::Outside || mesh.locate(g) == Location::Outside);
                    continue;
                };
                let (first, last) = (p.points[0], *p.points.last().unwrap());
                proptest::prop_assert!(last.distance(g) <= first.distance(g) + 1e-9,
                    "budget {}: {:?}", budget, p.points);
                for w in p.points.windows(2) {
                    let clear = crate::search::raycast::raycast(&mesh, w[0], w[1]).is_ok_and(|r| r.is_clear());
                    proptest::prop_assert!(clear, "budget {}: leg {} -> {} of {:?}", budget, w[0], w[1], p.points);
                }
            }
        }
    }
}

#[test]
fn a_goal_only_in_closed_polygons_is_unreachable() {
    use crate::search::PolygonFilter;
    let m = u_mesh();
    let mut filter = PolygonFilter::new();
    filter.exclude(PolyId(2));
    let opts = SearchOptions::default().with_filter(Some(std::sync::Arc::new(filter)));
    let mut search = ExactSearch::new();
    // The goal is in the closed right arm.
    let r = search.find_path(&m, Vec2::new(0.5, 0.5), Vec2::new(2.5, 0.5), &opts);
    assert_eq!(r, Err(PathError::NoPath));
    // From inside the closed arm, the agent may still leave it.
    let p = search
        .find_path(&m, Vec2::new(2.5, 0.5), Vec2::new(0.5, 0.5), &opts)
        .unwrap();
    assert!((p.length - (2.0 * h(0.5, 1.5) + 1.0)).abs() < 1e-12);
    // A goal on the edge between the closed arm and the open top is reachable.
    let p = search
        .find_path(&m, Vec2::new(0.5, 0.5), Vec2::new(2.5, 2.0), &opts)
        .unwrap();
    assert!(p.length > 0.0);
}

#[test]
fn heuristic_is_a_lower_bound() {
    let (r, right, left) = (
        Vec2::new(0.0, 0.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(-1.0, 1.0),
    );
    // Goal beyond the interval and inside the cone: the straight line.
    assert_eq!(interval_h(r, right, left, Vec2::new(0.0, 5.0)), 5.0);
    // Outside the cone: through the nearer end.
    let t = Vec2::new(5.0, 2.0);
    assert_eq!(
        interval_h(r, right, left, t),
        r.distance(right) + right.distance(t)
    );
    // On the root's side: mirrored across the interval's line (y = 1).
    assert!((interval_h(r, right, left, Vec2::new(0.0, -3.0)) - 5.0).abs() < 1e-12);
}

#[test]
fn the_u_corridor_goes_over_both_inner_corners() {
    // A U-shaped corridor: 3 × 3 square minus the middle of the bottom row and the centre column.
    let v = vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(1.0, 0.0),
        Vec2::new(1.0, 2.0),
        Vec2::new(2.0, 2.0),
        Vec2::new(2.0, 0.0),
        Vec2::new(3.0, 0.0),
        Vec2::new(3.0, 3.0),
        Vec2::new(0.0, 3.0),
        Vec2::new(0.0, 2.0),
        Vec2::new(3.0, 2.0),
    ];
    let polys = vec![vec![0, 1, 2, 8], vec![8, 2, 3, 9, 6, 7], vec![4, 5, 9, 3]];
    let mesh = NavMesh::from_polygons(v, polys).unwrap();
    let mut search = ExactSearch::new();
    let path = search
        .find_path(
            &mesh,
            Vec2::new(0.5, 0.5),
            Vec2::new(2.5, 0.5),
            &SearchOptions::default(),
        )
        .unwrap();
    // Up the left arm, over the two inner corners, down the right arm.
    assert_eq!(
        path.points[1..3],
        [Vec2::new(1.0, 2.0), Vec2::new(2.0, 2.0)]
    );
    let expected = 2.0 * (0.5f64.powi(2) + 1.5f64.powi(2)).sqrt() + 1.0;
    assert!((path.length - expected).abs() < 1e-12);
}

/// A 3 × 3 grid of unit squares, without the centre one when `hole`.
fn squares(hole: bool) -> NavMesh {
    let v = (0..16).map(|i| Vec2::new(f64::from(i % 4), f64::from(i / 4)));
    let polys = (0..9u32)
        .filter(|&k| !(hole && k == 4))
        .map(|k| {
            let a = k % 3 + 4 * (k / 3);
            vec![a, a + 1, a + 5, a + 4]
        })
        .collect();
    NavMesh::from_polygons(v.collect(), polys).unwrap()
}

#[test]
fn a_goal_in_sight_is_the_segment_without_a_search() {
    let m = squares(false);
    // Across five squares, diagonally through two vertices, from a vertex, from an edge and to
    // a vertex: the channel is still a chain of polygons sharing edges, from a polygon holding
    // the start to one holding the goal.
    for (s, t) in [
        ((0.1, 0.2), (2.9, 2.7)),
        ((0.5, 0.5), (2.5, 2.5)),
        ((1.0, 1.0), (2.5, 2.9)),
        ((1.0, 0.5), (2.9, 2.2)),
        ((0.2, 2.9), (2.0, 1.0)),
    ] {
        let p = find(&m, s, t).unwrap();
        assert_eq!(p.points, vec![Vec2::from(s), Vec2::from(t)]);
        assert_eq!(
            (p.expanded, p.status, p.bound),
            (0, PathStatus::Complete, Some(1.0))
        );
        assert_eq!(p.length, Vec2::from(s).distance(t.into()));
        assert!(p
            .channel
            .windows(2)
            .all(|w| m.shared_edge(w[0], w[1]).is_some()));
        let holds = |q: Option<&PolyId>, x: (f64, f64)| {
            q.is_some_and(|&q| m.locate_in(q, x.into()).is_some())
        };
        assert!(
            holds(p.channel.first(), s),
            "{s:?} -> {t:?}: {:?}",
            p.channel
        );
        assert!(
            holds(p.channel.last(), t),
            "{s:?} -> {t:?}: {:?}",
            p.channel
        );
    }
    // Out of sight (the hole in the way): the search runs, around a corner.
    let m = squares(true);
    let p = find(&m, (0.5, 1.5), (2.5, 1.5)).unwrap();
    assert!(p.expanded > 0);
    assert_eq!(p.points.len(), 4);
    assert!((p.length - (2.0 * h(0.5, 0.5) + 1.0)).abs() < 1e-12);
}

/// A forced channel's portals, read from the bridges the walk crosses
/// ([`forced::Funnels::forced_portals`]), are the portals
/// [`channel_portals`](crate::search::funnel::channel_portals) reads from the mesh for the same
/// channel, which is [`DeadEnds::forced_channel`]'s: on mazes (every channel forced) and on a
/// random grid (some).
#[test]
fn forced_portals_are_the_channels_portals() {
    use crate::build::{build, BuildOptions};
    use crate::random_grid::{maze_grid, random_blocked_grid, MazeOptions};
    use crate::search::funnel::channel_portals;
    let maps = [
        maze_grid(41, 33, &MazeOptions::new(2, 1), 3).unwrap(),
        maze_grid(64, 64, &MazeOptions::new(3, 1), 4).unwrap(),
        random_blocked_grid(48, 48, 0.3, 5).unwrap(),
    ];
    let mut checked = 0;
    let mut funnels = forced::Funnels::default();
    for map in maps {
        let m = build(&map.to_scene(), &BuildOptions::cdt()).unwrap();
        let de = m.dead_ends();
        let n = m.polygon_count();
        let (mut channel, mut tail) = (Vec::new(), Vec::new());
        for k in 0..400usize {
            let a = PolyId(((k * 7919) % n) as u32);
            let b = PolyId(((k * 104_729 + 17) % n) as u32);
            let (s, t) = (
                m.vertex(m.polygon_vertices(a)[0]),
                m.vertex(m.polygon_vertices(b)[0]),
            );
            let forced = funnels.forced_portals(de, (a, b), (s, t));
            assert_eq!(
                forced,
                de.forced_channel(a, b, &mut channel, &mut tail),
                "{a} {b}"
            );
            if !forced {
                continue;
            }
            assert_eq!(funnels.channel, channel, "{a} -> {b}");
            assert_eq!(
                funnels.portals,
                channel_portals(&m, &channel, s, t),
                "{a} -> {b}"
            );
            checked += usize::from(channel.len() > 2);
        }
    }
    assert!(
        checked > 300,
        "only {checked} forced channels of three polygons or more"
    );
}
