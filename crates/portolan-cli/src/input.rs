//! Loading the inputs every subcommand shares: scenes, points.

use crate::cmd::build::DecompositionArg;
use anyhow::{Context, Result};
use portolan::{build, BuildOptions, NavMesh, PortalPoint, Scene, SearchOptions, Vec2};
use std::path::{Path, PathBuf};

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

/// The one input a subcommand reads: a scene file, a grid map, a `.poly` file, a ready-made mesh,
/// or (no input flag) the built-in default map.
///
/// Each subcommand keeps its own input flags, since their help and conflict rules differ (`build`
/// requires one of three, `serve` allows one of three, ...), and turns them into an `Input` with
/// [`Input::from_flags`]; reading it is then the same for all.
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

impl<'a> Input<'a> {
    /// The input named by a subcommand's flags (`None` for a flag it does not have). Each
    /// subcommand's conflict rules let at most one flag through, so the order tried here does not
    /// matter; with none, the default map.
    pub fn from_flags(
        scene: Option<&'a Path>,
        map: Option<&'a Path>,
        poly: Option<&'a Path>,
        mesh: Option<&'a Path>,
    ) -> Input<'a> {
        match (scene, map, poly, mesh) {
            (Some(p), ..) => Input::Scene(p),
            (_, Some(p), ..) => Input::Map(p),
            (_, _, Some(p), _) => Input::Poly(p),
            (.., Some(p)) => Input::Mesh(p),
            (None, None, None, None) => Input::DefaultMap,
        }
    }

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

/// The input flags of subcommands that search or draw one mesh (`path`, `render`): a scene
/// (or the default map) built with `--decomposition`, or a ready-made mesh.
///
/// The help of `--scene` and `--mesh` is `path`'s; a subcommand that says it otherwise changes it
/// with `#[command(mut_arg(...))]`.
#[derive(clap::Args, Debug)]
pub struct SceneOrMesh {
    /// Scene JSON file (see README); the built-in default map when omitted.
    #[arg(long, conflicts_with = "mesh")]
    pub scene: Option<PathBuf>,
    /// Polyanya mesh file (.mesh, version 1, 2 or 3) to search instead of building one.
    #[arg(long)]
    pub mesh: Option<PathBuf>,
    /// How a scene is cut into convex polygons (ignored with --mesh).
    #[arg(long, value_enum, default_value_t = DecompositionArg::Cdt)]
    pub decomposition: DecompositionArg,
}

impl SceneOrMesh {
    /// The scene to draw and the mesh to search (see [`Loaded::with_mesh`]).
    pub fn load(&self) -> Result<(Scene, NavMesh)> {
        let input = Input::from_flags(self.scene.as_deref(), None, None, self.mesh.as_deref());
        input
            .load()?
            .with_mesh(&BuildOptions::default().with_decomposition(self.decomposition.into()))
    }
}

/// `--search` values.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchArg {
    /// Channel A* crossing portals toward the goal, then the funnel (fast, near-optimal).
    Funnel,
    /// Channel A* crossing portals at their midpoints, then the funnel (the naive baseline).
    Midpoint,
    /// Polyanya: a Euclidean shortest path, exactly.
    Exact,
}

impl SearchArg {
    /// The library options for this choice.
    pub fn options(self) -> SearchOptions {
        match self {
            SearchArg::Funnel => SearchOptions::default(),
            SearchArg::Midpoint => SearchOptions::with_portal_point(PortalPoint::Midpoint),
            SearchArg::Exact => SearchOptions::exact(),
        }
    }
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

    #[test]
    fn each_input_flag_names_its_input_and_none_the_default_map() {
        let p = Path::new("x");
        assert_eq!(Input::from_flags(None, None, None, None), Input::DefaultMap);
        assert_eq!(
            Input::from_flags(Some(p), None, None, None),
            Input::Scene(p)
        );
        assert_eq!(Input::from_flags(None, Some(p), None, None), Input::Map(p));
        assert_eq!(Input::from_flags(None, None, Some(p), None), Input::Poly(p));
        assert_eq!(Input::from_flags(None, None, None, Some(p)), Input::Mesh(p));
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
