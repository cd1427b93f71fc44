//! The exact search (Polyanya) on public meshes, beside the funnel search on the same queries.
//!
//! `cargo bench -p portolan --bench exact`
//!
//! The exact search runs plain and with 16 landmarks (built once, outside the timing), and on
//! scene_mp_2p_01 with 8 off-mesh links.
//! Each iteration runs a fixed batch of published queries with one reused `PathFinder`; divide
//! by the batch size for the time per query. The side-by-side run against the `polyanya` crate
//! is `cargo run --release -p portolan-compare` (see BENCHMARKS.md).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use portolan::io::{polyanya_mesh, scenario};
use portolan::mesh::OffMeshLink;
use portolan::search::landmarks::Landmarks;
use portolan::{NavMesh, PathFinder, SearchMethod, SearchOptions, Vec2};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

fn load(mesh: &str, scen: &str, n: usize) -> (NavMesh, Vec<(Vec2, Vec2)>) {
    let dir = portolan::testkit::data_dir().join("polyanya");
    let m = polyanya_mesh::read(std::fs::File::open(dir.join(mesh)).expect("mesh file"))
        .expect("valid mesh");
    let q = scenario::read(std::fs::File::open(dir.join(scen)).expect("scen file"))
        .expect("valid scenario");
    (m, q.iter().take(n).map(|q| (q.start, q.goal)).collect())
}

fn bench(c: &mut Criterion) {
    let cases = [
        (
            "scene_mp_2p_01",
            load(
                "meshes/scene_mp_2p_01.mesh",
                "meshes/scene_mp_2p_01.mesh.scen",
                200,
            ),
        ),
        (
            "arena-merged",
            load("meshes/arena-merged.mesh", "scenarios/arena.scen", 160),
        ),
    ];
    let mut g = c.benchmark_group("exact");
    g.measurement_time(Duration::from_secs(8)).sample_size(20);
    for (name, (mesh, queries)) in &cases {
        g.throughput(Throughput::Elements(queries.len() as u64));
        let landmarks = Some(Arc::new(Landmarks::build(mesh, 16)));
        for (method, landmarks, label) in [
            (SearchMethod::Exact, None, "exact"),
            (SearchMethod::Exact, landmarks, "exact+16-landmarks"),
            (SearchMethod::Funnel, None, "funnel"),
        ] {
            let opts = SearchOptions::default()
                .with_method(method)
                .with_landmarks(landmarks);
            let mut finder = PathFinder::new();
            g.bench_function(format!("{name}/{label}"), |b| {
                b.iter(|| {
                    for &(s, t) in queries {
                        black_box(finder.find_path(mesh, s, t, &opts).ok());
                    }
                })
            });
        }
    }
    // What off-mesh links cost: the same 200 scene_mp_2p_01 queries on the mesh with 8 one-way
    // shortcuts (cost half their straight length) between the ends of the next 8 published queries.
    let (mesh, more) = load(
        "meshes/scene_mp_2p_01.mesh",
        "meshes/scene_mp_2p_01.mesh.scen",
        208,
    );
    let links = more[200..]
        .iter()
        .map(|&(a, b)| OffMeshLink::new(a, b, 0.5 * a.distance(b)));
    let linked = mesh
        .with_links(links)
        .expect("published query points are on the mesh");
    g.throughput(Throughput::Elements(200));
    for (method, label) in [
        (SearchMethod::Exact, "exact"),
        (SearchMethod::Funnel, "funnel"),
    ] {
        let opts = SearchOptions::default().with_method(method);
        let mut finder = PathFinder::new();
        g.bench_function(format!("scene_mp_2p_01+8-links/{label}"), |b| {
            b.iter(|| {
                for &(s, t) in &more[..200] {
                    black_box(finder.find_path(&linked, s, t, &opts).ok());
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
