//! Mesh build benchmarks: CDT + merge against the chapter's trapezoids on random scenes of 10 to
//! 10,000 obstacles, CDT on overlapping concave obstacles and with an agent radius, and CDT on the
//! shared grid maps (outline tracing included).
//!
//! `cargo bench -p portolan --bench build` (about 3 minutes); one group: `... -- build_grid`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use portolan::geom::{Aabb, Vec2};
use portolan::io::movingai::read_map;
use portolan::random::{quad_grid_scene, Rng};
use portolan::{build, BuildOptions, Scene};
use std::hint::black_box;
use std::time::Duration;

/// `n` concave 6-pointed stars at random positions: they overlap and cross the border.
fn overlapping_scene(n: usize, seed: u64) -> Scene {
    let k = (n as f64).sqrt().ceil();
    let size = 100.0 * k;
    let mut rng = Rng::new(seed);
    let mut scene = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(size, size)));
    for _ in 0..n {
        let c = Vec2::new(rng.next_f64() * size, rng.next_f64() * size);
        let a0 = rng.next_f64() * std::f64::consts::TAU;
        let ring: Vec<Vec2> = (0..12)
            .map(|j| {
                let a = a0 + j as f64 * std::f64::consts::PI / 6.0;
                let r = if j % 2 == 0 { 40.0 } else { 15.0 } * (0.6 + 0.4 * rng.next_f64());
                c + Vec2::new(a.cos(), a.sin()) * r
            })
            .collect();
        scene.obstacles.push(ring);
    }
    scene
}

fn random_scenes(c: &mut Criterion) {
    let mut g = c.benchmark_group("build_random");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for n in [10, 100, 1_000, 10_000] {
        let s = quad_grid_scene(n, 7);
        g.bench_with_input(BenchmarkId::new("cdt_merged", n), &s, |b, s| {
            b.iter(|| build(black_box(s), &BuildOptions::cdt()).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("trapezoid", n), &s, |b, s| {
            b.iter(|| build(black_box(s), &BuildOptions::trapezoid()).unwrap())
        });
        let o = overlapping_scene(n, 11);
        g.bench_with_input(BenchmarkId::new("cdt_overlapping_stars", n), &o, |b, s| {
            b.iter(|| build(black_box(s), &BuildOptions::cdt()).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("cdt_radius_5", n), &s, |b, s| {
            b.iter(|| build(black_box(s), &BuildOptions::cdt().with_agent_radius(5.0)).unwrap())
        });
    }
    g.finish();
}

fn grid_maps(c: &mut Criterion) {
    let mut g = c.benchmark_group("build_grid");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    let root = portolan::testkit::data_dir();
    for path in portolan::testkit::GRID_MAPS {
        let Ok(text) = std::fs::read(root.join(path)) else {
            eprintln!("skipping {path}: shared data not found");
            continue;
        };
        let name = path.rsplit('/').next().unwrap_or(path);
        let map = read_map(text.as_slice()).expect("shared maps parse");
        g.bench_function(BenchmarkId::new("trace_and_cdt", name), |b| {
            b.iter(|| build(&black_box(&map).to_scene(), &BuildOptions::cdt()).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, random_scenes, grid_maps);
criterion_main!(benches);
