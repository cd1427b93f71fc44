//! `portolan path`: one query, printed as text or JSON.

use crate::input::{build_mesh, parse_point, MeshArgs, SearchArgs};
use anyhow::{Context, Result};
use portolan::mesh::OffMeshLink;
use portolan::search::funnel::channel_portals;
use portolan::search::LinkTraversal;
use portolan::{BuildOptions, NavMesh, Path, PathFinder, PortalPoint, Scene, SearchOptions, Vec2};

/// Arguments of `portolan path`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  portolan path --from 40,60 --to 760,390
  portolan path --scene scene.json --from 10,10 --to 90,40 --portal midpoint --json
  portolan path --map arena.map --from 1,11 --to 40,40 --search exact
  portolan path --mesh arena.mesh --from 1,11 --to 40,40 --search exact
  portolan path --from 40,60 --to 760,390 --links links.json --search exact

Points are in the input's coordinates: for --map, (x, y) is the top-left corner of cell (x, y),
y grows south (query points are cell corners, as in GPPC scenarios). A point on a double corner,
where two blocked cells touch diagonally, is a valid end: the path leaves or arrives through the
shorter side and never cuts between the two cells.

A links file is a JSON array of off-mesh links:
  [{\"from\": [x, y], \"to\": [x, y], \"cost\": c, \"bidirectional\": true}]
(`bidirectional` may be left out: one-way.)")]
pub struct Args {
    /// --scene | --map | --poly | --mesh (none: the built-in default map), --decomposition,
    /// --radius, --arc-error.
    #[command(flatten)]
    pub input: MeshArgs,
    /// --search, --portal.
    #[command(flatten)]
    pub search: SearchArgs,
    /// Start point as X,Y.
    #[arg(long, value_parser = parse_point, allow_hyphen_values = true)]
    pub from: Vec2,
    /// Goal point as X,Y.
    #[arg(long, value_parser = parse_point, allow_hyphen_values = true)]
    pub to: Vec2,
    /// Off-mesh links (jumps, ladders, teleports) from a JSON file: both searches take them,
    /// each at its cost. See the format below.
    #[arg(long, value_name = "FILE")]
    pub links: Option<std::path::PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(serde::Serialize)]
struct Output<'a> {
    points: &'a [Vec2],
    length: f64,
    /// The length with each link segment counted at its link's cost instead.
    cost: f64,
    expanded: usize,
    channel: Vec<u32>,
    polygons: usize,
    /// The links taken: index in the links file, path segment, direction.
    links: &'a [LinkTraversal],
}

/// Reads a links file: a JSON array of [`OffMeshLink`]s.
fn read_links(file: &std::path::Path) -> Result<Vec<OffMeshLink>> {
    let text = std::fs::read_to_string(file)
        .with_context(|| format!("cannot read the links file {}", file.display()))?;
    serde_json::from_str(&text).with_context(|| {
        format!(
            "{} is not a links file (a JSON array of {{\"from\": [x, y], \"to\": [x, y], \"cost\": c}})",
            file.display()
        )
    })
}

/// Runs `portolan path`.
pub fn run(args: Args) -> Result<()> {
    let (_, mut mesh) = args.input.load()?;
    if let Some(file) = &args.links {
        mesh = mesh
            .with_links(read_links(file)?)
            .with_context(|| format!("in {}", file.display()))?;
    }
    let opts = args.search.options_for(&mesh, false)?;
    let path = PathFinder::new().find_path(&mesh, args.from, args.to, &opts)?;
    if args.json {
        let out = Output {
            points: &path.points,
            length: path.length,
            cost: path.cost(&mesh),
            expanded: path.expanded,
            channel: path.channel.iter().map(|p| p.0).collect(),
            polygons: mesh.polygon_count(),
            links: &path.links,
        };
        println!("{}", serde_json::to_string(&out)?);
    } else {
        print_text(&path, &mesh);
    }
    Ok(())
}

fn print_text(path: &Path, mesh: &NavMesh) {
    println!("points:");
    for p in &path.points {
        println!("  {:.3}, {:.3}", p.x, p.y);
    }
    println!("length:   {:.3}", path.length);
    for t in &path.links {
        let way = if t.reversed { ", backwards" } else { "" };
        println!(
            "link:     {} from point {} to point {} (cost {:.3}{way})",
            t.link.0,
            t.segment,
            t.segment + 1,
            mesh.links()[t.link.index()].cost // the path was found on this mesh
        );
    }
    if !path.links.is_empty() {
        println!("cost:     {:.3}", path.cost(mesh));
    }
    println!(
        "expanded: {} of {} polygons",
        path.expanded,
        mesh.polygon_count()
    );
    println!("channel:  {} polygons", path.channel.len());
}

/// The main job on the default map: the default query with both crossing points.
// Field by field, not a struct literal: the options are becoming `#[non_exhaustive]`.
#[allow(clippy::field_reassign_with_default)]
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
        let mut opts = SearchOptions::default();
        opts.portal_point = pp;
        let path = finder.find_path(&mesh, s, g, &opts)?;
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
