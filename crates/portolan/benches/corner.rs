//! The fast search of issue 11 (the corner search, [`SearchMethod::Corner`]) beside the plain
//! exact search and the chapter's funnel search, on the same published queries.
//!
//! `cargo bench -p portolan --bench corner`
//!
//! Each map's corner graph is built once, outside the timing (its build time and size are in
//! BENCHMARKS.md, from `portolan scen --search corner`). Each iteration runs every `k`-th query of
//! the map's scenario file with one reused `PathFinder`; divide by the batch size for the time per
//! query. Quality (optimal share, excess) is not measured here but by
//! `portolan scen --compare-exact` (BENCHMARKS.md).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use portolan::io::movingai::read_map;
use portolan::io::{polyanya_mesh, scenario};
use portolan::search::corner_graph::CornerGraph;
use portolan::{build, BuildOptions, NavMesh, PathFinder, SearchOptions, Vec2};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

fn queries(scen: &str, step: usize) -> Vec<(Vec2, Vec2)> {
    let path = portolan::testkit::data_dir().join(scen);
    let q = scenario::read(std::fs::File::open(path).expect("scen file")).expect("valid scen");
    q.iter().step_by(step).map(|q| (q.start, q.goal)).collect()
}

fn grid(map: &str) -> NavMesh {
    let path = portolan::testkit::data_dir().join(map);
    let m = read_map(std::fs::File::open(path).expect("map file")).expect("valid map");
    build(&m.to_scene(), &BuildOptions::cdt()).expect("the map builds")
}

fn bench(c: &mut Criterion) {
    let dir = portolan::testkit::data_dir();
    let scene = polyanya_mesh::read(
        std::fs::File::open(dir.join("polyanya/meshes/scene_mp_2p_01.mesh")).expect("mesh file"),
    )
    .expect("valid mesh");
    let mut cases = vec![(
        "scene_mp_2p_01",
        scene,
        queries("polyanya/meshes/scene_mp_2p_01.mesh.scen", 10),
    )];
    for (name, map, step) in [
        ("brc202d", "movingai/dao/brc202d.map", 10),
        ("lak303d", "movingai/dao/lak303d.map", 5),
        ("den011d", "movingai/dao/den011d.map", 4),
        ("arena", "movingai/dao/arena.map", 1),
        ("AcrosstheCape", "gppc/AcrosstheCape.map", 1),
    ] {
        cases.push((name, grid(map), queries(&format!("{map}.scen"), step)));
    }
    let mut g = c.benchmark_group("corner");
    g.measurement_time(Duration::from_secs(4)).sample_size(10);
    for (name, mesh, queries) in &cases {
        g.throughput(Throughput::Elements(queries.len() as u64));
        let graph = Arc::new(CornerGraph::build(mesh));
        for (label, opts) in [
            ("funnel", SearchOptions::funnel()),
            ("exact", SearchOptions::exact()),
            ("corner", SearchOptions::corner(Arc::clone(&graph))),
        ] {
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
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
