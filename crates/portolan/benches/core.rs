//! Core benchmarks: point location (grid vs the chapter's linear scan), one full query on the
//! default map, and trapezoid mesh builds.
//!
//! `cargo bench -p portolan --bench core`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use portolan::geom::Vec2;
use portolan::random::{quad_grid_scene, Rng};
use portolan::{build, BuildOptions, NavMesh, PathFinder, PortalPoint, Scene, SearchOptions};
use std::hint::black_box;
use std::time::Duration;

/// A triangulated `k × k` grid of unit squares: exactly `2 k²` triangles.
fn grid_mesh(k: usize) -> NavMesh {
    let mut vertices = Vec::with_capacity((k + 1) * (k + 1));
    for y in 0..=k {
        for x in 0..=k {
            vertices.push(Vec2::new(x as f64, y as f64));
        }
    }
    let id = |x: usize, y: usize| (y * (k + 1) + x) as u32;
    let mut polys = Vec::with_capacity(2 * k * k);
    for y in 0..k {
        for x in 0..k {
            polys.push(vec![id(x, y), id(x + 1, y), id(x + 1, y + 1)]);
            polys.push(vec![id(x, y), id(x + 1, y + 1), id(x, y + 1)]);
        }
    }
    NavMesh::from_polygons(vertices, polys).expect("a grid triangulation is a valid mesh")
}

fn locate(c: &mut Criterion) {
    let mut group = c.benchmark_group("locate");
    group
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500));
    for k in [7usize, 22, 71, 224] {
        let mesh = grid_mesh(k); // 98, 968, 10 082, 100 352 triangles
        let n = mesh.polygon_count();
        let mut rng = Rng::new(42);
        let points: Vec<Vec2> = (0..256)
            .map(|_| Vec2::new(rng.next_f64() * k as f64, rng.next_f64() * k as f64))
            .collect();
        group.bench_with_input(BenchmarkId::new("grid", n), &points, |b, pts| {
            b.iter(|| {
                pts.iter()
                    .filter(|&&p| mesh.locate(black_box(p)).polygon().is_some())
                    .count()
            })
        });
        if n <= 20_000 {
            group.bench_with_input(BenchmarkId::new("linear", n), &points, |b, pts| {
                b.iter(|| {
                    pts.iter()
                        .filter(|&&p| mesh.locate_linear(black_box(p)).polygon().is_some())
                        .count()
                })
            });
        } else {
            // 256 linear scans of 100k polygons take long; 16 points keep the bench short.
            let few = &points[..16];
            group.bench_with_input(BenchmarkId::new("linear-16pts", n), few, |b, pts| {
                b.iter(|| {
                    pts.iter()
                        .filter(|&&p| mesh.locate_linear(black_box(p)).polygon().is_some())
                        .count()
                })
            });
        }
    }
    group.finish();
}

fn query(c: &mut Criterion) {
    let scene = Scene::default_map();
    let mesh = build(&scene, &BuildOptions::trapezoid()).expect("default map builds");
    let mut finder = PathFinder::new();
    let mut group = c.benchmark_group("query-default-map");
    for (name, pp) in [
        ("toward-goal", PortalPoint::TowardGoal),
        ("midpoint", PortalPoint::Midpoint),
    ] {
        let opts = SearchOptions::with_portal_point(pp);
        group.bench_function(name, |b| {
            b.iter(|| {
                finder
                    .find_path(
                        &mesh,
                        black_box(Scene::DEFAULT_START),
                        black_box(Scene::DEFAULT_GOAL),
                        &opts,
                    )
                    .expect("default query has a path")
            })
        });
    }
    group.finish();
}

fn build_trapezoid(c: &mut Criterion) {
    let mut group = c.benchmark_group("build-trapezoid");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3));
    for n in [10usize, 100, 1000] {
        let scene = quad_grid_scene(n, 7);
        group.bench_with_input(BenchmarkId::from_parameter(n), &scene, |b, s| {
            b.iter(|| {
                build(s, &BuildOptions::trapezoid()).expect("disjoint convex obstacles build")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, locate, query, build_trapezoid);
criterion_main!(benches);
