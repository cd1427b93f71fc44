//! Building a [`NavMesh`] from a [`Scene`].
//!
//! ```text
//! Scene ─validate─► obstacles ─(decomposition)─► convex polygons ─► NavMesh
//! ```
//! Decompositions:
//! - [`Decomposition::Trapezoid`]: the chapter's vertical-slab decomposition
//!   ([`trapezoid`]); convex, non-overlapping obstacles only.

pub mod trapezoid;

use crate::mesh::{MeshError, NavMesh};
use crate::scene::{Scene, SceneError};

/// How free space is cut into convex polygons.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decomposition {
    /// The chapter's trapezoid decomposition: vertical lines at every obstacle vertex, slabs,
    /// trapezoids merged when bounded by the same edge pair. Needs convex obstacles that do not
    /// overlap; makes many tall, thin polygons.
    #[default]
    Trapezoid,
}

/// Options for [`build`].
#[derive(Clone, Debug, PartialEq, Default)]
pub struct BuildOptions {
    /// How to cut free space into convex polygons. Default: [`Decomposition::Trapezoid`].
    pub decomposition: Decomposition,
}

impl BuildOptions {
    /// Options for the chapter's trapezoid decomposition.
    pub fn trapezoid() -> BuildOptions {
        BuildOptions {
            decomposition: Decomposition::Trapezoid,
        }
    }
}

/// Why a mesh could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BuildError {
    /// The scene is invalid.
    #[error(transparent)]
    Scene(#[from] SceneError),
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
    /// Nothing walkable is left.
    #[error("no walkable space is left after removing the obstacles")]
    NoWalkableSpace,
    /// The polygons produced do not form a valid mesh (a bug: please report it with the scene).
    #[error("internal error, the decomposition produced an invalid mesh: {0}")]
    Mesh(#[from] MeshError),
}

/// Builds a navigation mesh from a scene.
pub fn build(scene: &Scene, options: &BuildOptions) -> Result<NavMesh, BuildError> {
    scene.validate()?;
    match options.decomposition {
        Decomposition::Trapezoid => trapezoid::build(scene),
    }
}
