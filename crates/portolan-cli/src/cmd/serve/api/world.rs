//! World state: the one scene every client shares, its mesh, and its revision.
//!
//! [`App`] holds the current [`World`] behind a lock that is held only to swap one `Arc` for
//! another, so a reader never waits for a build. Each rebuild bumps [`World::revision`]; path
//! answers carry the revision they were computed on, so a page can notice that another tab
//! changed the scene and fetch it again.
//!
//! Edits are serialised: one edit at a time reads the current world, builds and swaps, under
//! [`App`]'s edit lock, so an edit never builds on a world another edit is replacing (which
//! would lose that edit although it was acknowledged). An edit may name the revision it was
//! based on; if the world has moved on it is refused (`409 stale-revision`) before any work.
//!
//! Each world serialises its `GET /api/scene` answer once, on first request, and every later
//! request shares those bytes: a large mesh is encoded once per revision, not once per client.
//!
//! A server started on a mesh file ([`App::from_mesh`]) has no scene to edit: scene edits are
//! answered `409 read-only`.

use super::budget;
use super::errors::ApiError;
use super::limits::Limits;
use super::wire::Defaults;
use axum::body::Bytes;
use portolan::build::CancelToken;
use portolan::search::corner_graph::CornerGraph;
use portolan::{build, BuildError, BuildOptions, Decomposition, NavMesh, Scene, Vec2};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::Instant;

/// How the server builds meshes from scenes: the build options a client may change.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BuildSettings {
    /// How free space is cut into convex polygons.
    pub decomposition: Decomposition,
    /// Agent radius ([`BuildOptions::agent_radius`]): finite and ≥ 0.
    pub agent_radius: f64,
    /// How far a corner rounded by the radius may cut inside its circle, as a fraction of the
    /// radius ([`BuildOptions::arc_error`]): in [1e-6, 1]; the library's default 0.01.
    pub arc_error: f64,
}

impl BuildSettings {
    /// The chapter's trapezoid decomposition for a point agent: the figure the demo shows.
    pub fn trapezoid() -> BuildSettings {
        BuildSettings {
            decomposition: Decomposition::Trapezoid,
            agent_radius: 0.0,
            arc_error: BuildOptions::default().arc_error,
        }
    }

    // Field by field, not a struct literal: options structs are to become `#[non_exhaustive]`
    // (issue 14), and this form compiles before and after.
    #[allow(clippy::field_reassign_with_default)]
    fn options(self, cancel: Option<CancelToken>) -> BuildOptions {
        let mut o = BuildOptions::default();
        o.decomposition = self.decomposition;
        o.agent_radius = self.agent_radius;
        o.arc_error = self.arc_error;
        o.cancel = cancel;
        o
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
    /// The mesh (shared with the dynamic mesh's snapshot in tiled mode).
    pub mesh: Arc<NavMesh>,
    /// The tile grid when the mesh is a [`super::dynamic`] tiled mesh; `None` otherwise.
    pub tiles: Option<super::dynamic::TilesReply>,
    /// A sensible start and goal for this scene.
    pub defaults: Defaults,
    /// How long the build took, in milliseconds (0 for a mesh read from a file).
    pub build_ms: f64,
    /// The `GET /api/scene` answer, encoded on first use.
    pub(super) json: OnceLock<Bytes>,
    /// The corner graph of `mesh` (`"method": "corner"`), built on first use; or how many
    /// milliseconds its build ran before `corner_graph_timeout_ms` stopped it (it is not tried
    /// again: the next one would take as long).
    pub(super) corner_graph: OnceLock<Result<Arc<CornerGraph>, usize>>,
    /// Held while the corner graph is built: a second first query waits for that build's
    /// answer instead of building too.
    pub(super) corner_graph_build: Mutex<()>,
}

/// Why [`build_graph_within`] built no graph.
pub(super) enum GraphMiss {
    /// Past `corner_graph_timeout_ms`, after this many milliseconds.
    OverTime(usize),
    /// Stopped by the caller's token first (a dropped request).
    Cancelled,
    /// The build failed.
    Build(BuildError),
}

impl GraphMiss {
    /// The answer to a request whose graph was not built: `422 over-budget` past the timeout,
    /// `timeout` when the caller stopped it, the build's error otherwise.
    pub(super) fn into_error(self, limits: &Limits) -> ApiError {
        match self {
            GraphMiss::OverTime(ms) => graph_over_budget(ms, limits),
            GraphMiss::Cancelled => ApiError::Timeout,
            GraphMiss::Build(e) => ApiError::Build(e),
        }
    }
}

/// `422 over-budget` for a corner graph whose build passed `corner_graph_timeout_ms` after `ms`.
fn graph_over_budget(ms: usize, limits: &Limits) -> ApiError {
    ApiError::OverBudget {
        limit: "corner_graph_timeout_ms",
        value: ms,
        max: limits
            .corner_graph_timeout
            .as_millis()
            .try_into()
            .unwrap_or(usize::MAX),
        before_build: false,
    }
}

/// The corner graph of `mesh`, built within `corner_graph_timeout_ms` and stopped early by
/// `cancel`: the world's graph ([`World::corner_graph`]) and a crowd's (`crowd.rs`).
pub(super) fn build_graph_within(
    mesh: &NavMesh,
    limits: &Limits,
    cancel: Option<&CancelToken>,
) -> Result<CornerGraph, GraphMiss> {
    let max = limits.corner_graph_timeout;
    let started = Instant::now();
    let token = cancel
        .cloned()
        .unwrap_or_default()
        .with_deadline(started + max);
    match CornerGraph::build_cancellable(mesh, &token) {
        Ok(g) => Ok(g),
        Err(BuildError::Cancelled) if started.elapsed() >= max => Err(GraphMiss::OverTime(
            started
                .elapsed()
                .as_millis()
                .try_into()
                .unwrap_or(usize::MAX),
        )),
        Err(BuildError::Cancelled) => Err(GraphMiss::Cancelled),
        Err(e) => Err(GraphMiss::Build(e)),
    }
}

impl World {
    /// The corner graph of the mesh, built by the first query that needs it, within
    /// `corner_graph_timeout_ms` (past it, that query and every later one are answered `422
    /// over-budget`) and stopped when the request is dropped (`cancel`; then nothing is kept
    /// and the next corner query builds again).
    pub fn corner_graph(
        &self,
        limits: &Limits,
        cancel: Option<&CancelToken>,
    ) -> Result<Arc<CornerGraph>, ApiError> {
        let answer = |kept: &Result<Arc<CornerGraph>, usize>| match kept {
            Ok(g) => Ok(Arc::clone(g)),
            &Err(ms) => Err(graph_over_budget(ms, limits)),
        };
        if let Some(kept) = self.corner_graph.get() {
            return answer(kept);
        }
        let _building = self
            .corner_graph_build
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(kept) = self.corner_graph.get() {
            return answer(kept);
        }
        match build_graph_within(&self.mesh, limits, cancel) {
            Ok(g) => answer(self.corner_graph.get_or_init(|| Ok(Arc::new(g)))),
            // (Past the timeout is kept: every later query gets the same answer.)
            Err(GraphMiss::OverTime(ms)) => answer(self.corner_graph.get_or_init(|| Err(ms))),
            Err(miss) => Err(miss.into_error(limits)),
        }
    }
}

impl World {
    /// Builds the mesh of `scene`; `cancel` can stop the build half-way
    /// ([`BuildError::Cancelled`]).
    pub fn build(
        scene: Scene,
        settings: BuildSettings,
        revision: u64,
        cancel: Option<CancelToken>,
    ) -> Result<World, BuildError> {
        let t = Instant::now();
        let mesh = build(&scene, &settings.options(cancel))?;
        let build_ms = t.elapsed().as_secs_f64() * 1e3;
        let defaults = default_query(&scene, &mesh);
        Ok(World {
            revision,
            scene,
            build: Some(settings),
            mesh: Arc::new(mesh),
            tiles: None,
            defaults,
            build_ms,
            json: OnceLock::new(),
            corner_graph: OnceLock::new(),
            corner_graph_build: Mutex::new(()),
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
            mesh: Arc::new(mesh),
            tiles: None,
            defaults,
            build_ms: 0.0,
            json: OnceLock::new(),
            corner_graph: OnceLock::new(),
            corner_graph_build: Mutex::new(()),
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

/// The server's state: the current world and the scene it started with (`None` when serving a
/// mesh file, which cannot be edited).
#[derive(Debug)]
pub struct App {
    pub(super) initial: Option<(Scene, BuildSettings)>,
    world: RwLock<Arc<World>>,
    /// Held by an edit from reading the current world to swapping in the new one; it guards the
    /// dynamic mesh of tiled mode (`None` when the world is not tiled).
    edits: Mutex<Option<super::dynamic::Tiled>>,
    limits: Limits,
    /// The crowd sessions ([`super::crowd`]).
    pub(super) crowds: super::crowd::Crowds,
}

/// A scene edit: what to build, decided from the current world under the edit lock.
pub(super) struct Edit<'a> {
    /// The revision the client based the edit on, if it said.
    pub base: Option<u64>,
    /// Whether the work budget applies (not to the scene the server started with).
    pub budget: bool,
    /// When the answer is due: a build finished later is thrown away.
    pub deadline: Option<Instant>,
    /// The request's cancel token (cancelled when the request is dropped).
    pub cancel: Option<CancelToken>,
    /// The scene and settings to build, from the current world.
    pub make: MakeEdit<'a>,
}

/// Decides an edit's scene and settings from the current world.
pub(super) type MakeEdit<'a> =
    Box<dyn FnOnce(&World) -> Result<(Scene, BuildSettings), ApiError> + 'a>;

impl App {
    /// A server state starting from `scene` built with `settings`.
    pub fn new(scene: Scene, settings: BuildSettings) -> Result<App, BuildError> {
        let world = World::build(scene.clone(), settings, 1, None)?;
        Ok(App {
            initial: Some((scene, settings)),
            world: RwLock::new(Arc::new(world)),
            edits: Mutex::new(None),
            limits: Limits::default(),
            crowds: Default::default(),
        })
    }

    /// A server state serving a ready-made mesh (a Polyanya `.mesh` file, say): paths only, no
    /// scene edits.
    pub fn from_mesh(mesh: NavMesh) -> App {
        App {
            initial: None,
            world: RwLock::new(Arc::new(World::from_mesh(mesh))),
            edits: Mutex::new(None),
            limits: Limits::default(),
            crowds: Default::default(),
        }
    }

    /// The same state with other limits (tests shorten the timeouts and shrink the budget).
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn with_limits(mut self, limits: Limits) -> App {
        self.limits = limits;
        self
    }

    /// The limits this server runs with.
    pub fn limits(&self) -> &Limits {
        &self.limits
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

    /// `Err(ReadOnly)` when the server serves a mesh file.
    pub(super) fn editable(&self) -> Result<&(Scene, BuildSettings), ApiError> {
        self.initial.as_ref().ok_or(ApiError::ReadOnly)
    }

    /// Applies one edit: under the edit lock, checks its base revision, decides what to build
    /// from the current world, checks the work budget, builds, and swaps the new world in with
    /// the next revision. Readers keep the world they hold meanwhile.
    pub(super) fn edit(&self, edit: Edit<'_>) -> Result<Arc<World>, ApiError> {
        let mut one_at_a_time = self.lock_edits();
        let current = self.world();
        if let Some(base) = edit.base.filter(|&b| b != current.revision) {
            return Err(ApiError::Stale {
                base,
                current: current.revision,
            });
        }
        let (scene, settings) = (edit.make)(&current)?;
        if edit.budget {
            // An agent radius the builder will refuse is left for it to refuse.
            budget::check_input(&scene, settings, &self.limits)?;
        }
        // A client's build also stops at the build timeout (`422 over-budget`); the request's
        // token stops any build whose request was dropped.
        let started = Instant::now();
        let mut token = edit.cancel.clone().unwrap_or_default();
        if edit.budget {
            token = token.with_deadline(started + self.limits.build_timeout);
        }
        let world = World::build(scene, settings, current.revision + 1, Some(token)).map_err(
            |e| match e {
                BuildError::Cancelled
                    if edit.budget && started.elapsed() >= self.limits.build_timeout =>
                {
                    ApiError::build_timeout(started, self.limits.build_timeout)
                }
                BuildError::Cancelled => ApiError::Timeout,
                e => ApiError::Build(e),
            },
        )?;
        if edit.budget {
            budget::check_output(&world.mesh, &self.limits)?;
        }
        if edit.deadline.is_some_and(|d| Instant::now() > d) {
            return Err(ApiError::Timeout);
        }
        let world = Arc::new(world);
        self.swap(Arc::clone(&world));
        // A scene edit (or reset) replaces a tiled world with an untiled one.
        *one_at_a_time = None;
        Ok(world)
    }

    /// The edit lock, which also holds the dynamic mesh of tiled mode.
    pub(super) fn lock_edits(&self) -> std::sync::MutexGuard<'_, Option<super::dynamic::Tiled>> {
        // A poisoned lock means an earlier edit panicked: the world was never half-replaced
        // (the swap is one assignment), but a dynamic mesh may have been left half-edited, so
        // it is dropped (tiled edits then answer `409 not-tiled` until tiled mode is entered
        // again).
        match self.edits.lock() {
            Ok(g) => g,
            Err(p) => {
                let mut g = p.into_inner();
                *g = None;
                self.edits.clear_poison();
                g
            }
        }
    }

    /// Makes `world` the current one (under the edit lock).
    pub(super) fn swap(&self, world: Arc<World>) {
        let mut slot = match self.world.write() {
            Ok(w) => w,
            Err(p) => p.into_inner(),
        };
        *slot = world;
    }
}
