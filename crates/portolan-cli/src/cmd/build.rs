//! `portolan build`: a navigation mesh from a scene, a grid map or a `.poly` file, written as JSON
//! (`{"vertices": [[x, y], ...], "polygons": [[i, j, k, ...], ...]}`) or as a Polyanya v2 `.mesh`;
//! with `--mesh`, a mesh file converted (and checked on the way).

use crate::input::{build_mesh, Loaded, MeshArgs};
use crate::output::AtomicFile;
use anyhow::{Context, Result};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `portolan build`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  portolan build --scene scene.json -o mesh.json
  portolan build --map arena.map --radius 0.5 -o arena.mesh
  portolan build --poly level.poly --decomposition trapezoid -o level.json
  portolan build --mesh arena.mesh -o arena.json     # convert a mesh (checked on reading)
  portolan build --map arena.map --tile-size 32 -o arena-tiled.mesh

Grid maps follow the GPPC rules: cell (x, y) is the square (x, y)-(x+1, y+1), y grows south,
outside the map is blocked, and double corners are not cut through.")]
#[command(mut_group("input", |g| g.required(true)))]
pub struct Args {
    /// --scene | --map | --poly | --mesh, --decomposition, --radius, --arc-error.
    #[command(flatten)]
    pub input: MeshArgs,
    /// Output file: `.mesh` writes Polyanya mesh format 2, anything else JSON.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Build tile by tile, square tiles of this side (in scene units; cells for --map), and
    /// stitch them: the mesh a local rebuild of one tile would patch. Uses the CDT
    /// decomposition.
    #[arg(long, value_name = "SIZE", conflicts_with = "mesh")]
    pub tile_size: Option<f64>,
}

/// Runs `portolan build`.
pub fn run(args: Args) -> Result<()> {
    // Opened first: an output path that cannot be written fails before the build.
    let mut out = AtomicFile::create(&args.output)?;
    let (mesh, how) = match args.input.input.input().load()? {
        Loaded::Scene(scene) => {
            let started = std::time::Instant::now();
            let options = args.input.build.options();
            let mesh = match args.tile_size {
                None => build_mesh(&scene, &options)?,
                Some(size) => portolan::build::tiles::build_tiled(&scene, &options, size)
                    .context("cannot build the tiled navigation mesh")?,
            };
            let ms = started.elapsed().as_secs_f64() * 1e3;
            (mesh, format!("built in {ms:.1} ms"))
        }
        Loaded::Mesh(mesh) => (*mesh, "read".to_owned()),
    };
    let w = out.writer();
    let is_mesh = args
        .output
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("mesh"));
    if is_mesh {
        portolan::io::polyanya_mesh::write_v2(&mesh, &mut *w)
    } else {
        serde_json::to_writer(&mut *w, &mesh)
            .map_err(std::io::Error::from)
            .and_then(|()| writeln!(w))
    }
    .with_context(|| format!("cannot write {}", args.output.display()))?;
    out.commit()?;
    eprintln!(
        "{} polygons, {} vertices, {how} -> {}",
        mesh.polygon_count(),
        mesh.vertex_count(),
        args.output.display()
    );
    Ok(())
}
