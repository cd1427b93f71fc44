//! `portolan index`: build a mesh's corner graph once and save it, for `portolan scen --index`
//! (or any program using `CornerGraph::from_bytes`) to load instead of building it again.

use crate::input::{describe_graph, GraphArgs, MeshArgs};
use crate::output::AtomicFile;
use anyhow::{Context, Result};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `portolan index`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  portolan index --map AcrosstheCape.map -o AcrosstheCape.idx
  portolan scen --map AcrosstheCape.map --scen AcrosstheCape.map.scen --index AcrosstheCape.idx
  portolan index --map streets.map -o streets.idx --no-time-limits
  portolan index --map lak303d.map -o lak303d.idx --budget-mib 0.5
  portolan index --map den011d.map -o den011d.idx --no-fit --no-time-limits   (the same file on every build)

The file is versioned and checksummed and names its mesh by a fingerprint of the mesh's geometry:
loading it with another mesh (another map, radius or decomposition) is refused with an error.")]
#[command(mut_group("input", |g| g.required(true)))]
pub struct Args {
    /// --scene | --map | --poly | --mesh, --decomposition, --radius, --arc-error: the mesh,
    /// built as `portolan scen` would build it.
    #[command(flatten)]
    pub input: MeshArgs,
    /// The index file to write.
    #[arg(short, long)]
    pub output: PathBuf,
    /// --no-time-limits, --no-fit, --budget-mib.
    #[command(flatten)]
    pub graph: GraphArgs,
}

/// Runs `portolan index`.
pub fn run(args: Args) -> Result<()> {
    // Opened first: an output path that cannot be written fails before the build.
    let mut out = AtomicFile::create(&args.output)?;
    let (_, mesh) = args.input.load()?;
    let t0 = std::time::Instant::now();
    let graph = args.graph.build(&mesh)?;
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    let bytes = graph.to_bytes();
    out.writer()
        .write_all(&bytes)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    out.commit()?;
    eprintln!(
        "corner graph: {}, built in {ms:.1} ms; {} polygons; wrote {} ({:.0} KiB)",
        describe_graph(&graph, &mesh, Some(args.graph.options())),
        mesh.polygon_count(),
        args.output.display(),
        bytes.len() as f64 / 1024.0
    );
    Ok(())
}
