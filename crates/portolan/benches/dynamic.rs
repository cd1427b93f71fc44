//! Dynamic obstacles: one small obstacle moved and `update()`d against a full (untiled) rebuild,
//! on AcrosstheCape (768 × 768) and on a map of 4× its area (AcrosstheCape tiled 2 × 2), for tiles
//! of 32, 64 and 128 cells. `update` is the whole update (geometry + stitching and publishing the
//! snapshot); `update_geometry` only the rebuilt tiles' geometry (`UpdateReport::rebuild_time`),
//! `update_publish` only the stitch patch and the new mesh (`UpdateReport::publish_time`).
//! Memory per polygon (estimated from array sizes) is printed on stderr, and so is an
//! interleaved run (one update on each map in turn, medians of 301 rounds per tile size): on a
//! shared machine, consecutive benches see different loads; the 4×-map / 1×-map ratio of updates
//! that alternate does not. The interleaved run also times what the first exact search on each
//! new snapshot derives (`NavMesh::dead_ends`, O(map)), apart from the update.
//!
//! `cargo bench -p portolan --bench dynamic` (about 1 minute).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use portolan::dynamic::DynamicNavMesh;
use portolan::geom::{Aabb, Vec2};
use portolan::io::movingai::read_map;
use portolan::scene::Hole;
use portolan::{build, BuildOptions, Scene};
use std::hint::black_box;
use std::time::Duration;

fn across_the_cape() -> Scene {
    let path = portolan::testkit::data_dir().join("gppc/AcrosstheCape.map");
    let f = std::fs::File::open(&path).expect("AcrosstheCape.map in ../shared/data");
    read_map(std::io::BufReader::new(f)).unwrap().to_scene()
}

/// `scene` repeated `k × k` times (obstacles and holes translated; bounds grown).
fn tiled(scene: &Scene, k: usize) -> Scene {
    let size = scene.bounds.size();
    let mut out = Scene::new(Aabb::new(
        scene.bounds.min,
        scene.bounds.min + Vec2::new(size.x * k as f64, size.y * k as f64),
    ));
    for j in 0..k {
        for i in 0..k {
            let d = Vec2::new(size.x * i as f64, size.y * j as f64);
            let base = out.obstacles.len();
            out.obstacles.extend(
                scene
                    .obstacles
                    .iter()
                    .map(|r| r.iter().map(|&p| p + d).collect()),
            );
            out.holes.extend(scene.holes.iter().map(|h| Hole {
                obstacle: h.obstacle + base,
                ring: h.ring.iter().map(|&p| p + d).collect(),
            }));
        }
    }
    out
}

fn updates(c: &mut Criterion) {
    let one = across_the_cape();
    let four = tiled(&one, 2);
    let mut g = c.benchmark_group("dynamic");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    for (name, scene) in [("AcrosstheCape", &one), ("AcrosstheCape_2x2", &four)] {
        g.bench_function(BenchmarkId::new("full_rebuild", name), |b| {
            b.iter(|| build(black_box(scene), &BuildOptions::cdt()).unwrap())
        });
        for tile in [32.0, 64.0, 128.0] {
            let mut nav = DynamicNavMesh::new(scene.clone(), &BuildOptions::cdt(), tile).unwrap();
            // A 4 × 4 box at the same place of both maps (the first copy's centre).
            let (x, y) = (380.5, 380.5);
            let id = nav
                .add_obstacle([(x, y), (x + 4.0, y), (x + 4.0, y + 4.0), (x, y + 4.0)])
                .unwrap();
            nav.update().unwrap();
            let snap = nav.snapshot();
            let polygons = snap.mesh().polygon_count();
            eprintln!(
                "{name} tile {tile}: {polygons} polygons; mesh {:.0} B/polygon, editable state {:.0} B/polygon",
                snap.mesh().memory_bytes() as f64 / polygons as f64,
                nav.memory_bytes() as f64 / polygons as f64,
            );
            let id = std::cell::Cell::new(id);
            let mut step = 1.0;
            let label = format!("{name}/{tile}");
            g.bench_function(BenchmarkId::new("update", &label), |b| {
                b.iter(|| {
                    step = -step;
                    nav.move_obstacle(id.get(), Vec2::new(step, 0.0)).unwrap();
                    black_box(nav.update().unwrap())
                })
            });
            g.bench_function(BenchmarkId::new("update_geometry", &label), |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        step = -step;
                        nav.move_obstacle(id.get(), Vec2::new(step, 0.0)).unwrap();
                        total += nav.update().unwrap().rebuild_time;
                    }
                    total
                })
            });
            g.bench_function(BenchmarkId::new("update_publish", &label), |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        step = -step;
                        nav.move_obstacle(id.get(), Vec2::new(step, 0.0)).unwrap();
                        total += nav.update().unwrap().publish_time;
                    }
                    total
                })
            });
        }
    }
    g.finish();
}

/// Median of a sample, in microseconds.
fn median_us(mut v: Vec<Duration>) -> f64 {
    v.sort();
    v[v.len() / 2].as_secs_f64() * 1e6
}

/// One update on the 1× map, then one on the 4× map, and again: the medians of each and their
/// ratios (whole update, geometry, publishing), printed on stderr.
fn interleaved(_: &mut Criterion) {
    let one = across_the_cape();
    let four = tiled(&one, 2);
    for tile in [32.0, 64.0, 128.0] {
        let mut navs: Vec<(DynamicNavMesh, _)> = [&one, &four]
            .iter()
            .map(|scene| {
                let mut nav =
                    DynamicNavMesh::new((*scene).clone(), &BuildOptions::cdt(), tile).unwrap();
                let (x, y) = (380.5, 380.5);
                let id = nav
                    .add_obstacle([(x, y), (x + 4.0, y), (x + 4.0, y + 4.0), (x, y + 4.0)])
                    .unwrap();
                nav.update().unwrap();
                (nav, id)
            })
            .collect();
        // Per map: whole update, geometry, publishing, and the new snapshot's dead-end table
        // (what the first exact search on it derives, O(map); not part of the update).
        let mut times: [[Vec<Duration>; 4]; 2] = Default::default();
        let mut step = 1.0;
        for round in 0..311 {
            step = -step;
            for (m, (nav, id)) in navs.iter_mut().enumerate() {
                let start = std::time::Instant::now();
                nav.move_obstacle(*id, Vec2::new(step, 0.0)).unwrap();
                let report = black_box(nav.update().unwrap());
                let whole = start.elapsed();
                let snap = nav.snapshot();
                let start = std::time::Instant::now();
                black_box(snap.mesh().dead_ends());
                let dead_ends = start.elapsed();
                drop(snap);
                if round >= 10 {
                    times[m][3].push(dead_ends);
                    times[m][0].push(whole);
                    times[m][1].push(report.rebuild_time);
                    times[m][2].push(report.publish_time);
                }
            }
        }
        let [a, b] = times.map(|t| t.map(median_us));
        eprintln!(
            "interleaved tile {tile}: update {:.0} / {:.0} us ({:.2}x), geometry {:.0} / {:.0} us ({:.2}x), publish {:.0} / {:.0} us ({:.2}x), then the first exact search's dead ends {:.0} / {:.0} us ({:.2}x) [1x map / 4x map]",
            a[0], b[0], b[0] / a[0], a[1], b[1], b[1] / a[1], a[2], b[2], b[2] / a[2], a[3], b[3], b[3] / a[3]
        );
    }
}

criterion_group!(benches, interleaved, updates);
criterion_main!(benches);
