//! Grid maps from the shared benchmark data: every map builds into a mesh that passes
//! `check_invariants`, covers exactly the passable cells, and (on AcrosstheCape) gives funnel paths
//! no shorter than the GPPC Euclidean optimum.

use portolan::io::movingai::{read_map, GridMap};
use portolan::{build, BuildError, BuildOptions, NavMesh, PathFinder, SearchOptions, Vec2};
use std::path::PathBuf;

fn data(path: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data")).join(path)
}

fn load(path: &str) -> GridMap {
    let f = std::fs::File::open(data(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    read_map(std::io::BufReader::new(f)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every passable cell's centre is on the mesh and every blocked cell's centre is not.
fn check_cells(map: &GridMap, mesh: &NavMesh) {
    for y in 0..map.height() as i64 {
        for x in 0..map.width() as i64 {
            let centre = Vec2::new(x as f64 + 0.5, y as f64 + 0.5);
            let on = mesh.locate(centre).polygon().is_some();
            assert_eq!(on, !map.is_blocked(x, y), "cell ({x}, {y})");
        }
    }
}

fn build_and_check(path: &str) -> (GridMap, NavMesh) {
    let map = load(path);
    let scene = map.to_scene();
    let mesh = build(&scene, &BuildOptions::cdt()).unwrap_or_else(|e| panic!("{path}: {e}"));
    mesh.check_invariants()
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    assert_eq!(mesh.area(), map.passable_count() as f64, "{path}");
    check_cells(&map, &mesh);
    (map, mesh)
}

#[test]
fn dragon_age_maps_build() {
    for name in ["arena", "den011d", "lak303d", "brc202d"] {
        build_and_check(&format!("movingai/dao/{name}.map"));
    }
}

#[test]
fn tiny_maps_build_or_say_why_not() {
    for name in [
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "hard",
        "trivial_traversable",
    ] {
        build_and_check(&format!("movingai/tiny/{name}.map"));
    }
    let map = load("movingai/tiny/trivial_untraversable.map");
    assert_eq!(
        build(&map.to_scene(), &BuildOptions::cdt()).unwrap_err(),
        BuildError::NoWalkableSpace
    );
}

/// One `.scen` line: start, goal, and the optimum in column 9.
struct Query {
    start: Vec2,
    goal: Vec2,
    optimum: f64,
}

fn read_scen(path: &str) -> Vec<Query> {
    let text = std::fs::read_to_string(data(path)).unwrap();
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let n = |i: usize| f[i].parse::<f64>().unwrap();
            Query {
                start: Vec2::new(n(4), n(5)),
                goal: Vec2::new(n(6), n(7)),
                optimum: n(8),
            }
        })
        .collect()
}

#[test]
fn across_the_cape_funnel_paths_are_never_shorter_than_the_optimum() {
    let (_, mesh) = build_and_check("gppc/AcrosstheCape.map");
    let queries = read_scen("gppc/AcrosstheCape.map.scen");
    assert_eq!(queries.len(), 201);
    let mut finder = PathFinder::new();
    let mut found = 0;
    for (i, q) in queries.iter().enumerate() {
        let path = finder
            .find_path(&mesh, q.start, q.goal, &SearchOptions::default())
            .unwrap_or_else(|e| panic!("query {i}: {e}"));
        found += 1;
        assert!(
            path.length >= q.optimum - 1e-9 * q.optimum.max(1.0),
            "query {i}: funnel {} < optimum {}",
            path.length,
            q.optimum
        );
    }
    assert_eq!(found, 201);
}
