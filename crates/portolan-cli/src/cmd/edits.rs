//! `portolan edits`: random obstacle edits on a tiled dynamic mesh, each followed by `update()`,
//! timed, and checked every 10th edit against a build from scratch (exact path lengths).

use crate::input::InputArgs;
use anyhow::{bail, Context, Result};
use portolan::dynamic::{DynamicNavMesh, EditError, ObstacleId};
use portolan::random::Rng;
use portolan::{build, BuildOptions, Location, NavMesh, PathFinder, SearchOptions, Vec2};
use std::time::Instant;

/// Arguments of `portolan edits`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  portolan edits --map AcrosstheCape.map --tile-size 64 --edits 200 --seed 1 --json
  portolan edits --tile-size 100 --edits 50           # the default map

Each edit adds a small box or triangle (40%), moves one (25%), removes one (15%) or opens/closes
one as a door (20%); every edit is followed by update(). Every 10th edit, 100 random queries
(--queries) are solved exactly on the updated mesh and on a tiled build from scratch of the same
obstacles, and their lengths compared (1e-9 relative): `mismatches` counts those that differ.
`full_rebuild_ms` is the untiled build of the same scene, what an update saves.")]
pub struct Args {
    /// --scene | --map | --poly (the default map without one).
    #[command(flatten)]
    pub input: InputArgs,
    /// Agent radius (obstacles grow by it; corners rounded to within --arc-error).
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    pub radius: f64,
    /// With --radius: how far a rounded corner's chords may cut inside the circle, as a
    /// fraction of the radius, in [1e-6, 1] (as for `portolan build`).
    #[arg(
        long,
        value_name = "FRACTION",
        default_value_t = 0.01,
        allow_hyphen_values = true
    )]
    pub arc_error: f64,
    /// Side of the square tiles (scene units; cells for --map).
    #[arg(long, value_name = "SIZE")]
    pub tile_size: f64,
    /// How many random edits.
    #[arg(long, default_value_t = 100)]
    pub edits: usize,
    /// Seed of the random edits and queries.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Queries compared at every 10th edit.
    #[arg(long, default_value_t = 100)]
    pub queries: usize,
    /// Print one JSON object on stdout instead of a summary.
    #[arg(long)]
    pub json: bool,
}

/// Runs `portolan edits`.
pub fn run(args: Args) -> Result<()> {
    let scene = match args.input.input().load()? {
        crate::input::Loaded::Scene(scene) => scene,
        crate::input::Loaded::Mesh(_) => {
            bail!("edits needs obstacles to edit: give --scene, --map or --poly, not --mesh")
        }
    };
    let options = BuildOptions::cdt()
        .with_agent_radius(args.radius)
        .with_arc_error(args.arc_error);
    let started = Instant::now();
    let mut nav = DynamicNavMesh::new(scene.clone(), &options, args.tile_size)
        .context("cannot build the tiled navigation mesh")?;
    let initial_ms = ms(started);
    let bounds = scene.bounds;
    let size = bounds.size();
    // Obstacles of about a tenth of a tile to half a tile, on quarter units.
    let (lo, hi) = (
        (args.tile_size * 0.1).max(0.25),
        (args.tile_size * 0.5).max(0.5),
    );
    let q = |v: f64| (v * 4.0).round() / 4.0;
    let mut rng = Rng::new(args.seed);
    let mut ids: Vec<ObstacleId> = Vec::new();
    let mut update_ms = Vec::with_capacity(args.edits);
    let mut rebuild_ms = Vec::with_capacity(args.edits);
    let mut tiles_rebuilt = Vec::with_capacity(args.edits);
    let (mut refused, mut compared, mut mismatches) = (0usize, 0usize, 0usize);
    let mut full_ms = Vec::new();
    let mut scratch_ms = Vec::new();
    let mut finder = PathFinder::new();
    for k in 0..args.edits {
        let roll = rng.next_f64();
        let result = if roll < 0.4 || ids.is_empty() {
            let (w, h) = (q(rng.range_f64(lo, hi)), q(rng.range_f64(lo, hi)));
            let x = q(rng.range_f64(bounds.min.x, (bounds.max.x - w).max(bounds.min.x)));
            let y = q(rng.range_f64(bounds.min.y, (bounds.max.y - h).max(bounds.min.y)));
            let shape = if rng.next_f64() < 0.5 {
                vec![(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
            } else {
                vec![(x, y), (x + w, y), (q(x + w * 0.5), y + h)]
            };
            nav.add_obstacle(shape).map(|id| ids.push(id))
        } else {
            let at = rng.range_usize(0, ids.len() - 1);
            let id = ids[at];
            if roll < 0.65 {
                let by = Vec2::new(
                    q(rng.range_f64(-0.05, 0.05) * size.x),
                    q(rng.range_f64(-0.05, 0.05) * size.y),
                );
                nav.move_obstacle(id, by)
            } else if roll < 0.8 {
                ids.swap_remove(at);
                nav.remove_obstacle(id)
            } else {
                nav.set_obstacle_enabled(id, rng.next_f64() < 0.5)
            }
        };
        match result {
            Ok(()) => {}
            // A shape that would leave the map is refused, as the library promises.
            Err(EditError::OutsideWorld { .. }) => refused += 1,
            Err(e) => return Err(e).context(format!("edit {k}")),
        }
        let started = Instant::now();
        let report = nav
            .update()
            .with_context(|| format!("update after edit {k}"))?;
        update_ms.push(ms(started));
        rebuild_ms.push(report.rebuild_time.as_secs_f64() * 1e3);
        tiles_rebuilt.push(report.tiles.len() as f64);
        if (k + 1) % 10 == 0 {
            let started = Instant::now();
            let scratch = nav
                .build_from_scratch()
                .context("cannot build from scratch")?;
            scratch_ms.push(ms(started));
            let started = Instant::now();
            build(&nav.scene(), &options).context("cannot build the untiled mesh")?;
            full_ms.push(ms(started));
            let snap = nav.snapshot();
            let (c, m) = compare(&scratch, snap.mesh(), &mut rng, &mut finder, args.queries);
            compared += c;
            mismatches += m;
        }
    }
    if full_ms.is_empty() {
        let started = Instant::now();
        build(&nav.scene(), &options).context("cannot build the untiled mesh")?;
        full_ms.push(ms(started));
    }
    let mean = |xs: &[f64]| {
        if xs.is_empty() {
            0.0
        } else {
            xs.iter().sum::<f64>() / xs.len() as f64
        }
    };
    let p99 = {
        let mut xs = update_ms.clone();
        xs.sort_by(f64::total_cmp);
        xs.get(((xs.len() as f64 * 0.99).ceil() as usize).saturating_sub(1))
            .copied()
            .unwrap_or(0.0)
    };
    let snap = nav.snapshot();
    let out = serde_json::json!({
        "edits": args.edits,
        "refused_edits": refused,
        "tile_size": args.tile_size,
        "tiles": nav.grid().columns() * nav.grid().rows(),
        "polygons": snap.mesh().polygon_count(),
        "initial_build_ms": initial_ms,
        "mean_update_ms": mean(&update_ms),
        "p99_update_ms": p99,
        "mean_rebuild_ms": mean(&rebuild_ms),
        "full_rebuild_ms": mean(&full_ms),
        "tiled_from_scratch_ms": mean(&scratch_ms),
        "tiles_rebuilt_mean": mean(&tiles_rebuilt),
        "queries_compared": compared,
        "mismatches": mismatches,
    });
    if args.json {
        println!("{out}");
    } else {
        println!(
            "{} edits ({} refused): update {:.3} ms mean, {:.3} ms p99 ({:.3} ms of it rebuilding \
             {:.1} tiles); full rebuild {:.3} ms; {} queries compared, {} mismatches",
            args.edits,
            refused,
            mean(&update_ms),
            p99,
            mean(&rebuild_ms),
            mean(&tiles_rebuilt),
            mean(&full_ms),
            compared,
            mismatches
        );
    }
    if mismatches > 0 {
        bail!("{mismatches} of {compared} queries differ from the build from scratch");
    }
    Ok(())
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1e3
}

/// Exact lengths for `n` random pairs of points on `a`, on `a` and on `b`: (compared, differing).
fn compare(
    a: &NavMesh,
    b: &NavMesh,
    rng: &mut Rng,
    finder: &mut PathFinder,
    n: usize,
) -> (usize, usize) {
    let bounds = a.bounds();
    let point = |rng: &mut Rng| {
        (0..100)
            .map(|_| {
                Vec2::new(
                    rng.range_f64(bounds.min.x, bounds.max.x),
                    rng.range_f64(bounds.min.y, bounds.max.y),
                )
            })
            .find(|&p| a.locate(p) != Location::Outside)
    };
    let exact = SearchOptions::exact();
    let (mut compared, mut differing) = (0, 0);
    for _ in 0..n {
        let (Some(s), Some(g)) = (point(rng), point(rng)) else {
            continue;
        };
        let x = finder.find_path(a, s, g, &exact).map(|p| p.length);
        let y = finder.find_path(b, s, g, &exact).map(|p| p.length);
        compared += 1;
        let same = match (x, y) {
            (Ok(x), Ok(y)) => (x - y).abs() <= 1e-9 * x.max(1.0),
            (x, y) => x.is_ok() == y.is_ok(),
        };
        if !same {
            differing += 1;
        }
    }
    (compared, differing)
}
