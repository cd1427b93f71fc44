//! Building a [`NavMesh`] from a [`Scene`].
//!
//! ```text
//! Scene ─validate─► repair + union + clip + inflate (free_space) ─► CDT (cdt) ─► merge ─► NavMesh
//!                   └──── convex, disjoint obstacles only ────► trapezoids (trapezoid) ─┘
//! ```
//! Decompositions:
//! - [`Decomposition::CdtMerged`] (the default): free space as clean polygons with holes
//!   ([`free_space`]: any obstacles — concave, with holes, overlapping, touching, crossing the
//!   border — and an optional concave outer boundary), a constrained Delaunay triangulation
//!   ([`cdt`]), and a Hertel–Mehlhorn merge into convex polygons ([`merge`]).
//! - [`Decomposition::Trapezoid`]: the chapter's vertical-slab decomposition ([`trapezoid`]);
//!   convex, non-overlapping obstacles inside a rectangle only.
//!
//! Both take an agent radius ([`BuildOptions::agent_radius`]): obstacles grow and the border
//! shrinks by it, corners rounded ([`inflate`]). [`build_per_radius`] makes one mesh per agent
//! size.
//!
//! ```
//! use portolan::{build, BuildOptions, Scene};
//! let scene = Scene::default_map();
//! let cdt = build(&scene, &BuildOptions::default()).unwrap();
//! let trapezoids = build(&scene, &BuildOptions::trapezoid()).unwrap();
//! cdt.check_invariants().unwrap();
//! assert!(cdt.polygon_count() < trapezoids.polygon_count());
//! ```

pub mod cdt;
pub mod free_space;
pub mod inflate;
pub mod merge;
pub mod trapezoid;

use crate::geom::Vec2;
use crate::mesh::{MeshError, NavMesh};
use crate::scene::{Scene, SceneError};

/// How free space is cut into convex polygons.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decomposition {
    /// The chapter's trapezoid decomposition: vertical lines at every obstacle vertex, slabs,
    /// trapezoids merged when bounded by the same edge pair. Needs convex obstacles that do not
    /// overlap; makes many tall, thin polygons.
    Trapezoid,
    /// Constrained Delaunay triangulation of free space, triangles merged into convex polygons
    /// (Hertel–Mehlhorn). Takes any obstacles; far fewer polygons than trapezoids.
    #[default]
    CdtMerged,
}

/// Options for [`build`].
#[derive(Clone, Debug, PartialEq)]
pub struct BuildOptions {
    /// How to cut free space into convex polygons. Default: [`Decomposition::CdtMerged`].
    pub decomposition: Decomposition,
    /// Radius of the (disc-shaped) agent the mesh is for: obstacles grow and the walkable border
    /// shrinks by it, so a path on the mesh keeps the agent's centre at least this far from every
    /// obstacle (less [`BuildOptions::arc_error`]). Finite and ≥ 0. Default: 0 (a point agent).
    pub agent_radius: f64,
    /// The largest distance between a rounded corner and the polyline that stands for it, as a
    /// fraction of [`BuildOptions::agent_radius`]: every point of an inflated obstacle's outline is
    /// between `agent_radius · (1 − arc_error)` and `agent_radius` from the original obstacle.
    /// In (0, 1]. Default: 0.01 (1% of the radius: 23 segments per full circle).
    pub arc_error: f64,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions {
            decomposition: Decomposition::default(),
            agent_radius: 0.0,
            arc_error: 0.01,
        }
    }
}

impl BuildOptions {
    /// Options for the chapter's trapezoid decomposition.
    pub fn trapezoid() -> BuildOptions {
        BuildOptions {
            decomposition: Decomposition::Trapezoid,
            ..BuildOptions::default()
        }
    }

    /// Options for the merged constrained Delaunay triangulation (the default).
    pub fn cdt() -> BuildOptions {
        BuildOptions::default()
    }

    /// The same options for an agent of radius `r`.
    pub fn with_agent_radius(mut self, r: f64) -> BuildOptions {
        self.agent_radius = r;
        self
    }

    /// Checks the option values.
    pub fn validate(&self) -> Result<(), BuildError> {
        if !(self.agent_radius.is_finite() && self.agent_radius >= 0.0) {
            return Err(BuildError::BadOption {
                name: "agent_radius",
                value: self.agent_radius,
            });
        }
        if !(self.arc_error > 0.0 && self.arc_error <= 1.0) {
            return Err(BuildError::BadOption {
                name: "arc_error",
                value: self.arc_error,
            });
        }
        Ok(())
    }
}

/// Why a mesh could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BuildError {
    /// The scene is invalid.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// An option is out of its range.
    #[error("build option {name} = {value} is out of range")]
    BadOption {
        /// The option's field name.
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// Obstacle `obstacle` is not convex at vertex `vertex` (the trapezoid decomposition needs
    /// convex obstacles).
    #[error("obstacle {obstacle} is not convex at vertex {vertex}; the trapezoid decomposition needs convex obstacles")]
    NotConvex {
        /// Obstacle index.
        obstacle: usize,
        /// Vertex index.
        vertex: usize,
    },
    /// Two obstacles overlap or touch (the trapezoid decomposition needs disjoint obstacles).
    #[error("obstacles {first} and {second} overlap or touch; the trapezoid decomposition needs disjoint obstacles")]
    Overlap {
        /// One obstacle.
        first: usize,
        /// The other.
        second: usize,
    },
    /// The scene has something the trapezoid decomposition does not handle (a boundary polygon,
    /// holes); the CDT decomposition does.
    #[error("the trapezoid decomposition does not support {0}; use the CDT decomposition")]
    Unsupported(&'static str),
    /// The coordinates span a range the overlay grid or the triangulation cannot represent.
    #[error("coordinates from {min} to {max} are out of the supported range")]
    CoordinateRange {
        /// Lower corner of the coordinates' box.
        min: Vec2,
        /// Upper corner.
        max: Vec2,
    },
    /// The triangulation cannot be used: more triangles than 32-bit ids hold. (Coordinates out of
    /// the triangulation's range are [`BuildError::CoordinateRange`].)
    #[error("triangulation failed: {0}")]
    Triangulation(String),
    /// Nothing walkable is left.
    #[error("no walkable space is left after removing the obstacles")]
    NoWalkableSpace,
    /// The trapezoid decomposition computes slab corners in `f64`; on near-degenerate input
    /// (slabs thinner than rounding, sub-normal coordinates) a corner can round onto a
    /// neighbour's edge. Its output is checked, and refused rather than returned broken; the CDT
    /// decomposition handles such input.
    #[error("the trapezoid decomposition is numerically degenerate on this scene ({0}); use the CDT decomposition")]
    Degenerate(crate::mesh::InvariantError),
    /// The polygons produced do not form a valid mesh (a bug: please report it with the scene).
    #[error("internal error, the decomposition produced an invalid mesh: {0}")]
    Mesh(crate::mesh::InvariantError),
}

impl From<MeshError> for BuildError {
    fn from(e: MeshError) -> BuildError {
        BuildError::Mesh(crate::mesh::InvariantError::Structure(e))
    }
}

/// Builds a navigation mesh from a scene.
pub fn build(scene: &Scene, options: &BuildOptions) -> Result<NavMesh, BuildError> {
    options.validate()?;
    scene.validate()?;
    let max_angle = inflate::chord_angle(options.arc_error);
    match options.decomposition {
        Decomposition::Trapezoid => {
            trapezoid::build_inflated(scene, options.agent_radius, max_angle)
        }
        Decomposition::CdtMerged => {
            let free = free_space::free_space(scene, options.agent_radius, max_angle)?;
            let triangles = cdt::triangulate(&free)?;
            if triangles.triangles.is_empty() {
                return Err(BuildError::NoWalkableSpace);
            }
            let merged = merge::merge_with_adjacency(&triangles);
            NavMesh::from_known_adjacency(
                triangles.vertices,
                merged.offsets,
                merged.ring,
                merged.neighbours,
            )
            .map_err(BuildError::Mesh)
        }
    }
}

/// Builds one mesh per agent radius (the chapter: "one mesh per agent size"), with the other
/// options as given. The result is in the order of `radii`.
///
/// ```
/// use portolan::build::{build_per_radius, BuildOptions};
/// use portolan::Scene;
/// let meshes = build_per_radius(&Scene::default_map(), &BuildOptions::default(), &[0.0, 5.0, 10.0]).unwrap();
/// // Bigger agents have less room.
/// assert!(meshes[0].area() > meshes[1].area() && meshes[1].area() > meshes[2].area());
/// ```
pub fn build_per_radius(
    scene: &Scene,
    options: &BuildOptions,
    radii: &[f64],
) -> Result<Vec<NavMesh>, BuildError> {
    radii
        .iter()
        .map(|&r| build(scene, &options.clone().with_agent_radius(r)))
        .collect()
}
