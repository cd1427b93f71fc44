//! `portolan eval`: the chapter's evaluation on seeded random maps.

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use portolan::eval::{evaluate, write_csv_header, write_csv_rows, EvalOptions, Summary};
use portolan::random::RandomSceneOptions;
use portolan::{build, BuildOptions};
use std::path::PathBuf;

/// Arguments of `portolan eval`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Prints the chapter's table (Markdown) on stdout: for each crossing-point \
estimate, how often channel A* + funnel finds the globally shortest path (the exact answer comes \
from a visibility graph), the mean excess length, how many queries are more than 10% and 50% \
longer, and the mean number of polygons expanded. Everything but the timing table below it is \
reproducible: the same seed gives the same table and CSV, byte for byte.

Examples:
  portolan eval
  portolan eval --maps 50 --seed 7 --csv queries.csv --svg-dir worst/
  portolan eval --no-timing > table.md
  echo '{\"size\": [40, 150]}' > small.json && portolan eval --scene-options small.json"
)]
pub struct Args {
    /// Number of random maps.
    #[arg(long, default_value_t = EvalOptions::default().maps)]
    pub maps: usize,
    /// Seed of the map sequence.
    #[arg(long, default_value_t = EvalOptions::default().seed)]
    pub seed: u64,
    /// Start/goal pairs drawn per map (pairs in one polygon and unreachable pairs are skipped).
    #[arg(long, default_value_t = EvalOptions::default().queries_per_map)]
    pub queries_per_map: usize,
    /// Write one CSV row per drawn query to this file.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Draw each strategy's worst query (largest excess) as SVG into this directory.
    #[arg(long)]
    pub svg_dir: Option<PathBuf>,
    /// Random map parameters as JSON (`RandomSceneOptions`; fields left out keep their defaults),
    /// e.g. {"obstacles": [3, 5], "size": [40, 150]}.
    #[arg(long, value_name = "FILE")]
    pub scene_options: Option<PathBuf>,
    /// Leave out the timing table, so that stdout is reproducible byte for byte.
    #[arg(long)]
    pub no_timing: bool,
}

/// Runs `portolan eval`.
pub fn run(args: Args) -> Result<()> {
    let scene = match &args.scene_options {
        None => RandomSceneOptions::default(),
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            serde_json::from_str(&text).with_context(|| format!("{}", path.display()))?
        }
    };
    let options = EvalOptions {
        maps: args.maps,
        queries_per_map: args.queries_per_map,
        seed: args.seed,
        scene,
        ..EvalOptions::default()
    };
    let mut csv = match &args.csv {
        Some(path) => {
            // Written beside the target and renamed over it at the end (a failure leaves the
            // old file); opened before the evaluation, so a bad path fails first.
            let mut f = crate::output::AtomicFile::create(path)?;
            write_csv_header(f.writer(), &options.strategies)?;
            Some((path, f))
        }
        None => None,
    };
    let bar = ProgressBar::new(options.maps as u64).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} maps, {elapsed} (eta {eta})")
            .expect("a valid template literal"),
    );
    let mut write_error = None;
    let summary = evaluate(&options, |report| {
        if let Some((_, f)) = csv.as_mut() {
            if let Err(e) = write_csv_rows(f.writer(), report, &options.strategies) {
                write_error.get_or_insert(e);
            }
        }
        bar.inc(1);
    })?;
    bar.finish_and_clear();
    if let Some((path, f)) = csv {
        if let Some(e) = write_error {
            return Err(e).with_context(|| format!("cannot write {}", path.display()));
        }
        f.commit()?;
        eprintln!("wrote {}", path.display());
    }
    if let Some(dir) = &args.svg_dir {
        draw_worst_cases(&summary, dir)?;
    }
    print!("{}", summary.table());
    if !args.no_timing {
        println!("\nTiming (wall clock, varies from run to run):\n");
        print!("{}", summary.timing_table());
    }
    if summary.violations() > 0 {
        bail!(
            "{} violations: a strategy found no path or a path shorter than the optimum (a bug)",
            summary.violations()
        );
    }
    Ok(())
}

fn draw_worst_cases(summary: &Summary, dir: &std::path::Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for row in summary.rows() {
        let Some(w) = &row.worst else { continue };
        let mesh = build(&w.scene, &BuildOptions::trapezoid())
            .with_context(|| format!("cannot rebuild the mesh of map {}", w.map))?;
        let caption = format!(
            "{}: map {}, query {}: {:.1} vs optimum {:.1} (+{:.2}%)",
            row.strategy.label,
            w.map,
            w.query,
            w.path.length,
            w.optimum.length,
            100.0 * w.excess
        );
        let svg = portolan::io::svg::render_comparison(
            &w.scene,
            &mesh,
            (w.start, w.goal, &w.path),
            &w.optimum.points,
            &caption,
        );
        let file = dir.join(format!("worst-{}.svg", row.strategy.key));
        crate::output::write_atomically(&file, svg.as_bytes())?;
        eprintln!("wrote {}", file.display());
    }
    Ok(())
}
