//! Path search on a [`NavMesh`].
//!
//! - [`channel`]: A* over polygons, where a polygon's position is the point where the agent
//!   crosses into it ([`PortalPoint`]).
//! - [`funnel`]: the Simple Stupid Funnel Algorithm, which pulls the string through the channel's
//!   portals, with a [`Funnel::step`](funnel::Funnel::step) API for visualisation.
//!
//! [`PathFinder`] ties them together and keeps its buffers between queries.

pub mod channel;
pub mod funnel;
pub mod visibility;

pub use channel::PathFinder;
pub use funnel::{Funnel, FunnelStep, Portal};

use crate::geom::Vec2;
use crate::mesh::PolyId;

/// Where the channel A* assumes the agent crosses a portal (the chapter's `portalPoint`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PortalPoint {
    /// Where the line from the current position toward the goal meets the portal, clamped to
    /// [0.02, 0.98] of the portal. The chapter's choice and the default: globally shortest
    /// channels far more often.
    #[default]
    TowardGoal,
    /// The portal's midpoint: the naive choice, kept for comparison.
    Midpoint,
}

/// Which search runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SearchMethod {
    /// Channel A* with [`SearchOptions::portal_point`], then the funnel: fast, near-optimal.
    #[default]
    Funnel,
}

/// What to do when the start or goal is not on the mesh.
#[derive(Copy, Clone, Debug, PartialEq, Default)]
pub enum Snap {
    /// Reject the query with [`PathError::StartOffMesh`] / [`PathError::GoalOffMesh`].
    #[default]
    Reject,
    /// Move the point to the nearest point of the mesh within this distance (the chapter's fourth
    /// pitfall); further away is still rejected.
    Within(f64),
}

/// Options for a path query.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SearchOptions {
    /// Which search runs. Default: [`SearchMethod::Funnel`].
    pub method: SearchMethod,
    /// Crossing point estimate of the channel A*. Default: [`PortalPoint::TowardGoal`].
    pub portal_point: PortalPoint,
    /// Off-mesh start/goal handling. Default: [`Snap::Reject`].
    pub snap: Snap,
}

impl SearchOptions {
    /// Options with the given crossing-point estimate, everything else default.
    pub fn with_portal_point(portal_point: PortalPoint) -> SearchOptions {
        SearchOptions {
            portal_point,
            ..SearchOptions::default()
        }
    }
}

/// A path found on a mesh.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Path {
    /// The polyline from start to goal (after snapping), with no repeated consecutive points.
    pub points: Vec<Vec2>,
    /// Its Euclidean length.
    pub length: f64,
    /// The polygons the path passes through, start polygon first.
    pub channel: Vec<PolyId>,
    /// Search nodes expanded (polygons for the channel A*).
    pub expanded: usize,
}

impl Path {
    /// The length of a polyline.
    pub fn polyline_length(points: &[Vec2]) -> f64 {
        points.windows(2).map(|w| w[0].distance(w[1])).sum()
    }
}

/// Why a query has no path; bad input and "no path" are distinct.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PathError {
    /// A query point is NaN or infinite.
    #[error("the {which} point {point} is not finite")]
    NonFinite {
        /// `"start"` or `"goal"`.
        which: &'static str,
        /// The point.
        point: Vec2,
    },
    /// The start is not on the mesh (in an obstacle or off the map) and was not snapped.
    #[error("the start {0} is not on the navigation mesh")]
    StartOffMesh(Vec2),
    /// The goal is not on the mesh and was not snapped.
    #[error("the goal {0} is not on the navigation mesh")]
    GoalOffMesh(Vec2),
    /// Start and goal are on the mesh but not connected.
    #[error("no path: the goal cannot be reached from the start")]
    NoPath,
}
