//! Loading the inputs every subcommand shares: scenes, points.

use anyhow::{Context, Result};
use portolan::{
    build, BuildOptions, NavMesh, PortalPoint, Scene, SearchMethod, SearchOptions, Vec2,
};
use std::path::Path;

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

/// The mesh to search: a Polyanya mesh file when given, else the scene built with `options`; with
/// the scene to draw (for a mesh file, its bounds and no obstacles).
pub fn load_mesh_or_scene(
    mesh: Option<&Path>,
    scene: Option<&Path>,
    options: &BuildOptions,
) -> Result<(Scene, NavMesh)> {
    match mesh {
        Some(m) => {
            let mesh = load_mesh(m)?;
            Ok((Scene::new(mesh.bounds()), mesh))
        }
        None => {
            let scene = load_scene(scene)?;
            let mesh = build_mesh(&scene, options)?;
            Ok((scene, mesh))
        }
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
            SearchArg::Exact => SearchOptions {
                method: SearchMethod::Exact,
                ..SearchOptions::default()
            },
        }
    }
}

/// Reads a scene JSON file, or the built-in default map when `path` is `None`.
pub fn load_scene(path: Option<&Path>) -> Result<Scene> {
    match path {
        None => Ok(Scene::default_map()),
        Some(p) => {
            let f = std::fs::File::open(p)
                .with_context(|| format!("cannot open scene {}", p.display()))?;
            Scene::from_json_reader(std::io::BufReader::new(f))
                .with_context(|| format!("scene {}", p.display()))
        }
    }
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
    fn points_parse_or_say_why() {
        assert_eq!(parse_point("1.5, -2").unwrap(), Vec2::new(1.5, -2.0));
        assert!(parse_point("1.5").unwrap_err().contains("X,Y"));
        assert!(parse_point("a,2").unwrap_err().contains("not a number"));
        assert!(parse_point("NaN,2").unwrap_err().contains("finite"));
        assert!(parse_point("inf,2").unwrap_err().contains("finite"));
    }
}
