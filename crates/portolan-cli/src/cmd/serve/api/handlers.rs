//! Handlers: one function per route, from a parsed request to an answer.
//!
//! Handlers take the body as bytes, parse it into a [`super::wire`] type, call the library and
//! return a [`Reply`] or an [`ApiError`] (whose status [`super::errors`] decides). Option values
//! are not checked here: the library checks them and its typed error becomes the answer.

use super::errors::ApiError;
use super::limits::Limits;
use super::routes::{Reply, RequestMeta, Route};
use super::wire::{
    BuildSpec, Capabilities, FunnelReply, MeshReply, PathReply, PathRequest, Polyline, SceneReply,
    SceneRequest,
};
use super::world::{App, BuildSettings, Edit, World};
use super::{DECOMPOSITIONS, METHODS, PORTAL_POINTS};
use portolan::search::{resolve_endpoint, Snap};
use portolan::{
    Endpoint, EndpointRole, FunnelTrace, NavMesh, Path, PathError, PathFinder, SearchMethod,
    SearchOptions, Vec2,
};
use std::time::Instant;

pub(super) fn parse<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError::BadJson(e.to_string()))
}

impl App {
    /// Answers one request. `body` is the request body (empty for routes without one).
    pub fn handle(
        &self,
        finder: &mut PathFinder,
        route: Route,
        body: &[u8],
        meta: &RequestMeta,
    ) -> Reply {
        let result = match route {
            Route::Asset(content_type, text) => Ok(Reply::asset(content_type, text)),
            Route::GetScene => Ok(scene_reply(&self.world(), self.limits())),
            Route::SetScene => self.set_scene(body, meta),
            Route::ResetScene => self.reset_scene(meta),
            Route::Path => parse::<PathRequest>(body).and_then(|req| self.path(finder, &req, meta)),
            Route::Tiles(r) => self.tiles(r, body, meta),
            Route::Crowd(r) => self.crowd(r, body),
        };
        result.unwrap_or_else(Reply::from)
    }

    /// `POST /api/scene`: the new scene and/or build options; omitted ones keep their value.
    /// The body's `base_revision` wins over an `If-Match` header when a request has both.
    fn set_scene(&self, body: &[u8], meta: &RequestMeta) -> Result<Reply, ApiError> {
        self.editable()?;
        let req = parse::<SceneRequest>(body)?;
        let world = self.edit(Edit {
            base: req.base_revision.or(meta.if_match),
            budget: true,
            deadline: meta.deadline,
            cancel: meta.cancel.clone(),
            // Under the edit lock: omitted fields keep the values of the world this edit
            // replaces, not of one another edit is replacing meanwhile.
            make: Box::new(move |current: &World| {
                // Editable, so the current world was built from a scene.
                let settings = current.build.unwrap_or_else(BuildSettings::trapezoid);
                let settings = BuildSettings {
                    decomposition: req.build.decomposition.unwrap_or(settings.decomposition),
                    // Checked by the builder (`BuildError::BadOption`, a 400).
                    agent_radius: req.build.agent_radius.unwrap_or(settings.agent_radius),
                    arc_error: req.build.arc_error.unwrap_or(settings.arc_error),
                };
                let scene = req.scene.unwrap_or_else(|| current.scene.clone());
                Ok((scene, settings))
            }),
        })?;
        Ok(scene_reply(&world, self.limits()))
    }

    /// `POST /api/scene/reset`: the scene and options the server started with (not held to the
    /// work budget: the operator chose them).
    fn reset_scene(&self, meta: &RequestMeta) -> Result<Reply, ApiError> {
        let (scene, settings) = self.editable()?;
        let world = self.edit(Edit {
            base: meta.if_match,
            budget: false,
            deadline: meta.deadline,
            cancel: meta.cancel.clone(),
            make: Box::new(|_| Ok((scene.clone(), *settings))),
        })?;
        Ok(scene_reply(&world, self.limits()))
    }

    /// `POST /api/path`.
    // Field by field, not a struct literal: `SearchOptions` is to become `#[non_exhaustive]`
    // (issue 14), and this form compiles before and after.
    #[allow(clippy::field_reassign_with_default)]
    fn path(
        &self,
        finder: &mut PathFinder,
        req: &PathRequest,
        meta: &RequestMeta,
    ) -> Result<Reply, ApiError> {
        let world = self.world();
        debug_assert!(super::method_is_listed(req.method));
        let snap = match req.snap {
            None => Snap::Reject,
            // A negative distance is the library's to refuse (`PathError::InvalidOption`).
            Some(d) => Snap::Within(d),
        };
        let mut options = SearchOptions::default();
        options.method = req.method;
        options.portal_point = req.portal;
        options.snap = snap;
        options.corner_offset = req.corner_offset;
        options.channel = req.channel;
        if req.method == SearchMethod::Corner {
            options.corner_graph = Some(world.corner_graph(self.limits(), meta.cancel.as_ref())?);
        }
        let mesh = &world.mesh;
        let t = Instant::now();
        let result = finder.find_path(mesh, req.start, req.goal, &options);
        let micros = t.elapsed().as_secs_f64() * 1e6;
        let path = match result {
            Ok(p) => p,
            Err(PathError::NoPath) => {
                let trace = trace(mesh, req, snap, None);
                return Ok(Reply::json(&PathReply {
                    revision: world.revision,
                    found: false,
                    reason: Some(PathError::NoPath.to_string()),
                    method: req.method,
                    portal: req.portal,
                    corner_offset: req.corner_offset,
                    start: trace.start,
                    goal: trace.goal,
                    points: Vec::new(),
                    length: 0.0,
                    expanded: 0,
                    micros,
                    bound: None,
                    channel: Vec::new(),
                    funnel: None,
                }));
            }
            Err(e) => return Err(e.into()),
        };
        let trace = trace(mesh, req, snap, Some(&path));
        Ok(Reply::json(&PathReply {
            revision: world.revision,
            found: true,
            reason: None,
            method: req.method,
            portal: req.portal,
            corner_offset: req.corner_offset,
            start: trace.start,
            goal: trace.goal,
            length: path.length,
            expanded: path.expanded,
            micros,
            bound: path.bound,
            channel: path.channel.iter().map(|p| p.0).collect(),
            points: path.points,
            funnel: trace.funnel,
        }))
    }
}

/// What the answer shows beyond the path: the endpoints after snapping and, for the funnel, its
/// portals and steps.
struct Trace {
    start: Vec2,
    goal: Vec2,
    funnel: Option<FunnelReply>,
}

/// What the library knows beyond the path: the resolved (snapped) start and goal and, for the
/// funnel, the channel's portals and every funnel step ([`FunnelTrace::of_path`]). Without a
/// path, the endpoints as the search resolved them (unchanged where they are off the mesh).
fn trace(mesh: &NavMesh, req: &PathRequest, snap: Snap, path: Option<&Path>) -> Trace {
    let resolve = |p, role| resolve_endpoint(mesh, p, snap, role).map_or(p, |e: Endpoint| e.point);
    let Some(path) = path else {
        return Trace {
            start: resolve(req.start, EndpointRole::Start),
            goal: resolve(req.goal, EndpointRole::Goal),
            funnel: None,
        };
    };
    let traced = FunnelTrace::of_path(mesh, path);
    // (Without the channel, no portals to step through.)
    let funnel = (req.method == SearchMethod::Funnel && req.channel).then(|| {
        let midpoints = Polyline {
            length: traced.midpoint_length(),
            points: traced.midpoint_path.clone(),
        };
        FunnelReply {
            portals: traced.portals.clone(),
            steps: traced.steps.clone(),
            midpoints,
        }
    });
    // The exact search has no channel of portals to step through: no funnel for it.
    Trace {
        start: traced.start,
        goal: traced.goal,
        funnel,
    }
}

/// The answer of `GET /api/scene` and of scene edits, encoded once per world.
pub(super) fn scene_reply(w: &World, limits: &Limits) -> Reply {
    let body = w.json.get_or_init(|| encode_scene(w, limits).body);
    Reply {
        status: 200,
        content_type: "application/json",
        body: body.clone(),
        allow: None,
        etag: Some(w.revision),
    }
}

fn encode_scene(w: &World, limits: &Limits) -> Reply {
    debug_assert!(w
        .build
        .is_none_or(|b| super::decomposition_is_listed(b.decomposition)));
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
        tiles: w.tiles.as_ref(),
        capabilities: Capabilities {
            methods: METHODS,
            portal_points: PORTAL_POINTS,
            decompositions: DECOMPOSITIONS,
            max_body_bytes: limits.max_body_bytes,
            limits: *limits,
        },
    })
}

impl From<BuildSettings> for BuildSpec {
    fn from(b: BuildSettings) -> BuildSpec {
        BuildSpec {
            decomposition: Some(b.decomposition),
            agent_radius: Some(b.agent_radius),
            arc_error: Some(b.arc_error),
        }
    }
}
