//! Crowd step time: 1,000 and 10,000 agents with random start and goal pairs on a dao map
//! (lak303d, 194 × 194) and on AcrosstheCape (GPPC, 768 × 768), radius 0.25 cells, 2 cells/s.
//!
//! Run: `cargo bench -p portolan --bench crowd` (the maps are in `../shared/data`).
//! Every agent plans in the first step (the replan budget is set to the crowd's size), then 20
//! warm-up steps; the time is one `Crowd::step` after that, with the crowd moving on between
//! samples, so it is the steady state of walking crowds, not of planning. `pool` is the
//! default (rayon's pool, 2 threads on the reference machine), `parallel` the pool tuning
//! itself onto the calling thread when that measures faster, `sequential` one thread.
//!
//! `crowd_plan`: what planning costs a crowd, by [`CrowdOptions::search`]. 500 agents on
//! brc202d and on AcrosstheCape, on one thread; each sample gives every agent a new goal (the
//! goals of the scenario, handed round by one agent, back and forth) and runs one step with a
//! replan budget of 500, so the time is 500 plans and one step. `corner` builds the map's
//! corner graph once, before the timing.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use portolan::crowd::scenarios::Scenario;
use portolan::crowd::{Crowd, CrowdOptions};
use portolan::io::movingai::read_map;
use portolan::search::corner_graph::CornerGraph;
use portolan::search::SearchMethod;
use std::sync::Arc;
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

fn crowd_plan(c: &mut Criterion) {
    let mut group = c.benchmark_group("crowd_plan");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(4));
    let n = 500;
    for (name, map) in [
        ("brc202d", "movingai/dao/brc202d.map"),
        ("AcrosstheCape", "gppc/AcrosstheCape.map"),
    ] {
        for (label, search) in [
            ("funnel", SearchMethod::Funnel),
            ("exact", SearchMethod::Exact),
            ("corner", SearchMethod::Corner),
        ] {
            group.bench_function(BenchmarkId::new(format!("{name}/{label}"), n), |b| {
                let s = scenario(map, n);
                let options = CrowdOptions::default()
                    .with_parallel(false)
                    .with_max_replans_per_step(n)
                    .with_search(search);
                let mut crowd = s.crowd(options).unwrap();
                if search == SearchMethod::Corner {
                    let graph = Arc::new(CornerGraph::build(&s.mesh));
                    crowd.set_corner_graph(0, Some(graph)).unwrap();
                }
                crowd.step(s.dt).unwrap();
                let ids: Vec<_> = crowd.agents().iter().map(|a| a.id()).collect();
                let goals: Vec<_> = s.agents.iter().map(|a| a.goal).collect();
                let mut shift = 0;
                b.iter(|| {
                    shift = 1 - shift;
                    for (i, &id) in ids.iter().enumerate() {
                        crowd.set_goal(id, goals[(i + shift) % n]).unwrap();
                    }
                    assert_eq!(crowd.step(s.dt).unwrap().replans, n);
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, crowd_step, crowd_plan);
criterion_main!(benches);
