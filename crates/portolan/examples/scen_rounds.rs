//! A scenario's queries run in rounds with one [`PathFinder`], the mean time per query printed:
//! the loop behind BENCHMARKS.md's "old and new binaries alternated" figures. Build it at each
//! revision (copy the binary aside), then alternate the two binaries on the same arguments.
//!
//! `MAP` is a MovingAI `.map` (built here with CDT + merge, as `portolan build --map` does) or a
//! Polyanya `.mesh`; `METHOD` is `exact`, `corner` (the corner graph built first, outside the
//! timing, by [`CornerGraph::build`] with its timed fit and time limits), `corner-untimed` (built
//! with neither, [`CornerGraph::build_with_views`]: the same graph on every machine, and under
//! valgrind) or `funnel`; `corner:E` is the corner search with [`SearchOptions::epsilon`] `E`; a `/bare` suffix
//! (`corner/bare`) finds the paths without their channels ([`SearchOptions::channel`]). The
//! printed sum of lengths tells two builds' answers apart.
//!
//! Two more methods time a floor, not a search: `locate` locates both endpoints (what every
//! query does first), `sight` does that and casts the ray between them (what every exact
//! query does before searching, to answer a goal in sight): no method that answers from the
//! endpoints' positions can beat `locate`, and none of Portolan's exact ones can beat `sight`.
//!
//! An optional fifth argument, `BETWEEN`, runs other work between two queries, untimed, and
//! times each query alone: `exact` runs the exact search on the same query (what `portolan scen
//! --compare-exact` does between two queries of the method it compares), `exact@N` the exact
//! search on the scenario's query `N` (0-based) every time (the same code as `exact`, with the
//! data of one query of a chosen size: BENCHMARKS.md, "Session 35"), a number `K` writes to
//! `K` KiB of memory of the example's own (what a game's frame does to the caches between two
//! path queries). The query's time then counts what it loses to caches and predictors left
//! cold by that work; the first round is not timed.
//!
//! ```text
//! cargo run --release -p portolan --example scen_rounds -- MAP SCEN METHOD ROUNDS [BETWEEN]
//! cargo run --release -p portolan --example scen_rounds -- \
//!     ../shared/data/movingai/dao/arena.map ../shared/data/movingai/dao/arena.map.scen exact 3000
//! ```

use portolan::io::movingai::read_map;
use portolan::io::{polyanya_mesh, scenario};
use portolan::search::corner_graph::CornerGraph;
use portolan::{build, BuildOptions, NavMesh, PathFinder, SearchOptions};
use std::sync::Arc;

fn main() {
    if let Err(e) = run() {
        eprintln!("scen_rounds: {e}");
        eprintln!(
            "usage: scen_rounds MAP|MESH SCEN exact|corner|corner-untimed|corner:E|funnel[/bare]|locate|sight ROUNDS \
             [exact|exact@N|KIB]"
        );
        std::process::exit(2);
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (src, scen, method, rounds, between) = match &args[..] {
        [a, b, c, d] => (a, b, c, d, None),
        [a, b, c, d, e] => (a, b, c, d, Some(e.as_str())),
        _ => return Err("four or five arguments expected".into()),
    };
    let between = match between {
        None => None,
        Some("exact") => Some(Between::Exact(None)),
        Some(k) if k.starts_with("exact@") => {
            let n: usize = k["exact@".len()..]
                .parse()
                .map_err(|e| format!("BETWEEN {k:?}: `exact@N`, N a query number, {e}"))?;
            Some(Between::Exact(Some(n)))
        }
        Some(k) => {
            let kib: usize = k
                .parse()
                .map_err(|e| format!("BETWEEN {k:?}: `exact`, `exact@N` or KiB, {e}"))?;
            // 128 words of 8 bytes a KiB.
            let words = kib
                .checked_mul(128)
                .ok_or_else(|| format!("BETWEEN {k:?}: too many KiB"))?;
            Some(Between::Write(words))
        }
    };
    let rounds: usize = rounds
        .parse()
        .map_err(|e| format!("ROUNDS {rounds:?}: {e}"))?;
    let open = |p: &str| std::fs::File::open(p).map_err(|e| format!("{p}: {e}"));
    let mesh: NavMesh = if src.ends_with(".map") {
        let map = read_map(open(src)?).map_err(|e| format!("{src}: {e}"))?;
        build(&map.to_scene(), &BuildOptions::cdt()).map_err(|e| format!("{src}: {e}"))?
    } else {
        polyanya_mesh::read(open(src)?).map_err(|e| format!("{src}: {e}"))?
    };
    let queries = scenario::read(open(scen)?).map_err(|e| format!("{scen}: {e}"))?;
    let floor = match method.as_str() {
        "locate" => Some(false),
        "sight" => Some(true),
        _ => None,
    };
    if floor.is_some() && between.is_some() {
        return Err(format!("{method} takes no BETWEEN"));
    }
    if let Some(cast) = floor {
        if queries.is_empty() || rounds == 0 {
            return Err("no queries to time".into());
        }
        let mut visited = Vec::new();
        let started = std::time::Instant::now();
        let mut seen = 0usize;
        for _ in 0..rounds {
            for q in &queries {
                if cast {
                    // The ray locates its start itself: with the goal's, the two locations.
                    seen += usize::from(mesh.locate(q.goal).polygon().is_some());
                    let ray = portolan::search::raycast::raycast_into(
                        &mesh,
                        q.start,
                        q.goal,
                        &mut visited,
                    );
                    seen += usize::from(matches!(ray, Ok(portolan::RayOutcome::Reached { .. })));
                } else {
                    let (a, b) = (mesh.locate(q.start), mesh.locate(q.goal));
                    seen += usize::from(a.polygon().is_some() && b.polygon().is_some());
                }
            }
        }
        let per_query = started.elapsed().as_secs_f64() * 1e6 / (rounds * queries.len()) as f64;
        println!("{method}: {per_query:.3} µs per query, {rounds} rounds (count {seen})");
        return Ok(());
    }
    // A `/bare` suffix finds the paths without their channels (`SearchOptions::channel`).
    let (name, bare) = match method.strip_suffix("/bare") {
        Some(m) => (m, true),
        None => (method.as_str(), false),
    };
    let options = match name {
        "exact" => SearchOptions::exact(),
        "funnel" => SearchOptions::funnel(),
        "corner" => SearchOptions::corner(Arc::new(CornerGraph::build(&mesh))),
        // Untimed (no fit, no time limits): the same graph on any machine, and under valgrind,
        // whose slowness would otherwise drop the labels at their time limit.
        "corner-untimed" => SearchOptions::corner(Arc::new(CornerGraph::build_with_views(&mesh))),
        other => match other.strip_prefix("corner:").map(str::parse::<f64>) {
            Some(Ok(e)) => {
                SearchOptions::corner(Arc::new(CornerGraph::build(&mesh))).with_epsilon(e)
            }
            _ => return Err(format!("unknown method {other:?}")),
        },
    }
    .with_channel(!bare);
    if queries.is_empty() || rounds == 0 {
        return Err("no queries to time".into());
    }
    if let Some(between) = between {
        return cold_rounds(&mesh, &queries, (method, &options), rounds, between);
    }
    let mut finder = PathFinder::new();
    let started = std::time::Instant::now();
    let mut sum = 0.0;
    for _ in 0..rounds {
        for q in &queries {
            if let Ok(p) = finder.find_path(&mesh, q.start, q.goal, &options) {
                sum += p.length;
            }
        }
    }
    let per_query = started.elapsed().as_secs_f64() * 1e6 / (rounds * queries.len()) as f64;
    println!("{method}: {per_query:.2} µs per query, {rounds} rounds (sum of lengths {sum:.6})");
    Ok(())
}

/// What runs between two timed queries (the fifth argument).
#[derive(Copy, Clone, Debug, PartialEq)]
enum Between {
    /// The exact search on the same query, or on query `N` of the scenario every time.
    Exact(Option<usize>),
    /// A write to every cache line of this many 8-byte words.
    Write(usize),
}

/// The rounds with `between` run before each query, each query timed alone (the first round
/// untimed).
fn cold_rounds(
    mesh: &NavMesh,
    queries: &[scenario::Scenario],
    (method, options): (&str, &SearchOptions),
    rounds: usize,
    between: Between,
) -> Result<(), String> {
    if rounds < 2 {
        return Err("BETWEEN needs at least two rounds (the first is not timed)".into());
    }
    let (mut finder, mut other) = (PathFinder::new(), PathFinder::new());
    let exact = SearchOptions::exact();
    let words = match between {
        Between::Write(words) => words,
        Between::Exact(_) => 0,
    };
    if let Between::Exact(Some(n)) = between {
        if n >= queries.len() {
            return Err(format!(
                "BETWEEN exact@{n}: the scenario has {} queries (0-based)",
                queries.len()
            ));
        }
    }
    let mut memory = vec![0u64; words];
    let (mut timed, mut sum, mut touched) = (0.0, 0.0, 0u64);
    for round in 0..rounds {
        for q in queries {
            match between {
                Between::Exact(fixed) => {
                    let e = fixed.map_or(q, |n| &queries[n]);
                    let _ = other.find_path(mesh, e.start, e.goal, &exact);
                }
                Between::Write(_) => {
                    // One write per 64-byte line.
                    for x in memory.iter_mut().step_by(8) {
                        *x = x.wrapping_add(1);
                        touched ^= *x;
                    }
                }
            }
            let started = std::time::Instant::now();
            let found = finder.find_path(mesh, q.start, q.goal, options);
            if round > 0 {
                timed += started.elapsed().as_secs_f64();
                sum += found.map_or(0.0, |p| p.length);
            }
        }
    }
    let per_query = timed * 1e6 / ((rounds - 1) * queries.len()) as f64;
    std::hint::black_box(touched);
    let after = match between {
        Between::Exact(None) => "Exact".to_string(),
        Between::Exact(Some(n)) => format!("Exact(query {n})"),
        Between::Write(words) => format!("Write({})", words / 128),
    };
    println!(
        "{method} after {after}: {per_query:.2} µs per query, {} timed rounds (sum of lengths \
         {sum:.6})",
        rounds - 1
    );
    Ok(())
}
