//! `portolan render`: an SVG picture of a scene, its mesh and a query.

use crate::input::{parse_point, SceneOrMesh, SearchArg};
use anyhow::{bail, Context, Result};
use portolan::{PathFinder, Vec2};
use std::path::PathBuf;

/// Arguments of `portolan render`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Example:
  portolan render --from 40,60 --to 760,390 -o default.svg
  portolan render --decomposition trapezoid --from 40,60 --to 760,390 -o chapter.svg")]
#[command(mut_arg("scene", |a| a.help("Scene JSON file; the built-in default map when omitted")))]
#[command(mut_arg("mesh", |a| {
    a.help("Polyanya mesh file (.mesh, version 1, 2 or 3) to draw instead of building one")
}))]
pub struct Args {
    /// --scene, --mesh, --decomposition.
    #[command(flatten)]
    pub input: SceneOrMesh,
    /// Which search draws the query's path.
    #[arg(long, value_enum, default_value_t = SearchArg::Funnel)]
    pub search: SearchArg,
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
    let (scene, mesh) = args.input.load()?;
    let query = match (args.from, args.to) {
        (Some(s), Some(g)) => Some((
            s,
            g,
            PathFinder::new().find_path(&mesh, s, g, &args.search.options())?,
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
