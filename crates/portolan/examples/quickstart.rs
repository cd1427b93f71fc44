//! Scene → mesh → path: the three steps every use of Portolan goes through.
//!
//! `cargo run --release -p portolan --example quickstart`
//!
//! A 100 × 60 room with two obstacles is cut into convex polygons (the chapter's trapezoids and
//! the default merged CDT), and the same query is answered by the funnel search on each and by
//! the exact search; the example prints and checks what it finds.

// Options are set field by field, never as struct literals: they are growing, and an
// example written this way keeps compiling when they gain fields.
#![allow(clippy::field_reassign_with_default)]

use portolan::{
    build, BuildOptions, Decomposition, PathFinder, Scene, SearchMethod, SearchOptions, Vec2,
};

fn main() {
    // 1. A scene: walkable bounds and obstacle polygons (any orientation, y up).
    let scene = Scene::from_json_reader(
        r#"{
            "bounds": {"min": [0, 0], "max": [100, 60]},
            "obstacles": [
                [[20, 0], [30, 0], [30, 45], [20, 45]],
                [[55, 15], [70, 15], [70, 60], [55, 60]]
            ]
        }"#
        .as_bytes(),
    )
    .expect("a valid scene");
    let (start, goal) = (Vec2::new(5.0, 5.0), Vec2::new(95.0, 5.0));

    // 2. A mesh of convex polygons, built once per scene (and per agent size).
    let mut finder = PathFinder::new(); // reuse it: it keeps its buffers between queries
    let mut lengths = Vec::new();
    for decomposition in [Decomposition::Trapezoid, Decomposition::CdtMerged] {
        let mut options = BuildOptions::default();
        options.decomposition = decomposition;
        let mesh = build(&scene, &options).expect("the scene builds");
        mesh.check_invariants().expect("a sound mesh");

        // 3. A path: channel A* over the polygons, then the funnel (the default search).
        let path = finder
            .find_path(&mesh, start, goal, &SearchOptions::default())
            .expect("start and goal are connected");
        println!(
            "{decomposition:?}: {} polygons; funnel path {:.3} through {} points, {} polygons expanded",
            mesh.polygon_count(),
            path.length,
            path.points.len(),
            path.expanded
        );
        for p in &path.points {
            println!("    ({:6.2}, {:6.2})", p.x, p.y);
        }
        assert_eq!(path.points.first(), Some(&start));
        assert_eq!(path.points.last(), Some(&goal));
        assert!(path.is_complete());

        // The exact search (Polyanya) is never longer: it is a Euclidean shortest path.
        let mut exact = SearchOptions::default();
        exact.method = SearchMethod::Exact;
        let best = finder.find_path(&mesh, start, goal, &exact).unwrap();
        println!("    exact search: {:.3}", best.length);
        assert!(best.length <= path.length + 1e-9);
        lengths.push(best.length);
    }

    // The first wall stands on the floor, so the path goes over it, round (20, 45) and (30, 45);
    // the second hangs from the ceiling, so it goes under it, round (55, 15), and from there
    // straight down to the goal (it passes (70, 15) 3.75 below the wall).
    let corners = [
        start,
        Vec2::new(20.0, 45.0),
        Vec2::new(30.0, 45.0),
        Vec2::new(55.0, 15.0),
        goal,
    ];
    let shortest: f64 = corners.windows(2).map(|w| w[0].distance(w[1])).sum();
    println!("shortest path by hand: {shortest:.3}");
    for l in lengths {
        assert!((l - shortest).abs() < 1e-9, "{l} vs {shortest}");
    }
}
