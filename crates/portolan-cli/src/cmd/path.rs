//! `portolan path`: one query, printed as text or JSON.

use crate::input::{build_mesh, parse_point, SceneOrMesh, SearchArg};
use anyhow::Result;
use portolan::search::funnel::channel_portals;
use portolan::{BuildOptions, Path, PathFinder, PortalPoint, Scene, SearchOptions, Vec2};

/// Arguments of `portolan path`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  portolan path --from 40,60 --to 760,390
  portolan path --scene scene.json --from 10,10 --to 90,40 --portal midpoint --json
  portolan path --mesh arena.mesh --from 1,11 --to 40,40 --search exact")]
pub struct Args {
    /// --scene, --mesh, --decomposition.
    #[command(flatten)]
    pub input: SceneOrMesh,
    /// Which search: `funnel` (channel A* + funnel), `midpoint` (the same crossing portals at
    /// their midpoints), `exact` (Polyanya, a shortest path). Default: funnel with --portal.
    #[arg(long, value_enum, conflicts_with = "portal")]
    pub search: Option<SearchArg>,
    /// Start point as X,Y.
    #[arg(long, value_parser = parse_point, allow_hyphen_values = true)]
    pub from: Vec2,
    /// Goal point as X,Y.
    #[arg(long, value_parser = parse_point, allow_hyphen_values = true)]
    pub to: Vec2,
    /// Where the channel A* assumes the agent crosses a portal.
    #[arg(long, value_enum, default_value_t = PortalArg::TowardGoal)]
    pub portal: PortalArg,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `--portal` values.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PortalArg {
    /// The line toward the goal meets the portal (the chapter's choice).
    TowardGoal,
    /// The portal's midpoint.
    Midpoint,
}

impl From<PortalArg> for PortalPoint {
    fn from(p: PortalArg) -> PortalPoint {
        match p {
            PortalArg::TowardGoal => PortalPoint::TowardGoal,
            PortalArg::Midpoint => PortalPoint::Midpoint,
        }
    }
}

#[derive(serde::Serialize)]
struct Output<'a> {
    points: &'a [Vec2],
    length: f64,
    expanded: usize,
    channel: Vec<u32>,
    polygons: usize,
}

/// Runs `portolan path`.
pub fn run(args: Args) -> Result<()> {
    let (_, mesh) = args.input.load()?;
    let opts = match args.search {
        Some(s) => s.options(),
        None => SearchOptions::with_portal_point(args.portal.into()),
    };
    let path = PathFinder::new().find_path(&mesh, args.from, args.to, &opts)?;
    if args.json {
        let out = Output {
            points: &path.points,
            length: path.length,
            expanded: path.expanded,
            channel: path.channel.iter().map(|p| p.0).collect(),
            polygons: mesh.polygon_count(),
        };
        println!("{}", serde_json::to_string(&out)?);
    } else {
        print_text(&path, mesh.polygon_count());
    }
    Ok(())
}

fn print_text(path: &Path, polygons: usize) {
    println!("points:");
    for p in &path.points {
        println!("  {:.3}, {:.3}", p.x, p.y);
    }
    println!("length:   {:.3}", path.length);
    println!("expanded: {} of {} polygons", path.expanded, polygons);
    println!("channel:  {} polygons", path.channel.len());
}

/// The main job on the default map: the default query with both crossing points.
pub fn run_default() -> Result<()> {
    let scene = Scene::default_map();
    let mesh = build_mesh(&scene, &BuildOptions::trapezoid())?;
    let (s, g) = (Scene::DEFAULT_START, Scene::DEFAULT_GOAL);
    println!(
        "Default map: {} x {}, {} obstacles, trapezoid mesh of {} polygons.",
        scene.bounds.size().x,
        scene.bounds.size().y,
        scene.obstacles.len(),
        mesh.polygon_count()
    );
    println!("Query: S = {s} -> G = {g}\n");
    let mut finder = PathFinder::new();
    for (name, pp) in [
        ("toward-goal", PortalPoint::TowardGoal),
        ("midpoint", PortalPoint::Midpoint),
    ] {
        let path = finder.find_path(&mesh, s, g, &SearchOptions::with_portal_point(pp))?;
        let mids: Vec<Vec2> = channel_portals(&mesh, &path.channel, s, g)
            .iter()
            .map(|p| p.midpoint())
            .collect();
        println!(
            "{name:>12}: funnel path {:8.1}  (portal-midpoint polyline {:8.1}), {} corners, {} polygons expanded",
            path.length,
            Path::polyline_length(&mids),
            path.points.len().saturating_sub(2),
            path.expanded
        );
    }
    Ok(())
}
