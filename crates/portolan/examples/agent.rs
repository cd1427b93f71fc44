//! What an agent needs beyond a path: an agent radius, snapping, corner offset, an off-mesh
//! link, a raycast, a partial path and batch queries.
//!
//! `cargo run --release -p portolan --example agent`
//!
//! Everything runs on the chapter's default map (800 × 450, seven obstacles, y up).

// Options are set field by field, never as struct literals: they are growing, and an
// example written this way keeps compiling when they gain fields.
#![allow(clippy::field_reassign_with_default)]

use portolan::mesh::OffMeshLink;
use portolan::search::batch::find_paths;
use portolan::search::raycast::{raycast, RayOutcome};
use portolan::search::{PartialReason, Snap};
use portolan::{
    build, BuildOptions, PathError, PathFinder, PathStatus, PolygonFilter, Scene, SearchMethod,
    SearchOptions, Vec2,
};
use std::sync::Arc;

fn main() {
    let scene = Scene::default_map();
    let (s, g) = (Scene::DEFAULT_START, Scene::DEFAULT_GOAL);

    // One mesh per agent size: obstacles grow by the radius, corners rounded within 1% of it.
    let mut build_options = BuildOptions::default();
    build_options.agent_radius = 5.0;
    let mesh = build(&scene, &build_options).expect("the default map builds");
    println!(
        "default map, agent radius 5: {} polygons",
        mesh.polygon_count()
    );
    let mut finder = PathFinder::new();
    let plain = finder
        .find_path(&mesh, s, g, &SearchOptions::default())
        .unwrap();
    println!(
        "{s} → {g}: {:.1} ({} corners)",
        plain.length,
        plain.points.len() - 2
    );

    // Snapping: a start clicked inside an obstacle is refused, or moved onto the mesh.
    let inside = Vec2::new(360.0, 100.0);
    let refused = finder.find_path(&mesh, inside, g, &SearchOptions::default());
    assert!(matches!(refused, Err(PathError::StartOffMesh { .. })));
    let mut snap = SearchOptions::default();
    snap.snap = Snap::Within(50.0);
    let snapped = finder.find_path(&mesh, inside, g, &snap).unwrap();
    let moved_to = snapped.points[0];
    println!(
        "snapping: {inside} is in an obstacle; the path starts at ({:.1}, {:.1}), {:.1} away",
        moved_to.x,
        moved_to.y,
        inside.distance(moved_to)
    );
    assert!(inside.distance(moved_to) <= 50.0);

    // Corner offset: each turn pushed 3 units further from the corner it turns around.
    let mut offset = SearchOptions::default();
    offset.corner_offset = 3.0;
    let pushed = finder.find_path(&mesh, s, g, &offset).unwrap();
    // (The radius rounds corners into short chords: a turn may be several close points, and a
    // push is halved, down to none, where the moved point would leave the mesh.)
    assert_eq!(pushed.points.len(), plain.points.len());
    let moves: Vec<f64> = plain
        .points
        .iter()
        .zip(&pushed.points)
        .map(|(a, b)| a.distance(*b))
        .collect();
    let moved = moves.iter().filter(|&&d| d > 0.0).count();
    let most = moves.iter().copied().fold(0.0, f64::max);
    println!(
        "corner offset 3: {moved} of {} turns moved, at most {most:.2}; length {:.1}",
        plain.points.len() - 2,
        pushed.length
    );
    assert!(moved > 0 && most <= 3.0 + 1e-9);
    assert_eq!(
        (moves[0], moves[moves.len() - 1]),
        (0.0, 0.0),
        "the ends stay"
    );

    // The exact search (Polyanya): never longer than the funnel's path.
    let mut exact = SearchOptions::default();
    exact.method = SearchMethod::Exact;
    let best = finder.find_path(&mesh, s, g, &exact).unwrap();
    println!(
        "exact search: {:.1} (funnel {:.1})",
        best.length, plain.length
    );
    assert!(best.length <= plain.length + 1e-9);

    // An off-mesh link: a one-way jump costing 40, taken because it saves more than that.
    let jump = OffMeshLink::new(Vec2::new(100.0, 30.0), Vec2::new(700.0, 300.0), 40.0);
    let linked = mesh
        .clone()
        .with_links([jump])
        .expect("both ends on the mesh");
    let jumped = finder
        .find_path(&linked, s, g, &SearchOptions::default())
        .unwrap();
    println!(
        "off-mesh link: {} link(s) taken, cost {:.1} instead of {:.1}",
        jumped.links.len(),
        jumped.cost(&linked),
        plain.length
    );
    assert_eq!(jumped.links.len(), 1);
    assert!(jumped.cost(&linked) < plain.length);

    // A raycast: the straight line from start to goal hits a wall; this one does not.
    let ray = raycast(&mesh, s, g).unwrap();
    let RayOutcome::Hit(hit) = &ray.outcome else {
        panic!("an obstacle stands between S and G");
    };
    println!(
        "raycast {s} → {g}: wall hit at ({:.1}, {:.1}), {:.0}% of the way, after {} polygon(s)",
        hit.point.x,
        hit.point.y,
        100.0 * hit.t,
        ray.visited.len()
    );
    assert!(hit.t > 0.0 && hit.t < 1.0);
    let first_leg = raycast(&mesh, plain.points[0], plain.points[1]).unwrap();
    assert!(first_leg.is_clear(), "every leg of a path is clear");

    // A partial path: a temporary obstacle closes the polygons round the goal; with
    // `allow_partial` the path ends at the reachable point closest to it.
    let mut closed = PolygonFilter::new();
    let around_goal = [
        Vec2::new(700.0, 330.0),
        Vec2::new(795.0, 330.0),
        Vec2::new(795.0, 445.0),
        Vec2::new(700.0, 445.0),
    ];
    closed.exclude_overlapping(&mesh, &around_goal).unwrap();
    let mut partial = SearchOptions::default();
    partial.filter = Some(Arc::new(closed));
    assert!(matches!(
        finder.find_path(&mesh, s, g, &partial),
        Err(PathError::GoalOffMesh { .. } | PathError::NoPath)
    ));
    partial.allow_partial = true;
    let near = finder.find_path(&mesh, s, g, &partial).unwrap();
    let end = *near.points.last().unwrap();
    println!(
        "partial path: {:?}, ends at ({:.1}, {:.1}), {:.1} short of the goal",
        near.status,
        end.x,
        end.y,
        end.distance(g)
    );
    assert!(matches!(near.status, PathStatus::Partial(_)));
    assert_ne!(near.status, PathStatus::Partial(PartialReason::SearchLimit));
    assert!(end.distance(g) > 0.0);

    // Batch queries: one PathFinder per worker thread, results in input order.
    let queries: Vec<(Vec2, Vec2)> = (0..64)
        .map(|i| {
            let t = f64::from(i) / 64.0;
            (Vec2::new(20.0 + 5.0 * t, 20.0 + 400.0 * t), g)
        })
        .collect();
    let results = find_paths(&mesh, &queries, &SearchOptions::default());
    let found = results.iter().filter(|r| r.is_ok()).count();
    println!(
        "batch: {found} of {} queries answered (the others start inside a grown obstacle)",
        queries.len()
    );
    assert_eq!(results.len(), queries.len());
    for ((start, _), r) in queries.iter().zip(&results) {
        match r {
            Ok(path) => assert_eq!(path.points[0], *start, "results in input order"),
            Err(e) => assert!(matches!(e, PathError::StartOffMesh { .. }), "{e}"),
        }
    }
}
