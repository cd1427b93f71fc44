//! `portolan serve`: the chapter's interactive figure (figure 1.8) as a local web page.
//!
//! The page (`crates/portolan-cli/web/`, embedded in the binary) draws the scene, the mesh, the
//! channel, its portals, the path and the funnel, and asks this server for every path through a
//! small JSON API ([`api`]; documented in the README, "HTTP API"). [`http`] serves it over
//! HTTP/1.1 (hyper and axum on tokio) with the limits of [`api::limits`]. [`start`] runs a
//! server in-process, so tests can start one on port 0.

pub mod api;
mod assets;
pub mod http;
#[cfg(test)]
mod tests;

use crate::input::{DecompositionArg, Input, InputArgs, Loaded};
use anyhow::{bail, Context, Result};
use api::{App, BuildSettings};
use http::{Event, RunningServer};
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

/// Arguments of `portolan serve`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  portolan serve                       # the default map on http://127.0.0.1:8080/
  portolan serve --port 0              # any free port; the URL is printed
  portolan serve --scene my-scene.json --port 9000
  portolan serve --map arena.map --radius 0.5
  portolan serve --mesh arena.mesh     # a ready-made mesh: paths only, no obstacle editing")]
pub struct Args {
    /// --scene | --map | --poly | --mesh, as for every subcommand; the built-in default map when
    /// none is given. A --mesh is served as it is: no scene, so the page hides the obstacle
    /// editor and the build options.
    #[command(flatten)]
    pub input: InputArgs,
    /// How free space is cut into convex polygons: the chapter's trapezoids by default, CDT for
    /// --map and --poly (their outlines are not convex). The page can switch.
    #[arg(long, value_enum, conflicts_with = "mesh")]
    pub decomposition: Option<DecompositionArg>,
    /// Agent radius: obstacles grow and the border shrinks by it. The page can change it.
    #[arg(
        long,
        default_value_t = 0.0,
        allow_hyphen_values = true,
        conflicts_with = "mesh"
    )]
    pub radius: f64,
    /// With --radius: how far a rounded corner's chords may cut inside its circle, as a
    /// fraction of the radius, in [1e-6, 1] (default 0.01). Coarser rounding (0.3: one chord per
    /// right angle) makes grid maps' meshes several times smaller and their searches faster.
    /// The API can change it (`build.arc_error`).
    #[arg(long, value_name = "FRACTION", conflicts_with = "mesh")]
    pub arc_error: Option<f64>,
    /// Address to listen on. The default serves this machine only; anything else exposes the
    /// scene-editing API to the network.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub host: IpAddr,
    /// Port to listen on; 0 picks a free one.
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
}

impl Default for Args {
    fn default() -> Args {
        Args {
            input: InputArgs::default(),
            decomposition: None,
            radius: 0.0,
            arc_error: None,
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 8080,
        }
    }
}

fn is_addr_in_use(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::AddrInUse)
    })
}

/// Runtime threads handling connections (handlers run on the blocking pool; a few suffice).
fn worker_count() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 4))
}

/// Starts a server for `app` on `addr` in this process and returns at once.
pub fn start(app: Arc<App>, addr: SocketAddr) -> Result<RunningServer> {
    RunningServer::start(app, addr, worker_count())
}

/// The server state the arguments ask for: a mesh file as it is, or a scene (file, grid map or
/// the default map) and the mesh built from it.
fn app(args: &Args) -> Result<App> {
    let input = args.input.input();
    let default_decomposition = match input {
        Input::Map(_) | Input::Poly(_) => DecompositionArg::Cdt,
        _ => DecompositionArg::Trapezoid,
    };
    let scene = match input.load()? {
        Loaded::Mesh(mesh) => return Ok(App::from_mesh(*mesh)),
        Loaded::Scene(scene) => scene,
    };
    if !(args.radius.is_finite() && args.radius >= 0.0) {
        bail!(
            "--radius must be a finite distance ≥ 0, got {}",
            args.radius
        );
    }
    let settings = BuildSettings {
        decomposition: args.decomposition.unwrap_or(default_decomposition).into(),
        agent_radius: args.radius,
        // Checked by the builder: a value out of [1e-6, 1] is its typed error, named.
        arc_error: args
            .arc_error
            .unwrap_or(portolan::BuildOptions::default().arc_error),
    };
    App::new(scene, settings).context("cannot build the navigation mesh of the scene")
}

/// Runs `portolan serve` until Ctrl-C.
pub fn run(args: Args) -> Result<()> {
    serve(args, false)
}

/// `portolan` with no subcommand: the default map on port 8080, or on any free port when 8080
/// is taken.
pub fn run_default() -> Result<()> {
    serve(Args::default(), true)
}

fn serve(args: Args, any_port_if_busy: bool) -> Result<()> {
    let app = Arc::new(app(&args)?);
    let addr = SocketAddr::new(args.host, args.port);
    let server = match start(Arc::clone(&app), addr) {
        Err(e) if any_port_if_busy && is_addr_in_use(&e) => {
            eprintln!("portolan: port {} is taken; using a free one", args.port);
            start(app, SocketAddr::new(args.host, 0))?
        }
        result => result?,
    };
    if !args.host.is_loopback() {
        eprintln!(
            "portolan serve: warning: listening on {}, reachable from other machines; \
             anyone who can reach it can replace the scene",
            args.host
        );
    }
    let ctrl_c = server.notifier();
    ctrlc::set_handler(move || {
        // Fails only once the server is gone; nothing left to stop then.
        let _ = ctrl_c.send(Event::Stop);
    })
    .context("cannot install the Ctrl-C handler")?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "Listening on {}", server.url())?;
    out.flush()?;
    drop(out);
    eprintln!("Open the URL in a browser; press Ctrl-C to stop.");
    let Event::Stop = server.wait();
    server.shutdown();
    eprintln!("portolan serve: stopped");
    Ok(())
}
