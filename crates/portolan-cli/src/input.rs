//! The arguments every subcommand that reads a map shares, and loading what they name.
//!
//! One flag set names the input (`--scene | --map | --poly | --mesh`, a clap group: at most one,
//! and exactly one where a subcommand has no default map), one set says how a scene becomes a
//! mesh (`--decomposition`, `--radius`), one says which search runs (`--search`, `--portal`).
//! The subcommands flatten these structs, so a flag means the same everywhere and its help is
//! written once.

use anyhow::{bail, Context, Result};
use clap::builder::{PossibleValue, TypedValueParser};
use portolan::build::CancelToken;
use portolan::search::corner_graph::{CornerGraph, CornerGraphOptions};
use portolan::{
    build, BuildOptions, Decomposition, NavMesh, PortalPoint, Scene, SearchMethod, SearchOptions,
    Snap, Vec2,
};
use std::path::{Path, PathBuf};

/// The input flags: one of them, or none for the built-in default map where a subcommand has
/// one (a subcommand that needs an input makes the group required with
/// `#[command(mut_group("input", |g| g.required(true)))]`).
#[derive(clap::Args, Clone, Debug, Default)]
#[group(id = "input", multiple = false)]
pub struct InputArgs {
    /// Scene JSON file: bounds, optional boundary, obstacles, holes (see README, "Scene files").
    #[arg(long, value_name = "FILE")]
    pub scene: Option<PathBuf>,
    /// MovingAI grid map (.map): blocked cells become traced obstacle outlines. Points are in
    /// cells: (x, y) is a cell's top-left corner, y grows south, as in GPPC scenarios.
    #[arg(long, value_name = "FILE")]
    pub map: Option<PathBuf>,
    /// Polyanya obstacle file (.poly): walkable = symmetric difference of its polygons.
    #[arg(long, value_name = "FILE")]
    pub poly: Option<PathBuf>,
    /// Polyanya mesh file (.mesh, version 1, 2 or 3), used as it is instead of building one.
    #[arg(long, value_name = "FILE")]
    pub mesh: Option<PathBuf>,
}

impl InputArgs {
    /// The input the flags name (clap's group lets at most one through); with none, the
    /// default map.
    pub fn input(&self) -> Input<'_> {
        let named = [
            self.scene.as_deref().map(Input::Scene),
            self.map.as_deref().map(Input::Map),
            self.poly.as_deref().map(Input::Poly),
            self.mesh.as_deref().map(Input::Mesh),
        ];
        named
            .into_iter()
            .flatten()
            .next()
            .unwrap_or(Input::DefaultMap)
    }
}

/// The one input a subcommand reads: a scene file, a grid map, a `.poly` file, a ready-made mesh,
/// or (no input flag) the built-in default map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input<'a> {
    /// No input flag: [`Scene::default_map`].
    DefaultMap,
    /// `--scene`: a scene JSON file.
    Scene(&'a Path),
    /// `--map`: a MovingAI grid map.
    Map(&'a Path),
    /// `--poly`: a Polyanya obstacle file.
    Poly(&'a Path),
    /// `--mesh`: a Polyanya mesh file.
    Mesh(&'a Path),
}

/// An [`Input`] once read: obstacles to build a mesh from, or a mesh as it is.
pub enum Loaded {
    /// A scene (from a scene file, grid map, `.poly` file or the default map).
    Scene(Scene),
    /// A mesh read from a `.mesh` file (boxed: a `NavMesh` is five times a `Scene`'s size).
    Mesh(Box<NavMesh>),
}

impl Input<'_> {
    /// Reads the input; errors name the file.
    pub fn load(self) -> Result<Loaded> {
        Ok(match self {
            Input::DefaultMap => Loaded::Scene(Scene::default_map()),
            Input::Scene(p) => Loaded::Scene(load_scene(p)?),
            Input::Map(p) => Loaded::Scene(load_map(p)?),
            Input::Poly(p) => Loaded::Scene(load_poly(p)?),
            Input::Mesh(p) => Loaded::Mesh(Box::new(load_mesh(p)?)),
        })
    }
}

impl Loaded {
    /// The scene to draw and the mesh to search: a scene and the mesh built from it with
    /// `options`, or a mesh as read with, as its scene, its bounds and no obstacles.
    pub fn with_mesh(self, options: &BuildOptions) -> Result<(Scene, NavMesh)> {
        match self {
            Loaded::Scene(scene) => {
                let mesh = build_mesh(&scene, options)?;
                Ok((scene, mesh))
            }
            Loaded::Mesh(mesh) => Ok((Scene::new(mesh.bounds()), *mesh)),
        }
    }
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

/// How a scene becomes a mesh: `--decomposition`, `--radius` and `--arc-error` (none applies to
/// `--mesh`, which is searched as it is).
#[derive(clap::Args, Clone, Debug)]
pub struct BuildArgs {
    /// How free space is cut into convex polygons (a --mesh is used as it is).
    #[arg(long, value_enum, default_value_t = DecompositionArg::Cdt, conflicts_with = "mesh")]
    pub decomposition: DecompositionArg,
    /// Agent radius: obstacles grow and the border shrinks by it, corners rounded to within
    /// --arc-error (1% by default), so every path keeps the agent's centre this far from walls,
    /// less that fraction of it at rounded corners (a --mesh is used as it is).
    #[arg(
        long,
        default_value_t = 0.0,
        allow_hyphen_values = true,
        conflicts_with = "mesh"
    )]
    pub radius: f64,
    /// With --radius: how far a rounded corner's chords may cut inside the circle, as a
    /// fraction of the radius, in [1e-6, 1]. Paths keep the agent's centre at least
    /// radius · (1 − arc-error) from walls. Larger means fewer segments per corner, so fewer
    /// polygons: on a grid map each blocked cell's corner is rounded (a --mesh is used as it is).
    #[arg(
        long,
        value_name = "FRACTION",
        default_value_t = 0.01,
        allow_hyphen_values = true,
        conflicts_with = "mesh"
    )]
    pub arc_error: f64,
}

impl BuildArgs {
    /// The library's build options for these flags (the radius is checked by the builder, whose
    /// error names `agent_radius`).
    // Field by field, not a struct literal: the options are becoming `#[non_exhaustive]`.
    #[allow(clippy::field_reassign_with_default)]
    pub fn options(&self) -> BuildOptions {
        let mut o = BuildOptions::default();
        o.decomposition = self.decomposition.into();
        o.agent_radius = self.radius;
        o.arc_error = self.arc_error;
        o
    }
}

/// A subcommand's whole input: the file (or the default map) and how to build its mesh.
#[derive(clap::Args, Clone, Debug)]
pub struct MeshArgs {
    /// --scene | --map | --poly | --mesh.
    #[command(flatten)]
    pub input: InputArgs,
    /// --decomposition, --radius, --arc-error.
    #[command(flatten)]
    pub build: BuildArgs,
}

impl MeshArgs {
    /// The scene to draw and the mesh to search (see [`Loaded::with_mesh`]).
    pub fn load(&self) -> Result<(Scene, NavMesh)> {
        self.input.input().load()?.with_mesh(&self.build.options())
    }
}

/// `--search` values.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchArg {
    /// Channel A* over polygons, then the funnel (fast, near-optimal; see --portal).
    Funnel,
    /// Polyanya: a Euclidean shortest path, exactly.
    Exact,
    /// The exact search through a precomputed corner graph (built first): the same shortest
    /// paths, faster on maps where paths bend around many walls; see --epsilon.
    Corner,
}

impl From<SearchArg> for SearchMethod {
    fn from(s: SearchArg) -> SearchMethod {
        match s {
            SearchArg::Funnel => SearchMethod::Funnel,
            SearchArg::Exact => SearchMethod::Exact,
            SearchArg::Corner => SearchMethod::Corner,
        }
    }
}

/// `--portal` values.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PortalArg {
    /// The line toward the goal meets the portal (the chapter's choice).
    TowardGoal,
    /// The portal's midpoint (the naive baseline).
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

/// `--search`'s parser: the [`SearchArg`] values, and for the removed `midpoint` a clap error
/// that says what to write instead.
#[derive(Clone, Copy, Debug)]
pub struct SearchParser;

impl TypedValueParser for SearchParser {
    type Value = SearchArg;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> std::result::Result<SearchArg, clap::Error> {
        if value == "midpoint" {
            let mut cmd = cmd.clone();
            return Err(cmd.error(
                clap::error::ErrorKind::InvalidValue,
                "`--search midpoint` is now `--portal midpoint`: the midpoint is where the \
                 funnel search's A* crosses portals, not a search of its own \
                 (write `--search funnel --portal midpoint`, or just `--portal midpoint`)",
            ));
        }
        clap::builder::EnumValueParser::<SearchArg>::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            [SearchArg::Funnel, SearchArg::Exact, SearchArg::Corner]
                .into_iter()
                .filter_map(|s| clap::ValueEnum::to_possible_value(&s)),
        ))
    }
}

/// Which search runs: `--search` and, for the funnel, `--portal`.
#[derive(clap::Args, Clone, Debug)]
pub struct SearchArgs {
    /// Which search: `funnel` (channel A* + funnel, crossing portals as --portal says),
    /// `exact` (Polyanya, always a shortest path) or `corner` (the exact search through a
    /// corner graph built first: the same paths, faster where they bend around many walls).
    #[arg(long, value_parser = SearchParser, default_value = "funnel")]
    pub search: SearchArg,
    /// With --search corner: stop once the path found is within 1 + E of the shortest (proved;
    /// 0, the default, is exact).
    #[arg(long, value_name = "E", allow_hyphen_values = true)]
    pub epsilon: Option<f64>,
    /// Where the funnel search's A* assumes the agent crosses a portal (the exact search has
    /// no such estimate).
    #[arg(long, value_enum)]
    pub portal: Option<PortalArg>,
    /// Move a start or goal off the mesh to the nearest point of the mesh within DIST (the
    /// chapter's fourth pitfall; a point further away is still refused). Without it, every
    /// end off the mesh is refused: with --radius, a scenario's points near walls are.
    /// `inf` snaps from any distance (the library's `Snap::Within(f64::INFINITY)`).
    #[arg(long, value_name = "DIST", allow_hyphen_values = true)]
    pub snap: Option<f64>,
    /// --no-time-limits, --no-fit, --budget-mib, for the graph of --search corner built here.
    #[command(flatten)]
    pub graph: GraphArgs,
}

/// How a corner graph is built here (`portolan index`, or `--search corner` without
/// `--index`).
#[derive(clap::Args, Clone, Debug)]
pub struct GraphArgs {
    /// For the corner graph built here: give its hub labels and landmarks as long as they take
    /// (by default 8 s and 5 s, past which it goes without them), so that a slow or busy
    /// machine keeps the same parts, for a build of unbounded time.
    #[arg(long)]
    pub no_time_limits: bool,
    /// For the corner graph built here: choose how it answers without timing queries (the
    /// views answer every query where there are labels; without labels, the landmarks and the
    /// swept search are kept wherever they fit). With --no-time-limits, two builds of one mesh
    /// by one version of portolan then write the same file, however fast or busy the machine
    /// (by default the choice follows the building machine's times, which may differ between
    /// two builds; the answers never do).
    #[arg(long)]
    pub no_fit: bool,
    /// For the corner graph built here: the most memory it may hold, in MiB (fractions
    /// allowed); it drops parts to keep within it, down to the plain search. By default 48 MiB,
    /// or 1,000 bytes per polygon past 50,331 polygons.
    #[arg(long, value_name = "MIB", value_parser = parse_mib, allow_hyphen_values = true)]
    pub budget_mib: Option<usize>,
}

/// `--budget-mib`: a finite, non-negative number of MiB, as bytes.
fn parse_mib(s: &str) -> Result<usize, String> {
    let mib: f64 = s
        .parse()
        .map_err(|e| format!("{s:?} is not a number of MiB: {e}"))?;
    CornerGraphOptions::default()
        .with_memory_budget_mib(mib)
        .and_then(|o| o.memory_budget)
        .ok_or_else(|| format!("{s:?} MiB is not a budget (a finite number of MiB, 0 or more, is)"))
}

impl GraphArgs {
    /// The library options for these flags.
    pub fn options(&self) -> CornerGraphOptions {
        let mut options = CornerGraphOptions::default().with_memory_budget(self.budget_mib);
        if self.no_time_limits {
            options = options.with_time_limits(None, None);
        }
        options.with_fit(!self.no_fit)
    }

    /// `true` when a flag of these asks for something of a graph built here.
    pub fn any(&self) -> bool {
        self.no_time_limits || self.no_fit || self.budget_mib.is_some()
    }

    /// The corner graph of `mesh`, built with these flags.
    pub fn build(&self, mesh: &NavMesh) -> Result<CornerGraph> {
        Ok(CornerGraph::build_with(
            mesh,
            &self.options(),
            &CancelToken::new(),
        )?)
    }
}

impl SearchArgs {
    /// The library options for these flags; `--portal` with the exact search is an error.
    pub fn options(&self) -> Result<SearchOptions> {
        let mut o = SearchOptions::default();
        match self.search {
            SearchArg::Funnel => {
                if let Some(p) = self.portal {
                    o.portal_point = p.into();
                }
            }
            SearchArg::Exact => {
                if self.portal.is_some() {
                    bail!("--portal applies to the funnel search only (the exact search has no crossing-point estimate)");
                }
                o.method = self.search.into();
            }
            SearchArg::Corner => {
                if self.portal.is_some() {
                    bail!(
                        "--portal applies to the funnel search only (the corner search is exact)"
                    );
                }
                o.method = self.search.into();
            }
        }
        if let Some(e) = self.epsilon {
            if self.search != SearchArg::Corner {
                bail!("--epsilon applies to --search corner only");
            }
            if !(e.is_finite() && e >= 0.0) {
                bail!("--epsilon must be a finite number ≥ 0, not {e}");
            }
            o.epsilon = e;
        }
        if let Some(d) = self.snap {
            // (`inf` is a distance: snap from anywhere, as the library allows.)
            if d.is_nan() || d < 0.0 {
                bail!("--snap must be a distance ≥ 0 (or inf, any distance), not {d}");
            }
            o.snap = Snap::Within(d);
        }
        Ok(o)
    }

    /// [`SearchArgs::options`] ready for `mesh`: with `--search corner`, its corner graph is
    /// built first (time and size on stderr when `verbose`).
    pub fn options_for(&self, mesh: &NavMesh, verbose: bool) -> Result<SearchOptions> {
        self.options_with_index(mesh, verbose, None)
    }

    /// [`SearchArgs::options_for`], with the corner graph read from the saved `index` (made by
    /// `portolan index`) when one is given instead of built. The options are checked before the
    /// file is read.
    pub fn options_with_index(
        &self,
        mesh: &NavMesh,
        verbose: bool,
        index: Option<&Path>,
    ) -> Result<SearchOptions> {
        let mut o = self.options()?;
        if self.graph.any() && (o.method != SearchMethod::Corner || index.is_some()) {
            bail!("--no-time-limits, --no-fit and --budget-mib apply to a corner graph built here (--search corner, no --index)");
        }
        if let Some(path) = index {
            let t0 = std::time::Instant::now();
            let bytes =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            let graph = CornerGraph::from_bytes(&bytes, mesh)
                .with_context(|| format!("cannot load the index {}", path.display()))?;
            if verbose {
                eprintln!(
                    "corner graph: {}, loaded from {} in {:.1} ms",
                    describe_graph(&graph, mesh, None),
                    path.display(),
                    t0.elapsed().as_secs_f64() * 1e3
                );
            }
            o.corner_graph = Some(std::sync::Arc::new(graph));
        } else if o.method == SearchMethod::Corner {
            let t0 = std::time::Instant::now();
            let graph = self.graph.build(mesh)?;
            if verbose {
                eprintln!(
                    "corner graph: {}, built in {:.1} ms",
                    describe_graph(&graph, mesh, Some(self.graph.options())),
                    t0.elapsed().as_secs_f64() * 1e3
                );
            }
            o.corner_graph = Some(std::sync::Arc::new(graph));
        }
        Ok(o)
    }
}

/// What a corner graph holds, for a summary line: corners, edges, labels and views, memory.
pub fn describe_graph(
    graph: &CornerGraph,
    mesh: &NavMesh,
    built_with: Option<CornerGraphOptions>,
) -> String {
    let per_corner = |l: usize| l as f64 / graph.corner_count().max(1) as f64;
    let labels = match (graph.label_entries(), graph.view_entries()) {
        (Some(l), Some(v)) => format!(
            "{:.0} label entries per corner, {:.1} corners in view per polygon, \
             plain search first below {:.1}",
            per_corner(l),
            v as f64 / mesh.polygon_count().max(1) as f64,
            graph.plain_first_below().unwrap_or(0.0)
        ),
        (Some(l), None) => format!(
            "{:.0} label entries per corner, no views (past the budget); {}",
            per_corner(l),
            if graph.answers_from_edges() {
                "its edges swept, with the labels"
            } else {
                "the plain search"
            }
        ),
        (None, _) => format!(
            "no labels; {}",
            match (graph.answers_from_edges(), graph.landmarks().is_some()) {
                (true, true) => "its edges swept, with landmarks",
                (true, false) => "its edges swept, no landmarks",
                (false, true) => "the plain search, with landmarks",
                (false, false) => "the plain search, no landmarks",
            }
        ),
    };
    // A loaded graph does not say what budget it was built in: the default one is given.
    let kib = |b: usize| b as f64 / 1024.0;
    let budget = match built_with {
        Some(o) => format!(
            "of a {:.0} KiB budget",
            kib(o.budget_for(mesh.polygon_count()))
        ),
        None => format!(
            "the default budget {:.0} KiB",
            kib(CornerGraph::memory_budget(mesh.polygon_count()))
        ),
    };
    format!(
        "{} corners, {} edges, {labels} ({:.0} KiB {budget})",
        graph.corner_count(),
        graph.edge_count(),
        kib(graph.memory_bytes()),
    )
}

/// Reads a Polyanya `.mesh` file (version 1, 2 or 3), noting on stderr any face the reader had to
/// cut into convex pieces.
pub fn load_mesh(path: &Path) -> Result<NavMesh> {
    let f = std::fs::File::open(path)
        .with_context(|| format!("cannot open mesh {}", path.display()))?;
    let (mesh, info) = portolan::io::polyanya_mesh::read_with_info(std::io::BufReader::new(f))
        .with_context(|| format!("mesh {}", path.display()))?;
    if !info.split_faces.is_empty() {
        let faces: Vec<String> = info.split_faces.iter().map(|f| f.to_string()).collect();
        eprintln!(
            "note: {} face(s) of {} are not convex in exact arithmetic and were cut into convex pieces (0-based: {})",
            faces.len(),
            path.display(),
            faces.join(", ")
        );
    }
    Ok(mesh)
}

/// Reads a scene JSON file.
pub fn load_scene(path: &Path) -> Result<Scene> {
    let f = std::fs::File::open(path)
        .with_context(|| format!("cannot open scene {}", path.display()))?;
    Scene::from_json_reader(std::io::BufReader::new(f))
        .with_context(|| format!("scene {}", path.display()))
}

/// Reads a MovingAI `.map` grid file as a scene (traced obstacle outlines; y grows south).
pub fn load_map(path: &Path) -> Result<Scene> {
    let f =
        std::fs::File::open(path).with_context(|| format!("cannot open map {}", path.display()))?;
    let map = portolan::io::movingai::read_map(std::io::BufReader::new(f))
        .with_context(|| format!("map {}", path.display()))?;
    Ok(map.to_scene())
}

/// Reads a Polyanya `.poly` obstacle file as a scene.
pub fn load_poly(path: &Path) -> Result<Scene> {
    let f = std::fs::File::open(path)
        .with_context(|| format!("cannot open poly file {}", path.display()))?;
    let poly = portolan::io::poly::read_poly(std::io::BufReader::new(f))
        .with_context(|| format!("poly file {}", path.display()))?;
    poly.to_scene()
        .with_context(|| format!("poly file {}", path.display()))
}

/// Builds the mesh of a scene.
pub fn build_mesh(scene: &Scene, options: &BuildOptions) -> Result<NavMesh> {
    build(scene, options).context("cannot build the navigation mesh")
}

/// Parses `X,Y` into a point (clap value parser).
pub fn parse_point(s: &str) -> std::result::Result<Vec2, String> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("expected X,Y (two numbers separated by a comma), got {s:?}"))?;
    let num = |t: &str| -> std::result::Result<f64, String> {
        let v: f64 = t
            .trim()
            .parse()
            .map_err(|_| format!("{t:?} is not a number"))?;
        if v.is_finite() {
            Ok(v)
        } else {
            Err(format!("{t:?} is not a finite number"))
        }
    };
    Ok(Vec2::new(num(x)?, num(y)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// A command with the shared flags, as a subcommand flattens them.
    #[derive(clap::Parser, Debug)]
    struct Probe {
        #[command(flatten)]
        mesh: MeshArgs,
        #[command(flatten)]
        search: SearchArgs,
    }

    #[test]
    fn each_input_flag_names_its_input_and_none_the_default_map() {
        let input = |args: &[&str]| {
            let probe = Probe::try_parse_from([&["probe"], args].concat()).unwrap();
            format!("{:?}", probe.mesh.input.input())
        };
        assert_eq!(input(&[]), "DefaultMap");
        assert_eq!(input(&["--scene", "x"]), r#"Scene("x")"#);
        assert_eq!(input(&["--map", "x"]), r#"Map("x")"#);
        assert_eq!(input(&["--poly", "x"]), r#"Poly("x")"#);
        assert_eq!(input(&["--mesh", "x"]), r#"Mesh("x")"#);
    }

    #[test]
    fn two_inputs_or_build_flags_with_a_mesh_are_refused_by_clap() {
        for args in [
            &["--scene", "a", "--map", "b"][..],
            &["--poly", "a", "--mesh", "b"],
            &["--mesh", "a", "--radius", "1"],
            &["--mesh", "a", "--decomposition", "trapezoid"],
        ] {
            let e = Probe::try_parse_from([&["probe"], args].concat()).unwrap_err();
            assert_eq!(
                e.kind(),
                clap::error::ErrorKind::ArgumentConflict,
                "{args:?}"
            );
        }
    }

    #[test]
    fn search_flags_make_the_library_options() {
        let opts = |args: &[&str]| {
            let probe = Probe::try_parse_from([&["probe"], args].concat()).unwrap();
            probe.search.options()
        };
        let o = opts(&[]).unwrap();
        assert_eq!(
            (o.method, o.portal_point),
            (SearchMethod::Funnel, PortalPoint::TowardGoal)
        );
        let o = opts(&["--portal", "midpoint"]).unwrap();
        assert_eq!(o.portal_point, PortalPoint::Midpoint);
        assert_eq!(
            opts(&["--search", "exact"]).unwrap().method,
            SearchMethod::Exact
        );
        assert!(opts(&["--search", "exact", "--portal", "midpoint"]).is_err());
        let e = Probe::try_parse_from(["probe", "--search", "midpoint"]).unwrap_err();
        assert_eq!(e.kind(), clap::error::ErrorKind::InvalidValue);
        assert!(e.to_string().contains("--portal midpoint"), "{e}");
    }

    #[test]
    fn points_parse_or_say_why() {
        assert_eq!(parse_point("1.5, -2").unwrap(), Vec2::new(1.5, -2.0));
        assert!(parse_point("1.5").unwrap_err().contains("X,Y"));
        assert!(parse_point("a,2").unwrap_err().contains("not a number"));
        assert!(parse_point("NaN,2").unwrap_err().contains("finite"));
        assert!(parse_point("inf,2").unwrap_err().contains("finite"));
    }
}
