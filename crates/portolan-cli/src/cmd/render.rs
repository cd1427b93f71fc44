//! `portolan render`: an SVG picture of a scene, its mesh and a query.

use crate::input::{build_mesh, load_scene, parse_point};
use anyhow::{bail, Context, Result};
use portolan::{BuildOptions, PathFinder, SearchOptions, Vec2};
use std::path::PathBuf;

/// Arguments of `portolan render`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Example:
  portolan render --from 40,60 --to 760,390 -o default.svg")]
pub struct Args {
    /// Scene JSON file; the built-in default map when omitted.
    #[arg(long)]
    pub scene: Option<PathBuf>,
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
    let scene = load_scene(args.scene.as_deref())?;
    let mesh = build_mesh(&scene, &BuildOptions::default())?;
    let query = match (args.from, args.to) {
        (Some(s), Some(g)) => Some((
            s,
            g,
            PathFinder::new().find_path(&mesh, s, g, &SearchOptions::default())?,
        )),
        (None, None) => None,
        _ => bail!("--from and --to go together"),
    };
    let svg = portolan::io::svg::render(&scene, &mesh, query.as_ref().map(|(s, g, p)| (*s, *g, p)));
    std::fs::write(&args.output, svg)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    eprintln!("wrote {}", args.output.display());
    Ok(())
}
