//! The A/B harness behind `docs/bench/ab.sh`: one process links two builds of the library, the
//! one at a base revision (as `portolan_old`) and the working tree's (as `portolan`), loads the
//! same mesh, index file and queries into each, and times them in alternating rounds (old then
//! new, new then old, ...), so that both sides meet the same machine state. On this project's
//! shared 2-core machines two runs of one binary differ by 10–40%; the ratio of two sides
//! timed this way moves by about 1%.
//!
//! Usage: `[AB_EVICT_KIB=K] ab MAP|MESH INDEX|- SCEN ROUNDS [exact|corner]` (see [`eviction`]);
//! `INDEX` may be `OLD,NEW`, two files
//! of the same mesh, where the two revisions' index formats differ; prints the mean µs per query of each
//! side, their ratio over all rounds and the median round's, and each side's sum of lengths
//! (equal sums: the same answers).
use std::sync::Arc;
use std::time::Instant;

/// A closure running every query once on one side; returns (sum of lengths, queries).
macro_rules! side {
    ($lib:ident, $src:expr, $index:expr, $scen:expr, $method:expr) => {{
        use $lib::io::movingai::read_map;
        use $lib::io::{polyanya_mesh, scenario};
        use $lib::search::corner_graph::CornerGraph;
        use $lib::{build, BuildOptions, NavMesh, PathFinder, SearchOptions, Vec2};
        let open = |p: &str| std::fs::File::open(p).unwrap_or_else(|e| panic!("{p}: {e}"));
        let mesh: NavMesh = if $src.ends_with(".map") {
            let map = read_map(open($src)).expect("a MovingAI map");
            build(&map.to_scene(), &BuildOptions::cdt()).expect("the map builds")
        } else {
            polyanya_mesh::read(open($src)).expect("a Polyanya mesh")
        };
        let queries: Vec<(Vec2, Vec2)> = scenario::read(open($scen))
            .expect("a scenario")
            .iter()
            .map(|q| (q.start, q.goal))
            .collect();
        let options = if $method == "exact" {
            SearchOptions::exact()
        } else {
            let bytes = std::fs::read($index).expect("the index file");
            let graph = CornerGraph::from_bytes(&bytes, &mesh).expect("an index of this mesh");
            SearchOptions::corner(Arc::new(graph))
        };
        let mut finder = PathFinder::new();
        // Every query once: (sum of lengths, queries, seconds). With `evict`, each query is
        // timed alone and `evict` runs, untimed, before it.
        move |evict: Option<&mut dyn FnMut()>| {
            let mut sum = 0.0;
            let t = Instant::now();
            let secs = match evict {
                None => {
                    for &(s, g) in &queries {
                        sum += finder
                            .find_path(&mesh, s, g, &options)
                            .map_or(0.0, |p| p.length);
                    }
                    t.elapsed().as_secs_f64()
                }
                Some(evict) => {
                    let mut secs = 0.0;
                    for &(s, g) in &queries {
                        evict();
                        let t = Instant::now();
                        sum += finder
                            .find_path(&mesh, s, g, &options)
                            .map_or(0.0, |p| p.length);
                        secs += t.elapsed().as_secs_f64();
                    }
                    secs
                }
            };
            (sum, queries.len(), secs)
        }
    }};
}

/// `AB_EVICT_KIB=K`: K KiB written between two queries (untimed), each query timed alone: what
/// a query costs with its data out of the caches, as when a game's frame runs other work
/// between two path queries (BENCHMARKS.md, "How much does a query lose when other work runs
/// between queries?"). Unset or 0: the queries run back to back, timed together.
fn eviction() -> Option<Vec<u64>> {
    let kib: usize = std::env::var("AB_EVICT_KIB").ok()?.parse().ok()?;
    (kib > 0).then(|| vec![0u64; kib * 128])
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [src, index, scen, rounds, rest @ ..] = &args[..] else {
        eprintln!("usage: ab MAP|MESH INDEX|- SCEN ROUNDS [exact|corner]");
        std::process::exit(2);
    };
    let rounds: usize = match rounds.parse() {
        Ok(r) if r > 0 => r,
        _ => {
            eprintln!("ROUNDS: a whole number of rounds, at least 1, not {rounds:?}");
            std::process::exit(2);
        }
    };
    let method = rest.first().map_or("corner", String::as_str);
    // One file for both sides, or the base's and the working tree's: an existing file is one
    // file, whatever its name holds (a comma too); otherwise the first comma splits two.
    let index = index.as_str();
    let (index_old, index_new) = if std::path::Path::new(index).exists() {
        (index, index)
    } else {
        index.split_once(',').unwrap_or((index, index))
    };
    let mut old = side!(
        portolan_old,
        src.as_str(),
        index_old,
        scen.as_str(),
        method
    );
    let mut new = side!(
        portolan,
        src.as_str(),
        index_new,
        scen.as_str(),
        method
    );
    // One untimed round each (caches, buffers), and the answers to compare.
    let (sum_old, _, _) = old(None);
    let (sum_new, _, _) = new(None);
    let (mut t_old, mut t_new, mut n) = (0.0, 0.0, 0usize);
    let mut ratios = Vec::with_capacity(rounds);
    let mut buffer = eviction();
    let evicting = buffer.is_some();
    let mut pass = 0u64;
    let mut evict = move || {
        if let Some(b) = buffer.as_mut() {
            pass += 1;
            for (i, x) in b.iter_mut().enumerate() {
                *x = x.wrapping_add(pass ^ i as u64);
            }
            std::hint::black_box(&b[..]);
        }
    };
    let mut time = |f: &mut dyn FnMut(Option<&mut dyn FnMut()>) -> (f64, usize, f64)| {
        let (_, k, secs) = f(evicting.then_some(&mut evict as &mut dyn FnMut()));
        (secs, k)
    };
    for r in 0..rounds {
        let ((o, k), (w, _)) = if r % 2 == 0 {
            let o = time(&mut old);
            (o, time(&mut new))
        } else {
            let w = time(&mut new);
            (time(&mut old), w)
        };
        t_old += o;
        t_new += w;
        n += k;
        ratios.push(o / w);
    }
    ratios.sort_by(f64::total_cmp);
    println!(
        "old {:.3} µs, new {:.3} µs per query; old/new {:.3} (median round {:.3}); sums of lengths {sum_old} / {sum_new}{}",
        t_old / n as f64 * 1e6,
        t_new / n as f64 * 1e6,
        t_old / t_new,
        ratios[ratios.len() / 2],
        if sum_old == sum_new { "" } else { " (differ)" }
    );
}
