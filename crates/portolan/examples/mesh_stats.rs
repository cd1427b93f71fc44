//! Polygon counts of the two decompositions on the default map, random scenes and the shared grid
//! maps (the table in README.md).
//!
//! `cargo run --release -p portolan --example mesh_stats`

use portolan::geom::{Aabb, Vec2};
use portolan::io::movingai::read_map;
use portolan::{build, BuildOptions, Scene};
use std::time::Instant;

/// xorshift64* (the generator of `benches/build.rs`).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// `n` disjoint convex quadrilaterals, one per grid cell (as in the benchmarks).
fn disjoint_scene(n: usize, seed: u64) -> Scene {
    let k = (n as f64).sqrt().ceil() as usize;
    let size = 100.0 * k as f64;
    let mut rng = Rng(seed | 1);
    let mut scene = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(size, size)));
    for i in 0..n {
        let (cx, cy) = (100.0 * (i % k) as f64 + 50.0, 100.0 * (i / k) as f64 + 50.0);
        let a0 = rng.next() * std::f64::consts::TAU;
        let ring: Vec<Vec2> = (0..4)
            .map(|j| {
                let a = a0 + j as f64 * std::f64::consts::FRAC_PI_2 + (rng.next() - 0.5) * 0.8;
                let r = 15.0 + 25.0 * rng.next();
                Vec2::new(cx + r * a.cos(), cy + r * a.sin())
            })
            .collect();
        scene.obstacles.push(ring);
    }
    scene
}

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
            disjoint_scene(n, 7),
        ));
    }
    for (name, scene) in &rows {
        let tris = portolan::build::free_space::free_space(scene, 0.0, 1.0)
            .and_then(|f| portolan::build::cdt::triangulate(&f))
            .map(|t| t.triangles.len().to_string())
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
    for path in [
        "movingai/dao/arena.map",
        "movingai/dao/den011d.map",
        "movingai/dao/lak303d.map",
        "movingai/dao/brc202d.map",
        "gppc/AcrosstheCape.map",
    ] {
        let Ok(text) = std::fs::read(format!("{root}{path}")) else {
            continue;
        };
        let map = read_map(text.as_slice()).expect("shared maps parse");
        let scene = map.to_scene();
        let tris = portolan::build::free_space::free_space(&scene, 0.0, 1.0)
            .and_then(|f| portolan::build::cdt::triangulate(&f))
            .map(|t| t.triangles.len().to_string())
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
