//! `portolan build`: a navigation mesh from a scene, a grid map or a `.poly` file, written as JSON
//! (`{"vertices": [[x, y], ...], "polygons": [[i, j, k, ...], ...]}`) or as a Polyanya v2 `.mesh`.

use crate::input::{build_mesh, Input, Loaded};
use anyhow::{Context, Result};
use portolan::{BuildOptions, Decomposition};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `portolan build`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  portolan build --scene scene.json -o mesh.json
  portolan build --map arena.map --radius 0.5 -o arena.mesh
  portolan build --poly level.poly --decomposition trapezoid -o level.json

Grid maps follow the GPPC rules: cell (x, y) is the square (x, y)-(x+1, y+1), y grows south,
outside the map is blocked, and double corners are not cut through.")]
#[command(group = clap::ArgGroup::new("input").required(true).args(["scene", "map", "poly"]))]
pub struct Args {
    /// Scene JSON file (see README: bounds, boundary, obstacles, holes).
    #[arg(long)]
    pub scene: Option<PathBuf>,
    /// MovingAI grid map (.map); blocked cells become traced obstacle outlines.
    #[arg(long)]
    pub map: Option<PathBuf>,
    /// Polyanya obstacle file (.poly); walkable = symmetric difference of its polygons.
    #[arg(long)]
    pub poly: Option<PathBuf>,
    /// Agent radius: obstacles grow and the border shrinks by it (corners rounded to within 1%).
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    pub radius: f64,
    /// How free space is cut into convex polygons.
    #[arg(long, value_enum, default_value_t = DecompositionArg::Cdt)]
    pub decomposition: DecompositionArg,
    /// Output file: `.mesh` writes Polyanya mesh format 2, anything else JSON.
    #[arg(short, long)]
    pub output: PathBuf,
}

/// `--decomposition` values.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecompositionArg {
    /// Constrained Delaunay triangulation merged into convex polygons (any obstacles).
    Cdt,
    /// The chapter's trapezoids (convex, disjoint obstacles in a rectangle only).
    Trapezoid,
}

impl From<DecompositionArg> for Decomposition {
    fn from(d: DecompositionArg) -> Decomposition {
        match d {
            DecompositionArg::Cdt => Decomposition::CdtMerged,
            DecompositionArg::Trapezoid => Decomposition::Trapezoid,
        }
    }
}

/// Runs `portolan build`.
pub fn run(args: Args) -> Result<()> {
    let input = Input::from_flags(
        args.scene.as_deref(),
        args.map.as_deref(),
        args.poly.as_deref(),
        None,
    );
    let Loaded::Scene(scene) = input.load()? else {
        unreachable!("`build` has no --mesh flag, so its input is a scene");
    };
    let options = BuildOptions::default()
        .with_decomposition(args.decomposition.into())
        .with_agent_radius(args.radius);
    let started = std::time::Instant::now();
    let mesh = build_mesh(&scene, &options)?;
    let elapsed = started.elapsed();
    let file = std::fs::File::create(&args.output)
        .with_context(|| format!("cannot create {}", args.output.display()))?;
    let mut w = std::io::BufWriter::new(file);
    let is_mesh = args
        .output
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("mesh"));
    if is_mesh {
        portolan::io::polyanya_mesh::write_v2(&mesh, &mut w)
    } else {
        serde_json::to_writer(&mut w, &mesh)
            .map_err(std::io::Error::from)
            .and_then(|()| writeln!(w))
    }
    .and_then(|()| w.flush())
    .with_context(|| format!("cannot write {}", args.output.display()))?;
    eprintln!(
        "{} polygons, {} vertices, built in {:.1} ms -> {}",
        mesh.polygon_count(),
        mesh.vertex_count(),
        elapsed.as_secs_f64() * 1e3,
        args.output.display()
    );
    Ok(())
}
