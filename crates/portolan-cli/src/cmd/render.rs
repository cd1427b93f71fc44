//! `portolan render`: an SVG picture of a scene, its mesh and a query.

use crate::input::{parse_point, MeshArgs, SearchArgs};
use anyhow::{bail, Context, Result};
use portolan::{PathFinder, Vec2};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `portolan render`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Example:
  portolan render --from 40,60 --to 760,390 -o default.svg
  portolan render --decomposition trapezoid --from 40,60 --to 760,390 -o chapter.svg
  portolan render --map arena.map --radius 0.5 -o arena.svg
  portolan render --mesh arena.mesh --from 1,11 --to 40,40 --search exact -o arena.svg

The picture has y up, as scene files are written; a grid map (y grows south) is drawn upside
down.")]
pub struct Args {
    /// --scene | --map | --poly | --mesh (none: the built-in default map), --decomposition,
    /// --radius, --arc-error.
    #[command(flatten)]
    pub input: MeshArgs,
    /// --search, --portal: which search draws the query's path.
    #[command(flatten)]
    pub search: SearchArgs,
    /// Start point as X,Y (with --to: draw the query).
    #[arg(long, value_parser = parse_point, allow_hyphen_values = true, requires = "to")]
    pub from: Option<Vec2>,
    /// Goal point as X,Y.
    #[arg(long, value_parser = parse_point, allow_hyphen_values = true, requires = "from")]
    pub to: Option<Vec2>,
    /// Output SVG file.
    #[arg(short, long)]
    pub output: PathBuf,
}

/// Runs `portolan render`.
pub fn run(args: Args) -> Result<()> {
    // Opened first: an output path that cannot be written fails before any work.
    let mut out = crate::output::AtomicFile::create(&args.output)?;
    let (scene, mesh) = args.input.load()?;
    let opts = args.search.options_for(&mesh, false)?;
    let query = match (args.from, args.to) {
        (Some(s), Some(g)) => Some((s, g, PathFinder::new().find_path(&mesh, s, g, &opts)?)),
        (None, None) => None,
        _ => bail!("--from and --to go together"),
    };
    let svg = portolan::io::svg::render(&scene, &mesh, query.as_ref().map(|(s, g, p)| (*s, *g, p)));
    out.writer()
        .write_all(svg.as_bytes())
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    out.commit()?;
    eprintln!("wrote {}", args.output.display());
    Ok(())
}
