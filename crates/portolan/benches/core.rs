//! Core benchmarks: point location (grid vs the chapter's linear scan), one full query on the
//! default map, trapezoid mesh builds, and the two funnels on a long maze channel.
//!
//! `cargo bench -p portolan --bench core`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use portolan::geom::Vec2;
use portolan::random::{quad_grid_scene, Rng};
use portolan::random_grid::{maze_grid, MazeOptions};
use portolan::search::chain_funnel::ChainFunnel;
use portolan::search::funnel::{channel_portals, string_pull};
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

/// The simple funnel (the chapter's, then `simplify_collinear`) against the funnel with two
/// chains, on the portals of the exact path between opposite corners of a 256 × 256 maze
/// (corridors 3 cells wide): 363 portals, a turn every few, where the simple funnel scans again
/// from each corner. Both give the same points (asserted once here, tested in
/// `tests/chain_funnel.rs`).
fn funnels(c: &mut Criterion) {
    let map = maze_grid(256, 256, &MazeOptions::new(3, 1), 15).expect("a maze");
    let mesh = build(&map.to_scene(), &BuildOptions::cdt()).expect("the maze builds");
    let mut finder = PathFinder::new();
    // The free cells nearest two opposite corners.
    let free = |mut cells: Box<dyn Iterator<Item = (usize, usize)>>| {
        cells
            .find(|&(x, y)| !map.is_blocked(x as i64, y as i64))
            .map(|(x, y)| Vec2::new(x as f64 + 0.5, y as f64 + 0.5))
            .expect("a maze has free cells")
    };
    let a = free(Box::new(
        (0..256).flat_map(|y| (0..256).map(move |x| (x, y))),
    ));
    let b = free(Box::new(
        (0..256)
            .rev()
            .flat_map(|y| (0..256).rev().map(move |x| (x, y))),
    ));
    let path = finder
        .find_path(&mesh, a, b, &SearchOptions::exact())
        .expect("a perfect maze joins every pair of free cells");
    let portals = channel_portals(&mesh, &path.channel, a, b);
    let mut chain = ChainFunnel::new();
    let mut out = Vec::new();
    chain.pull(&portals, &mut out);
    assert_eq!(out, string_pull(&portals));
    let mut group = c.benchmark_group("funnel-maze-channel");
    group.bench_function(BenchmarkId::new("simple", portals.len()), |bench| {
        bench.iter(|| string_pull(black_box(&portals)))
    });
    group.bench_function(BenchmarkId::new("chains", portals.len()), |bench| {
        bench.iter(|| chain.pull(black_box(&portals), &mut out))
    });
    group.finish();
}

criterion_group!(benches, locate, query, build_trapezoid, funnels);
criterion_main!(benches);
