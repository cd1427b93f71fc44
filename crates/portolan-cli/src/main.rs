//! `portolan`: the command-line face of the Portolan navigation-mesh library.
//!
//! Every subcommand lives in its own module under `cmd/`; this file only parses arguments and
//! turns errors into one line on stderr and a non-zero exit code.

mod cmd;
mod input;
mod output;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Portolan: 2D navigation meshes — build them from obstacles, find paths on them, see how good
/// the paths are.
///
/// With no subcommand, serves the interactive demo on the built-in default map
/// (`portolan serve`, on port 8080 or any free port if that one is taken) and prints its URL.
#[derive(Parser, Debug)]
#[command(name = "portolan", version, about, long_about = None)]
#[command(after_help = "Examples:
  portolan                                  # the web demo on http://127.0.0.1:8080/
  portolan serve --port 0                   # ... on any free port
  portolan demo-text                        # the default query, as text
  portolan path --from 40,60 --to 760,390
  portolan path --scene my-scene.json --from 10,10 --to 90,40 --portal midpoint --json
  portolan path --map arena.map --from 1,11 --to 40,40 --search exact
  portolan build --map arena.map --radius 0.5 -o arena.mesh
  portolan render --from 40,60 --to 760,390 -o default.svg
  portolan eval --maps 400 --seed 1 --csv queries.csv
  portolan crowd --scenario circle --agents 300 --steps 3000 --json

build, path, render and scen take one input, --scene, --map, --poly or --mesh (path and render:
the built-in default map without one), and --decomposition/--radius to build its mesh.")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Build a navigation mesh from a scene, grid map or .poly file and write it as JSON or .mesh.
    Build(cmd::build::Args),
    /// Find a path and print its points, length and search statistics.
    Path(cmd::path::Args),
    /// Draw a scene, its mesh and optionally a query's channel, portals and path as SVG.
    Render(cmd::render::Args),
    /// The chapter's evaluation: channel A* + funnel against the exact shortest path on seeded
    /// random maps.
    Eval(cmd::eval::Args),
    /// Serve the interactive figure (drag S and G, step through the funnel) as a web page.
    Serve(cmd::serve::Args),
    /// Print the default query on the default map with both crossing-point estimates.
    DemoText,
    /// Run every query of a scenario file (.scen / .mesh.scen); CSV per query and a timing summary.
    Scen(cmd::scen::Args),
    /// Build a mesh's corner graph (the index of `--search corner`) and save it, for
    /// `portolan scen --index` to load instead of building it again.
    ///
    /// The index keeps within 48 MiB (1,000 bytes a polygon past 50,331 polygons): where it
    /// would pass that, the build drops parts (the channel caches and the labels' links, then
    /// the views and labels, then landmarks or edges) and answers stay exact. It gives its
    /// labels 8 s and its landmarks 5 s. The summary line says what it kept ("N KiB of a B KiB
    /// budget").
    Index(cmd::index::Args),
    /// Run a crowd scenario (circle, crossing, bottleneck, random): arrivals, overlaps, mesh
    /// exits and step times, measured every step.
    Crowd(cmd::crowd::Args),
    /// Random obstacle edits on a tiled dynamic mesh: update times, checked against builds from
    /// scratch.
    Edits(cmd::edits::Args),
    /// Write a seeded grid map (.map): random blocked cells or a maze.
    GenMap(cmd::gen_map::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Build(args)) => cmd::build::run(args),
        Some(Command::Path(args)) => cmd::path::run(args),
        Some(Command::Render(args)) => cmd::render::run(args),
        Some(Command::Scen(args)) => cmd::scen::run(args),
        Some(Command::Index(args)) => cmd::index::run(args),
        Some(Command::Crowd(args)) => cmd::crowd::run(args),
        Some(Command::Edits(args)) => cmd::edits::run(args),
        Some(Command::GenMap(args)) => cmd::gen_map::run(args),
        Some(Command::Eval(args)) => cmd::eval::run(args),
        Some(Command::Serve(args)) => cmd::serve::run(args),
        Some(Command::DemoText) => cmd::path::run_default(),
        None => cmd::serve::run_default(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("portolan: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
