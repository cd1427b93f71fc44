//! Path search on a [`NavMesh`](crate::NavMesh).
//!
//! - [`channel`]: A* over polygons, where a polygon's position is the point where the agent
//!   crosses into it ([`PortalPoint`]).
//! - [`funnel`]: the Simple Stupid Funnel Algorithm, which pulls the string through the channel's
//!   portals, with a [`Funnel::step`](funnel::Funnel::step) API for visualisation (the chapter's,
//!   and the trace's).
//! - [`chain_funnel`]: the same path in one pass over the portals (the funnel with two chains,
//!   Lee and Preparata), which the searches use.
//! - `polyanya` (crate-private, reached through [`SearchMethod::Exact`]): exact any-angle search
//!   (Polyanya, Cui, Harabor and Grastien, IJCAI 2017), a Euclidean shortest path.
//! - [`endpoint`]: where a query's start and goal lie on the mesh (snapping, typed
//!   [`EndpointRole`] in errors).
//!
//! - [`raycast`]: walks a straight segment over the mesh and reports the first wall it hits.
//! - [`corner`]: pushes a path's turning points away from the corners
//!   ([`SearchOptions::corner_offset`]).
//! - [`landmarks`]: precomputed distances that give the exact search a stronger heuristic.
//! - [`corner_graph`]: the index of the corner search ([`SearchMethod::Corner`]): the mesh's
//!   corners, the taut lines of sight between them and hub labels; the exact search's answers,
//!   several times faster on maps where paths bend around many walls.
//! - [`filter`]: per-query disabled polygons, e.g. under a temporary obstacle
//!   ([`SearchOptions::filter`]).
//! - `batch` (cargo feature `parallel`, on by default): many queries on one mesh in parallel.
//!
//! Off-mesh links (jumps, climbs) live on the mesh: [`NavMesh::with_links`](crate::NavMesh::with_links).
//!
//! [`PathFinder`] (the façade, `finder.rs`) ties them together, applies the corner offset once
//! for every method, and keeps its buffers between queries.

#[cfg(feature = "parallel")]
pub mod batch;
pub mod chain_funnel;
pub mod channel;
pub mod corner;
pub mod corner_graph;
pub mod endpoint;
pub mod filter;
mod finder;
pub mod funnel;
pub mod landmarks;
mod open;
pub(crate) mod polyanya;
pub mod raycast;
#[cfg(test)]
mod tests;
pub mod visibility;

pub use endpoint::{resolve_endpoint, Endpoint, EndpointRole};
pub use filter::PolygonFilter;
pub use finder::{FunnelTrace, PathFinder};
pub use funnel::{Funnel, FunnelStep, Portal};

use crate::geom::Vec2;
use crate::mesh::{LinkId, PolyId};
use std::sync::Arc;

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
    /// Where the channel is *forced* (no cycle of polygons between the start and the goal,
    /// [`DeadEnds::forced_channel`](crate::mesh::dead_ends::DeadEnds::forced_channel)) there
    /// is no choice to make: once the mesh's dead-end table exists
    /// ([`NavMesh::dead_ends`](crate::NavMesh::dead_ends), derived by the first exact query or
    /// by calling it), no A* runs there, and the funnel's path is the shortest ([`Path::bound`]
    /// `Some(1.0)`).
    #[default]
    Funnel,
    /// Polyanya (Cui, Harabor and Grastien, IJCAI 2017): a Euclidean shortest path, exactly.
    /// A query whose channel is forced is answered by the funnel through it, without nodes.
    Exact,
    /// The exact search sped up by a precomputed [`corner_graph`]
    /// ([`SearchOptions::corner_graph`], required): the same shortest paths. Where the graph has
    /// hub labels and its build kept its views, a query is answered without a search, from the
    /// corners the start's and goal's polygons see (the graph's *views*) joined through the
    /// labels; where the views give no answer, the start's and goal's views are swept and the
    /// path found through the graph of corners. Without labels (large open maps), that swept
    /// search runs where the build found it at least a tenth faster than the plain search
    /// ([`CornerGraph::answers_from_edges`](corner_graph::CornerGraph::answers_from_edges)).
    /// Otherwise (views or sweeps that did not pay at build), the plain exact search runs, with
    /// the graph's landmarks where it has them. With [`SearchOptions::epsilon`] > 0 the swept search may stop early with a path at
    /// most `1 + epsilon` times the shortest, and says how close in [`Path::bound`] (the views'
    /// and the plain search's answers are exact anyway). Falls back to the plain exact search
    /// on a mesh with off-mesh links or a query with a [`SearchOptions::filter`] (the graph
    /// measures the mesh alone).
    Corner,
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
///
/// Start from a per-method constructor ([`SearchOptions::funnel`] (the default),
/// [`SearchOptions::exact`], [`SearchOptions::midpoint`]) and set the rest with the `with_*`
/// methods; the struct is `#[non_exhaustive]`, so it can grow without breaking callers.
///
/// ```
/// use portolan::{build, BuildOptions, PathFinder, Scene, SearchOptions, Snap};
/// let mesh = build(&Scene::default_map(), &BuildOptions::trapezoid()).unwrap();
/// let options = SearchOptions::exact().with_snap(Snap::Within(5.0)).with_corner_offset(2.0);
/// let path = PathFinder::new()
///     .find_path(&mesh, Scene::DEFAULT_START, Scene::DEFAULT_GOAL, &options)
///     .unwrap();
/// assert!(path.is_complete());
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct SearchOptions {
    /// Which search runs. Default: [`SearchMethod::Funnel`].
    pub method: SearchMethod,
    /// Crossing point estimate of the channel A*. Default: [`PortalPoint::TowardGoal`].
    pub portal_point: PortalPoint,
    /// Off-mesh start/goal handling. Default: [`Snap::Reject`].
    pub snap: Snap,
    /// Push each turning point of the path this far out along the outer angle bisector of its
    /// corner, so the agent does not hug obstacle corners (the chapter's exercise 3). Applied
    /// after the funnel; a push is shortened (halved, down to none) when the moved point or the
    /// path segments next to it would leave the mesh — see [`corner`]. Finite and ≥ 0; default 0
    /// (no offset). An agent's true radius belongs in the mesh (inflated obstacles); this only
    /// keeps a margin at the turns.
    pub corner_offset: f64,
    /// When the goal cannot be reached (or [`SearchOptions::max_expanded`] runs out), return a
    /// path to the point closest to the goal among the polygons the search reached, marked
    /// [`PathStatus::Partial`], instead of an error. The exact search returns the shortest path
    /// to the point nearest the goal in the part of the mesh the start can reach (or, when its
    /// budget runs out, the path to the point nearest the goal that it has seen). Default
    /// `false`.
    pub allow_partial: bool,
    /// Stop the search after expanding this many polygons (channel search) or search nodes
    /// (exact search): a partial path with
    /// [`SearchOptions::allow_partial`], [`PathError::SearchLimit`] without. Default `None` (no
    /// limit).
    pub max_expanded: Option<usize>,
    /// Polygons the search must not enter for this query (Detour's query filter). Default `None`.
    pub filter: Option<Arc<PolygonFilter>>,
    /// Precomputed landmark distances that speed up the exact search without changing its
    /// answers ([`landmarks`]); they must have been built for the mesh searched
    /// ([`PathError::ForeignData`] otherwise). The funnel search does not use them. Default
    /// `None`.
    pub landmarks: Option<Arc<landmarks::Landmarks>>,
    /// The index of [`SearchMethod::Corner`], built for the mesh searched
    /// ([`PathError::ForeignData`] otherwise); other methods ignore it. Default `None`.
    pub corner_graph: Option<Arc<corner_graph::CornerGraph>>,
    /// For [`SearchMethod::Corner`]: stop as soon as the best path found is at most `1 +
    /// epsilon` times every path still open, so at most `1 + epsilon` times the shortest. Finite
    /// and ≥ 0; default 0 (exact).
    pub epsilon: f64,
    /// Whether the path's [`channel`](Path::channel) (the polygons it passes through) is
    /// filled. Default `true`. With `false` it is left empty, and the searches that build it
    /// apart from finding the path skip that work: the corner search's answers from the
    /// index (their channel is read from the index's caches and raycasts, about a sixth of
    /// such a query, BENCHMARKS.md "Fast search") and its swept search (a raycast per leg).
    /// The exact and funnel searches get the channel from their nodes almost free. Keep it
    /// `true` where the channel is used: a path corridor (the crowd sets its own options),
    /// [`channel_portals`](funnel::channel_portals).
    pub channel: bool,
}

impl Default for SearchOptions {
    /// The funnel search with every option at its documented default.
    ///
    /// ```
    /// use portolan::{SearchMethod, SearchOptions};
    /// let o = SearchOptions::default();
    /// assert_eq!(o.method, SearchMethod::Funnel);
    /// assert!(o.channel);
    /// ```
    fn default() -> SearchOptions {
        SearchOptions {
            method: SearchMethod::default(),
            portal_point: PortalPoint::default(),
            snap: Snap::default(),
            corner_offset: 0.0,
            allow_partial: false,
            max_expanded: None,
            filter: None,
            landmarks: None,
            corner_graph: None,
            epsilon: 0.0,
            channel: true,
        }
    }
}

impl SearchOptions {
    /// Channel A* with the toward-goal crossing point, then the funnel: fast, near-optimal. The
    /// same as [`SearchOptions::default`].
    ///
    /// ```
    /// use portolan::{PortalPoint, SearchMethod, SearchOptions};
    /// let o = SearchOptions::funnel();
    /// assert_eq!((o.method, o.portal_point), (SearchMethod::Funnel, PortalPoint::TowardGoal));
    /// assert_eq!(o, SearchOptions::default());
    /// ```
    pub fn funnel() -> SearchOptions {
        SearchOptions::default()
    }

    /// The exact search ([`SearchMethod::Exact`]): a Euclidean shortest path.
    ///
    /// ```
    /// use portolan::{SearchMethod, SearchOptions};
    /// assert_eq!(SearchOptions::exact().method, SearchMethod::Exact);
    /// ```
    pub fn exact() -> SearchOptions {
        SearchOptions {
            method: SearchMethod::Exact,
            ..SearchOptions::default()
        }
    }

    /// The corner search ([`SearchMethod::Corner`]) on `graph`, built for the mesh searched:
    /// exact shortest paths, faster where paths bend around many walls.
    ///
    /// ```
    /// use portolan::{build, BuildOptions, Scene, SearchMethod, SearchOptions};
    /// use portolan::search::corner_graph::CornerGraph;
    /// use std::sync::Arc;
    /// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
    /// let o = SearchOptions::corner(Arc::new(CornerGraph::build(&mesh)));
    /// assert_eq!(o.method, SearchMethod::Corner);
    /// ```
    pub fn corner(graph: Arc<corner_graph::CornerGraph>) -> SearchOptions {
        SearchOptions {
            method: SearchMethod::Corner,
            corner_graph: Some(graph),
            ..SearchOptions::default()
        }
    }

    /// Sets [`SearchOptions::epsilon`] (default 0: exact).
    ///
    /// ```
    /// use portolan::SearchOptions;
    /// assert_eq!(SearchOptions::exact().with_epsilon(0.01).epsilon, 0.01);
    /// ```
    pub fn with_epsilon(mut self, epsilon: f64) -> SearchOptions {
        self.epsilon = epsilon;
        self
    }

    /// The chapter's naive channel search: crossing points at the portals' midpoints
    /// ([`PortalPoint::Midpoint`]), then the funnel. Kept for comparison.
    ///
    /// ```
    /// use portolan::{PortalPoint, SearchMethod, SearchOptions};
    /// let o = SearchOptions::midpoint();
    /// assert_eq!((o.method, o.portal_point), (SearchMethod::Funnel, PortalPoint::Midpoint));
    /// ```
    pub fn midpoint() -> SearchOptions {
        SearchOptions::with_portal_point(PortalPoint::Midpoint)
    }

    /// Funnel-search options with the given crossing-point estimate, everything else default.
    ///
    /// ```
    /// use portolan::{PortalPoint, SearchOptions};
    /// assert_eq!(SearchOptions::with_portal_point(PortalPoint::Midpoint), SearchOptions::midpoint());
    /// ```
    pub fn with_portal_point(portal_point: PortalPoint) -> SearchOptions {
        SearchOptions {
            portal_point,
            ..SearchOptions::default()
        }
    }

    /// Sets [`SearchOptions::method`] (default [`SearchMethod::Funnel`]).
    ///
    /// ```
    /// use portolan::{SearchMethod, SearchOptions};
    /// let o = SearchOptions::default().with_method(SearchMethod::Exact);
    /// assert_eq!(o, SearchOptions::exact());
    /// ```
    pub fn with_method(mut self, method: SearchMethod) -> SearchOptions {
        self.method = method;
        self
    }

    /// Sets [`SearchOptions::snap`] (default [`Snap::Reject`]).
    ///
    /// ```
    /// use portolan::{SearchOptions, Snap};
    /// assert_eq!(SearchOptions::exact().with_snap(Snap::Within(2.0)).snap, Snap::Within(2.0));
    /// ```
    pub fn with_snap(mut self, snap: Snap) -> SearchOptions {
        self.snap = snap;
        self
    }

    /// Sets [`SearchOptions::corner_offset`] (default 0, no offset; finite and ≥ 0, else the
    /// query fails with [`PathError::InvalidOption`]).
    ///
    /// ```
    /// use portolan::SearchOptions;
    /// assert_eq!(SearchOptions::funnel().with_corner_offset(3.0).corner_offset, 3.0);
    /// ```
    pub fn with_corner_offset(mut self, corner_offset: f64) -> SearchOptions {
        self.corner_offset = corner_offset;
        self
    }

    /// Sets [`SearchOptions::channel`] (default `true`: the path's channel is filled).
    ///
    /// ```
    /// use portolan::{build, BuildOptions, PathFinder, Scene, SearchOptions};
    /// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
    /// let (s, g) = (Scene::DEFAULT_START, Scene::DEFAULT_GOAL);
    /// let mut finder = PathFinder::new();
    /// let with = finder.find_path(&mesh, s, g, &SearchOptions::exact()).unwrap();
    /// let without = finder
    ///     .find_path(&mesh, s, g, &SearchOptions::exact().with_channel(false))
    ///     .unwrap();
    /// assert!(!with.channel.is_empty() && without.channel.is_empty());
    /// assert_eq!(with.points, without.points);
    /// ```
    pub fn with_channel(mut self, channel: bool) -> SearchOptions {
        self.channel = channel;
        self
    }

    /// Sets [`SearchOptions::allow_partial`] (default `false`).
    ///
    /// ```
    /// use portolan::SearchOptions;
    /// assert!(SearchOptions::exact().with_allow_partial(true).allow_partial);
    /// ```
    pub fn with_allow_partial(mut self, allow_partial: bool) -> SearchOptions {
        self.allow_partial = allow_partial;
        self
    }

    /// Sets [`SearchOptions::max_expanded`] (default `None`, no limit).
    ///
    /// ```
    /// use portolan::SearchOptions;
    /// assert_eq!(SearchOptions::exact().with_max_expanded(Some(100)).max_expanded, Some(100));
    /// ```
    pub fn with_max_expanded(mut self, max_expanded: Option<usize>) -> SearchOptions {
        self.max_expanded = max_expanded;
        self
    }

    /// Sets [`SearchOptions::filter`] (default `None`, every polygon open).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use portolan::{PolygonFilter, PolyId, SearchOptions};
    /// let mut closed = PolygonFilter::new();
    /// closed.exclude(PolyId(3));
    /// let closed = Arc::new(closed);
    /// assert!(SearchOptions::funnel().with_filter(Some(closed)).filter.is_some());
    /// ```
    pub fn with_filter(mut self, filter: Option<Arc<PolygonFilter>>) -> SearchOptions {
        self.filter = filter;
        self
    }

    /// Sets [`SearchOptions::landmarks`] (default `None`; used by the exact search only).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use portolan::{build, BuildOptions, Landmarks, Scene, SearchOptions};
    /// let mesh = build(&Scene::default_map(), &BuildOptions::trapezoid()).unwrap();
    /// let lm = Arc::new(Landmarks::build(&mesh, 4));
    /// assert!(SearchOptions::exact().with_landmarks(Some(lm)).landmarks.is_some());
    /// ```
    pub fn with_landmarks(mut self, landmarks: Option<Arc<landmarks::Landmarks>>) -> SearchOptions {
        self.landmarks = landmarks;
        self
    }
}

/// A path found on a mesh.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Path {
    /// The polyline from start to goal (after snapping), with no repeated consecutive points.
    pub points: Vec<Vec2>,
    /// Its Euclidean length.
    pub length: f64,
    /// The polygons the path passes through, start polygon first; empty when the query's
    /// [`SearchOptions::channel`] is `false`.
    pub channel: Vec<PolyId>,
    /// Search nodes expanded (polygons for the channel A*; for a corner query answered from
    /// the graph's views, which expands none, the corners the two endpoints were found to see).
    pub expanded: usize,
    /// Whether the path reaches the goal.
    pub status: PathStatus,
    /// The segments of `points` that are off-mesh link traversals, in order.
    pub links: Vec<LinkTraversal>,
    /// A certificate of quality: `Some(b)` when the search proved `length ≤ b ×` the shortest
    /// possible length (cost, with links): 1 for the exact searches, at most `1 + epsilon` for
    /// a bounded [`SearchMethod::Corner`] query, 1 for a funnel search through a forced
    /// channel. `None` when nothing is proved (the funnel search elsewhere, partial paths).
    pub bound: Option<f64>,
}

/// Whether a [`Path`] reaches the goal.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PathStatus {
    /// The path ends at the goal.
    #[default]
    Complete,
    /// The path ends at the reachable point closest to the goal
    /// ([`SearchOptions::allow_partial`]).
    Partial(PartialReason),
}

/// Why a path is partial.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PartialReason {
    /// The goal is not connected to the start.
    Unreachable,
    /// [`SearchOptions::max_expanded`] ran out first.
    SearchLimit,
}

/// An off-mesh link taken by a path: `points[segment] → points[segment + 1]` is the traversal.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LinkTraversal {
    /// The link (an index into [`NavMesh::links`](crate::NavMesh::links)).
    pub link: LinkId,
    /// The index of the segment's first point in [`Path::points`].
    pub segment: usize,
    /// `true` when a bidirectional link was taken from its `to` end to its `from` end.
    pub reversed: bool,
}

impl Path {
    /// A complete path through `points`, proved shortest (`bound` 1), with no off-mesh link and
    /// no node expanded: what the answers found without a search return (one polygon, the goal
    /// in sight, the corner graph's views, which set `expanded` to what they count).
    pub(crate) fn proved(points: Vec<Vec2>, channel: Vec<PolyId>) -> Path {
        Path {
            length: Path::polyline_length(&points),
            points,
            channel,
            expanded: 0,
            status: PathStatus::Complete,
            links: Vec::new(),
            bound: Some(1.0),
        }
    }

    /// `true` when the path reaches the goal.
    pub fn is_complete(&self) -> bool {
        self.status == PathStatus::Complete
    }
    /// The path's cost on `mesh`, the mesh it was found on: its length, with each off-mesh link
    /// segment counted at its link's [`cost`](crate::mesh::OffMeshLink::cost) instead of its
    /// straight length (what both searches minimise; equal to `length` without links). A
    /// traversal naming a link or segment that is not there counts at its straight length.
    pub fn cost(&self, mesh: &crate::NavMesh) -> f64 {
        self.links.iter().fold(self.length, |c, t| {
            let ends = (self.points.get(t.segment), self.points.get(t.segment + 1));
            match (ends, mesh.links().get(t.link.index())) {
                ((Some(a), Some(b)), Some(l)) => c + l.cost - a.distance(*b),
                _ => c,
            }
        })
    }

    /// The length of a polyline.
    ///
    /// Each segment takes a plain square root of its squared length, and `f64::hypot` (several
    /// times slower, BENCHMARKS.md session 13) only where the square is not a normal number
    /// (zero, subnormal, overflowing), so that points whose differences are finite get their
    /// length to within an ulp or two per segment.
    ///
    /// ```
    /// use portolan::{Path, Vec2};
    /// let l = Path::polyline_length(&[Vec2::new(0.0, 0.0), Vec2::new(3.0, 4.0), Vec2::new(3.0, 5.0)]);
    /// assert_eq!(l, 6.0);
    /// // Squaring these overflows; the length is still right.
    /// let huge = Path::polyline_length(&[Vec2::new(0.0, 0.0), Vec2::new(3e200, 4e200)]);
    /// assert!((huge / 5e200 - 1.0).abs() < 1e-15);
    /// ```
    pub fn polyline_length(points: &[Vec2]) -> f64 {
        points
            .windows(2)
            .map(|w| crate::geom::norm_guarded(w[1] - w[0]))
            .sum()
    }
}

/// Why a query has no path; bad input and "no path" are distinct.
///
/// `#[non_exhaustive]`: match with a wildcard arm, new cases may come.
///
/// ```
/// use portolan::{build, BuildOptions, PathError, PathFinder, Scene, SearchOptions, Vec2};
/// let mesh = build(&Scene::default_map(), &BuildOptions::trapezoid()).unwrap();
/// let bad = SearchOptions::funnel().with_corner_offset(-1.0);
/// let err = PathFinder::new().find_path(&mesh, Scene::DEFAULT_START, Scene::DEFAULT_GOAL, &bad);
/// assert!(matches!(err, Err(PathError::InvalidOption { option: "corner_offset", .. })));
/// ```
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PathError {
    /// A query point is NaN or infinite.
    #[error("the {role} point {point} is not finite")]
    NonFinite {
        /// Which end of the query.
        role: EndpointRole,
        /// The point.
        point: Vec2,
    },
    /// A query point has a coordinate outside the range the library accepts
    /// ([`coordinate_in_range`](crate::geom::coordinate_in_range)): far beyond any mesh, where
    /// distances to it would overflow.
    #[error("the {role} point ({:e}, {:e}) is out of the supported coordinate range (each coordinate 0 or of magnitude 2^-300 to 2^300)", .point.x, .point.y)]
    OutOfRange {
        /// Which end of the query.
        role: EndpointRole,
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
    /// [`SearchOptions::max_expanded`] ran out before the goal was reached (and partial paths
    /// were not allowed).
    #[error("search limit reached after expanding {expanded} polygons")]
    SearchLimit {
        /// Polygons expanded.
        expanded: usize,
    },
    /// The chosen search method does not support an option that was set.
    #[error("the {method} search does not support the option {option}")]
    Unsupported {
        /// The search method.
        method: &'static str,
        /// The option's field name (and, where the refusal depends on the mesh, why).
        option: &'static str,
    },
    /// Data given in an option was prepared for another mesh (see
    /// [`NavMesh::instance_id`](crate::NavMesh::instance_id)).
    #[error("the {option} were built for another mesh")]
    ForeignData {
        /// The option's field name.
        option: &'static str,
    },
    /// An option has a value it cannot take.
    #[error("option {option} = {value} is invalid: {reason}")]
    InvalidOption {
        /// The option's field name.
        option: &'static str,
        /// The value given.
        value: f64,
        /// What it must be.
        reason: &'static str,
    },
}
