//! Tiled mode: the world as a [`DynamicNavMesh`], whose obstacles are added, moved, reshaped,
//! removed and opened or closed (doors) one edit at a time, each rebuilding only the tiles it
//! touches.
//!
//! ```text
//!   POST /api/tiles {tile_size} ──► the current scene split: obstacles with holes or touching
//!                                    themselves stay static (the base), every other obstacle
//!                                    becomes a dynamic one
//!   POST /api/tiles/{add,move,reshape,remove,door} ──► one library edit, update(), a new World
//!                                    whose mesh is the new snapshot's (shared, not copied)
//! ```
//!
//! The dynamic mesh lives under [`App`]'s edit lock, so tiled edits are serialised with scene
//! edits as every edit is; a scene edit or reset (`POST /api/scene`, `/api/scene/reset`) leaves
//! tiled mode. Readers keep using the [`World`] they hold: each edit publishes a new one.
//!
//! Obstacles are named by server ids (`u64`, never reused), which stay the same across moves,
//! reshapes and door toggles; a reshape is the library's remove + add in one update.
//!
//! An edit is all or nothing: the library refuses bad input before changing anything; a mesh
//! over the work budget, a failed tile build or an answer past the request's deadline undoes the
//! edit (the old shape added back exactly) and publishes nothing.
//!
//! Limits: entering tiled mode is held to the work budget of a scene build (input checks, at
//! most `max_tiles` tiles, `build_timeout_ms`, cancelled when the request is dropped); an edit's
//! shape to `max_scene_vertices` and the obstacle count to `max_scene_obstacles`, the mesh after
//! it to `max_mesh_polygons`. An update cannot be cancelled half-way: the library's updates keep
//! the cancel token the dynamic mesh was created with (see [`watched`]), so an edit's cost is
//! bounded by its shape's size, not by a deadline.

use super::budget;
use super::errors::ApiError;
use super::handlers::{parse, scene_reply};
use super::routes::{Reply, RequestMeta, Route};
use super::world::{App, BuildSettings, World};
use portolan::build::tiles::TileGrid;
use portolan::build::CancelToken;
use portolan::dynamic::{DynamicNavMesh, EditError, ObstacleId, UpdateReport};
use portolan::{BuildError, BuildOptions, Decomposition, Scene, Vec2};
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The tiled-mode routes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TilesRoute {
    /// `POST /api/tiles`: enter tiled mode (or change the tile size or agent radius).
    Set,
    /// `POST /api/tiles/add`.
    Add,
    /// `POST /api/tiles/move`.
    Move,
    /// `POST /api/tiles/reshape`.
    Reshape,
    /// `POST /api/tiles/remove`.
    Remove,
    /// `POST /api/tiles/door`.
    Door,
}

/// Maps a path under `/api/tiles` to its route; every one takes `POST` only.
pub fn route(method: &str, path: &str) -> Result<Route, Reply> {
    let r = match path {
        "/api/tiles" => TilesRoute::Set,
        "/api/tiles/add" => TilesRoute::Add,
        "/api/tiles/move" => TilesRoute::Move,
        "/api/tiles/reshape" => TilesRoute::Reshape,
        "/api/tiles/remove" => TilesRoute::Remove,
        "/api/tiles/door" => TilesRoute::Door,
        _ => {
            return Err(ApiError::NotFound {
                path: path.to_string(),
            }
            .reply())
        }
    };
    if method == "POST" {
        Ok(Route::Tiles(r))
    } else {
        Err(ApiError::MethodNotAllowed {
            method: method.to_string(),
            path: path.to_string(),
            allow: "POST",
        }
        .reply())
    }
}

// ---------------------------------------------------------------------------------------------
// Wire types

/// `POST /api/tiles` request.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct TilesRequest {
    /// Side of the square tiles, in scene units: finite, > 0, and at most `max_tiles` tiles.
    pub tile_size: f64,
    /// Agent radius; absent keeps the current one.
    #[serde(default)]
    pub agent_radius: Option<f64>,
    /// How far a corner rounded by the radius may cut inside its circle, as a fraction of the
    /// radius (as in `POST /api/scene`); absent keeps the current one.
    #[serde(default)]
    pub arc_error: Option<f64>,
    /// The revision this edit is based on (as in `POST /api/scene`).
    #[serde(default)]
    pub base_revision: Option<u64>,
}

/// `POST /api/tiles/add` request.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct AddRequest {
    /// A simple polygon (either orientation, any shape) inside the bounds.
    pub shape: Vec<Vec2>,
    /// Drawn as a door by the page; any obstacle can be opened and closed.
    #[serde(default)]
    pub door: bool,
    /// As in `POST /api/scene`.
    #[serde(default)]
    pub base_revision: Option<u64>,
}

/// `POST /api/tiles/move` request.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The obstacle.
    pub id: u64,
    /// The translation `[dx, dy]`.
    pub by: Vec2,
    /// As in `POST /api/scene`.
    #[serde(default)]
    pub base_revision: Option<u64>,
}

/// `POST /api/tiles/reshape` request.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ReshapeRequest {
    /// The obstacle.
    pub id: u64,
    /// Its new shape (as for `add`).
    pub shape: Vec<Vec2>,
    /// As in `POST /api/scene`.
    #[serde(default)]
    pub base_revision: Option<u64>,
}

/// `POST /api/tiles/remove` request.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct RemoveRequest {
    /// The obstacle.
    pub id: u64,
    /// As in `POST /api/scene`.
    #[serde(default)]
    pub base_revision: Option<u64>,
}

/// `POST /api/tiles/door` request.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct DoorRequest {
    /// The obstacle.
    pub id: u64,
    /// `true`: open (walkable), `false`: closed (solid).
    pub open: bool,
    /// As in `POST /api/scene`.
    #[serde(default)]
    pub base_revision: Option<u64>,
}

/// The `tiles` member of a scene answer in tiled mode: the grid and the dynamic obstacles.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct TilesReply {
    /// Side of a tile: the size asked for, rounded to the grid tile borders lie on (see
    /// `TileGrid`; whole numbers are kept on maps whose corner is whole).
    pub tile_size: f64,
    /// Tiles along x.
    pub columns: usize,
    /// Tiles along y.
    pub rows: usize,
    /// The corner the borders count from: inner border `i` is at `origin.x + i · tile_size`
    /// (and `j` at `origin.y + j · tile_size`). The map's lower corner, rounded down to the
    /// borders' grid where it is off it. Tile `t` is column `t % columns`, row `t / columns`
    /// (rows grow with y), clipped to the bounds.
    pub origin: Vec2,
    /// The first `static_obstacles` of `scene.obstacles` are static (obstacles with holes or
    /// touching themselves, which a dynamic obstacle cannot be); the others are the closed
    /// obstacles below.
    pub static_obstacles: usize,
    /// Every dynamic obstacle, open or closed, in a stable order.
    pub obstacles: Vec<ObstacleReply>,
}

/// One dynamic obstacle.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct ObstacleReply {
    /// Its id, stable across moves, reshapes and toggles, never reused.
    pub id: u64,
    /// Its shape as it stands.
    pub shape: Vec<Vec2>,
    /// Whether it was added as a door.
    pub door: bool,
    /// Open: not solid (not in `scene.obstacles`).
    pub open: bool,
}

/// What one edit rebuilt ([`UpdateReport`]).
#[derive(Serialize, Debug)]
pub struct UpdateReply {
    /// The dynamic mesh's version after the edit.
    pub version: u64,
    /// The tiles rebuilt, by index (see [`TilesReply::origin`]).
    pub tiles: Vec<usize>,
    /// Polygons of the rebuilt tiles before the edit.
    pub polygons_removed: usize,
    /// Polygons of the rebuilt tiles after it.
    pub polygons_added: usize,
    /// Time spent on the rebuilt tiles' geometry, in milliseconds.
    pub rebuild_ms: f64,
    /// Time spent stitching and publishing the new snapshot (a patch), in milliseconds.
    pub publish_ms: f64,
    /// `rebuild_ms + publish_ms`.
    pub update_ms: f64,
}

impl From<&UpdateReport> for UpdateReply {
    fn from(r: &UpdateReport) -> UpdateReply {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        UpdateReply {
            version: r.version,
            tiles: r.tiles.clone(),
            polygons_removed: r.removed.len(),
            polygons_added: r.added.len(),
            rebuild_ms: ms(r.rebuild_time),
            publish_ms: ms(r.publish_time),
            update_ms: ms(r.rebuild_time + r.publish_time),
        }
    }
}

/// The body of every tiled answer besides the scene (which is spliced in as `scene`).
#[derive(Serialize)]
struct EditReply {
    /// What the edit rebuilt; `null` when tiled mode was entered.
    update: Option<UpdateReply>,
    /// The obstacle edited (the new one's id for `add`).
    #[serde(skip_serializing_if = "Option::is_none")]
    obstacle: Option<u64>,
}

// ---------------------------------------------------------------------------------------------
// State

/// One dynamic obstacle as the server names it.
#[derive(Debug, Clone)]
struct Entry {
    id: u64,
    handle: ObstacleId,
    shape: Vec<Vec2>,
    door: bool,
    open: bool,
}

/// An obstacle to add when tiled mode is entered: its id, shape, door flag and whether it is open.
type Pending = (u64, Vec<Vec2>, bool, bool);

/// The state of tiled mode, held under the edit lock.
#[derive(Debug)]
pub struct Tiled {
    nav: DynamicNavMesh,
    /// The static part: bounds, boundary, the obstacles with holes and their holes.
    base: Scene,
    entries: Vec<Entry>,
    next_id: u64,
    settings: BuildSettings,
}

/// How to undo one applied edit.
enum Undo {
    /// Remove the obstacle added.
    Added(u64),
    /// Put entry `pos` back as it was.
    Replaced(usize, Entry),
    /// Insert the removed entry back at `pos`.
    Removed(usize, Entry),
}

/// One edit.
enum Op {
    Add(Vec<Vec2>, bool),
    Move(u64, Vec2),
    Reshape(u64, Vec<Vec2>),
    Remove(u64),
    Door(u64, bool),
}

/// A library edit error, naming the obstacle (by server id) when there is one.
fn edit_error(obstacle: Option<u64>) -> impl Fn(EditError) -> ApiError {
    move |error| ApiError::Edit { error, obstacle }
}

impl Tiled {
    /// Splits `scene` into the static base and the dynamic shapes: an obstacle with holes, or
    /// one whose outline touches itself (traced grid-map outlines can, at diagonal cells), is
    /// static, for a dynamic obstacle is a simple polygon; every other one is dynamic.
    fn split(scene: &Scene) -> (Scene, Vec<Vec<Vec2>>) {
        let mut with_holes: Vec<bool> = scene
            .obstacles
            .iter()
            .map(|o| portolan::geom::polygon_is_simple(o).is_err())
            .collect();
        for h in &scene.holes {
            if let Some(w) = with_holes.get_mut(h.obstacle) {
                *w = true;
            }
        }
        let mut base = Scene::new(scene.bounds);
        base.boundary = scene.boundary.clone();
        let mut new_index = vec![usize::MAX; scene.obstacles.len()];
        let mut dynamic = Vec::new();
        for (i, o) in scene.obstacles.iter().enumerate() {
            if with_holes[i] {
                new_index[i] = base.obstacles.len();
                base.obstacles.push(o.clone());
            } else {
                dynamic.push(o.clone());
            }
        }
        base.holes = scene
            .holes
            .iter()
            .filter(|h| h.obstacle < new_index.len())
            .map(|h| {
                let mut h = h.clone();
                h.obstacle = new_index[h.obstacle];
                h
            })
            .collect();
        (base, dynamic)
    }

    /// The scene the mesh is built from: the base, then the closed dynamic obstacles.
    fn scene(&self) -> Scene {
        let mut scene = self.base.clone();
        scene.obstacles.extend(
            self.entries
                .iter()
                .filter(|e| !e.open)
                .map(|e| e.shape.clone()),
        );
        scene
    }

    fn reply(&self) -> TilesReply {
        let grid = self.nav.grid();
        TilesReply {
            tile_size: grid.size(),
            columns: grid.columns(),
            rows: grid.rows(),
            origin: grid.origin(),
            static_obstacles: self.base.obstacles.len(),
            obstacles: self
                .entries
                .iter()
                .map(|e| ObstacleReply {
                    id: e.id,
                    shape: e.shape.clone(),
                    door: e.door,
                    open: e.open,
                })
                .collect(),
        }
    }

    /// A world showing the current snapshot.
    fn world(&self, revision: u64, defaults: super::wire::Defaults, build_ms: f64) -> World {
        World {
            revision,
            scene: self.scene(),
            build: Some(self.settings),
            mesh: Arc::clone(self.nav.snapshot().mesh()),
            tiles: Some(self.reply()),
            defaults,
            build_ms,
            json: OnceLock::new(),
            corner_graph: OnceLock::new(),
            corner_graph_build: std::sync::Mutex::new(()),
        }
    }

    fn position(&self, id: u64) -> Result<usize, ApiError> {
        self.entries
            .iter()
            .position(|e| e.id == id)
            .ok_or(ApiError::UnknownObstacle(id))
    }

    /// Applies one edit to the library (not yet updated). Refused: nothing changed.
    fn apply(&mut self, op: Op, limits: &super::limits::Limits) -> Result<(Undo, u64), ApiError> {
        let shape_budget = |shape: &[Vec2]| -> Result<(), ApiError> {
            let mut alone = Scene::new(self.base.bounds);
            alone.obstacles.push(shape.to_vec());
            budget::check_input(&alone, self.settings, limits)
        };
        match op {
            Op::Add(shape, door) => {
                shape_budget(&shape)?;
                let count = self.base.obstacles.len() + self.entries.len() + 1;
                if count > limits.max_scene_obstacles {
                    return Err(ApiError::OverBudget {
                        limit: "max_scene_obstacles",
                        value: count,
                        max: limits.max_scene_obstacles,
                        before_build: true,
                    });
                }
                let handle = self
                    .nav
                    .add_obstacle(shape.iter().copied())
                    .map_err(edit_error(None))?;
                let id = self.next_id;
                self.next_id += 1;
                self.entries.push(Entry {
                    id,
                    handle,
                    shape,
                    door,
                    open: false,
                });
                Ok((Undo::Added(id), id))
            }
            Op::Move(id, by) => {
                let pos = self.position(id)?;
                let old = self.entries[pos].clone();
                self.nav
                    .move_obstacle(old.handle, by)
                    .map_err(edit_error(Some(id)))?;
                let shape = self
                    .nav
                    .obstacle_shape(old.handle)
                    .map_err(edit_error(Some(id)))?
                    .to_vec();
                self.entries[pos].shape = shape;
                Ok((Undo::Replaced(pos, old), id))
            }
            Op::Reshape(id, shape) => {
                let pos = self.position(id)?;
                shape_budget(&shape)?;
                let old = self.entries[pos].clone();
                let handle = self
                    .nav
                    .add_obstacle(shape.iter().copied())
                    .map_err(edit_error(Some(id)))?;
                let replaced = self
                    .nav
                    .set_obstacle_enabled(handle, !old.open)
                    .and_then(|()| self.nav.remove_obstacle(old.handle));
                if let Err(e) = replaced {
                    // Not expected (both ids are live); leave the library as it was.
                    let _ = self.nav.remove_obstacle(handle);
                    return Err(edit_error(Some(id))(e));
                }
                self.entries[pos].handle = handle;
                self.entries[pos].shape = shape;
                Ok((Undo::Replaced(pos, old), id))
            }
            Op::Remove(id) => {
                let pos = self.position(id)?;
                self.nav
                    .remove_obstacle(self.entries[pos].handle)
                    .map_err(edit_error(Some(id)))?;
                let old = self.entries.remove(pos);
                Ok((Undo::Removed(pos, old), id))
            }
            Op::Door(id, open) => {
                let pos = self.position(id)?;
                let old = self.entries[pos].clone();
                self.nav
                    .set_obstacle_enabled(old.handle, !open)
                    .map_err(edit_error(Some(id)))?;
                self.entries[pos].open = open;
                Ok((Undo::Replaced(pos, old), id))
            }
        }
    }

    /// Undoes an applied edit exactly (the old shape added back as it was) and updates.
    fn undo(&mut self, undo: Undo) -> Result<(), EditError> {
        let put_back = |nav: &mut DynamicNavMesh, old: Entry| -> Result<Entry, EditError> {
            let handle = nav.add_obstacle(old.shape.iter().copied())?;
            nav.set_obstacle_enabled(handle, !old.open)?;
            Ok(Entry { handle, ..old })
        };
        match undo {
            Undo::Added(id) => {
                if let Some(pos) = self.entries.iter().position(|e| e.id == id) {
                    let e = self.entries.remove(pos);
                    self.nav.remove_obstacle(e.handle)?;
                }
            }
            Undo::Replaced(pos, old) => {
                self.nav.remove_obstacle(self.entries[pos].handle)?;
                self.entries[pos] = put_back(&mut self.nav, old)?;
            }
            Undo::Removed(pos, old) => {
                let e = put_back(&mut self.nav, old)?;
                self.entries.insert(pos, e);
            }
        }
        self.nav.update().map(|_| ())
    }
}

/// Runs `work` while a watchdog cancels `token` at `deadline` or when `request` is cancelled;
/// says whether it fired. The token is not given a deadline itself because the dynamic mesh
/// keeps its creation's token for every later update: a deadline (or the request's token, which
/// is cancelled when the request ends) would cancel every update after it. The watchdog cancels
/// only while `work` runs (it checks under the lock `work`'s end is announced with); when it
/// fired, the caller throws the result away.
fn watched<T>(
    token: &CancelToken,
    request: Option<&CancelToken>,
    deadline: Instant,
    work: impl FnOnce() -> T,
) -> (T, bool) {
    // Already due (a zero timeout, a request already dropped): cancelled before any work, not
    // whenever the watchdog thread gets a core.
    if Instant::now() >= deadline || request.is_some_and(CancelToken::is_cancelled) {
        token.cancel();
    }
    let done = Mutex::new(false);
    let wake = Condvar::new();
    std::thread::scope(|s| {
        let watchdog = s.spawn(|| {
            let mut finished = done.lock().unwrap_or_else(|p| p.into_inner());
            loop {
                if *finished {
                    return false;
                }
                let now = Instant::now();
                if now >= deadline || request.is_some_and(CancelToken::is_cancelled) {
                    token.cancel();
                    return true;
                }
                let wait = (deadline - now).min(Duration::from_millis(10));
                finished = match wake.wait_timeout(finished, wait) {
                    Ok((g, _)) => g,
                    Err(p) => p.into_inner().0,
                };
            }
        });
        let out = work();
        *done.lock().unwrap_or_else(|p| p.into_inner()) = true;
        wake.notify_one();
        // A watchdog that panicked cancelled nothing it did not report.
        let fired = watchdog.join().unwrap_or(true) || token.is_cancelled();
        (out, fired)
    })
}

// ---------------------------------------------------------------------------------------------
// Handlers

impl App {
    /// Answers a tiled-mode route.
    pub(super) fn tiles(
        &self,
        route: TilesRoute,
        body: &[u8],
        meta: &RequestMeta,
    ) -> Result<Reply, ApiError> {
        self.editable()?;
        let (op, base) = match route {
            TilesRoute::Set => return self.set_tiles(parse(body)?, meta),
            TilesRoute::Add => {
                let r: AddRequest = parse(body)?;
                (Op::Add(r.shape, r.door), r.base_revision)
            }
            TilesRoute::Move => {
                let r: MoveRequest = parse(body)?;
                (Op::Move(r.id, r.by), r.base_revision)
            }
            TilesRoute::Reshape => {
                let r: ReshapeRequest = parse(body)?;
                (Op::Reshape(r.id, r.shape), r.base_revision)
            }
            TilesRoute::Remove => {
                let r: RemoveRequest = parse(body)?;
                (Op::Remove(r.id), r.base_revision)
            }
            TilesRoute::Door => {
                let r: DoorRequest = parse(body)?;
                (Op::Door(r.id, r.open), r.base_revision)
            }
        };
        self.tiles_edit(op, base.or(meta.if_match), meta)
    }

    /// `POST /api/tiles`: builds the current scene (or the current tiled world's obstacles, doors
    /// and ids kept) as a dynamic mesh with tiles of the size asked for.
    fn set_tiles(&self, req: TilesRequest, meta: &RequestMeta) -> Result<Reply, ApiError> {
        let mut guard = self.lock_edits();
        let current = self.world();
        check_base(req.base_revision.or(meta.if_match), &current)?;
        let limits = self.limits();
        let settings = BuildSettings {
            decomposition: Decomposition::CdtMerged,
            agent_radius: req
                .agent_radius
                .or(current.build.map(|b| b.agent_radius))
                .unwrap_or(0.0),
            arc_error: req
                .arc_error
                .or(current.build.map(|b| b.arc_error))
                .unwrap_or(BuildOptions::default().arc_error),
        };
        // What to build: the tiled world's obstacles as they stand, or the scene split.
        let (base, shapes, next_id): (Scene, Vec<Pending>, u64) = match guard.as_ref() {
            Some(t) => {
                let entries = t.entries.iter();
                let pending = entries.map(|e| (e.id, e.shape.clone(), e.door, e.open));
                (t.base.clone(), pending.collect(), t.next_id)
            }
            None => {
                let (base, shapes) = Tiled::split(&current.scene);
                let pending = shapes
                    .into_iter()
                    .enumerate()
                    .map(|(i, shape)| (i as u64 + 1, shape, false, false))
                    .collect::<Vec<_>>();
                let next = pending.len() as u64 + 1;
                (base, pending, next)
            }
        };
        // The work budget of a build, on every obstacle (open doors too: they are placed).
        let mut whole = base.clone();
        whole.obstacles.extend(shapes.iter().map(|e| e.1.clone()));
        budget::check_input(&whole, settings, limits)?;
        let grid = TileGrid::new(base.bounds, req.tile_size)?;
        let tiles = grid.columns().saturating_mul(grid.rows());
        if tiles > limits.max_tiles {
            return Err(ApiError::OverBudget {
                limit: "max_tiles",
                value: tiles,
                max: limits.max_tiles,
                before_build: true,
            });
        }

        let started = Instant::now();
        let token = CancelToken::new();
        let (built, fired) = watched(
            &token,
            meta.cancel.as_ref(),
            started + limits.build_timeout,
            || build_tiled(base, shapes, next_id, settings, &token, req.tile_size),
        );
        let ms = started.elapsed().as_secs_f64() * 1e3;
        let tiled = match built {
            Ok(t) if !fired => t,
            Err(ApiError::Build(e)) if !matches!(e, BuildError::Cancelled) => {
                return Err(ApiError::Build(e))
            }
            Err(e @ ApiError::Edit { .. }) => return Err(e),
            _ if started.elapsed() >= limits.build_timeout => {
                return Err(ApiError::build_timeout(started, limits.build_timeout))
            }
            _ => return Err(ApiError::Timeout),
        };
        budget::check_output(tiled.nav.snapshot().mesh(), limits)?;
        if meta.deadline.is_some_and(|d| Instant::now() > d) {
            return Err(ApiError::Timeout);
        }
        let world = Arc::new(tiled.world(current.revision + 1, current.defaults, ms));
        self.swap(Arc::clone(&world));
        *guard = Some(tiled);
        Ok(edit_reply(&world, self.limits(), None, None))
    }

    /// One dynamic edit: applied, updated, checked, published; or undone.
    fn tiles_edit(&self, op: Op, base: Option<u64>, meta: &RequestMeta) -> Result<Reply, ApiError> {
        let mut guard = self.lock_edits();
        let current = self.world();
        check_base(base, &current)?;
        let tiled = guard.as_mut().ok_or(ApiError::NotTiled)?;
        let (undo, id) = tiled.apply(op, self.limits())?;
        let refused = match tiled.nav.update() {
            Ok(report) => {
                let over = budget::check_output(tiled.nav.snapshot().mesh(), self.limits());
                match over {
                    Err(e) => e,
                    Ok(()) if meta.deadline.is_some_and(|d| Instant::now() > d) => {
                        ApiError::Timeout
                    }
                    Ok(()) => {
                        let update = UpdateReply::from(&report);
                        let world = Arc::new(tiled.world(
                            current.revision + 1,
                            current.defaults,
                            update.update_ms,
                        ));
                        self.swap(Arc::clone(&world));
                        return Ok(edit_reply(&world, self.limits(), Some(update), Some(id)));
                    }
                }
            }
            Err(e) => edit_error(Some(id))(e),
        };
        if let Err(e) = tiled.undo(undo) {
            // Not expected: the shapes put back were accepted before. The published world is
            // still the one before the edit; tiled mode ends with the state it cannot trust.
            *guard = None;
            return Err(ApiError::Internal(format!(
                "cannot undo a refused edit: {e}"
            )));
        }
        Err(refused)
    }
}

/// Builds the dynamic mesh of `base` and adds `entries` (their ids and door states kept).
fn build_tiled(
    base: Scene,
    entries: Vec<Pending>,
    next_id: u64,
    settings: BuildSettings,
    token: &CancelToken,
    tile_size: f64,
) -> Result<Tiled, ApiError> {
    let mut options = BuildOptions::cdt();
    options.agent_radius = settings.agent_radius;
    options.arc_error = settings.arc_error;
    options.cancel = Some(token.clone());
    let mut nav = DynamicNavMesh::new(base.clone(), &options, tile_size)?;
    let mut placed = Vec::with_capacity(entries.len());
    for (id, shape, door, open) in entries {
        let handle = nav
            .add_obstacle(shape.iter().copied())
            .map_err(edit_error(Some(id)))?;
        nav.set_obstacle_enabled(handle, !open)
            .map_err(edit_error(Some(id)))?;
        placed.push(Entry {
            id,
            handle,
            shape,
            door,
            open,
        });
    }
    nav.update().map_err(|e| match e {
        EditError::Build(b) => ApiError::Build(b),
        e => ApiError::Edit {
            error: e,
            obstacle: None,
        },
    })?;
    Ok(Tiled {
        nav,
        base,
        entries: placed,
        next_id,
        settings,
    })
}

fn check_base(base: Option<u64>, current: &World) -> Result<(), ApiError> {
    match base {
        Some(b) if b != current.revision => Err(ApiError::Stale {
            base: b,
            current: current.revision,
        }),
        _ => Ok(()),
    }
}

/// `{"scene": <the GET /api/scene answer>, "update": ..., "obstacle": ...}`.
fn edit_reply(
    world: &World,
    limits: &super::limits::Limits,
    update: Option<UpdateReply>,
    obstacle: Option<u64>,
) -> Reply {
    let scene = scene_reply(world, limits);
    let rest = match serde_json::to_vec(&EditReply { update, obstacle }) {
        Ok(r) => r,
        Err(e) => return ApiError::Internal(format!("cannot encode the reply: {e}")).reply(),
    };
    // `rest` is a JSON object with at least `update`: splice the scene in as its first member.
    let mut body = Vec::with_capacity(scene.body.len() + rest.len() + 10);
    body.extend_from_slice(b"{\"scene\":");
    body.extend_from_slice(&scene.body);
    body.push(b',');
    body.extend_from_slice(&rest[1..]);
    Reply {
        body: body.into(),
        ..scene
    }
}
