//! Crowd step time: 1,000 and 10,000 agents with random start and goal pairs on a dao map
//! (lak303d, 194 × 194) and on AcrosstheCape (GPPC, 768 × 768), radius 0.25 cells, 2 cells/s.
//!
//! Run: `cargo bench -p portolan --bench crowd` (the maps are in `../shared/data`).
//! Every agent plans in the first step (the replan budget is set to the crowd's size), then 20
//! warm-up steps; the time is one `Crowd::step` after that, with the crowd moving on between
//! samples, so it is the steady state of walking crowds, not of planning. `pool` is the
//! default (rayon's pool, 2 threads on the reference machine), `parallel` the pool tuning
//! itself onto the calling thread when that measures faster, `sequential` one thread.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use portolan::crowd::scenarios::Scenario;
use portolan::crowd::{Crowd, CrowdOptions};
use portolan::io::movingai::read_map;
use std::time::Duration;

fn scenario(map: &str, n: usize) -> Scenario {
    let path = portolan::testkit::data_dir().join(map);
    let f = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let scene = read_map(std::io::BufReader::new(f)).unwrap().to_scene();
    Scenario::random_on(scene, n, 1, 0.25, 2.0).unwrap()
}

/// The three ways a crowd can step: `parallel` (tuning itself to run on the calling thread
/// when that measures faster, `with_parallel_tuning(true)`), `pool` (the default: always
/// rayon's pool) and `sequential` (one thread).
fn options(way: &str) -> CrowdOptions {
    match way {
        "parallel" => CrowdOptions::default().with_parallel_tuning(true),
        "pool" => CrowdOptions::default(),
        _ => CrowdOptions::default().with_parallel(false),
    }
}

fn warm(s: &Scenario, way: &str) -> Crowd {
    let options = options(way).with_max_replans_per_step(s.agents.len());
    let mut crowd = s.crowd(options).unwrap();
    for _ in 0..21 {
        crowd.step(s.dt).unwrap();
    }
    crowd
}

fn crowd_step(c: &mut Criterion) {
    let mut group = c.benchmark_group("crowd_step");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(4));
    for (name, map) in [
        ("lak303d", "movingai/dao/lak303d.map"),
        ("AcrosstheCape", "gppc/AcrosstheCape.map"),
    ] {
        for n in [1_000, 10_000] {
            for label in ["parallel", "pool", "sequential"] {
                // Set up inside the closure: criterion calls it only for benchmarks that
                // match the command line's filter, and a 10,000-agent setup takes seconds.
                group.bench_function(BenchmarkId::new(format!("{name}/{label}"), n), |b| {
                    let s = scenario(map, n);
                    let mut crowd = warm(&s, label);
                    b.iter(|| crowd.step(s.dt).unwrap())
                });
            }
        }
    }
    group.finish();
}

criterion_group!(benches, crowd_step);
criterion_main!(benches);
