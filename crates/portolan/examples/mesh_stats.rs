//! Polygon counts of the two decompositions on the default map, random scenes and the shared grid
//! maps (the table in README.md).
//!
//! `cargo run --release -p portolan --example mesh_stats`

use portolan::io::movingai::read_map;
use portolan::random::quad_grid_scene;
use portolan::{build, BuildOptions, Scene};
use std::time::Instant;

fn count(scene: &Scene, options: &BuildOptions) -> String {
    let t = Instant::now();
    match build(scene, options) {
        Ok(m) => format!(
            "{} ({:.2} ms)",
            m.polygon_count(),
            t.elapsed().as_secs_f64() * 1e3
        ),
        Err(e) => format!("error: {e}"),
    }
}

fn main() {
    println!("| scene | obstacles | trapezoids | CDT merged | CDT triangles |");
    println!("| --- | --- | --- | --- | --- |");
    let mut rows: Vec<(String, Scene)> = vec![("default map".into(), Scene::default_map())];
    for n in [10, 100, 1_000, 10_000] {
        rows.push((
            "random disjoint quads, seed 7".to_string(),
            quad_grid_scene(n, 7),
        ));
    }
    for (name, scene) in &rows {
        let tris = portolan::build::cdt_triangle_count(scene, &BuildOptions::cdt())
            .map(|t| t.to_string())
            .unwrap_or_else(|e| e.to_string());
        println!(
            "| {name} | {} | {} | {} | {tris} |",
            scene.obstacles.len(),
            count(scene, &BuildOptions::trapezoid()),
            count(scene, &BuildOptions::cdt()),
        );
    }
    println!();
    println!("| grid map | cells | passable | CDT merged | CDT triangles |");
    println!("| --- | --- | --- | --- | --- |");
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/");
    for path in portolan::testkit::GRID_MAPS {
        let Ok(text) = std::fs::read(format!("{root}{path}")) else {
            continue;
        };
        let map = read_map(text.as_slice()).expect("shared maps parse");
        let scene = map.to_scene();
        let tris = portolan::build::cdt_triangle_count(&scene, &BuildOptions::cdt())
            .map(|t| t.to_string())
            .unwrap_or_else(|e| e.to_string());
        println!(
            "| {} | {} × {} | {} | {} | {tris} |",
            path.rsplit('/').next().unwrap_or(path),
            map.width(),
            map.height(),
            map.passable_count(),
            count(&scene, &BuildOptions::cdt()),
        );
    }
}
