//! `portolan serve`: the chapter's interactive figure (figure 1.8) as a local web page.
//!
//! The page (`crates/portolan-cli/web/`, embedded in the binary) draws the scene, the mesh, the
//! channel, its portals, the path and the funnel, and asks this server for every path through a
//! small JSON API ([`api`]; documented in the README, "Web demo"). [`http`] is the `tiny_http`
//! plumbing. [`start`] runs a server in-process, so tests can start one on port 0.

pub mod api;
mod assets;
pub mod http;
#[cfg(test)]
mod tests;

use crate::input::load_scene;
use anyhow::{bail, Context, Result};
use api::App;
use http::{Event, RunningServer};
use portolan::{Decomposition, Scene};
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;

/// Arguments of `portolan serve`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  portolan serve                       # the default map on http://127.0.0.1:8080/
  portolan serve --port 0              # any free port; the URL is printed
  portolan serve --scene my-scene.json --port 9000")]
pub struct Args {
    /// Scene JSON file (see README); the built-in default map when omitted.
    #[arg(long)]
    pub scene: Option<PathBuf>,
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
            scene: None,
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

/// Worker threads answering requests (path queries take microseconds; a few suffice).
fn worker_count() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 4))
}

/// Starts a server for `scene` on `addr` in this process and returns at once.
pub fn start(scene: Scene, addr: SocketAddr) -> Result<RunningServer> {
    let app = App::new(scene, Decomposition::default())
        .context("cannot build the navigation mesh of the scene")?;
    RunningServer::start(Arc::new(app), addr, worker_count())
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
    // Hook for other inputs (`--mesh`, `--map`): anything that yields a `Scene` fits here.
    let scene = load_scene(args.scene.as_deref())?;
    let addr = SocketAddr::new(args.host, args.port);
    let server = match start(scene.clone(), addr) {
        Err(e) if any_port_if_busy && is_addr_in_use(&e) => {
            eprintln!("portolan: port {} is taken; using a free one", args.port);
            start(scene, SocketAddr::new(args.host, 0))?
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
    let event = server.wait();
    server.shutdown();
    match event {
        Event::Stop => {
            eprintln!("portolan serve: stopped");
            Ok(())
        }
        Event::Failed(why) => bail!(why),
    }
}
