//! Crowd sessions: many agents moving on the current world's scene, simulated by
//! [`portolan::crowd::Crowd`] on the server, one session per page.
//!
//! ```text
//! POST   /api/crowd               {agents, scenario, radius, speed, seed, search} → a session
//! POST   /api/crowd/{id}/step     {steps, dt}        → positions after the steps, mean step time
//! POST   /api/crowd/{id}/goal     {agents, goal, spread, snap}  → the agents' new goals
//! GET    /api/crowd/{id}          → positions and goals now (no step)
//! DELETE /api/crowd/{id}          → the session is dropped
//! ```
//!
//! **Mesh.** A crowd moves on a mesh of its own, built from the world's scene for its agents'
//! radius (obstacles inflated by it, [`portolan::BuildOptions::agent_radius`]; always with the
//! CDT, since inflated obstacles overlap where gaps are narrower than a diameter), under the same
//! work budget and build timeout as a scene edit. A server serving a mesh file has no scene:
//! the crowd moves on that mesh as it is. When the world's scene changes (a new revision: a scene
//! edit or reset, or a tiled edit of [`super::dynamic`], door toggles included), the next step
//! rebuilds the crowd's mesh and hands it over with [`Crowd::set_mesh`] (the library's hook for
//! dynamic obstacles): agents are put back on the new mesh and replan. The sessions of one
//! revision and radius share their mesh and corner graph: after an edit, the first of them to
//! step builds them for all (`Shared`).
//!
//! **Plans.** `"search"` picks how the agents plan ([`CrowdOptions::search`]): `"funnel"`, the
//! chapter's channel search (the default); `"exact"`, every agent on a shortest route; or
//! `"corner"`, the same routes through a corner graph of the crowd's mesh, built with the
//! crowd within `corner_graph_timeout_ms` (past it, `422 over-budget`) and again after each
//! scene change (past it then, the agents plan exactly until the next change; the answers'
//! `graph` says which).
//!
//! **Scenarios on a map.** `random`: starts and goals uniform on the largest connected part of
//! the mesh, 2.4 radii apart and two radii from its walls. `circle`: the library's circle scenario
//! ([`portolan::crowd::scenarios::Scenario::circle`]) fitted to the map: concentric rings
//! around the centre of the bounds, slots 3 radii apart along a ring and rings 3 radii apart,
//! each agent going to the antipode of its slot; a slot is kept only when both it and its
//! antipode are on the largest connected part, so the kept set stays symmetric (`no-room` when
//! fewer than the agents asked for fit).
//!
//! **Sending agents** to a point spreads their goals over a hexagonal lattice around it (3
//! radii apart, on the same connected part), so that they can all stand there: the nearest
//! agents take the innermost ring, and within a ring agents and slots are matched by angle,
//! so nobody crosses the group to reach the far side.
//!
//! **Transport.** One step request advances K steps of `dt` and answers the positions after the
//! last as a flat array `[x0, y0, x1, y1, …]` of `f32` (in the agents' order, which never
//! changes): for 2,000 agents about 30 kB of JSON. A page asks for a few steps per animation
//! frame, keeps one request in flight while it draws, and interpolates between answers.
//!
//! **Limits** ([`super::limits`]): at most [`Limits::max_crowds`] sessions (at the cap, the one
//! idle longest makes room if it has been idle for [`EVICT_AFTER`], else `429 too-many-crowds`),
//! [`Limits::max_crowd_agents`] agents each, [`Limits::max_crowd_steps`] steps per request;
//! a session not used for [`Limits::crowd_idle_timeout`] is dropped.

use super::budget;
use super::errors::ApiError;
use super::limits::Limits;
use super::routes::{Reply, Route};
use super::world::{build_graph_within, App, World};
use portolan::crowd::scenarios::{random_pairs_with_room, ScenarioError};
use portolan::crowd::{AgentId, AgentParams, Crowd, CrowdError, CrowdOptions};
use portolan::search::corner_graph::CornerGraph;
use portolan::search::SearchMethod;
use portolan::{build, BuildError, BuildOptions, Decomposition, NavMesh, PolyId, Vec2};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// A session idle this long may be dropped to make room for a new one at the cap.
pub const EVICT_AFTER: Duration = Duration::from_secs(5);
/// Spacing of start and goal slots, in radii (as the library's scenarios).
const SPACING: f64 = 2.4;
/// Spacing of circle slots and of the goals of a send, in radii: room to walk between agents
/// already standing.
const PITCH: f64 = 3.0;
/// A move of at most this fraction of the radius per step keeps overlaps under 5% of the radii
/// sum (the library's `scenarios::DT` rule); the default `dt` follows it.
const MOVE_PER_STEP: f64 = 0.15;

/// The crowd routes, parsed from the path after `/api/crowd`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CrowdRoute {
    /// `POST /api/crowd`.
    Create,
    /// `GET /api/crowd/{id}`.
    Get(u64),
    /// `DELETE /api/crowd/{id}`.
    Delete(u64),
    /// `POST /api/crowd/{id}/step`.
    Step(u64),
    /// `POST /api/crowd/{id}/goal`.
    Goal(u64),
}

/// Routes a path under `/api/crowd`: `None` when it is not one of the crowd paths (404), or the
/// route, or the 405 answer's `Allow` value.
pub fn route(method: &str, path: &str) -> Option<Result<Route, &'static str>> {
    let rest = path.strip_prefix("/api/crowd")?;
    let one = |allow: &'static str, ok: bool, r: CrowdRoute| {
        Some(if ok { Ok(Route::Crowd(r)) } else { Err(allow) })
    };
    if rest.is_empty() {
        return one("POST", method == "POST", CrowdRoute::Create);
    }
    let rest = rest.strip_prefix('/')?;
    let (id, tail) = rest.split_once('/').unwrap_or((rest, ""));
    // Ids are decimal; anything else is not a crowd path.
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let id: u64 = id.parse().ok()?;
    match tail {
        "" => match method {
            "GET" | "HEAD" => one("", true, CrowdRoute::Get(id)),
            "DELETE" => one("", true, CrowdRoute::Delete(id)),
            _ => Some(Err("GET, HEAD, DELETE")),
        },
        "step" => one("POST", method == "POST", CrowdRoute::Step(id)),
        "goal" => one("POST", method == "POST", CrowdRoute::Goal(id)),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Wire shapes

/// How the agents of a new crowd are placed.
#[derive(Deserialize, Serialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum ScenarioName {
    /// Random starts and goals.
    #[default]
    Random,
    /// Rings around the centre, each agent going to the antipode.
    Circle,
}

/// How a crowd's agents plan (`"search"` of a create request; [`CrowdOptions::search`]).
#[derive(Deserialize, Serialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum PlanName {
    /// The chapter's channel search (the library's default).
    #[default]
    Funnel,
    /// Polyanya: every agent walks a shortest route.
    Exact,
    /// The same routes through a corner graph of the crowd's mesh, built with the crowd (and
    /// again after each scene change) within `corner_graph_timeout_ms`.
    Corner,
}

impl PlanName {
    fn method(self) -> SearchMethod {
        match self {
            PlanName::Funnel => SearchMethod::Funnel,
            PlanName::Exact => SearchMethod::Exact,
            PlanName::Corner => SearchMethod::Corner,
        }
    }
}

/// `POST /api/crowd` request.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    /// Number of agents, 1..=`max_crowd_agents`.
    pub agents: usize,
    /// `"random"` (default) or `"circle"`.
    #[serde(default)]
    pub scenario: ScenarioName,
    /// Agent radius, ≥ 0 (default 3).
    #[serde(default = "default_radius")]
    pub radius: f64,
    /// Top speed, units per second, > 0 (default 40).
    #[serde(default = "default_speed")]
    pub speed: f64,
    /// Seed of the placement (default 1).
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// How agents plan: `"funnel"` (default), `"exact"` or `"corner"`.
    #[serde(default)]
    pub search: PlanName,
}

fn default_radius() -> f64 {
    3.0
}
fn default_speed() -> f64 {
    40.0
}
fn default_seed() -> u64 {
    1
}

/// `POST /api/crowd/{id}/step` request.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct StepRequest {
    /// Steps to run, 1..=`max_crowd_steps` (default 1).
    #[serde(default = "one")]
    pub steps: usize,
    /// Time step in seconds, finite and > 0 (default: the crowd's `dt`).
    #[serde(default)]
    pub dt: Option<f64>,
}

fn one() -> usize {
    1
}

/// `POST /api/crowd/{id}/goal` request.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct GoalRequest {
    /// The agents to send, by id; `null` or absent sends every agent.
    #[serde(default)]
    pub agents: Option<Vec<u64>>,
    /// Where to.
    pub goal: Vec2,
    /// Spread the goals around `goal` so that every agent has a place to stand (default true);
    /// `false` sends all to the very point.
    #[serde(default = "super::wire::yes")]
    pub spread: bool,
    /// Move an off-mesh goal onto the mesh within this distance; `null` refuses it
    /// (`goal-off-mesh`).
    #[serde(default)]
    pub snap: Option<f64>,
}

/// A crowd's state as answered by every crowd endpoint.
#[derive(Serialize, Debug)]
pub struct CrowdReply {
    /// The session's id.
    pub crowd: u64,
    /// The scene revision the crowd's mesh was built from.
    pub revision: u64,
    /// Agents.
    pub agents: usize,
    /// Agent radius.
    pub radius: f64,
    /// Top speed.
    pub speed: f64,
    /// The default time step (an agent moves at most 0.15 radius per step).
    pub dt: f64,
    /// Steps run so far.
    pub steps: u64,
    /// Simulated seconds so far.
    pub time: f64,
    /// Agents at their goal.
    pub arrived: usize,
    /// How agents plan, as asked (`"corner"` plans exactly while its graph is missing: see
    /// `graph`).
    pub search: PlanName,
    /// With `"corner"`: whether the crowd's mesh has its corner graph (its build can pass
    /// `corner_graph_timeout_ms`; the agents then plan exactly).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub graph: Option<bool>,
    /// Agent ids, in the order of `positions` (never changes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ids: Option<Vec<u64>>,
    /// `[x0, y0, x1, y1, …]`.
    pub positions: Vec<f32>,
    /// Goals, as `positions` (create, goal and get answers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goals: Option<Vec<f32>>,
    /// Steps run by this request (step answers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ran: Option<usize>,
    /// Mean wall time of one `Crowd::step` in this request, milliseconds (step answers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step_ms: Option<f64>,
    /// Path queries run by this request (step answers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replans: Option<usize>,
    /// Agents sent (goal answers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sent: Option<usize>,
    /// How long building the crowd's mesh and placing the agents took, ms (create answers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub build_ms: Option<f64>,
}

// ---------------------------------------------------------------------------------------------
// Sessions

/// One crowd and what the page needs besides it.
#[derive(Debug)]
struct Sim {
    crowd: Crowd,
    search: PlanName,
    radius: f64,
    speed: f64,
    dt: f64,
    time: f64,
    revision: u64,
    arrived: usize,
}

#[derive(Debug)]
struct Session {
    sim: Mutex<Sim>,
    last_used: Mutex<Instant>,
}

impl Session {
    fn touch(&self) {
        *relock(&self.last_used) = Instant::now();
    }
    fn idle(&self, now: Instant) -> Duration {
        now.saturating_duration_since(*relock(&self.last_used))
    }
}

/// A poisoned lock only means a handler panicked; a crowd is never left half-stepped in a way
/// that breaks it (each step writes whole agents), so carry on with it.
fn relock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    match m.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}

/// The crowd sessions of a server.
#[derive(Debug, Default)]
pub struct Crowds {
    inner: Mutex<Store>,
    /// The meshes and corner graphs of the world's current revision, shared by its sessions.
    meshes: Shared,
}

/// How many (radius, mesh) pairs of the world's current revision [`Shared`] keeps: the page
/// offers a handful of radii, and a mesh past these is built again when asked for.
const SHARED_MESHES: usize = 4;

/// The crowd meshes of the world's current revision, one per radius, each with its corner
/// graph once one is built: every session of that revision and radius moves on the same mesh
/// (an [`Arc`]), and after a scene edit the first session to step builds the new mesh for all
/// the others of its radius, which would each have built their own. Builds run outside the
/// lock (another request never waits for one); two sessions that miss at once each build,
/// and the first stored is kept. A revision newer than the one kept empties it (the world
/// never goes back). Failures (a build past its timeout or budget) are not kept: the next
/// request tries again.
#[derive(Debug, Default)]
struct Shared {
    inner: Mutex<SharedMeshes>,
}

#[derive(Debug, Default)]
struct SharedMeshes {
    revision: u64,
    /// The most recently used first.
    meshes: Vec<SharedMesh>,
}

/// A crowd mesh of [`SharedMeshes::revision`].
#[derive(Debug, Clone)]
struct SharedMesh {
    /// The agents' radius, as bits (the key).
    radius: u64,
    mesh: Arc<NavMesh>,
    /// Its corner graph, once built.
    graph: Option<Arc<CornerGraph>>,
}

impl Shared {
    /// The mesh of a crowd of `radius` on `world` ([`crowd_mesh`]), shared with the other
    /// sessions of its revision and radius.
    fn mesh(&self, world: &World, radius: f64, limits: &Limits) -> Result<Arc<NavMesh>, ApiError> {
        let key = radius.to_bits();
        if let Some(mesh) = self
            .find(world.revision, |e| e.radius == key)
            .map(|e| e.mesh)
        {
            return Ok(mesh);
        }
        let mesh = crowd_mesh(world, radius, limits)?;
        let mut shared = relock(&self.inner);
        if shared.revision > world.revision {
            // The world moved on meanwhile: this mesh is the caller's alone.
            return Ok(mesh);
        }
        if shared.revision < world.revision {
            shared.revision = world.revision;
            shared.meshes.clear();
        }
        if let Some(e) = shared.meshes.iter().find(|e| e.radius == key) {
            // Another request stored one first: everybody gets that one.
            return Ok(Arc::clone(&e.mesh));
        }
        let entry = SharedMesh {
            radius: key,
            mesh: Arc::clone(&mesh),
            graph: None,
        };
        shared.meshes.insert(0, entry);
        shared.meshes.truncate(SHARED_MESHES);
        Ok(mesh)
    }

    /// The corner graph of `mesh`, a mesh of `world`'s revision ([`crowd_graph`]), shared like
    /// the mesh.
    fn graph(
        &self,
        revision: u64,
        mesh: &Arc<NavMesh>,
        limits: &Limits,
    ) -> Result<Arc<CornerGraph>, ApiError> {
        let same = |e: &SharedMesh| Arc::ptr_eq(&e.mesh, mesh);
        if let Some(graph) = self.find(revision, same).and_then(|e| e.graph) {
            return Ok(graph);
        }
        let graph = crowd_graph(mesh, limits)?;
        let mut shared = relock(&self.inner);
        if shared.revision == revision {
            if let Some(entry) = shared.meshes.iter_mut().find(|e| same(e)) {
                return Ok(Arc::clone(entry.graph.get_or_insert(graph)));
            }
        }
        Ok(graph)
    }

    /// The entry of `revision` that `hit` picks, moved to the front (most recently used).
    fn find(&self, revision: u64, hit: impl Fn(&SharedMesh) -> bool) -> Option<SharedMesh> {
        let mut shared = relock(&self.inner);
        if shared.revision != revision {
            return None;
        }
        let k = shared.meshes.iter().position(hit)?;
        let entry = shared.meshes.remove(k);
        shared.meshes.insert(0, entry.clone());
        Some(entry)
    }
}

#[derive(Debug, Default)]
struct Store {
    next: u64,
    sessions: BTreeMap<u64, Arc<Session>>,
}

impl Crowds {
    /// Drops sessions idle past the timeout.
    fn expire(store: &mut Store, limits: &Limits, now: Instant) {
        store
            .sessions
            .retain(|_, s| s.idle(now) < limits.crowd_idle_timeout);
    }

    fn get(&self, id: u64, limits: &Limits) -> Result<Arc<Session>, ApiError> {
        let mut store = relock(&self.inner);
        Crowds::expire(&mut store, limits, Instant::now());
        let s = store
            .sessions
            .get(&id)
            .cloned()
            .ok_or(ApiError::UnknownCrowd(id))?;
        s.touch();
        Ok(s)
    }

    fn insert(&self, sim: Sim, limits: &Limits) -> Result<u64, ApiError> {
        let mut store = relock(&self.inner);
        let now = Instant::now();
        Crowds::expire(&mut store, limits, now);
        if store.sessions.len() >= limits.max_crowds {
            let oldest = store
                .sessions
                .iter()
                .map(|(&id, s)| (s.idle(now), id))
                .max()
                .filter(|(idle, _)| *idle >= EVICT_AFTER);
            match oldest {
                Some((_, id)) => {
                    store.sessions.remove(&id);
                }
                None => {
                    return Err(ApiError::TooManyCrowds {
                        max: limits.max_crowds,
                    })
                }
            }
        }
        let id = store.next;
        store.next += 1;
        store.sessions.insert(
            id,
            Arc::new(Session {
                sim: Mutex::new(sim),
                last_used: Mutex::new(now),
            }),
        );
        Ok(id)
    }

    fn remove(&self, id: u64) -> Result<(), ApiError> {
        let mut store = relock(&self.inner);
        store
            .sessions
            .remove(&id)
            .map(|_| ())
            .ok_or(ApiError::UnknownCrowd(id))
    }
}

// ---------------------------------------------------------------------------------------------
// Handlers

fn parse<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError::BadJson(e.to_string()))
}

impl App {
    /// Answers one crowd request.
    pub(super) fn crowd(&self, route: CrowdRoute, body: &[u8]) -> Result<Reply, ApiError> {
        let limits = *self.limits();
        match route {
            CrowdRoute::Create => {
                let req = parse::<CreateRequest>(body)?;
                let (sim, build_ms) = create(&self.world(), &req, &limits, &self.crowds.meshes)?;
                let mut reply = snapshot(&sim, 0);
                reply.ids = Some(sim.crowd.agents().iter().map(|a| a.id().0).collect());
                reply.goals = Some(goals_of(&sim.crowd));
                reply.build_ms = Some(build_ms);
                let id = self.crowds.insert(sim, &limits)?;
                reply.crowd = id;
                Ok(Reply::json(&reply))
            }
            CrowdRoute::Get(id) => {
                let s = self.crowds.get(id, &limits)?;
                let sim = relock(&s.sim);
                let mut reply = snapshot(&sim, id);
                reply.ids = Some(sim.crowd.agents().iter().map(|a| a.id().0).collect());
                reply.goals = Some(goals_of(&sim.crowd));
                Ok(Reply::json(&reply))
            }
            CrowdRoute::Delete(id) => {
                self.crowds.remove(id)?;
                Ok(Reply::json(&serde_json::json!({ "deleted": id })))
            }
            CrowdRoute::Step(id) => {
                let req = parse::<StepRequest>(body)?;
                let s = self.crowds.get(id, &limits)?;
                let mut sim = relock(&s.sim);
                self.follow_world(&mut sim, &limits)?;
                let (ran, step_ms, replans) = step(&mut sim, &req, &limits)?;
                let mut reply = snapshot(&sim, id);
                reply.ran = Some(ran);
                reply.step_ms = Some(step_ms);
                reply.replans = Some(replans);
                s.touch();
                Ok(Reply::json(&reply))
            }
            CrowdRoute::Goal(id) => {
                let req = parse::<GoalRequest>(body)?;
                let s = self.crowds.get(id, &limits)?;
                let mut sim = relock(&s.sim);
                let sent = send(&mut sim, &req)?;
                let mut reply = snapshot(&sim, id);
                reply.goals = Some(goals_of(&sim.crowd));
                reply.sent = Some(sent);
                Ok(Reply::json(&reply))
            }
        }
    }

    /// When the world's scene changed since the crowd's mesh was built, builds the mesh of the
    /// new scene and hands it to the crowd ([`Crowd::set_mesh`]).
    fn follow_world(&self, sim: &mut Sim, limits: &Limits) -> Result<(), ApiError> {
        let world = self.world();
        if world.revision == sim.revision {
            return Ok(());
        }
        let shared = &self.crowds.meshes;
        let mesh = shared.mesh(&world, sim.radius, limits)?;
        sim.crowd
            .set_mesh(0, mesh.clone())
            .map_err(ApiError::Crowd)?;
        sim.revision = world.revision;
        if sim.search == PlanName::Corner {
            // The old mesh's graph went with it; past the timeout the agents plan exactly.
            let graph = shared.graph(world.revision, &mesh, limits).ok();
            sim.crowd
                .set_corner_graph(0, graph)
                .map_err(ApiError::Crowd)?;
        }
        Ok(())
    }
}

fn snapshot(sim: &Sim, id: u64) -> CrowdReply {
    let agents = sim.crowd.agents();
    CrowdReply {
        crowd: id,
        revision: sim.revision,
        agents: agents.len(),
        radius: sim.radius,
        speed: sim.speed,
        dt: sim.dt,
        steps: sim.crowd.steps(),
        time: sim.time,
        arrived: sim.arrived,
        search: sim.search,
        graph: (sim.search == PlanName::Corner).then(|| sim.crowd.corner_graph(0).is_some()),
        ids: None,
        positions: flat(agents.iter().map(|a| a.position())),
        goals: None,
        ran: None,
        step_ms: None,
        replans: None,
        sent: None,
        build_ms: None,
    }
}

fn flat(points: impl Iterator<Item = Vec2>) -> Vec<f32> {
    points.flat_map(|p| [p.x as f32, p.y as f32]).collect()
}

fn goals_of(crowd: &Crowd) -> Vec<f32> {
    flat(crowd.agents().iter().map(|a| a.goal()))
}

/// The mesh a crowd of `radius` moves on in `world`: the scene rebuilt for that radius, under
/// the work budget and the build timeout; the world's own mesh when it has no scene.
fn crowd_mesh(world: &World, radius: f64, limits: &Limits) -> Result<Arc<NavMesh>, ApiError> {
    if world.build.is_none() {
        return Ok(Arc::clone(&world.mesh));
    }
    // Inflated obstacles overlap where the gaps are narrower than a diameter, which only the
    // CDT takes.
    // (With the world's corner rounding: a crowd on a grid map is a grid map's searches.)
    let settings = super::world::BuildSettings {
        decomposition: Decomposition::CdtMerged,
        agent_radius: radius,
        arc_error: world
            .build
            .map_or(BuildOptions::default().arc_error, |b| b.arc_error),
    };
    budget::check_input(&world.scene, settings, limits)?;
    let started = Instant::now();
    let token = portolan::build::CancelToken::new().with_deadline(started + limits.build_timeout);
    let mut options = BuildOptions::default().with_agent_radius(radius);
    options.decomposition = settings.decomposition;
    options.arc_error = settings.arc_error;
    options.cancel = Some(token);
    let mesh = build(&world.scene, &options).map_err(|e| match e {
        BuildError::Cancelled => ApiError::build_timeout(started, limits.build_timeout),
        e => ApiError::Build(e),
    })?;
    budget::check_output(&mesh, limits)?;
    Ok(Arc::new(mesh))
}

/// The corner graph of a crowd's mesh, built within `corner_graph_timeout_ms` (past it, `422
/// over-budget` naming that limit).
fn crowd_graph(mesh: &NavMesh, limits: &Limits) -> Result<Arc<CornerGraph>, ApiError> {
    build_graph_within(mesh, limits, None)
        .map(Arc::new)
        .map_err(|miss| miss.into_error(limits))
}

/// Checks a create request, builds the crowd's mesh (or takes the one `shared` holds for its
/// revision and radius) and places its agents.
fn create(
    world: &World,
    req: &CreateRequest,
    limits: &Limits,
    shared: &Shared,
) -> Result<(Sim, f64), ApiError> {
    let t = Instant::now();
    if req.agents == 0 {
        return Err(ApiError::BadAgents(
            "a crowd needs at least one agent".into(),
        ));
    }
    if req.agents > limits.max_crowd_agents {
        return Err(ApiError::OverBudget {
            limit: "max_crowd_agents",
            value: req.agents,
            max: limits.max_crowd_agents,
            before_build: true,
        });
    }
    if req.radius.is_nan() || req.radius < 0.0 {
        return Err(ApiError::Crowd(CrowdError::NegativeRadius {
            radius: req.radius,
        }));
    }
    if req.speed.is_nan() || req.speed <= 0.0 {
        return Err(ApiError::BadSpeed(req.speed));
    }
    let mesh = shared.mesh(world, req.radius, limits)?;
    let pairs = match req.scenario {
        // Starts and goals apart, and two radii from the mesh's walls (which already keep
        // the radius): an agent standing at its goal leaves room to pass it on either side
        // (the library's scenarios do the same; an agent whose route runs along a wall could
        // otherwise stand behind a parked one for good). Where that leaves no room for them
        // all (narrow passages), anywhere on the mesh.
        ScenarioName::Random => {
            let (spacing, clearances) = (SPACING * req.radius, [2.0 * req.radius, 0.0]);
            match random_pairs_with_room(&mesh, req.agents, spacing, clearances, req.seed) {
                Ok(pairs) => pairs,
                Err(ScenarioError::NoRoom { placed, wanted }) => {
                    return Err(ApiError::NoRoom { placed, wanted })
                }
                Err(e) => return Err(ApiError::BadAgents(e.to_string())),
            }
        }
        ScenarioName::Circle => circle_pairs(&mesh, req.agents, req.radius, req.seed),
    };
    if pairs.len() < req.agents {
        return Err(ApiError::NoRoom {
            placed: pairs.len(),
            wanted: req.agents,
        });
    }
    let options = CrowdOptions::default().with_search(req.search.method());
    let mut crowd = Crowd::new(mesh.clone(), options);
    if req.search == PlanName::Corner {
        let graph = shared.graph(world.revision, &mesh, limits)?;
        crowd
            .set_corner_graph(0, Some(graph))
            .map_err(ApiError::Crowd)?;
    }
    for (s, g) in pairs {
        crowd
            .add_agent(AgentParams::new(s, g, req.radius, req.speed))
            .map_err(ApiError::Crowd)?;
    }
    // Point agents cannot overlap: they get the scenarios' step.
    let dt = if req.radius > 0.0 {
        (MOVE_PER_STEP * req.radius / req.speed).min(portolan::crowd::scenarios::DT)
    } else {
        portolan::crowd::scenarios::DT
    };
    let sim = Sim {
        crowd,
        search: req.search,
        radius: req.radius,
        speed: req.speed,
        dt,
        time: 0.0,
        revision: world.revision,
        arrived: 0,
    };
    Ok((sim, t.elapsed().as_secs_f64() * 1e3))
}

/// Runs the steps of a request; returns (steps run, mean step ms, replans).
fn step(
    sim: &mut Sim,
    req: &StepRequest,
    limits: &Limits,
) -> Result<(usize, f64, usize), ApiError> {
    if req.steps == 0 || req.steps > limits.max_crowd_steps {
        return Err(ApiError::OverBudget {
            limit: "max_crowd_steps",
            value: req.steps,
            max: limits.max_crowd_steps,
            before_build: true,
        });
    }
    let dt = req.dt.unwrap_or(sim.dt);
    let mut spent = Duration::ZERO;
    let mut replans = 0;
    for _ in 0..req.steps {
        let t = Instant::now();
        let stats = sim.crowd.step(dt).map_err(ApiError::Crowd)?;
        spent += t.elapsed();
        replans += stats.replans;
        sim.arrived = stats.arrived;
        sim.time += dt;
    }
    Ok((
        req.steps,
        spent.as_secs_f64() * 1e3 / req.steps as f64,
        replans,
    ))
}

/// Sends agents toward a point; returns how many.
fn send(sim: &mut Sim, req: &GoalRequest) -> Result<usize, ApiError> {
    let ids: Vec<AgentId> = match &req.agents {
        Some(list) => list.iter().map(|&i| AgentId(i)).collect(),
        None => sim.crowd.agents().iter().map(|a| a.id()).collect(),
    };
    // Every id first, so a bad list changes nothing.
    for &id in &ids {
        sim.crowd.agent(id).map_err(ApiError::Crowd)?;
    }
    if !req.goal.is_finite() {
        return Err(ApiError::Crowd(CrowdError::NonFinite {
            agent: None,
            field: portolan::crowd::AgentField::Goal,
        }));
    }
    if let Some(s) = req.snap {
        if s.is_nan() || s < 0.0 {
            return Err(ApiError::BadSnap(s));
        }
    }
    if ids.is_empty() {
        return Ok(0);
    }
    // All agents share one mesh (one radius class).
    let mesh = sim.crowd.mesh_of(ids[0]).map_err(ApiError::Crowd)?;
    let placed = match mesh.locate(req.goal).polygon() {
        Some(p) => Some((p, req.goal)),
        None => req.snap.and_then(|s| mesh.nearest_point(req.goal, s)),
    };
    let Some((poly, goal)) = placed else {
        return Err(ApiError::Crowd(CrowdError::GoalOffMesh {
            agent: None,
            goal: req.goal,
        }));
    };
    let goals = if req.spread {
        let positions: Vec<Vec2> = ids
            .iter()
            .map(|&id| sim.crowd.agent(id).map(|a| a.position()))
            .collect::<Result<_, _>>()
            .map_err(ApiError::Crowd)?;
        spread_goals(mesh, poly, goal, &positions, sim.radius)
    } else {
        vec![goal; ids.len()]
    };
    for (&id, &g) in ids.iter().zip(&goals) {
        sim.crowd.set_goal(id, g).map_err(ApiError::Crowd)?;
    }
    Ok(ids.len())
}

// ---------------------------------------------------------------------------------------------
// Placement

/// Whether `p` is on the mesh in a polygon `keep` accepts.
fn on(mesh: &NavMesh, keep: &[bool], p: Vec2) -> Option<PolyId> {
    mesh.locate(p).polygon().filter(|q| keep[q.index()])
}

/// Up to `n` (slot, antipode) pairs on concentric rings around the centre of the bounds.
fn circle_pairs(mesh: &NavMesh, n: usize, radius: f64, seed: u64) -> Vec<(Vec2, Vec2)> {
    let keep = mesh.largest_component();
    let b = mesh.bounds();
    let centre = (b.min + b.max) * 0.5;
    let pitch = PITCH * radius.max(0.5);
    let outer = 0.5 * (b.max.x - b.min.x).min(b.max.y - b.min.y) - pitch;
    let turn = portolan::random::Rng::new(seed).next_f64() * std::f64::consts::TAU;
    let mut out = Vec::with_capacity(n);
    let mut ring = outer;
    while out.len() < n && ring >= pitch {
        // An even number of slots, so each slot's antipode is a slot too.
        let slots = ((std::f64::consts::TAU * ring / pitch) as usize) & !1;
        let mut here = Vec::new();
        for i in 0..slots {
            let a = turn + std::f64::consts::TAU * i as f64 / slots as f64;
            let (s, c) = portolan::random::sin_cos(a);
            let d = Vec2::new(c, s) * ring;
            let (p, q) = (centre + d, centre - d);
            if on(mesh, &keep, p).is_some() && on(mesh, &keep, q).is_some() {
                here.push((p, q));
            }
        }
        // Take a ring whole (a symmetric set) while it fits, else an evenly thinned one (its
        // slots still a pitch apart, and so their antipodes).
        let room = n - out.len();
        if here.len() <= room {
            out.extend(here);
        } else {
            let step = here.len() as f64 / room as f64;
            out.extend((0..room).map(|k| here[(k as f64 * step) as usize]));
        }
        ring -= pitch;
    }
    out
}

/// Goals for agents at `positions` sent to `goal` (in polygon `poly`): the slots of a hexagonal
/// lattice around it nearest first, on `goal`'s connected part; the nearest agents take the
/// innermost slots and agents are matched to slots by angle within each batch.
fn spread_goals(
    mesh: &NavMesh,
    poly: PolyId,
    goal: Vec2,
    positions: &[Vec2],
    radius: f64,
) -> Vec<Vec2> {
    let n = positions.len();
    let part = mesh.connected_components();
    let keep: Vec<bool> = part.iter().map(|&p| p == part[poly.index()]).collect();
    let pitch = PITCH * radius.max(0.5);
    // Lattice points ring by ring (hexagonal rings k = 0, 1, …), stopping when enough fit or
    // the rings leave the bounds.
    let b = mesh.bounds();
    let reach = (b.max - b.min).length();
    let mut slots: Vec<Vec2> = Vec::with_capacity(n);
    let mut rings: Vec<usize> = Vec::new(); // slot count after each ring
    let mut k = 0i64;
    while slots.len() < n && (k as f64) * pitch <= reach {
        for (i, j) in hex_ring(k) {
            let p = goal
                + Vec2::new(
                    (i as f64 + 0.5 * j as f64) * pitch,
                    j as f64 * pitch * 3f64.sqrt() * 0.5,
                );
            if on(mesh, &keep, p).is_some() {
                slots.push(p);
            }
        }
        rings.push(slots.len());
        k += 1;
    }
    // Fewer slots than agents (a tiny island): the rest go to the point itself.
    slots.resize(n.max(slots.len()), goal);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &c| {
        positions[a]
            .distance(goal)
            .total_cmp(&positions[c].distance(goal))
            .then(a.cmp(&c))
    });
    let angle = |p: Vec2| (p.y - goal.y).atan2(p.x - goal.x);
    let mut out = vec![goal; n];
    let mut from = 0;
    for end in rings.into_iter().chain([n]) {
        let end = end.min(n);
        if end <= from {
            continue;
        }
        let mut agents: Vec<usize> = order[from..end].to_vec();
        let mut batch: Vec<Vec2> = slots[from..end].to_vec();
        agents.sort_by(|&a, &c| angle(positions[a]).total_cmp(&angle(positions[c])));
        batch.sort_by(|p, q| angle(*p).total_cmp(&angle(*q)));
        for (a, s) in agents.into_iter().zip(batch) {
            out[a] = s;
        }
        from = end;
    }
    out
}

/// The lattice cells `(i, j)` of hexagonal ring `k` (axial coordinates), in order.
fn hex_ring(k: i64) -> Vec<(i64, i64)> {
    if k == 0 {
        return vec![(0, 0)];
    }
    const DIRS: [(i64, i64); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];
    let mut out = Vec::with_capacity(6 * k as usize);
    let (mut i, mut j) = (DIRS[4].0 * k, DIRS[4].1 * k);
    for d in DIRS {
        for _ in 0..k {
            out.push((i, j));
            i += d.0;
            j += d.1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sim() -> Sim {
        let mesh = portolan::build(&portolan::Scene::default_map(), &BuildOptions::default())
            .map(Arc::new)
            .unwrap();
        Sim {
            crowd: Crowd::new(mesh, CrowdOptions::default()),
            search: PlanName::Funnel,
            radius: 1.0,
            speed: 1.0,
            dt: 0.1,
            time: 0.0,
            revision: 1,
            arrived: 0,
        }
    }

    /// Sessions of one revision and radius move on one mesh with one corner graph; another
    /// radius or a later revision gets its own; a request for an older revision (the world
    /// moved on while it built) is served but does not displace the newer; past
    /// [`SHARED_MESHES`] radii the least recently used is built again.
    #[test]
    fn sessions_of_one_revision_and_radius_share_their_mesh_and_graph() {
        let limits = Limits::default();
        let settings = super::super::world::BuildSettings::trapezoid();
        let world =
            |revision| World::build(portolan::Scene::default_map(), settings, revision, None);
        let (one, two) = (world(1).unwrap(), world(2).unwrap());
        let shared = Shared::default();
        let a = shared.mesh(&one, 5.0, &limits).unwrap();
        let b = shared.mesh(&one, 5.0, &limits).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        let wider = shared.mesh(&one, 6.0, &limits).unwrap();
        assert!(!Arc::ptr_eq(&a, &wider));
        let g = shared.graph(1, &a, &limits).unwrap();
        assert!(Arc::ptr_eq(&g, &shared.graph(1, &b, &limits).unwrap()));
        assert_eq!(g.mesh_id(), a.instance_id());
        // A mesh the cache does not hold (not a crowd mesh of this revision) gets its own.
        let other = Arc::new((*a).clone());
        assert!(!Arc::ptr_eq(&g, &shared.graph(1, &other, &limits).unwrap()));
        // The next revision: new meshes, the old ones dropped.
        let c = shared.mesh(&two, 5.0, &limits).unwrap();
        assert!(!Arc::ptr_eq(&a, &c));
        assert_eq!(relock(&shared.inner).meshes.len(), 1);
        // A late request for revision 1 is built for the caller alone.
        let late = shared.mesh(&one, 5.0, &limits).unwrap();
        assert!(!Arc::ptr_eq(&late, &a) && !Arc::ptr_eq(&late, &c));
        assert!(Arc::ptr_eq(&c, &shared.mesh(&two, 5.0, &limits).unwrap()));
        // Past SHARED_MESHES radii, the one used longest ago (5.0) goes.
        for k in 0..SHARED_MESHES {
            shared.mesh(&two, 1.0 + k as f64, &limits).unwrap();
        }
        assert_eq!(relock(&shared.inner).meshes.len(), SHARED_MESHES);
        assert!(!Arc::ptr_eq(&c, &shared.mesh(&two, 5.0, &limits).unwrap()));
    }

    #[test]
    fn at_the_cap_the_session_idle_longest_makes_room_if_idle_long_enough() {
        let limits = Limits {
            max_crowds: 2,
            ..Limits::default()
        };
        let crowds = Crowds::default();
        let a = crowds.insert(sim(), &limits).unwrap();
        let b = crowds.insert(sim(), &limits).unwrap();
        // Both just used: refused.
        assert!(matches!(
            crowds.insert(sim(), &limits),
            Err(ApiError::TooManyCrowds { max: 2 })
        ));
        // `a` idle for longer than EVICT_AFTER (`b` a little less): `a` goes.
        let now = Instant::now();
        let ago = |d: Duration| now.checked_sub(d).unwrap_or(now);
        {
            let store = relock(&crowds.inner);
            *relock(&store.sessions[&a].last_used) = ago(EVICT_AFTER + Duration::from_secs(2));
            *relock(&store.sessions[&b].last_used) = ago(EVICT_AFTER + Duration::from_secs(1));
        }
        if now
            .checked_sub(EVICT_AFTER + Duration::from_secs(2))
            .is_none()
        {
            return; // a machine up for less than 7 s cannot date an Instant back that far
        }
        let c = crowds.insert(sim(), &limits).unwrap();
        assert!(matches!(crowds.get(a, &limits), Err(ApiError::UnknownCrowd(id)) if id == a));
        assert!(crowds.get(b, &limits).is_ok() && crowds.get(c, &limits).is_ok());
    }

    #[test]
    fn hex_rings_have_six_k_distinct_cells() {
        let mut seen = std::collections::HashSet::new();
        for k in 0..6 {
            let r = hex_ring(k);
            assert_eq!(r.len(), if k == 0 { 1 } else { 6 * k as usize });
            for c in r {
                // Axial distance from the origin is k.
                let d = (c.0.abs() + c.1.abs() + (c.0 + c.1).abs()) / 2;
                assert_eq!(d, k);
                assert!(seen.insert(c));
            }
        }
    }

    #[test]
    fn routes_parse_ids_and_refuse_other_paths() {
        assert_eq!(
            route("POST", "/api/crowd"),
            Some(Ok(Route::Crowd(CrowdRoute::Create)))
        );
        assert_eq!(
            route("POST", "/api/crowd/12/step"),
            Some(Ok(Route::Crowd(CrowdRoute::Step(12))))
        );
        assert_eq!(
            route("DELETE", "/api/crowd/3"),
            Some(Ok(Route::Crowd(CrowdRoute::Delete(3))))
        );
        assert_eq!(route("GET", "/api/crowd/3/step"), Some(Err("POST")));
        assert_eq!(route("GET", "/api/crowd"), Some(Err("POST")));
        assert_eq!(route("POST", "/api/crowd/x"), None);
        assert_eq!(route("POST", "/api/crowd/-1/step"), None);
        assert_eq!(route("POST", "/api/crowd/1/jump"), None);
        assert_eq!(route("POST", "/api/crowds"), None);
        assert_eq!(
            route("POST", "/api/crowd/99999999999999999999999/step"),
            None
        );
    }
}
