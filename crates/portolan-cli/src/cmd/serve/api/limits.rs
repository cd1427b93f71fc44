//! Limits of the server: what one client may make it hold or do. Each has a named default here;
//! every value is reported by `GET /api/scene` under `capabilities.limits`.
//!
//! Connection limits (enforced by the HTTP layer, `serve/http.rs`):
//!
//! | limit | default | when exceeded |
//! | --- | --- | --- |
//! | [`MAX_HEADER_BYTES`] | 16 KiB | `431`, connection closed (hyper) |
//! | [`MAX_BODY_BYTES`] | 1 MiB | `413 body-too-large` |
//! | [`MAX_CONNECTIONS`] | 256 | a new connection closes the oldest one that is not answering a request (idle keep-alive, slow header); when all are busy it waits in the listen backlog |
//! | [`IDLE_TIMEOUT`] | 10 s | a connection that has not sent a whole request head by then (idle keep-alive, or a slow header) is closed |
//! | [`BODY_TIMEOUT`] | 10 s | a body not received in full by then is answered `408 body-timeout` and the connection closed (a client sending a byte a second) |
//! | [`REQUEST_TIMEOUT`] | 30 s | `503 timeout`; an edit that runs over is not applied |
//!
//! Work budget of a build (`POST /api/scene`, checked by [`super::budget`]):
//!
//! | limit | default | when exceeded |
//! | --- | --- | --- |
//! | [`MAX_SCENE_VERTICES`] | 20,000 | `413 over-budget`, before building |
//! | [`MAX_SCENE_OBSTACLES`] | 2,000 | `413 over-budget`, before building |
//! | [`MAX_CROSSINGS`] | 2,000 | `413 over-budget`, before building: edges that cross each other (overlapping or self-intersecting obstacles) multiply the mesh |
//! | [`MAX_MESH_POLYGONS`] | 50,000 | `422 over-budget`, after building; the scene is kept as it was |
//! | [`MAX_TILES`] | 10,000 | `413 over-budget`, before building a tiled world (`POST /api/tiles`) |
//! | [`BUILD_TIMEOUT`] | 1 s | `422 over-budget` (limit `build_timeout_ms`): the build is cancelled ([`portolan::build::CancelToken`]) and its thread freed; the scene is kept as it was |
//! | [`CORNER_GRAPH_TIMEOUT`] | 10 s | `422 over-budget` (limit `corner_graph_timeout_ms`) for a `"method": "corner"` query whose world's corner graph (built by the first such query, [`portolan::search::corner_graph::CornerGraph::build_cancellable`]) takes longer; the build is cancelled, later corner queries of that world get the same answer at once, and the other methods still answer |
//!
//! Crowd sessions (`/api/crowd`, [`super::crowd`]):
//!
//! | limit | default | when exceeded |
//! | --- | --- | --- |
//! | [`MAX_CROWDS`] | 8 | `429 too-many-crowds`, unless the session idle longest has been idle for 5 s: it is dropped to make room |
//! | [`MAX_CROWD_AGENTS`] | 5,000 | `413 over-budget` |
//! | [`MAX_CROWD_STEPS`] | 200 | `413 over-budget`: steps of one step request |
//! | [`CROWD_IDLE_TIMEOUT`] | 60 s | the session is dropped (`404 unknown-crowd` afterwards) |
//!
//! A crowd's mesh is built from the world's scene for the crowd's radius under the work budget
//! of a build above.
//!
//! Every build of a request runs with a cancel token that is also cancelled when the request
//! is dropped (the client went away, or [`REQUEST_TIMEOUT`] fired): no build outlives its
//! request.
//!
//! The vertex count includes the points that rounding corners by the agent radius adds. The
//! scene the server starts with is not held to the budget (the operator chose it).

use serde::Serialize;
use std::time::Duration;

/// Largest request head (request line and headers), in bytes.
pub const MAX_HEADER_BYTES: usize = 16 << 10;
/// Largest request body, in bytes (a scene of tens of thousands of vertices fits).
pub const MAX_BODY_BYTES: usize = 1 << 20;
/// Connections served at once.
pub const MAX_CONNECTIONS: usize = 256;
/// Time a connection may take to send a whole request head, counted from the moment the
/// server waits for one: closes idle keep-alive connections and slow headers alike.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(10);
/// Time a client may take to send a whole request body.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// Time the server may take to answer one request, body included.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// Vertices of a scene to build (obstacles, boundary and holes, plus the arc points of the
/// agent radius).
pub const MAX_SCENE_VERTICES: usize = 20_000;
/// Obstacles of a scene to build.
pub const MAX_SCENE_OBSTACLES: usize = 2_000;
/// Pairs of scene edges that cross each other.
pub const MAX_CROSSINGS: usize = 2_000;
/// Polygons of a built mesh.
pub const MAX_MESH_POLYGONS: usize = 50_000;
/// Tiles of a tiled world (`POST /api/tiles`): each is built and stitched on its own.
pub const MAX_TILES: usize = 10_000;
/// Time a build of a client's scene may take before it is cancelled (the scene the server
/// started with has none).
pub const BUILD_TIMEOUT: Duration = Duration::from_secs(1);
/// Time the corner graph of a world (built by its first `"method": "corner"` query) may take
/// before it is cancelled; longer than a mesh build's, as the graph is built once per world
/// (AcrosstheCape's 5,568 polygons take about 1 s; BENCHMARKS.md, "Fast search").
pub const CORNER_GRAPH_TIMEOUT: Duration = Duration::from_secs(10);

/// Crowd sessions held at once.
pub const MAX_CROWDS: usize = 8;
/// Agents of one crowd (the page's slider goes to 2,000).
pub const MAX_CROWD_AGENTS: usize = 5_000;
/// Steps one step request may run (step times: BENCHMARKS.md, "Crowds in the web demo").
pub const MAX_CROWD_STEPS: usize = 200;
/// A crowd session not used for this long is dropped.
pub const CROWD_IDLE_TIMEOUT: Duration = Duration::from_secs(60);

/// The limits one server runs with (the constants above by default; tests shorten the times).
#[derive(Serialize, Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// [`MAX_HEADER_BYTES`].
    pub max_header_bytes: usize,
    /// [`MAX_BODY_BYTES`].
    pub max_body_bytes: usize,
    /// [`MAX_CONNECTIONS`].
    pub max_connections: usize,
    /// [`IDLE_TIMEOUT`], in milliseconds on the wire.
    #[serde(rename = "idle_timeout_ms", serialize_with = "millis")]
    pub idle_timeout: Duration,
    /// [`BODY_TIMEOUT`].
    #[serde(rename = "body_timeout_ms", serialize_with = "millis")]
    pub body_timeout: Duration,
    /// [`REQUEST_TIMEOUT`].
    #[serde(rename = "request_timeout_ms", serialize_with = "millis")]
    pub request_timeout: Duration,
    /// [`MAX_SCENE_VERTICES`].
    pub max_scene_vertices: usize,
    /// [`MAX_SCENE_OBSTACLES`].
    pub max_scene_obstacles: usize,
    /// [`MAX_CROSSINGS`].
    pub max_crossings: usize,
    /// [`MAX_MESH_POLYGONS`].
    pub max_mesh_polygons: usize,
    /// [`MAX_TILES`].
    pub max_tiles: usize,
    /// [`BUILD_TIMEOUT`].
    #[serde(rename = "build_timeout_ms", serialize_with = "millis")]
    pub build_timeout: Duration,
    /// [`CORNER_GRAPH_TIMEOUT`].
    #[serde(rename = "corner_graph_timeout_ms", serialize_with = "millis")]
    pub corner_graph_timeout: Duration,
    /// [`MAX_CROWDS`].
    pub max_crowds: usize,
    /// [`MAX_CROWD_AGENTS`].
    pub max_crowd_agents: usize,
    /// [`MAX_CROWD_STEPS`].
    pub max_crowd_steps: usize,
    /// [`CROWD_IDLE_TIMEOUT`].
    #[serde(rename = "crowd_idle_timeout_ms", serialize_with = "millis")]
    pub crowd_idle_timeout: Duration,
}

fn millis<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(d.as_millis().try_into().unwrap_or(u64::MAX))
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_header_bytes: MAX_HEADER_BYTES,
            max_body_bytes: MAX_BODY_BYTES,
            max_connections: MAX_CONNECTIONS,
            idle_timeout: IDLE_TIMEOUT,
            body_timeout: BODY_TIMEOUT,
            request_timeout: REQUEST_TIMEOUT,
            max_scene_vertices: MAX_SCENE_VERTICES,
            max_scene_obstacles: MAX_SCENE_OBSTACLES,
            max_crossings: MAX_CROSSINGS,
            max_mesh_polygons: MAX_MESH_POLYGONS,
            max_tiles: MAX_TILES,
            build_timeout: BUILD_TIMEOUT,
            corner_graph_timeout: CORNER_GRAPH_TIMEOUT,
            max_crowds: MAX_CROWDS,
            max_crowd_agents: MAX_CROWD_AGENTS,
            max_crowd_steps: MAX_CROWD_STEPS,
            crowd_idle_timeout: CROWD_IDLE_TIMEOUT,
        }
    }
}
