//! `portolan-compare`: Portolan's exact search against the `polyanya` crate (vleue/polyanya, the
//! existing Rust implementation of Polyanya), on the same meshes and the same queries, in one
//! process.
//!
//! ```text
//! cargo run --release -p portolan-compare -- [DATA_DIR] [--reps N] [--landmarks K] [--index [--budget-mib MIB]] [--unbaked] [--only NAME[,NAME...]]
//! ```
//!
//! Rows (`--only` takes these names; the default is all of them, in this order):
//! - `arena-merged` (160 queries with published optima), `scene_mp_2p_01` (2,000 queries with
//!   published optima);
//! - `generated-40x40`: a large trapezoid mesh built by Portolan from a generated scene;
//! - `arena`, `den011d`, `lak303d`, `brc202d` (the Dragon Age maps) and `AcrosstheCape` (GPPC,
//!   published Euclidean optima): grid maps built as `portolan build --map` builds them, with
//!   their `.scen` queries;
//! - `random-20-512` and `maze-512`: 512 × 512 grid maps from [`portolan::random_grid`] (seed
//!   15), built the same way, with 200 seeded queries between centres of free cells in the same
//!   connected component.
//!
//! Every mesh is written as Polyanya v2 and read by both sides. The crate's mesh is baked
//! (`Mesh::bake`: its R-tree for point location and its islands, once per mesh, timed and
//! printed; `--unbaked` leaves it out, as runs before session 33 did, when the crate located
//! each endpoint by testing every polygon). Each side runs a query once
//! untimed, then `--reps` times (default 5) timed, before the next side runs it (in an order
//! that changes from query to query so that each side follows each other side equally often:
//! `balanced_order`); a query's time is the median of its timed runs: the cost
//! of answering it with its data in cache, the same for every side. Lengths must agree (the
//! `polyanya` crate computes in `f32`, so to a relative 1e-4). The last line is the geometric
//! mean, over the rows run, of the plain ratio (the crate's mean time / Portolan's).
//!
//! Portolan runs twice: plain Polyanya (no preprocessing, like the crate), and with
//! `--landmarks K` (default 16; 0 skips these runs) precomputed landmark distances
//! ([`portolan::search::landmarks`]), whose lengths must equal the plain run's exactly. The
//! landmarks' build time and memory are printed with them.
//!
//! With `--index`, a third Portolan run: the corner search (issue 15's preprocessed index) on the
//! mesh's [`CornerGraph`], built, saved with [`CornerGraph::to_bytes`] and loaded back with
//! [`CornerGraph::from_bytes`]; its lengths must equal the plain run's (1e-9). Its build time,
//! memory, file size and load time are printed, and a second geometric mean, of its ratio to
//! the crate. `--budget-mib` builds the index within that many MiB
//! ([`CornerGraphOptions::with_memory_budget`]) instead of its mesh's own budget: what each
//! budget buys against the crate (BENCHMARKS.md, "What does the index buy per megabyte?").
//!
//! A last table gives each row's *floor*: the time to locate both endpoints (timed as the sides
//! are, after them), which every method that answers from the endpoints' positions spends first,
//! and the highest ratio to the crate that a method costing only that could reach, beside the
//! mean time that 6× and 30× the crate (issue 15's goals) leave a query.

use anyhow::{bail, Context, Result};
use portolan::build::CancelToken;
use portolan::geom::{orient, Aabb, Vec2};
use portolan::io::movingai::{self, GridMap};
use portolan::io::polyanya_mesh;
use portolan::random::Rng;
use portolan::random_grid;
use portolan::search::corner_graph::{CornerGraph, CornerGraphOptions};
use portolan::search::landmarks::Landmarks;
use portolan::{build, BuildOptions, Location, NavMesh, PathFinder, Scene, SearchOptions};
use std::time::Instant;

/// A query: start, goal, and the published optimum where there is one.
type Query = (Vec2, Vec2, Option<f64>);

struct Case {
    name: String,
    /// The mesh as a Polyanya file, read by both sides.
    bytes: Vec<u8>,
    queries: Vec<Query>,
    /// The scene the mesh was built from, when known: disagreements are settled by the
    /// visibility-graph oracle on it.
    scene: Option<Scene>,
}

/// A scene of `n × n` cells of 100 units, most holding a random convex obstacle.
fn generated_scene(n: usize, rng: &mut Rng) -> Scene {
    let size = 100.0 * n as f64;
    let mut scene = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(size, size)));
    for cy in 0..n {
        for cx in 0..n {
            if rng.next_f64() < 0.25 {
                continue;
            }
            let (ox, oy) = (cx as f64 * 100.0 + 50.0, cy as f64 * 100.0 + 50.0);
            let k = 3 + (rng.next_f64() * 5.0) as usize;
            let mut angles: Vec<f64> = (0..k)
                .map(|_| rng.next_f64() * std::f64::consts::TAU)
                .collect();
            angles.sort_by(f64::total_cmp);
            let (rx, ry) = (15.0 + rng.next_f64() * 25.0, 15.0 + rng.next_f64() * 25.0);
            let mut ring: Vec<Vec2> = angles
                .iter()
                .map(|t| Vec2::new((ox + rx * t.cos()).round(), (oy + ry * t.sin()).round()))
                .collect();
            ring.dedup();
            while ring.len() > 1 && ring.first() == ring.last() {
                ring.pop();
            }
            let m = ring.len();
            if m >= 3
                && (0..m).all(|i| orient(ring[i], ring[(i + 1) % m], ring[(i + 2) % m]).is_ccw())
            {
                scene.obstacles.push(ring);
            }
        }
    }
    scene
}

/// The rows, in order: a name (what `--only` matches) and how to load the case.
const ROWS: [&str; 10] = [
    "arena-merged",
    "scene_mp_2p_01",
    "generated-40x40",
    "arena",
    "den011d",
    "lak303d",
    "brc202d",
    "AcrosstheCape",
    "random-20-512",
    "maze-512",
];

/// The mesh built from a grid map the way `portolan build --map` builds it (traced outlines,
/// the default merged CDT, point agent), as Polyanya v2 bytes.
fn grid_mesh(name: &str, map: &GridMap) -> Result<(NavMesh, Vec<u8>)> {
    let mesh = build(&map.to_scene(), &BuildOptions::default())
        .with_context(|| format!("building {name}"))?;
    let mut bytes = Vec::new();
    polyanya_mesh::write_v2(&mesh, &mut bytes)?;
    Ok((mesh, bytes))
}

/// `count` seeded queries on a grid map: start and goal at the centres of two free cells
/// whose polygons are in the same connected component of `mesh` (so every query has a path).
fn grid_queries(map: &GridMap, mesh: &NavMesh, count: usize, seed: u64) -> Result<Vec<Query>> {
    let component = mesh.connected_components();
    let mut rng = Rng::new(seed);
    // Random free cells, paired when they are connected, in a bounded number of draws: a map
    // with little or no connected free space is an error, not a loop without end. (The draws
    // are the same as an unbounded loop's, so the queries of the rows did not change.)
    let draws = 1000 * count.max(1);
    let mut left = draws;
    let mut cell = |rng: &mut Rng| {
        while left > 0 {
            left -= 1;
            let x = rng.range_usize(0, map.width() - 1);
            let y = rng.range_usize(0, map.height() - 1);
            if !map.is_blocked(x as i64, y as i64) {
                let p = Vec2::new(x as f64 + 0.5, y as f64 + 0.5);
                if let Location::InPolygon(poly) = mesh.locate(p) {
                    return Some((p, component[poly.index()]));
                }
            }
        }
        None
    };
    let mut queries = Vec::with_capacity(count);
    while queries.len() < count {
        let (Some((s, cs)), Some((g, cg))) = (cell(&mut rng), cell(&mut rng)) else {
            break;
        };
        if cs == cg && s != g {
            queries.push((s, g, None));
        }
    }
    if queries.len() < count {
        bail!(
            "only {} of {count} connected query pairs in {draws} draws of random free cells",
            queries.len()
        );
    }
    Ok(queries)
}

/// Loads row `name` (one of [`ROWS`]).
fn load_case(data: &std::path::Path, name: &str) -> Result<Case> {
    let read = |rel: &str| {
        std::fs::read(data.join(rel))
            .with_context(|| format!("cannot read {}", data.join(rel).display()))
    };
    let scen = |rel: &str, published: bool| -> Result<Vec<Query>> {
        Ok(portolan::io::scenario::read(&read(rel)?[..])
            .with_context(|| rel.to_owned())?
            .iter()
            .map(|q| (q.start, q.goal, q.expected.filter(|_| published)))
            .collect())
    };
    let grid = |rel: &str| -> Result<GridMap> {
        movingai::read_map(&read(rel)?[..]).with_context(|| rel.to_owned())
    };
    Ok(match name {
        "arena-merged" => {
            let csv = String::from_utf8(read("polyanya/expected/arena-euclidean.csv")?)?;
            let arena: Vec<Query> = csv
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.starts_with('#') && !l.starts_with("sx") && !l.trim().is_empty())
                .map(|(i, l)| {
                    let v = l
                        .split(',')
                        .map(|x| x.trim().parse::<f64>())
                        .collect::<Result<Vec<f64>, _>>()
                        .ok()
                        .filter(|v| v.len() >= 5)
                        .with_context(|| {
                            format!(
                                "arena-euclidean.csv line {}: expected sx,sy,gx,gy,length numbers, got {l:?}",
                                i + 1
                            )
                        })?;
                    Ok((Vec2::new(v[0], v[1]), Vec2::new(v[2], v[3]), Some(v[4])))
                })
                .collect::<Result<_>>()?;
            Case {
                name: name.into(),
                bytes: read("polyanya/meshes/arena-merged.mesh")?,
                queries: arena,
                scene: None,
            }
        }
        "scene_mp_2p_01" => Case {
            name: name.into(),
            bytes: read("polyanya/meshes/scene_mp_2p_01.mesh")?,
            queries: scen("polyanya/meshes/scene_mp_2p_01.mesh.scen", true)?,
            scene: None,
        },
        "generated-40x40" => {
            let mut rng = Rng::new(2017); // SplitMix64: the same scene every run
            let scene = generated_scene(40, &mut rng);
            let mesh = build(&scene, &BuildOptions::trapezoid())
                .context("building the generated scene")?;
            let mut bytes = Vec::new();
            polyanya_mesh::write_v2(&mesh, &mut bytes)?;
            let size = scene.bounds.size();
            let mut queries = Vec::new();
            while queries.len() < 2000 {
                let p = |rng: &mut Rng| Vec2::new(rng.next_f64() * size.x, rng.next_f64() * size.y);
                let (s, g) = (p(&mut rng), p(&mut rng));
                if matches!(mesh.locate(s), Location::InPolygon(_))
                    && matches!(mesh.locate(g), Location::InPolygon(_))
                {
                    queries.push((s, g, None));
                }
            }
            Case {
                name: format!("generated-40x40 ({} obstacles)", scene.obstacles.len()),
                bytes,
                queries,
                scene: Some(scene),
            }
        }
        "arena" | "den011d" | "lak303d" | "brc202d" => {
            let rel = format!("movingai/dao/{name}.map");
            let (_, bytes) = grid_mesh(name, &grid(&rel)?)?;
            Case {
                name: format!("{name} (--map)"),
                bytes,
                // Column 9 is the octile optimum, not the Euclidean one: not compared.
                queries: scen(&format!("{rel}.scen"), false)?,
                scene: None,
            }
        }
        "AcrosstheCape" => {
            let rel = "gppc/AcrosstheCape.map";
            let (_, bytes) = grid_mesh(name, &grid(rel)?)?;
            Case {
                name: format!("{name} (--map)"),
                bytes,
                // The GPPC kit's column 9 is the Euclidean optimum.
                queries: scen(&format!("{rel}.scen"), true)?,
                scene: None,
            }
        }
        "random-20-512" => {
            let map = random_grid::random_blocked_grid(512, 512, 0.2, 15)?;
            let (mesh, bytes) = grid_mesh(name, &map)?;
            Case {
                name: "random 512×512, 20% blocked, seed 15 (--map)".into(),
                bytes,
                queries: grid_queries(&map, &mesh, 200, 1015)?,
                scene: None,
            }
        }
        "maze-512" => {
            let map = random_grid::maze_grid(512, 512, &random_grid::MazeOptions::new(3, 1), 15)?;
            let (mesh, bytes) = grid_mesh(name, &map)?;
            Case {
                name: "maze 512×512, corridors 3, walls 1, seed 15 (--map)".into(),
                bytes,
                queries: grid_queries(&map, &mesh, 200, 1015)?,
                scene: None,
            }
        }
        other => bail!("no row {other:?}; rows: {}", ROWS.join(", ")),
    })
}

use portolan::testkit::{median, stats};

/// The order in which query `i` runs `n` sides: row `i mod n` of a Williams square (`0, 1,
/// n-1, 2, n-2, ...` shifted by the row), and for odd `n` every other round of rows reversed. Over
/// every `n` queries (`2n` for odd `n`) each side runs first equally often and comes right after
/// each other side equally often, so no side always takes the slot after the same other side.
fn balanced_order(n: usize, i: usize) -> Vec<usize> {
    let row = i % n;
    let mut order: Vec<usize> = (0..n)
        .map(|j| {
            // 0, 1, n-1, 2, n-2, ...
            let w = if j % 2 == 1 { j.div_ceil(2) } else { n - j / 2 };
            (row + w) % n
        })
        .collect();
    if n % 2 == 1 && (i / n) % 2 == 1 {
        order.reverse();
    }
    order
}

fn main() -> Result<()> {
    let mut data = portolan::testkit::data_dir();
    let mut reps = 5usize;
    let mut landmark_count = 16usize;
    let mut with_index = false;
    let mut unbaked = false;
    let mut graph_options = CornerGraphOptions::default();
    let mut budget_given = false;
    let mut only: Vec<String> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--reps" {
            reps = args
                .next()
                .and_then(|r| r.parse().ok())
                .context("--reps N")?;
        } else if a == "--landmarks" {
            landmark_count = args
                .next()
                .and_then(|r| r.parse().ok())
                .context("--landmarks K")?;
        } else if a == "--unbaked" {
            unbaked = true;
        } else if a == "--index" {
            with_index = true;
        } else if a == "--budget-mib" {
            let mib: f64 = args
                .next()
                .and_then(|r| r.parse().ok())
                .context("--budget-mib MIB")?;
            graph_options = graph_options.with_memory_budget_mib(mib).with_context(|| {
                format!("--budget-mib {mib}: a finite number of MiB, 0 or more")
            })?;
            budget_given = true;
        } else if a == "--only" {
            let names = args.next().context("--only NAME[,NAME...]")?;
            only.extend(names.split(',').map(str::to_owned));
        } else if a == "--help" || a == "-h" {
            println!(
                "portolan-compare [DATA_DIR] [--reps N] [--landmarks K] [--index [--budget-mib MIB]] [--unbaked] [--only NAME[,NAME...]]\n\
                 rows: {}\n--landmarks 0 skips the landmark runs; --index adds the corner search on a\n\
                 saved corner graph index (CornerGraph::to_bytes, loaded back), built within\n\
                 --budget-mib MiB (default: the mesh's own budget). --unbaked leaves the crate's\n\
                 mesh without its point-location index (Mesh::bake), as runs before session 33 did.",
                ROWS.join(", ")
            );
            return Ok(());
        } else {
            data = a.into();
        }
    }
    if reps == 0 {
        bail!("--reps must be at least 1");
    }
    if budget_given && !with_index {
        bail!("--budget-mib applies to the index: add --index");
    }
    for name in &only {
        if !ROWS.contains(&name.as_str()) {
            bail!("--only {name:?}: no such row; rows: {}", ROWS.join(", "));
        }
    }
    let with_lm = landmark_count > 0;
    let index_cols = if with_index {
        " portolan + index µs mean / median / p99 | with index: ratio mean / median | index: build, memory, file, load |"
    } else {
        ""
    };
    println!(
        "| mesh | polygons | queries | portolan µs mean / median / p99 | portolan + {landmark_count} landmarks µs mean / median / p99 | polyanya µs mean / median / p99 | ratio mean / median | with landmarks: ratio mean / median | landmarks: build, memory |{index_cols} lengths |"
    );
    println!(
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |{} --- |",
        if with_index { " --- | --- | --- |" } else { "" }
    );
    let mut log_ratios = Vec::new();
    let mut index_log_ratios = Vec::new();
    // Per row: name, the crate's mean, the floor's and the timer's (the table of floors).
    let mut floors: Vec<(String, f64, f64, f64)> = Vec::new();
    for row in ROWS
        .iter()
        .filter(|r| only.is_empty() || only.iter().any(|o| o == *r))
    {
        let case = load_case(&data, row)?;
        let ours: NavMesh =
            polyanya_mesh::read(&case.bytes[..]).with_context(|| case.name.clone())?;
        let mut theirs: polyanya::Mesh = polyanya::PolyanyaFile::from_bytes(&case.bytes)
            .try_into()
            .map_err(|e| anyhow::anyhow!("polyanya cannot load {}: {e:?}", case.name))?;
        // The crate's own point-location index (an R-tree of the polygons' boxes) and islands,
        // what its docs offer as the mesh's optimisation, built once per mesh: without it the
        // crate locates each endpoint by testing every polygon in turn. Portolan's mesh builds
        // its grid likewise. It moved no row beyond the noise (BENCHMARKS.md, "Session 33").
        let bake_ms = (!unbaked).then(|| {
            let t = Instant::now();
            theirs.bake();
            t.elapsed().as_secs_f64() * 1e3
        });
        let opts = SearchOptions::exact();
        let t = Instant::now();
        let landmarks =
            with_lm.then(|| std::sync::Arc::new(Landmarks::build(&ours, landmark_count)));
        let landmark_ms = t.elapsed().as_secs_f64() * 1e3;
        let landmark_kib = landmarks
            .as_ref()
            .map_or(0.0, |l| l.memory_bytes() as f64 / 1024.0);
        let opts_lm = opts.clone().with_landmarks(landmarks);
        // The index: the corner graph built, saved as bytes and loaded back, as a program
        // shipping it next to its mesh would.
        let (opts_index, index_build) = if with_index {
            let t = Instant::now();
            let graph = CornerGraph::build_with(&ours, &graph_options, &CancelToken::new())?;
            let build_ms = t.elapsed().as_secs_f64() * 1e3;
            let bytes = graph.to_bytes();
            let t = Instant::now();
            let loaded = CornerGraph::from_bytes(&bytes, &ours)
                .map_err(|e| anyhow::anyhow!("{}: the saved index: {e}", case.name))?;
            let load_ms = t.elapsed().as_secs_f64() * 1e3;
            let how = format!(
                "{build_ms:.0} ms, {:.1} MB, {:.1} MB, {load_ms:.0} ms{}",
                loaded.memory_bytes() as f64 / 1e6,
                bytes.len() as f64 / 1e6,
                match (
                    loaded.answers_from_views(),
                    loaded.answers_from_edges(),
                    loaded.landmarks().is_some(),
                ) {
                    (true, _, _) => "",
                    (false, true, true) => " (no views; edges swept, landmarks)",
                    (false, true, false) => " (no views; edges swept, no landmarks)",
                    (false, false, true) => " (no views; the plain search, landmarks)",
                    (false, false, false) => " (no views, no landmarks: the plain search)",
                }
            );
            (
                Some(SearchOptions::corner(std::sync::Arc::new(loaded))),
                how,
            )
        } else {
            (None, String::new())
        };
        let mut finder = PathFinder::new();
        let to_glam = |p: Vec2| glam::Vec2::new(p.x as f32, p.y as f32);
        let (mut t_ours, mut t_lm, mut t_theirs) = (Vec::new(), Vec::new(), Vec::new());
        let mut t_index = Vec::new();
        let mut t_floor = Vec::new();
        let mut t_timer = Vec::new();
        let mut index_differs = 0usize;
        let (mut disagree, mut worst, mut vs_expected) = (0usize, 0.0f64, 0usize);
        let mut lm_differs = 0usize;
        let oracle = case
            .scene
            .as_ref()
            .map(portolan::search::visibility::VisibilityGraph::new)
            .transpose()?;
        let settle = |s: Vec2, g: Vec2| {
            oracle
                .as_ref()
                .and_then(|o| o.shortest_path(s, g).ok())
                .map_or(String::new(), |p| {
                    format!(", visibility-graph oracle {}", p.length)
                })
        };
        // Which runs are timed: 0 Portolan plain, 1 the crate, 2 Portolan with landmarks, 3 the
        // corner search on the index (the sides not asked for are skipped).
        let sides: Vec<usize> = [0, 1]
            .into_iter()
            .chain(with_lm.then_some(2))
            .chain(with_index.then_some(3))
            .collect();
        for (i, &(s, g, want)) in case.queries.iter().enumerate() {
            // Warm-up, and the answers to compare.
            let a = finder.find_path(&ours, s, g, &opts).ok().map(|p| p.length);
            let b = theirs
                .path(to_glam(s), to_glam(g))
                .map(|p| f64::from(p.length));
            match (a, b) {
                (Some(x), Some(y)) => {
                    let rel = (x - y).abs() / y.max(1.0);
                    worst = worst.max(rel);
                    if rel > 1e-4 {
                        disagree += 1;
                        if disagree <= 5 {
                            eprintln!(
                                "{} #{i}: {s} -> {g}: portolan {x}, polyanya {y}{}",
                                case.name,
                                settle(s, g)
                            );
                        }
                    }
                }
                (None, None) => {}
                _ => {
                    disagree += 1;
                    if disagree <= 5 {
                        eprintln!(
                            "{} #{i}: {s} -> {g}: portolan {a:?}, polyanya {b:?}",
                            case.name
                        );
                    }
                }
            }
            // Another way's length against the plain search's, within `tol` (equal-length paths
            // may differ in their last bits when a tie breaks the other way); the first five
            // differences of each way are printed.
            let mut compare = |o: &SearchOptions, tol: f64, differs: &mut usize, what: &str| {
                let c = finder.find_path(&ours, s, g, o).ok().map(|p| p.length);
                let same = match (a, c) {
                    (Some(x), Some(y)) => (x - y).abs() <= tol * x.max(1.0),
                    (x, y) => x == y,
                };
                if !same {
                    *differs += 1;
                    if *differs <= 5 {
                        eprintln!(
                            "{} #{i}: {s} -> {g}: portolan {a:?}, {what} {c:?}",
                            case.name
                        );
                    }
                }
            };
            if with_lm {
                compare(&opts_lm, 1e-12, &mut lm_differs, "with landmarks");
            }
            if let Some(o) = &opts_index {
                compare(o, 1e-9, &mut index_differs, "with the index");
            }
            if let (Some(w), Some(x)) = (want, a) {
                if (x - w).abs() > 1e-5 * w.max(1.0) {
                    vs_expected += 1;
                }
            }
            // Each side runs the query once untimed, then `reps` times timed, one side after the
            // other: every timing finds the caches as that side's own runs of this query left
            // them. (Interleaved sides timed the slot after the crate's run slow whatever ran in
            // it: BENCHMARKS.md, session 12.) The order is a row of a Williams square
            // (`balanced_order`), so that each side comes right after each other side equally
            // often (with rotations alone, of three sides the index came after the crate in two
            // queries of three, the plain search in none, and measured 8% slower than the plain
            // search it was running).
            let order = balanced_order(sides.len(), i);
            let mut run = |which: usize| match (which, &opts_index) {
                (0, _) => {
                    std::hint::black_box(finder.find_path(&ours, s, g, &opts).ok());
                }
                (1, _) => {
                    std::hint::black_box(theirs.path(to_glam(s), to_glam(g)));
                }
                (3, Some(o)) => {
                    std::hint::black_box(finder.find_path(&ours, s, g, o).ok());
                }
                _ => {
                    std::hint::black_box(finder.find_path(&ours, s, g, &opts_lm).ok());
                }
            };
            let mut times = [0.0; 4];
            for k in order {
                let which = sides[k];
                times[which] = median_time(reps, || run(which));
            }
            t_ours.push(times[0]);
            t_theirs.push(times[1]);
            if with_lm {
                t_lm.push(times[2]);
            }
            if with_index {
                t_index.push(times[3]);
            }
            // The floor: locating both endpoints, which every query of every side does first
            // (timed the same way, after the sides, so that their order is unchanged); and the
            // timer alone, which every timed run includes.
            t_floor.push(median_time(reps, || {
                std::hint::black_box((ours.locate(s), ours.locate(g)));
            }));
            t_timer.push(median_time(reps, || {}));
        }
        let (om, omed, o99) = stats(&mut t_ours);
        let (tm, tmed, t99) = stats(&mut t_theirs);
        let (lm_cells, lm_ratio, lm_build) = if with_lm {
            let (lm, lmed, l99) = stats(&mut t_lm);
            (
                format!("{lm:.1} / {lmed:.1} / {l99:.1}"),
                format!("{:.2}× / {:.2}×", tm / lm, tmed / lmed),
                format!("{landmark_ms:.1} ms, {landmark_kib:.0} KiB"),
            )
        } else {
            ("-".into(), "-".into(), "-".into())
        };
        log_ratios.push((tm / om).ln());
        floors.push((
            case.name.clone(),
            tm,
            stats(&mut t_floor).0,
            stats(&mut t_timer).0,
        ));
        let index_cells = if with_index {
            let (im, imed, i99) = stats(&mut t_index);
            index_log_ratios.push((tm / im).ln());
            format!(
                " {im:.1} / {imed:.1} / {i99:.1} | {:.2}× / {:.2}× | {index_build} |",
                tm / im,
                tmed / imed
            )
        } else {
            String::new()
        };
        let index_check = if with_index {
            format!("; {index_differs} differ with the index (relative 1e-9)")
        } else {
            String::new()
        };
        let baked = bake_ms.map_or_else(
            || " (not baked)".to_owned(),
            |ms| format!(" (baked in {ms:.0} ms)"),
        );
        println!(
            "| {} | {} | {} | {om:.1} / {omed:.1} / {o99:.1} | {lm_cells} | {tm:.1} / {tmed:.1} / {t99:.1}{baked} | {:.2}× / {:.2}× | {lm_ratio} | {lm_build} |{index_cells} {} disagree (max rel. diff {worst:.1e}); {} off the published optimum; {lm_differs} differ with landmarks (relative 1e-12){index_check} |",
            case.name,
            ours.polygon_count(),
            case.queries.len(),
            tm / om,
            tmed / omed,
            disagree,
            vs_expected,
        );
    }
    let geomean = |logs: &[f64]| (logs.iter().sum::<f64>() / logs.len() as f64).exp();
    if !log_ratios.is_empty() {
        println!(
            "\ngeometric mean of the plain ratio (crate mean / Portolan mean) over {} rows: {:.2}×",
            log_ratios.len(),
            geomean(&log_ratios)
        );
    }
    if !index_log_ratios.is_empty() {
        println!(
            "geometric mean of the index ratio (crate mean / Portolan-with-index mean) over {} rows: {:.2}×",
            index_log_ratios.len(),
            geomean(&index_log_ratios)
        );
    }
    print_floors(&floors);
    Ok(())
}

/// `f` run once untimed, then `reps` times timed: the median time in µs. How every column of
/// the tool times a query.
fn median_time(reps: usize, mut f: impl FnMut()) -> f64 {
    f();
    let mut runs: Vec<f64> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    median(&mut runs)
}

/// The table of floors: per row, the time to locate both endpoints (every method that answers
/// from the endpoints' positions does that first, Portolan's searches and the crate's alike),
/// the highest ratio to the crate that a method costing only that could reach, and the mean
/// time per query that issue 15's two goals leave (the crate's mean over 6 and over 30).
fn print_floors(floors: &[(String, f64, f64, f64)]) {
    if floors.is_empty() {
        return;
    }
    println!(
        "\nFloors (µs a query, means; each timed as the sides are, the timer's own cost included):\n\n\
         | mesh | crate | locating both endpoints | ceiling: crate / locating | left by 6× the crate | left by 30× the crate | the timer alone |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
    );
    for (name, crate_mean, floor, timer) in floors {
        let mark = |goal: f64| {
            if crate_mean / goal < *floor {
                " (below the floor)"
            } else {
                ""
            }
        };
        println!(
            "| {name} | {crate_mean:.2} | {floor:.3} | {:.1}× | {:.3}{} | {:.3}{} | {timer:.3} |",
            crate_mean / floor,
            crate_mean / 6.0,
            mark(6.0),
            crate_mean / 30.0,
            mark(30.0),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::balanced_order;

    /// Every order is a permutation, and over a period each side comes first equally often and
    /// right after each other side equally often (plain rotations, the old loop, fail this for
    /// three sides: side 0 never comes right after side 1).
    #[test]
    fn each_side_follows_each_other_equally_often() {
        for n in 1..=6usize {
            let period = if n % 2 == 1 { 2 * n } else { n };
            let mut first = vec![0usize; n];
            let mut after = vec![vec![0usize; n]; n];
            for i in 0..period {
                let order = balanced_order(n, i);
                let mut sorted = order.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, (0..n).collect::<Vec<_>>(), "n {n}, query {i}");
                first[order[0]] += 1;
                for w in order.windows(2) {
                    after[w[0]][w[1]] += 1;
                }
            }
            assert!(first.iter().all(|&f| f == first[0]), "n {n}: {first:?}");
            let pairs: Vec<usize> = (0..n)
                .flat_map(|a| (0..n).filter(move |&b| b != a).map(move |b| (a, b)))
                .map(|(a, b)| after[a][b])
                .collect();
            assert!(
                pairs.iter().all(|&c| c == pairs[0] && c > 0) || n == 1,
                "n {n}: {after:?}"
            );
        }
    }
}
