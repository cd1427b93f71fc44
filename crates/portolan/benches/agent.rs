//! Agent-facing queries: raycast throughput, and batch path queries in parallel against the same
//! queries run sequentially with one reused `PathFinder`.
//!
//! Run: `cargo bench -p portolan --bench agent`. Meshes: the built-in default map (32 polygons)
//! and a generated 2000 × 2000 map with 400 convex obstacles (a few thousand trapezoids).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use portolan::geom::Aabb;
use portolan::random::Rng;
use portolan::search::batch::{find_paths, find_paths_sequential};
use portolan::search::raycast::{raycast_into, RayOutcome};
use portolan::{build, BuildOptions, NavMesh, Scene, SearchOptions, Vec2};
use std::hint::black_box;

/// 2000 × 2000 with a 20 × 20 grid of cells, each holding a random convex pentagon-ish obstacle.
fn big_scene() -> Scene {
    let mut rng = Rng::new(0x5EED_1234_ABCD_0001);
    let mut scene = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(2000.0, 2000.0)));
    for cy in 0..20 {
        for cx in 0..20 {
            let c = Vec2::new(cx as f64 * 100.0 + 50.0, cy as f64 * 100.0 + 50.0);
            let r = 15.0 + 25.0 * rng.next_f64();
            let phase = rng.next_f64();
            let ring: Vec<Vec2> = (0..5)
                .map(|k| {
                    let a = (k as f64 + phase) * std::f64::consts::TAU / 5.0;
                    c + Vec2::new(a.cos(), a.sin()) * r
                })
                .collect();
            scene.obstacles.push(ring);
        }
    }
    scene
}

/// Random points on the mesh (rejection sampling in its bounds).
fn points_on(mesh: &NavMesh, n: usize, seed: u64) -> Vec<Vec2> {
    let mut rng = Rng::new(seed);
    let b = mesh.bounds();
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let p = Vec2::new(
            b.min.x + rng.next_f64() * (b.max.x - b.min.x),
            b.min.y + rng.next_f64() * (b.max.y - b.min.y),
        );
        if mesh.locate(p).polygon().is_some() {
            out.push(p);
        }
    }
    out
}

fn meshes() -> Vec<(&'static str, NavMesh)> {
    let opts = BuildOptions::trapezoid();
    vec![
        ("default", build(&Scene::default_map(), &opts).unwrap()),
        ("grid400", build(&big_scene(), &opts).unwrap()),
    ]
}

fn bench_raycast(c: &mut Criterion) {
    let mut group = c.benchmark_group("raycast");
    for (name, mesh) in meshes() {
        let starts = points_on(&mesh, 1000, 7);
        let ends = points_on(&mesh, 1000, 11);
        let rays: Vec<(Vec2, Vec2)> = starts.into_iter().zip(ends).collect();
        let clear = rays
            .iter()
            .filter(|(s, e)| {
                let mut v = Vec::new();
                matches!(
                    raycast_into(&mesh, *s, *e, &mut v),
                    Ok(RayOutcome::Reached { .. })
                )
            })
            .count();
        eprintln!(
            "raycast/{name}: {} polygons, {clear} of {} rays clear",
            mesh.polygon_count(),
            rays.len()
        );
        group.throughput(Throughput::Elements(rays.len() as u64));
        group.bench_function(BenchmarkId::new("1000 rays", name), |b| {
            let mut visited = Vec::new();
            b.iter(|| {
                for &(s, e) in &rays {
                    black_box(raycast_into(&mesh, s, e, &mut visited).ok());
                }
            })
        });
    }
    group.finish();
}

fn bench_batch(c: &mut Criterion) {
    let mut group = c.benchmark_group("batch");
    group.sample_size(20);
    let options = SearchOptions::default();
    for (name, mesh) in meshes() {
        let queries: Vec<(Vec2, Vec2)> = points_on(&mesh, 2000, 3)
            .into_iter()
            .zip(points_on(&mesh, 2000, 5))
            .collect();
        group.throughput(Throughput::Elements(queries.len() as u64));
        group.bench_function(BenchmarkId::new("sequential", name), |b| {
            b.iter(|| black_box(find_paths_sequential(&mesh, &queries, &options)))
        });
        group.bench_function(BenchmarkId::new("parallel", name), |b| {
            b.iter(|| black_box(find_paths(&mesh, &queries, &options)))
        });
    }
    eprintln!("batch: rayon threads = {}", rayon::current_num_threads());
    group.finish();
}

criterion_group!(benches, bench_raycast, bench_batch);
criterion_main!(benches);
