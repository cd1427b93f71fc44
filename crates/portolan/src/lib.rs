//! # Portolan
//!
//! Two-dimensional navigation meshes: build a mesh of convex polygons from obstacles, find paths
//! on it, and know how good those paths are.
//!
//! Data flows one way:
//!
//! ```text
//! Scene ──build──► NavMesh ──search──► Path
//! (obstacles)      (convex polygons,   (channel A* + funnel, or exact)
//!                   portals, locate)
//! ```
//!
//! ```
//! use portolan::{build, BuildOptions, PathFinder, Scene, SearchOptions};
//!
//! let scene = Scene::default_map();
//! let mesh = build(&scene, &BuildOptions::trapezoid()).unwrap();
//! let mut finder = PathFinder::new();
//! let path = finder
//!     .find_path(&mesh, Scene::DEFAULT_START, Scene::DEFAULT_GOAL, &SearchOptions::default())
//!     .unwrap();
//! assert_eq!(path.points.first(), Some(&Scene::DEFAULT_START));
//! assert_eq!(path.points.last(), Some(&Scene::DEFAULT_GOAL));
//! assert!(path.length >= Scene::DEFAULT_START.distance(Scene::DEFAULT_GOAL));
//! ```
//!
//! # Cargo features
//! - `parallel` (default): [`search::batch`], many path queries on one mesh on rayon's thread
//!   pool. Without it (`default-features = false`) the crate has no rayon dependency and
//!   everything else is unchanged.
//! - `mint` (off): `From` conversions between [`Vec2`] and `mint::Vector2<f64>` /
//!   `mint::Point2<f64>` both ways (and from their `f32` forms), for the graphics crates that
//!   speak mint (`geom::interop`).
//! - `glam` (off): `From` conversions between [`Vec2`] and `glam::DVec2` both ways, and from
//!   glam's f32 `Vec2` (Bevy's); `Vec2::to_glam_f32` rounds back to it (`geom::interop`).
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod build;
pub mod crowd;
pub mod dynamic;
pub mod eval;
pub mod geom;
pub mod io;
pub mod mesh;
pub mod random;
pub mod random_grid;
pub mod scene;
pub mod search;
#[cfg(any(test, feature = "testkit"))]
#[doc(hidden)]
pub mod testkit;

pub use build::{build, BuildError, BuildOptions, Decomposition};
pub use geom::Vec2;
pub use mesh::OffMeshLink;
pub use mesh::{Location, NavMesh, PolyId, VertexId};
pub use scene::{Scene, SceneError};
pub use search::landmarks::Landmarks;
pub use search::raycast::{raycast, RayOutcome, Raycast, RaycastError};
pub use search::{Endpoint, EndpointRole, FunnelTrace, PartialReason, PathStatus, PolygonFilter};
pub use search::{LinkTraversal, Snap};
pub use search::{Path, PathError, PathFinder, PortalPoint, SearchMethod, SearchOptions};

/// The Rust examples of the project's README, compiled and run as doc tests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
