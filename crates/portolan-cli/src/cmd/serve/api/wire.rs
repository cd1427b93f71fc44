//! Wire types: the exact JSON shapes of requests and answers (serde), and nothing else.
//!
//! Each type is documented field by field; the README ("HTTP API") shows them as JSON. Changing
//! a field here changes the API: the tests in `serve/tests.rs` and the browser suite read them.

use super::limits::Limits;
use portolan::search::funnel::{FunnelStep, Portal};
use portolan::{Decomposition, PortalPoint, Scene, SearchMethod, Vec2};
use serde::{Deserialize, Serialize};

/// The body of every 4xx/5xx answer.
#[derive(Serialize, Debug)]
pub struct ErrorBody {
    /// What went wrong, for people.
    pub error: String,
    /// What went wrong, for programs (kebab-case, stable).
    pub code: &'static str,
    /// Obstacles at fault (scene edits), so an editor can highlight them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub obstacles: Vec<usize>,
    /// The limit refused (`over-budget`: `"max_scene_vertices"`, ...), as named in
    /// `capabilities.limits`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<&'static str>,
    /// The scene's current revision (`stale-revision`: fetch it and edit that).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revision: Option<u64>,
    /// The vertex of the shape at fault (a refused tiled edit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vertex: Option<usize>,
    /// How many agents fitted (`no-room`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placed: Option<usize>,
}

/// Default start and goal.
#[derive(Serialize, Debug, Clone, Copy, PartialEq)]
pub struct Defaults {
    /// Start.
    pub start: Vec2,
    /// Goal.
    pub goal: Vec2,
}

/// `GET /api/scene` (and the answer to scene edits).
#[derive(Serialize)]
pub struct SceneReply<'a> {
    /// Revision of this scene.
    pub revision: u64,
    /// The scene in the scene-file format (`bounds`, `obstacles`, and `boundary` and `holes` when
    /// it has them); for a mesh read from a file, only its bounds.
    pub scene: &'a Scene,
    /// Whether `POST /api/scene` may change the scene (`false` for a mesh read from a file).
    pub editable: bool,
    /// How the mesh was built (`null` for a mesh read from a file).
    pub build: Option<BuildSpec>,
    /// The mesh.
    pub mesh: MeshReply,
    /// A sensible start and goal.
    pub defaults: Defaults,
    /// Build time in milliseconds (in tiled mode: of the last update).
    pub build_ms: f64,
    /// The tile grid and the dynamic obstacles, in tiled mode only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tiles: Option<&'a super::dynamic::TilesReply>,
    /// What the server can do (lists grow as the library does).
    pub capabilities: Capabilities,
}

/// Mesh geometry for drawing.
#[derive(Serialize)]
pub struct MeshReply {
    /// Each polygon's corners, counter-clockwise (y up); index = polygon id.
    pub polygons: Vec<Vec<Vec2>>,
    /// Number of polygons.
    pub polygon_count: usize,
    /// Number of distinct vertices.
    pub vertex_count: usize,
}

/// Options a client may choose from.
#[derive(Serialize)]
pub struct Capabilities {
    /// Values of `method` in `POST /api/path`.
    pub methods: &'static [SearchMethod],
    /// Values of `portal` in `POST /api/path`.
    pub portal_points: &'static [PortalPoint],
    /// Values of `build.decomposition` in `POST /api/scene`.
    pub decompositions: &'static [Decomposition],
    /// Largest request body accepted (also in `limits`, where every limit is).
    pub max_body_bytes: usize,
    /// Every limit of the server and of a build's work budget.
    pub limits: Limits,
}

/// Build options of a scene edit; omitted fields keep their current value. Answers carry both.
#[derive(Deserialize, Serialize, Debug, Clone, Copy, Default)]
#[serde(deny_unknown_fields)]
pub struct BuildSpec {
    /// `"trapezoid"` (the chapter's) or `"cdt-merged"` (any obstacles).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decomposition: Option<Decomposition>,
    /// Agent radius: obstacles grow and the border shrinks by it. Finite and ≥ 0 (the library
    /// checks it: `BuildError::BadOption`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_radius: Option<f64>,
    /// How far a corner rounded by the agent radius may cut inside its circle, as a fraction
    /// of the radius, in [1e-6, 1] (default 0.01; the library checks it: `BuildError::BadOption`).
    /// Larger is coarser: on grid maps, fewer polygons and faster searches, for a clearance of
    /// `agent_radius · (1 − arc_error)` at corners.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arc_error: Option<f64>,
}

/// `POST /api/scene` request.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct SceneRequest {
    /// The new scene; absent keeps the current one (to change only the build options).
    #[serde(default)]
    pub scene: Option<Scene>,
    /// Build options.
    #[serde(default)]
    pub build: BuildSpec,
    /// The revision this edit is based on (or an `If-Match: "<revision>"` header). When the
    /// server's scene has moved on since, the edit is refused with `409 stale-revision`, so that
    /// no edit silently undoes another. Absent: the edit applies to whatever scene is current.
    #[serde(default)]
    pub base_revision: Option<u64>,
}

/// `POST /api/path` request.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PathRequest {
    /// Start point `[x, y]`.
    pub start: Vec2,
    /// Goal point `[x, y]`.
    pub goal: Vec2,
    /// Crossing-point estimate of the channel A* (`"toward-goal"` default, `"midpoint"`).
    #[serde(default)]
    pub portal: PortalPoint,
    /// Search method (`"funnel"` default).
    #[serde(default)]
    pub method: SearchMethod,
    /// Move an off-mesh start/goal to the nearest mesh point within this distance; `null` or
    /// absent rejects off-mesh points. Not negative (the library checks it).
    #[serde(default)]
    pub snap: Option<f64>,
    /// Push each turning point of the path this far out along its corner's outer bisector
    /// (`SearchOptions::corner_offset`): finite and ≥ 0 (the library checks it), default 0.
    #[serde(default)]
    pub corner_offset: f64,
    /// Whether the answer lists the path's channel (`SearchOptions::channel`), default `true`.
    /// `false` skips building it (the corner search's answers then cost less; the reply's
    /// `channel` is empty and no `funnel` is drawn, as it steps through the channel's portals).
    #[serde(default = "yes")]
    pub channel: bool,
}

/// `true`: the serde default of a flag that is on unless asked off (here and in `crowd.rs`).
pub(super) fn yes() -> bool {
    true
}

/// `POST /api/path` answer.
#[derive(Serialize, Debug)]
pub struct PathReply {
    /// Revision of the scene the path was found on.
    pub revision: u64,
    /// `false` when start and goal are on the mesh but not connected; then `reason` says so and
    /// the path fields are empty.
    pub found: bool,
    /// Why no path was found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The method used.
    pub method: SearchMethod,
    /// The crossing-point estimate used.
    pub portal: PortalPoint,
    /// The corner offset used.
    pub corner_offset: f64,
    /// The start after snapping.
    pub start: Vec2,
    /// The goal after snapping.
    pub goal: Vec2,
    /// The path's points, start to goal.
    pub points: Vec<Vec2>,
    /// Its length.
    pub length: f64,
    /// Search nodes expanded.
    pub expanded: usize,
    /// Search time in microseconds (the library call only).
    pub micros: f64,
    /// What the search proved about the path ([`portolan::Path::bound`]): `length ≤ bound ×` the
    /// shortest length. `1` for the exact searches (`exact`, `corner`); `null` when nothing is
    /// proved (the funnel, or no path).
    pub bound: Option<f64>,
    /// Polygon ids from start to goal.
    pub channel: Vec<u32>,
    /// What the funnel did (method `funnel` only; absent for the others, which have no portals
    /// to step through).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub funnel: Option<FunnelReply>,
}

/// The funnel's work, for drawing and single-stepping.
#[derive(Serialize, Debug)]
pub struct FunnelReply {
    /// The channel's portals as the funnel sees them: the start (zero width), each shared edge
    /// with its left and right endpoint (y up), the goal (zero width).
    pub portals: Vec<Portal>,
    /// Every funnel step, in order. Before the first step the apex is the start. The corners
    /// they report are the path before [`PathRequest::corner_offset`] moves them.
    pub steps: Vec<FunnelStep>,
    /// The naive path through the portal midpoints of the same channel.
    pub midpoints: Polyline,
}

/// A polyline and its length.
#[derive(Serialize, Debug)]
pub struct Polyline {
    /// Points.
    pub points: Vec<Vec2>,
    /// Length.
    pub length: f64,
}
