//! `portolan`: the command-line face of the Portolan navigation-mesh library.
//!
//! Every subcommand lives in its own module under `cmd/`; this file only parses arguments and
//! turns errors into one line on stderr and a non-zero exit code.

mod cmd;
mod input;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Portolan: 2D navigation meshes — build them from obstacles, find paths on them, see how good
/// the paths are.
///
/// With no subcommand, runs the main job on the built-in default map.
#[derive(Parser, Debug)]
#[command(name = "portolan", version, about, long_about = None)]
#[command(after_help = "Examples:
  portolan path --from 60,60 --to 740,390
  portolan path --scene my-scene.json --from 10,10 --to 90,40 --portal midpoint --json
  portolan render --from 60,60 --to 740,390 -o default.svg")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Find a path and print its points, length and search statistics.
    Path(cmd::path::Args),
    /// Draw a scene, its mesh and optionally a query's channel, portals and path as SVG.
    Render(cmd::render::Args),
    /// Run every query of a scenario file (.scen / .mesh.scen); CSV per query and a timing summary.
    Scen(cmd::scen::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Path(args)) => cmd::path::run(args),
        Some(Command::Render(args)) => cmd::render::run(args),
        Some(Command::Scen(args)) => cmd::scen::run(args),
        None => cmd::path::run_default(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("portolan: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
