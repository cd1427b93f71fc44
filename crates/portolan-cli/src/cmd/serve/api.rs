//! The JSON API of `portolan serve`, independent of HTTP plumbing.
//!
//! [`App`] holds the server's one current scene and its mesh (a [`World`]); [`App::handle`] turns
//! a method, a path and a body into a [`Reply`]. Every endpoint is documented in the README
//! ("Web demo" section); the types below are the exact request and response shapes.
//!
//! The server keeps a single scene shared by every client. Each rebuild bumps
//! [`World::revision`]; path replies carry the revision they were computed on, so a page can
//! notice that another tab changed the scene and fetch it again.
//!
//! A server started on a mesh file ([`App::from_mesh`]) has no scene to edit: it answers scene
//! edits with `409 read-only`, and [`SceneReply::editable`] tells the page so.

use portolan::search::funnel::{FunnelStep, Portal};
use portolan::search::Snap;
use portolan::search::{resolve_endpoint, EndpointRole, FunnelTrace};
use portolan::{
    build, BuildError, BuildOptions, Decomposition, NavMesh, Path, PathError, PathFinder,
    PortalPoint, Scene, SceneError, SearchMethod, SearchOptions, Vec2,
};
use serde::{Deserialize, Serialize};
use std::sync::{Arc, RwLock};
use std::time::Instant;

/// Largest request body accepted, in bytes (a scene of tens of thousands of vertices fits).
pub const MAX_BODY_BYTES: usize = 1 << 20;

/// Search methods offered to clients. Adding a [`SearchMethod`] variant breaks
/// [`method_is_listed`]: list it here and give it a branch in [`App::path`].
const METHODS: &[SearchMethod] = &[SearchMethod::Funnel, SearchMethod::Exact];
/// Crossing-point estimates offered to clients.
const PORTAL_POINTS: &[PortalPoint] = &[PortalPoint::TowardGoal, PortalPoint::Midpoint];
/// Decompositions offered to clients (see [`METHODS`] for the exhaustiveness check).
const DECOMPOSITIONS: &[Decomposition] = &[Decomposition::Trapezoid, Decomposition::CdtMerged];

/// Compile-time reminder: a new variant must be added to the lists above.
fn method_is_listed(m: SearchMethod) -> bool {
    match m {
        SearchMethod::Funnel | SearchMethod::Exact => METHODS.contains(&m),
    }
}
/// Compile-time reminder, as [`method_is_listed`].
fn decomposition_is_listed(d: Decomposition) -> bool {
    match d {
        Decomposition::Trapezoid | Decomposition::CdtMerged => DECOMPOSITIONS.contains(&d),
    }
}

/// An HTTP answer: status, content type and body.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// HTTP status code.
    pub status: u16,
    /// `Content-Type` header value.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
    /// `Allow` header value, for 405 answers.
    pub allow: Option<&'static str>,
}

impl Reply {
    /// A JSON body with status 200.
    pub fn json(value: &impl Serialize) -> Reply {
        Reply::json_status(200, value)
    }

    fn json_status(status: u16, value: &impl Serialize) -> Reply {
        match serde_json::to_vec(value) {
            Ok(body) => Reply {
                status,
                content_type: "application/json",
                body,
                allow: None,
            },
            // Our response types hold only finite numbers, strings and vectors.
            Err(e) => Reply::error(500, "internal", &format!("cannot encode the reply: {e}")),
        }
    }

    /// A JSON error `{"error": message, "code": code}`.
    pub fn error(status: u16, code: &'static str, message: &str) -> Reply {
        Reply::error_with(
            status,
            ErrorBody {
                error: message.to_string(),
                code,
                obstacles: Vec::new(),
            },
        )
    }

    fn error_with(status: u16, body: ErrorBody) -> Reply {
        let body = serde_json::to_vec(&body).unwrap_or_else(|_| {
            // Strings and integers always encode.
            br#"{"error":"internal error","code":"internal"}"#.to_vec()
        });
        Reply {
            status,
            content_type: "application/json",
            body,
            allow: None,
        }
    }

    /// A static asset.
    pub fn asset(content_type: &'static str, body: &'static str) -> Reply {
        Reply {
            status: 200,
            content_type,
            body: body.as_bytes().to_vec(),
            allow: None,
        }
    }
}

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
}

/// How the server builds meshes from scenes: the build options a client may change.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BuildSettings {
    /// How free space is cut into convex polygons.
    pub decomposition: Decomposition,
    /// Agent radius ([`BuildOptions::agent_radius`]): finite and ≥ 0.
    pub agent_radius: f64,
}

impl BuildSettings {
    /// The chapter's trapezoid decomposition for a point agent: the figure the demo shows.
    pub fn trapezoid() -> BuildSettings {
        BuildSettings {
            decomposition: Decomposition::Trapezoid,
            agent_radius: 0.0,
        }
    }

    fn options(self) -> BuildOptions {
        BuildOptions::default()
            .with_decomposition(self.decomposition)
            .with_agent_radius(self.agent_radius)
    }
}

/// The current scene, its mesh and what the page needs to draw them.
#[derive(Debug)]
pub struct World {
    /// Bumped on every rebuild.
    pub revision: u64,
    /// The obstacles; for a mesh read from a file, only its bounds.
    pub scene: Scene,
    /// How the mesh was built from the scene; `None` for a mesh read from a file.
    pub build: Option<BuildSettings>,
    /// The mesh.
    pub mesh: NavMesh,
    /// A sensible start and goal for this scene.
    pub defaults: Defaults,
    /// How long the build took, in milliseconds (0 for a mesh read from a file).
    pub build_ms: f64,
}

/// Default start and goal.
#[derive(Serialize, Debug, Clone, Copy, PartialEq)]
pub struct Defaults {
    /// Start.
    pub start: Vec2,
    /// Goal.
    pub goal: Vec2,
}

impl World {
    /// Builds the mesh of `scene`.
    pub fn build(
        scene: Scene,
        settings: BuildSettings,
        revision: u64,
    ) -> Result<World, BuildError> {
        let t = Instant::now();
        let mesh = build(&scene, &settings.options())?;
        let build_ms = t.elapsed().as_secs_f64() * 1e3;
        let defaults = default_query(&scene, &mesh);
        Ok(World {
            revision,
            scene,
            build: Some(settings),
            mesh,
            defaults,
            build_ms,
        })
    }

    /// A world around a ready-made mesh: nothing to edit, only its bounds to draw.
    pub fn from_mesh(mesh: NavMesh) -> World {
        let scene = Scene::new(mesh.bounds());
        let defaults = default_query(&scene, &mesh);
        World {
            revision: 1,
            scene,
            build: None,
            mesh,
            defaults,
            build_ms: 0.0,
        }
    }
}

/// The default query of the default map when it is on the mesh and connected; elsewhere the
/// centres of the polygons nearest the lower-left and upper-right corners of the bounds, among
/// those of the largest (by area) connected part of the mesh, so that a path exists.
fn default_query(scene: &Scene, mesh: &NavMesh) -> Defaults {
    let part = mesh.connected_components();
    let part_of = |p: Vec2| mesh.locate(p).polygon().map(|id| part[id.index()]);
    let (s, g) = (Scene::DEFAULT_START, Scene::DEFAULT_GOAL);
    if *scene == Scene::default_map() && part_of(s).is_some() && part_of(s) == part_of(g) {
        return Defaults { start: s, goal: g };
    }
    let mut area = vec![0.0; mesh.polygon_count()];
    for p in mesh.polygons() {
        let ring: Vec<Vec2> = mesh.polygon_points(p).collect();
        area[part[p.index()] as usize] += portolan::geom::signed_area(&ring).abs();
    }
    let largest = (0..area.len())
        .max_by(|&a, &b| area[a].total_cmp(&area[b]))
        .unwrap_or(0);
    let b = mesh.bounds();
    let nearest = |corner: Vec2| {
        mesh.polygons()
            .filter(|p| part[p.index()] as usize == largest)
            .map(|p| mesh.centroid(p))
            .min_by(|a, c| a.distance(corner).total_cmp(&c.distance(corner)))
            // A mesh has at least one polygon (BuildError::NoWalkableSpace, ReadError
            // otherwise), and the largest part holds one.
            .unwrap_or(corner)
    };
    Defaults {
        start: nearest(b.min),
        goal: nearest(b.max),
    }
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
    /// Build time in milliseconds.
    pub build_ms: f64,
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
    /// Largest request body accepted.
    pub max_body_bytes: usize,
}

/// Build options of a scene edit; omitted fields keep their current value. Answers carry both.
#[derive(Deserialize, Serialize, Debug, Clone, Copy, Default)]
#[serde(deny_unknown_fields)]
pub struct BuildSpec {
    /// `"trapezoid"` (the chapter's) or `"cdt-merged"` (any obstacles).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decomposition: Option<Decomposition>,
    /// Agent radius: obstacles grow and the border shrinks by it. Finite and ≥ 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_radius: Option<f64>,
}

impl From<BuildSettings> for BuildSpec {
    fn from(b: BuildSettings) -> BuildSpec {
        BuildSpec {
            decomposition: Some(b.decomposition),
            agent_radius: Some(b.agent_radius),
        }
    }
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
    /// absent rejects off-mesh points.
    #[serde(default)]
    pub snap: Option<f64>,
    /// Push each turning point of the path this far out along its corner's outer bisector
    /// ([`SearchOptions::corner_offset`]): finite and ≥ 0, default 0 (none).
    #[serde(default)]
    pub corner_offset: f64,
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
    /// Polygon ids from start to goal.
    pub channel: Vec<u32>,
    /// What the funnel did (method `funnel` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub funnel: Option<FunnelReply>,
}

/// The funnel's work, for drawing and single-stepping.
#[derive(Serialize, Debug)]
pub struct FunnelReply {
    /// The channel's portals as the funnel sees them: the start (zero width), each shared edge
    /// with its left and right endpoint (y up), the goal (zero width).
    pub portals: Vec<Portal>,
    /// Every [`Funnel::step`](portolan::search::Funnel::step), in order. Before the first step the apex is the start. The corners
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

/// The server's state: the current world and the scene it started with (`None` when serving a
/// mesh file, which cannot be edited).
#[derive(Debug)]
pub struct App {
    initial: Option<(Scene, BuildSettings)>,
    world: RwLock<Arc<World>>,
}

/// Routes of the API and the pages.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// `GET /`, `/index.html`, `/app.js`, `/style.css`.
    Asset(&'static str, &'static str),
    /// `GET /api/scene`.
    GetScene,
    /// `POST /api/scene`.
    SetScene,
    /// `POST /api/scene/reset`.
    ResetScene,
    /// `POST /api/path`.
    Path,
}

impl Route {
    /// Whether the route reads a request body.
    pub fn takes_body(self) -> bool {
        matches!(self, Route::SetScene | Route::Path)
    }
}

/// Maps a method and path (query string ignored) to a route, or the 404/405 answer.
pub fn route(method: &str, url: &str) -> Result<Route, Reply> {
    let path = url.split(['?', '#']).next().unwrap_or("");
    let (allow, route) = match path {
        "/" | "/index.html" => (
            "GET, HEAD",
            Route::Asset("text/html; charset=utf-8", super::assets::INDEX_HTML),
        ),
        "/app.js" => (
            "GET, HEAD",
            Route::Asset("text/javascript; charset=utf-8", super::assets::APP_JS),
        ),
        "/style.css" => (
            "GET, HEAD",
            Route::Asset("text/css; charset=utf-8", super::assets::STYLE_CSS),
        ),
        "/api/scene" => match method {
            "POST" => return Ok(Route::SetScene),
            _ => ("GET, HEAD, POST", Route::GetScene),
        },
        "/api/scene/reset" => ("POST", Route::ResetScene),
        "/api/path" => ("POST", Route::Path),
        _ => {
            return Err(Reply::error(
                404,
                "not-found",
                &format!("no such resource: {path}"),
            ))
        }
    };
    let ok = match route {
        Route::Asset(..) | Route::GetScene => matches!(method, "GET" | "HEAD"),
        Route::SetScene | Route::ResetScene | Route::Path => method == "POST",
    };
    if ok {
        Ok(route)
    } else {
        let mut r = Reply::error(
            405,
            "method-not-allowed",
            &format!("{method} is not allowed on {path}; use {allow}"),
        );
        r.allow = Some(allow);
        Err(r)
    }
}

fn parse<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, Reply> {
    serde_json::from_slice(body).map_err(|e| {
        Reply::error(
            400,
            "bad-json",
            &format!("the request body is not valid for this endpoint: {e}"),
        )
    })
}

impl App {
    /// A server state starting from `scene` built with `settings`.
    pub fn new(scene: Scene, settings: BuildSettings) -> Result<App, BuildError> {
        let world = World::build(scene.clone(), settings, 1)?;
        Ok(App {
            initial: Some((scene, settings)),
            world: RwLock::new(Arc::new(world)),
        })
    }

    /// A server state serving a ready-made mesh (a Polyanya `.mesh` file, say): paths only, no
    /// scene edits.
    pub fn from_mesh(mesh: NavMesh) -> App {
        App {
            initial: None,
            world: RwLock::new(Arc::new(World::from_mesh(mesh))),
        }
    }

    /// The current world.
    pub fn world(&self) -> Arc<World> {
        // A poisoned lock only means a writer panicked between two whole assignments of an
        // `Arc`; the value inside is still a complete world.
        match self.world.read() {
            Ok(w) => Arc::clone(&w),
            Err(p) => Arc::clone(&p.into_inner()),
        }
    }

    fn replace(&self, scene: Scene, settings: BuildSettings) -> Result<Arc<World>, Reply> {
        let mut world = World::build(scene, settings, 0)
            .map_err(|e| Reply::error_with(422, build_error_body(&e)))?;
        let mut slot = match self.world.write() {
            Ok(w) => w,
            Err(p) => p.into_inner(),
        };
        // Numbered under the lock, so concurrent edits still get increasing revisions.
        world.revision = slot.revision + 1;
        let world = Arc::new(world);
        *slot = Arc::clone(&world);
        Ok(world)
    }

    /// Answers one request. `body` is the request body (empty for routes without one).
    pub fn handle(&self, finder: &mut PathFinder, route: Route, body: &[u8]) -> Reply {
        let result = match route {
            Route::Asset(content_type, text) => Ok(Reply::asset(content_type, text)),
            Route::GetScene => Ok(scene_reply(&self.world())),
            Route::SetScene => self.read_only().and_then(|()| {
                let req = parse::<SceneRequest>(body)?;
                let current = self.world();
                // Editable, so the current world was built from a scene.
                let settings = current.build.unwrap_or_else(BuildSettings::trapezoid);
                let settings = BuildSettings {
                    decomposition: req.build.decomposition.unwrap_or(settings.decomposition),
                    agent_radius: match req.build.agent_radius {
                        None => settings.agent_radius,
                        Some(r) if r.is_finite() && r >= 0.0 => r,
                        Some(r) => {
                            return Err(Reply::error(
                                400,
                                "bad-agent-radius",
                                &format!("agent_radius must be a finite distance ≥ 0, got {r}"),
                            ))
                        }
                    },
                };
                let scene = req.scene.unwrap_or_else(|| current.scene.clone());
                self.replace(scene, settings).map(|w| scene_reply(&w))
            }),
            Route::ResetScene => self.read_only().and_then(|()| match &self.initial {
                Some((scene, settings)) => self
                    .replace(scene.clone(), *settings)
                    .map(|w| scene_reply(&w)),
                None => Ok(scene_reply(&self.world())),
            }),
            Route::Path => parse::<PathRequest>(body).and_then(|req| self.path(finder, &req)),
        };
        result.unwrap_or_else(|e| e)
    }

    /// `409 read-only` when the server serves a mesh file.
    fn read_only(&self) -> Result<(), Reply> {
        match self.initial {
            Some(_) => Ok(()),
            None => Err(Reply::error(
                409,
                "read-only",
                "this server serves a mesh file: there is no scene to edit or rebuild",
            )),
        }
    }

    fn path(&self, finder: &mut PathFinder, req: &PathRequest) -> Result<Reply, Reply> {
        let world = self.world();
        let snap = match req.snap {
            None => Snap::Reject,
            Some(d) if d.is_finite() && d >= 0.0 => Snap::Within(d),
            Some(d) => {
                return Err(Reply::error(
                    400,
                    "bad-snap",
                    &format!("snap must be a finite distance ≥ 0, got {d}"),
                ))
            }
        };
        let corner_offset = req.corner_offset;
        if !(corner_offset.is_finite() && corner_offset >= 0.0) {
            return Err(Reply::error(
                400,
                "bad-corner-offset",
                &format!("corner_offset must be a finite distance ≥ 0, got {corner_offset}"),
            ));
        }
        debug_assert!(method_is_listed(req.method));
        let mut options = SearchOptions::with_portal_point(req.portal);
        options.method = req.method;
        options.snap = snap;
        options.corner_offset = corner_offset;
        let mesh = &world.mesh;
        let t = Instant::now();
        let result = finder.find_path(mesh, req.start, req.goal, &options);
        let micros = t.elapsed().as_secs_f64() * 1e6;
        let path = match result {
            Ok(p) => p,
            Err(PathError::NoPath) => {
                let (start, goal) = resolved(mesh, req, snap);
                return Ok(Reply::json(&PathReply {
                    revision: world.revision,
                    found: false,
                    reason: Some(PathError::NoPath.to_string()),
                    method: req.method,
                    portal: req.portal,
                    corner_offset,
                    start,
                    goal,
                    points: Vec::new(),
                    length: 0.0,
                    expanded: 0,
                    micros,
                    channel: Vec::new(),
                    funnel: None,
                }));
            }
            Err(e) => return Err(Reply::error(422, path_error_code(&e), &e.to_string())),
        };
        let (start, goal) = match (path.points.first(), path.points.last()) {
            (Some(&s), Some(&g)) => (s, g),
            _ => resolved(mesh, req, snap),
        };
        let funnel = match req.method {
            SearchMethod::Funnel => Some(funnel_reply(mesh, &path)),
            // The exact search has no channel of portals to step through.
            SearchMethod::Exact => None,
        };
        Ok(Reply::json(&PathReply {
            revision: world.revision,
            found: true,
            reason: None,
            method: req.method,
            portal: req.portal,
            corner_offset,
            start,
            goal,
            length: path.length,
            expanded: path.expanded,
            micros,
            channel: path.channel.iter().map(|p| p.0).collect(),
            points: path.points,
            funnel,
        }))
    }
}

/// The start and goal after snapping, for answers without a path.
fn resolved(mesh: &NavMesh, req: &PathRequest, snap: Snap) -> (Vec2, Vec2) {
    let point = |p, which| resolve_endpoint(mesh, p, snap, which).map_or(p, |e| e.point);
    (
        point(req.start, EndpointRole::Start),
        point(req.goal, EndpointRole::Goal),
    )
}

fn funnel_reply(mesh: &NavMesh, path: &Path) -> FunnelReply {
    let trace = FunnelTrace::of_path(mesh, path);
    FunnelReply {
        midpoints: Polyline {
            length: trace.midpoint_length(),
            points: trace.midpoint_path,
        },
        portals: trace.portals,
        steps: trace.steps,
    }
}

fn path_error_code(e: &PathError) -> &'static str {
    match e {
        PathError::NonFinite { .. } => "non-finite",
        PathError::StartOffMesh(_) => "start-off-mesh",
        PathError::GoalOffMesh(_) => "goal-off-mesh",
        PathError::NoPath => "no-path",
        PathError::SearchLimit { .. } => "search-limit",
        PathError::Unsupported { .. } => "unsupported",
        PathError::InvalidOption { .. } => "invalid-option",
        PathError::ForeignData { .. } => "foreign-data",
        // `PathError` is non-exhaustive: errors added later.
        _ => "path-error",
    }
}

/// A 422 body naming the obstacles at fault.
fn build_error_body(e: &BuildError) -> ErrorBody {
    let (code, obstacles) = match e {
        BuildError::Scene(SceneError::BadBounds { .. }) => ("bad-bounds", vec![]),
        BuildError::Scene(
            SceneError::NonFinite { obstacle, .. }
            | SceneError::TooFewVertices { obstacle, .. }
            | SceneError::DuplicateVertex { obstacle, .. }
            | SceneError::ZeroArea { obstacle }
            | SceneError::SelfIntersecting { obstacle, .. }
            | SceneError::OutsideBounds { obstacle, .. },
        ) => ("bad-obstacle", vec![*obstacle]),
        BuildError::NotConvex { obstacle, .. } => ("not-convex", vec![*obstacle]),
        BuildError::Overlap { first, second } => ("overlap", vec![*first, *second]),
        BuildError::Scene(SceneError::Boundary(_)) => ("bad-boundary", vec![]),
        BuildError::Scene(SceneError::Hole { obstacle, .. }) => ("bad-hole", vec![*obstacle]),
        BuildError::Scene(SceneError::HoleWithoutObstacle { .. }) => ("bad-hole", vec![]),
        BuildError::Unsupported(_) => ("unsupported", vec![]),
        BuildError::BadOption { .. } => ("bad-option", vec![]),
        BuildError::NoWalkableSpace => ("no-walkable-space", vec![]),
        // An internal mesh error, coordinates the triangulation cannot take, or variants added as
        // the builders grow: no obstacle to name.
        _ => ("build-failed", vec![]),
    };
    ErrorBody {
        error: e.to_string(),
        code,
        obstacles,
    }
}

fn scene_reply(w: &World) -> Reply {
    debug_assert!(w
        .build
        .is_none_or(|b| decomposition_is_listed(b.decomposition)));
    let mesh = &w.mesh;
    Reply::json(&SceneReply {
        revision: w.revision,
        scene: &w.scene,
        editable: w.build.is_some(),
        build: w.build.map(BuildSpec::from),
        mesh: MeshReply {
            polygons: mesh
                .polygons()
                .map(|p| mesh.polygon_points(p).collect())
                .collect(),
            polygon_count: mesh.polygon_count(),
            vertex_count: mesh.vertex_count(),
        },
        defaults: w.defaults,
        build_ms: w.build_ms,
        capabilities: Capabilities {
            methods: METHODS,
            portal_points: PORTAL_POINTS,
            decompositions: DECOMPOSITIONS,
            max_body_bytes: MAX_BODY_BYTES,
        },
    })
}
