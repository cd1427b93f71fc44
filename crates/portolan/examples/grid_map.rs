//! A MovingAI grid map, the exact search, and a query that ends on a double corner.
//!
//! `cargo run --release -p portolan --example grid_map`
//!
//! Grid maps follow the GPPC any-angle rules: cell (x, y) is the square (x, y)–(x+1, y+1), y
//! grows south, query points are cell corners, outside the map is blocked, and blocked cells
//! become traced obstacle outlines that touch at double corners, so no path cuts between two
//! blocked cells that touch only diagonally. A point *on* such a corner (a pinch vertex of the
//! mesh) is still a valid start or goal.

// Options are set field by field, never as struct literals: they are growing, and an
// example written this way keeps compiling when they gain fields.
#![allow(clippy::field_reassign_with_default)]

use portolan::io::movingai::read_map;
use portolan::{build, BuildOptions, Location, PathFinder, SearchMethod, SearchOptions, Vec2};

/// An 8 × 6 map: `.` passable, `@` blocked. Cells (3, 2) and (4, 3) touch only at the corner
/// (4, 3): a double corner.
const MAP: &str = "type octile
height 6
width 8
map
........
.@@.....
...@....
....@@@.
........
........
";

/// The points of a path, as `(x, y) → (x, y) → ...`.
fn route(points: &[Vec2]) -> String {
    let points: Vec<String> = points.iter().map(|p| p.to_string()).collect();
    points.join(" → ")
}

fn main() {
    let grid = read_map(MAP.as_bytes()).expect("a valid map");
    let scene = grid.to_scene();
    // Traced outlines touch at the double corner, which the trapezoids cannot take: merged CDT.
    let mesh = build(&scene, &BuildOptions::default()).expect("the map builds");
    println!(
        "{} × {} map, {} obstacles (4-connected groups of blocked cells), {} polygons",
        grid.width(),
        grid.height(),
        scene.obstacles.len(),
        mesh.polygon_count()
    );

    // The double corner is a vertex of the mesh where free space pinches.
    let pinch = Vec2::new(4.0, 3.0);
    let Location::OnVertex { vertex, .. } = mesh.locate(pinch) else {
        panic!("(4, 3) is a mesh vertex");
    };
    assert!(mesh.is_pinch(vertex));
    println!("(4, 3) is a pinch vertex: two blocked cells touch there diagonally");

    let mut finder = PathFinder::new();
    let mut exact = SearchOptions::default();
    exact.method = SearchMethod::Exact;

    // Across the map: the exact search gives a Euclidean shortest path, never longer than the
    // funnel's.
    let (a, b) = (Vec2::new(0.0, 0.0), Vec2::new(8.0, 6.0));
    let best = finder.find_path(&mesh, a, b, &exact).unwrap();
    let funnel = finder
        .find_path(&mesh, a, b, &SearchOptions::default())
        .unwrap();
    println!(
        "{a} → {b}: exact {:.4} via {}, funnel {:.4}",
        best.length,
        route(&best.points),
        funnel.length
    );
    assert!(best.length <= funnel.length + 1e-9);
    assert!(best.length >= a.distance(b));

    // Into the double corner from the north-east and from the south-west: each path arrives
    // through its own side of the corner and never passes between the two blocked cells.
    for from in [Vec2::new(7.0, 0.0), Vec2::new(0.0, 6.0)] {
        let path = finder.find_path(&mesh, from, pinch, &exact).unwrap();
        println!(
            "{from} → double corner {pinch}: {:.4} via {}",
            path.length,
            route(&path.points)
        );
        assert_eq!(path.points.last(), Some(&pinch));
        // Both ends have a clear line of sight here, so the path is the straight segment.
        assert!((path.length - from.distance(pinch)).abs() < 1e-12);
    }
    // Out of it toward (7, 5), behind the blocked cell (4, 3): the path leaves through the
    // south-west side and rounds that cell's corner (4, 4), 1 + √10, shorter than round the
    // row's east end (4, 3) → (7, 3) → (7, 5), 5.
    let to = Vec2::new(7.0, 5.0);
    let path = finder.find_path(&mesh, pinch, to, &exact).unwrap();
    println!(
        "double corner {pinch} → {to}: {:.4} via {}",
        path.length,
        route(&path.points)
    );
    assert_eq!(path.points, vec![pinch, Vec2::new(4.0, 4.0), to]);
    assert!((path.length - (1.0 + 10f64.sqrt())).abs() < 1e-12);
}
