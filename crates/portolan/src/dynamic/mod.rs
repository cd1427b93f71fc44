//! Dynamic obstacles: a tiled mesh that rebuilds only the tiles an edit touches, and publishes
//! immutable snapshots that readers keep using while the next one is built.
//!
//! ```text
//!   base scene ──place once──► per tile: region piece + static solids      (build::local)
//!   add/move/remove/toggle ──► the obstacle's solids placed on the tiles it touches; those tiles dirty
//!   update() ──► dirty tiles: free space = tile − (static ∪ enabled dynamic solids there), CDT, merge
//!            ──► patch the kept stitch: the dirty tiles and their edge neighbours re-split, re-linked
//!            ──► plan a patch: polygon ids reused, rows of the polygons, vertices and cells touched (publish.rs)
//!            ──► patch the spare snapshot (or a copy of the current one) ──► Arc<Snapshot> swapped in
//! ```
//!
//! # What is local and what is not
//! - **Geometry is local.** An obstacle is grown by the agent radius and pre-cut at tile borders
//!   when it is added or moved (cost: its own size); it is placed on the tiles its grown box
//!   touches, and only those are dirty. A dirty tile's free space is computed from what is placed
//!   on it: its part of the walkable region, the base scene's solids there, and the enabled
//!   dynamic obstacles' solids there. Nothing else of the map is read, so the cost of an update's
//!   geometry depends on the obstacle and the tile size, not on the map.
//! - **Stitching is local.** The writer keeps every tile stitched (shared vertex ids, border
//!   splits, adjacency as tile + index, each polygon's box, centroid, area and point-location
//!   cells; `stitch.rs`). An update stitches again only the rebuilt tiles and their four edge
//!   neighbours, whose border splits depend on them; no map-wide hashing.
//! - **Publishing is local.** Polygon ids stay dense and stable: a rebuilt tile keeps its old
//!   ids for its first polygons, takes ids other tiles freed for the rest, and ids left free are
//!   filled from the end (`publish.rs`). The new snapshot's [`NavMesh`](crate::NavMesh) is the
//!   last one with only the rows that changed rewritten: the polygons written, the lists of
//!   polygons around the vertices they touch with those vertices' corner and pinch flags, and the
//!   point-location cells they cover (`mesh/patch.rs`; the mesh's per-polygon, per-vertex and
//!   per-cell lists are spans over shared arrays that can be rewritten one at a time, compacted
//!   when freed spans outgrow the rows in use, `mesh/rows.rs`). Patching needs a mesh nobody
//!   reads: the writer keeps the snapshot before the current one as a *spare*, and once no reader
//!   holds it, brings it up to date with the last patch and applies the new one (the left-right
//!   scheme); while a reader still holds it, the current snapshot is copied (O(map)) and patched.
//!   So an update's cost depends on the tiles it rebuilds, not on the map, as long as readers let
//!   go of snapshots older than the current one. The price is memory: the spare is a second copy
//!   of the mesh ([`DynamicNavMesh::memory_bytes`] counts it). [`UpdateReport`] gives the
//!   geometry and the publishing times apart; BENCHMARKS.md ("Dynamic obstacles") has the figures
//!   on maps of two sizes. (The exact search's dead-end data,
//!   [`NavMesh::dead_ends`](crate::NavMesh::dead_ends), is still derived in O(map) by the first
//!   exact search on each new snapshot, as on any new mesh.)
//!
//! # Stable references
//! A polygon of a snapshot is named by a [`PolyRef`]: its tile, its index in the tile and the
//! tile's *salt* (Detour's), the version at which the tile was last rebuilt. A reference taken
//! from an older snapshot resolves in a newer one only if its tile was not rebuilt since;
//! otherwise [`Snapshot::resolve`] says [`PolyRefError::Stale`], never a wrong polygon. (A
//! polygon that resolves covers the same region as before, but its ring may have gained or lost
//! vertices on a tile border: an edge neighbour of a rebuilt tile is split again where the
//! rebuilt tile's vertices meet their border.) A path or
//! corridor can ask whether it crosses a changed tile ([`Snapshot::needs_replan`],
//! [`Snapshot::path_crosses_changed`]).
//!
//! # Readers never wait
//! [`DynamicNavMesh::reader`] hands out a [`SnapshotReader`] (`Clone + Send + Sync`); its
//! [`current`](SnapshotReader::current) clones an `Arc` under a lock held only for that clone or
//! for the writer's pointer swap, never during a rebuild. A query keeps its `Arc<Snapshot>` as
//! long as it likes.
//!
//! # Same mesh as from scratch
//! A tile's polygons are a function of what is placed on it, and an added obstacle is placed
//! exactly as [`build_tiled`](crate::build::tiles::build_tiled) places a scene's obstacle; so
//! after any edits, the snapshot's mesh is the tiled build of [`DynamicNavMesh::scene`]: the
//! property test in `tests/dynamic.rs` compares, after every update, the patched mesh with the
//! build from scratch polygon for polygon (rings, neighbours, boxes, corners) and exact path
//! lengths.
//!
//! ```
//! use portolan::dynamic::DynamicNavMesh;
//! use portolan::{BuildOptions, Scene, Vec2};
//! let mut nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 100.0).unwrap();
//! let before = nav.snapshot();
//! let door = nav
//!     .add_obstacle([(300.0, 200.0), (340.0, 200.0), (340.0, 240.0), (300.0, 240.0)])
//!     .unwrap();
//! let report = nav.update().unwrap();
//! assert!(!report.tiles.is_empty());
//! let after = nav.snapshot();
//! after.mesh().check_invariants().unwrap();
//! assert!(after.mesh().area() < before.mesh().area());
//! nav.set_obstacle_enabled(door, false).unwrap();
//! nav.update().unwrap();
//! assert_eq!(nav.snapshot().mesh().area(), before.mesh().area());
//! ```

mod publish;
mod snapshot;
mod stitch;
#[cfg(test)]
mod tests;

pub use snapshot::{PolyRef, PolyRefError, Snapshot, SnapshotReader};

use crate::build::local::Solid;
use crate::build::tiles::{self, TileGrid, TiledScene};
use crate::build::{BuildError, BuildOptions, CancelToken};
use crate::geom::{point_in_range, polygon_is_simple, Vec2};
use crate::scene::{check_ring, RingFault, Scene};
use std::collections::BTreeSet;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};
use stitch::TileStitch;

/// Names an obstacle added to a [`DynamicNavMesh`]; a removed obstacle's id stays invalid (its
/// slot may be reused under a new generation).
///
/// ```
/// use portolan::dynamic::DynamicNavMesh;
/// use portolan::{BuildOptions, Scene};
/// let mut nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 200.0).unwrap();
/// let a = nav.add_obstacle([(10.0, 10.0), (20.0, 10.0), (15.0, 20.0)]).unwrap();
/// nav.remove_obstacle(a).unwrap();
/// let b = nav.add_obstacle([(10.0, 10.0), (20.0, 10.0), (15.0, 20.0)]).unwrap();
/// assert_ne!(a, b);
/// assert!(nav.remove_obstacle(a).is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObstacleId {
    slot: u32,
    generation: u32,
}

/// Why an edit was refused. Nothing changes when an edit is refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum EditError {
    /// A vertex is NaN or infinite.
    #[error("vertex {vertex}: coordinate is not a finite number")]
    NonFinite {
        /// Vertex index.
        vertex: usize,
    },
    /// Fewer than three distinct vertices, or all on one line.
    #[error("the shape is degenerate: {0}")]
    Degenerate(RingFault),
    /// Two edges of the shape cross or touch where they are not neighbours.
    #[error("the shape intersects itself: edges {first} and {second}")]
    SelfIntersecting {
        /// One edge (from vertex `first` to the next).
        first: usize,
        /// The other.
        second: usize,
    },
    /// A vertex lies outside the world's bounds (obstacles must lie inside them).
    #[error("vertex {vertex} at {point} is outside the world")]
    OutsideWorld {
        /// Vertex index.
        vertex: usize,
        /// The vertex (after the move, for a move).
        point: Vec2,
    },
    /// A coordinate is outside the range the builder takes (sub-normal; see
    /// [`coordinate_in_range`](crate::geom::coordinate_in_range)).
    #[error("vertex {vertex} at {point} has a coordinate out of range")]
    CoordinateRange {
        /// Vertex index.
        vertex: usize,
        /// The vertex.
        point: Vec2,
    },
    /// No obstacle has this id (never added, or removed).
    #[error("no obstacle {0:?} (never added, or removed)")]
    UnknownObstacle(ObstacleId),
    /// Building a tile failed (a coordinate the overlay or the triangulation cannot represent).
    #[error(transparent)]
    Build(#[from] BuildError),
}

/// What [`DynamicNavMesh::update`] did.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct UpdateReport {
    /// The new snapshot's version (the salt of every rebuilt tile).
    pub version: u64,
    /// The tiles rebuilt, by index (row-major from the map's lower left; see
    /// [`Snapshot::tile_of`]).
    pub tiles: Vec<usize>,
    /// The polygons of the rebuilt tiles in the previous snapshot: stale from now on.
    pub removed: Vec<PolyRef>,
    /// The polygons of the rebuilt tiles in the new snapshot.
    pub added: Vec<PolyRef>,
    /// Time spent on the rebuilt tiles' geometry (free space, triangulation, merge): local.
    pub rebuild_time: Duration,
    /// Time spent patching the kept stitch, planning the mesh patch and applying it to the
    /// spare snapshot (all local), or to a copy of the current one while a reader holds the
    /// spare (O(map); see the module docs).
    pub publish_time: Duration,
}

/// One dynamic obstacle.
#[derive(Clone, Debug)]
struct Obstacle {
    generation: u32,
    ring: Vec<Vec2>,
    enabled: bool,
    /// Its solids, per tile.
    placed: Vec<(usize, Arc<Solid>)>,
}

/// A tiled navigation mesh with obstacles that can be added, moved, removed and switched on and
/// off (doors); see the module docs.
///
/// ```
/// use portolan::dynamic::DynamicNavMesh;
/// use portolan::{BuildOptions, Scene, Vec2};
/// let mut nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 128.0).unwrap();
/// let crate_box = nav.add_obstacle([(50.0, 50.0), (70.0, 50.0), (70.0, 70.0), (50.0, 70.0)]).unwrap();
/// nav.update().unwrap();
/// nav.move_obstacle(crate_box, Vec2::new(100.0, 0.0)).unwrap();
/// let report = nav.update().unwrap();
/// assert_eq!(report.tiles, vec![0, 1]);
/// ```
#[derive(Debug)]
pub struct DynamicNavMesh {
    base: Scene,
    options: BuildOptions,
    tiled: TiledScene,
    slots: Vec<Option<Obstacle>>,
    /// Generation for the next obstacle in each slot.
    generations: Vec<u32>,
    free_slots: Vec<u32>,
    /// Per tile, the slots of the dynamic obstacles placed on it.
    tile_obstacles: Vec<BTreeSet<u32>>,
    /// Every tile's polygons, stitched; patched by each update (`stitch.rs`).
    stitch: TileStitch,
    salts: Vec<u64>,
    dirty: BTreeSet<usize>,
    version: u64,
    current: Arc<Snapshot>,
    /// The snapshot before `current` and the patch that made `current` from it: the next
    /// update brings the spare up to date and patches it, when no reader holds it any more.
    spare: Option<(Arc<Snapshot>, Arc<publish::SnapshotPatch>)>,
    scratch: crate::mesh::PatchScratch,
    shared: Arc<RwLock<Arc<Snapshot>>>,
}

impl DynamicNavMesh {
    /// The tiled mesh of `scene` (the base: its obstacles never change) with tiles of side
    /// `tile_size`. Errors as [`build_tiled`](crate::build::tiles::build_tiled).
    ///
    /// ```
    /// use portolan::dynamic::DynamicNavMesh;
    /// use portolan::{BuildOptions, Scene};
    /// let nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 64.0).unwrap();
    /// assert_eq!(nav.grid().columns(), 13);
    /// assert!(nav.snapshot().mesh().polygon_count() > 0);
    /// ```
    pub fn new(
        scene: Scene,
        options: &BuildOptions,
        tile_size: f64,
    ) -> Result<DynamicNavMesh, BuildError> {
        let mut tiled = TiledScene::new(&scene, options, tile_size)?;
        let n = tiled.tile_count();
        let mut tile_polygons: Vec<Vec<Vec<Vec2>>> = Vec::with_capacity(n);
        for t in 0..n {
            tile_polygons.push(tiled.tile_polygons(t, &[])?);
        }
        let version = 1;
        let salts = vec![version; n];
        let grid = tiled.layout.grid;
        let stitch = TileStitch::new(&grid, &tile_polygons)?;
        let current = Arc::new(Snapshot::new(
            stitch.mesh()?,
            &grid,
            (0..n).map(|t| stitch.tile_len(t)),
            &salts,
            version,
        ));
        // The token stopped this first build only: kept, a deadline that has passed (or a
        // request long answered) would fail every later update.
        tiled.cancel = CancelToken::new();
        let mut options = options.clone();
        options.cancel = None;
        Ok(DynamicNavMesh {
            base: scene,
            options,
            tiled,
            slots: Vec::new(),
            generations: Vec::new(),
            free_slots: Vec::new(),
            tile_obstacles: vec![BTreeSet::new(); n],
            stitch,
            salts,
            dirty: BTreeSet::new(),
            version,
            shared: Arc::new(RwLock::new(Arc::clone(&current))),
            current,
            spare: None,
            scratch: Default::default(),
        })
    }

    /// The tiles.
    ///
    /// ```
    /// use portolan::dynamic::DynamicNavMesh;
    /// use portolan::{BuildOptions, Scene};
    /// let nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 100.0).unwrap();
    /// assert_eq!((nav.grid().columns(), nav.grid().rows()), (8, 5));
    /// ```
    pub fn grid(&self) -> &TileGrid {
        &self.tiled.layout.grid
    }

    /// The build options the mesh was made with, without their [`BuildOptions::cancel`] token:
    /// that one can stop [`DynamicNavMesh::new`]'s build, never a later update.
    ///
    /// ```
    /// use portolan::dynamic::DynamicNavMesh;
    /// use portolan::{BuildOptions, Scene};
    /// let o = BuildOptions::cdt().with_agent_radius(2.0);
    /// let nav = DynamicNavMesh::new(Scene::default_map(), &o, 100.0).unwrap();
    /// assert_eq!(nav.options().agent_radius, 2.0);
    /// ```
    pub fn options(&self) -> &BuildOptions {
        &self.options
    }

    /// The latest published snapshot (what [`update`](Self::update) last made).
    ///
    /// ```
    /// use portolan::dynamic::DynamicNavMesh;
    /// use portolan::{BuildOptions, Scene};
    /// let nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 100.0).unwrap();
    /// assert_eq!(nav.snapshot().version(), 1);
    /// ```
    pub fn snapshot(&self) -> Arc<Snapshot> {
        Arc::clone(&self.current)
    }

    /// A handle other threads can keep to read the latest snapshot (see the module docs).
    ///
    /// ```
    /// use portolan::dynamic::DynamicNavMesh;
    /// use portolan::{BuildOptions, Scene};
    /// let mut nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 100.0).unwrap();
    /// let reader = nav.reader();
    /// let seen = std::thread::spawn(move || reader.current().version()).join().unwrap();
    /// assert_eq!(seen, 1);
    /// ```
    pub fn reader(&self) -> SnapshotReader {
        SnapshotReader::new(Arc::clone(&self.shared))
    }

    /// The scene a build from scratch would need for the same mesh: the base scene with every
    /// enabled dynamic obstacle appended (in slot order).
    ///
    /// ```
    /// use portolan::build::tiles::build_tiled;
    /// use portolan::dynamic::DynamicNavMesh;
    /// use portolan::{BuildOptions, Scene};
    /// let mut nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 100.0).unwrap();
    /// nav.add_obstacle([(10.0, 10.0), (20.0, 10.0), (15.0, 20.0)]).unwrap();
    /// nav.update().unwrap();
    /// let scratch = build_tiled(&nav.scene(), &BuildOptions::cdt(), 100.0).unwrap();
    /// assert_eq!(scratch.area(), nav.snapshot().mesh().area());
    /// ```
    pub fn scene(&self) -> Scene {
        let mut scene = self.base.clone();
        scene.obstacles.extend(
            self.slots
                .iter()
                .flatten()
                .filter(|o| o.enabled)
                .map(|o| o.ring.clone()),
        );
        scene
    }

    /// How many dynamic obstacles there are (enabled or not).
    ///
    /// ```
    /// use portolan::dynamic::DynamicNavMesh;
    /// use portolan::{BuildOptions, Scene};
    /// let mut nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 100.0).unwrap();
    /// nav.add_obstacle([(10.0, 10.0), (20.0, 10.0), (15.0, 20.0)]).unwrap();
    /// assert_eq!(nav.obstacle_count(), 1);
    /// ```
    pub fn obstacle_count(&self) -> usize {
        self.slots.iter().flatten().count()
    }

    /// The shape of obstacle `id` as it stands (after any moves).
    ///
    /// ```
    /// use portolan::dynamic::DynamicNavMesh;
    /// use portolan::{BuildOptions, Scene, Vec2};
    /// let mut nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 100.0).unwrap();
    /// let id = nav.add_obstacle([(10.0, 10.0), (20.0, 10.0), (15.0, 20.0)]).unwrap();
    /// nav.move_obstacle(id, Vec2::new(1.0, 0.0)).unwrap();
    /// assert_eq!(nav.obstacle_shape(id).unwrap()[0], Vec2::new(11.0, 10.0));
    /// ```
    pub fn obstacle_shape(&self, id: ObstacleId) -> Result<&[Vec2], EditError> {
        Ok(&self.obstacle(id)?.ring)
    }

    /// Bytes held for editing, estimated from array sizes: the solids placed on the tiles (a
    /// unit shared by several tiles counted once), the kept stitch (the vertices and their map,
    /// every tile's polygons before and after the border splits, adjacency and measures) and the
    /// spare snapshot's mesh (a second copy, see the module docs' "Publishing is local"); not the
    /// published snapshot's mesh ([`NavMesh::memory_bytes`](crate::NavMesh::memory_bytes)).
    ///
    /// ```
    /// use portolan::dynamic::DynamicNavMesh;
    /// use portolan::{BuildOptions, Scene};
    /// let nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 100.0).unwrap();
    /// assert!(nav.memory_bytes() > 0);
    /// ```
    pub fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        let vec = size_of::<Vec<Vec2>>();
        let mut seen = std::collections::HashSet::new();
        let mut solids = 0;
        let placed = self.tiled.solids.iter().flatten().chain(
            self.slots
                .iter()
                .flatten()
                .flat_map(|o| o.placed.iter().map(|(_, s)| s)),
        );
        for s in placed {
            solids += size_of::<Arc<Solid>>();
            if seen.insert(Arc::as_ptr(s)) {
                solids += s
                    .iter()
                    .map(|r| vec + r.len() * size_of::<Vec2>())
                    .sum::<usize>();
            }
        }
        let spare = self
            .spare
            .as_ref()
            .map_or(0, |(s, _)| s.mesh().memory_bytes() + s.memory_bytes());
        solids + self.stitch.memory_bytes() + self.salts.len() * size_of::<u64>() + spare
    }

    /// Whether the tiles wait for an [`update`](Self::update).
    ///
    /// ```
    /// use portolan::dynamic::DynamicNavMesh;
    /// use portolan::{BuildOptions, Scene};
    /// let mut nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 100.0).unwrap();
    /// nav.add_obstacle([(10.0, 10.0), (20.0, 10.0), (15.0, 20.0)]).unwrap();
    /// assert!(nav.has_pending_changes());
    /// nav.update().unwrap();
    /// assert!(!nav.has_pending_changes());
    /// ```
    pub fn has_pending_changes(&self) -> bool {
        !self.dirty.is_empty()
    }

    /// Adds an obstacle: a simple polygon (either orientation, not self-intersecting) inside the
    /// world's bounds. It takes effect at the next [`update`](Self::update).
    ///
    /// ```
    /// use portolan::dynamic::{DynamicNavMesh, EditError};
    /// use portolan::{BuildOptions, Scene};
    /// let mut nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 100.0).unwrap();
    /// let bowtie = [(10.0, 10.0), (20.0, 20.0), (20.0, 10.0), (10.0, 20.0)];
    /// assert!(matches!(nav.add_obstacle(bowtie), Err(EditError::SelfIntersecting { .. })));
    /// let outside = [(-10.0, 10.0), (20.0, 10.0), (15.0, 20.0)];
    /// assert!(matches!(nav.add_obstacle(outside), Err(EditError::OutsideWorld { vertex: 0, .. })));
    /// let nan = [(f64::NAN, 10.0), (20.0, 10.0), (15.0, 20.0)];
    /// assert!(matches!(nav.add_obstacle(nan), Err(EditError::NonFinite { vertex: 0 })));
    /// ```
    pub fn add_obstacle(
        &mut self,
        shape: impl IntoIterator<Item = impl Into<Vec2>>,
    ) -> Result<ObstacleId, EditError> {
        let ring: Vec<Vec2> = shape.into_iter().map(Into::into).collect();
        let placed = self.check_and_place(&ring)?;
        let slot = match self.free_slots.pop() {
            Some(s) => s,
            None => {
                self.slots.push(None);
                self.generations.push(0);
                (self.slots.len() - 1) as u32
            }
        };
        let generation = self.generations[slot as usize];
        for (t, _) in &placed {
            self.tile_obstacles[*t].insert(slot);
            self.dirty.insert(*t);
        }
        self.slots[slot as usize] = Some(Obstacle {
            generation,
            ring,
            enabled: true,
            placed,
        });
        Ok(ObstacleId { slot, generation })
    }

    /// Removes obstacle `id`; its id is invalid from now on.
    ///
    /// ```
    /// use portolan::dynamic::{DynamicNavMesh, EditError};
    /// use portolan::{BuildOptions, Scene};
    /// let mut nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 100.0).unwrap();
    /// let id = nav.add_obstacle([(10.0, 10.0), (20.0, 10.0), (15.0, 20.0)]).unwrap();
    /// nav.remove_obstacle(id).unwrap();
    /// assert_eq!(nav.remove_obstacle(id), Err(EditError::UnknownObstacle(id)));
    /// ```
    pub fn remove_obstacle(&mut self, id: ObstacleId) -> Result<(), EditError> {
        self.obstacle(id)?;
        let o = self.slots[id.slot as usize]
            .take()
            .expect("checked by obstacle()");
        self.unplace(id.slot, &o.placed);
        self.generations[id.slot as usize] = id.generation.wrapping_add(1);
        self.free_slots.push(id.slot);
        Ok(())
    }

    /// Moves obstacle `id` by `by`. The moved shape must still lie inside the world; if not,
    /// nothing moves and the error says which vertex left.
    ///
    /// ```
    /// use portolan::dynamic::{DynamicNavMesh, EditError};
    /// use portolan::{BuildOptions, Scene, Vec2};
    /// let mut nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 100.0).unwrap();
    /// let id = nav.add_obstacle([(10.0, 10.0), (20.0, 10.0), (15.0, 20.0)]).unwrap();
    /// assert!(matches!(
    ///     nav.move_obstacle(id, Vec2::new(-50.0, 0.0)),
    ///     Err(EditError::OutsideWorld { .. })
    /// ));
    /// nav.move_obstacle(id, Vec2::new(50.0, 0.0)).unwrap();
    /// ```
    pub fn move_obstacle(&mut self, id: ObstacleId, by: Vec2) -> Result<(), EditError> {
        let o = self.obstacle(id)?;
        let ring: Vec<Vec2> = o.ring.iter().map(|&p| p + by).collect();
        if !by.is_finite() {
            return Err(EditError::NonFinite { vertex: 0 });
        }
        let placed = self.check_and_place(&ring)?;
        let o = self.slots[id.slot as usize]
            .take()
            .expect("checked by obstacle()");
        self.unplace(id.slot, &o.placed);
        for (t, _) in &placed {
            self.tile_obstacles[*t].insert(id.slot);
            self.dirty.insert(*t);
        }
        self.slots[id.slot as usize] = Some(Obstacle { ring, placed, ..o });
        Ok(())
    }

    /// Switches obstacle `id` on or off (a door: closed is enabled). A disabled obstacle stays
    /// placed and keeps its id, but is not solid.
    ///
    /// ```
    /// use portolan::dynamic::DynamicNavMesh;
    /// use portolan::{BuildOptions, Scene};
    /// let mut nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 100.0).unwrap();
    /// let door = nav.add_obstacle([(10.0, 10.0), (20.0, 10.0), (15.0, 20.0)]).unwrap();
    /// nav.update().unwrap();
    /// nav.set_obstacle_enabled(door, false).unwrap();
    /// assert!(nav.has_pending_changes());
    /// ```
    pub fn set_obstacle_enabled(&mut self, id: ObstacleId, enabled: bool) -> Result<(), EditError> {
        self.obstacle(id)?;
        let o = self.slots[id.slot as usize]
            .as_mut()
            .expect("checked by obstacle()");
        if o.enabled != enabled {
            o.enabled = enabled;
            self.dirty.extend(o.placed.iter().map(|(t, _)| *t));
        }
        Ok(())
    }

    /// Rebuilds the dirty tiles and publishes a new snapshot (see the module docs). With nothing
    /// dirty it publishes nothing and reports no tiles.
    ///
    /// ```
    /// use portolan::dynamic::DynamicNavMesh;
    /// use portolan::{BuildOptions, Scene};
    /// let mut nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 100.0).unwrap();
    /// let old = nav.snapshot();
    /// nav.add_obstacle([(10.0, 10.0), (20.0, 10.0), (15.0, 20.0)]).unwrap();
    /// let report = nav.update().unwrap();
    /// assert_eq!(report.tiles, vec![0]);
    /// assert!(old.resolve(report.removed[0]).is_ok());
    /// assert!(nav.snapshot().resolve(report.removed[0]).is_err());
    /// ```
    pub fn update(&mut self) -> Result<UpdateReport, EditError> {
        if self.dirty.is_empty() {
            return Ok(UpdateReport {
                version: self.version,
                tiles: Vec::new(),
                removed: Vec::new(),
                added: Vec::new(),
                rebuild_time: Duration::ZERO,
                publish_time: Duration::ZERO,
            });
        }
        let started = Instant::now();
        let tiles: Vec<usize> = self.dirty.iter().copied().collect();
        let mut rebuilt = Vec::with_capacity(tiles.len());
        for &t in &tiles {
            let extra: Vec<&Solid> = self.tile_obstacles[t]
                .iter()
                .filter_map(|&s| self.slots[s as usize].as_ref())
                .filter(|o| o.enabled)
                .flat_map(|o| o.placed.iter().filter(|(pt, _)| *pt == t))
                .map(|(_, solid)| &**solid)
                .collect();
            rebuilt.push(self.tiled.tile_polygons(t, &extra)?);
        }
        let rebuild_time = started.elapsed();
        // No walkable space left: refused before the stitch is touched, so there is nothing to
        // roll back. (Border splits add vertices, never polygons.)
        let old_counts: Vec<usize> = tiles.iter().map(|&t| self.stitch.tile_len(t)).collect();
        let kept = self.current.mesh().polygon_count() - old_counts.iter().sum::<usize>();
        if kept + rebuilt.iter().map(Vec::len).sum::<usize>() == 0 {
            return Err(BuildError::NoWalkableSpace.into());
        }
        let started = Instant::now();
        let version = self.version + 1;
        let grid = self.tiled.layout.grid;
        let changed: Vec<(usize, &[Vec<Vec2>])> = tiles
            .iter()
            .zip(&rebuilt)
            .map(|(&t, polys)| (t, polys.as_slice()))
            .collect();
        // The rebuilt tiles as they were, to stitch again if this stitch fails.
        let old_polygons: Vec<Vec<Vec<Vec2>>> =
            tiles.iter().map(|&t| self.stitch.tile_points(t)).collect();
        let published = self.stitch.replace(&changed).and_then(|()| {
            let patch = publish::plan(
                &self.stitch,
                &self.current,
                &tiles,
                version,
                &mut self.scratch,
            )?;
            self.next_snapshot(patch).map_err(BuildError::Mesh)
        });
        let snapshot = match published {
            Ok(s) => s,
            Err(e) => {
                // Nothing was published; stitch the tiles as they were again (they stitched
                // before). The raw rings of the tiles not rebuilt are intact after a failure.
                let mut all: Vec<Vec<Vec<Vec2>>> = (0..self.salts.len())
                    .map(|t| self.stitch.tile_points(t))
                    .collect();
                for (&t, polys) in tiles.iter().zip(old_polygons) {
                    all[t] = polys;
                }
                if let Ok(s) = TileStitch::new(&grid, &all) {
                    self.stitch = s;
                }
                return Err(e.into());
            }
        };
        let old_salts = self.salts.clone();
        for &t in &tiles {
            self.salts[t] = version;
        }
        let mut removed = Vec::new();
        let mut added = Vec::new();
        for (k, &t) in tiles.iter().enumerate() {
            let tile = t as u32;
            removed.extend((0..old_counts[k] as u32).map(|index| PolyRef {
                tile,
                index,
                salt: old_salts[t],
            }));
            added.extend((0..self.stitch.tile_len(t) as u32).map(|index| PolyRef {
                tile,
                index,
                salt: version,
            }));
        }
        self.version = version;
        self.dirty.clear();
        self.current = snapshot;
        {
            let mut shared = self.shared.write().unwrap_or_else(|e| e.into_inner());
            *shared = Arc::clone(&self.current);
        }
        Ok(UpdateReport {
            version,
            tiles,
            removed,
            added,
            rebuild_time,
            publish_time: started.elapsed(),
        })
    }

    /// The reference this mesh must equal: [`build_tiled`](tiles::build_tiled) of
    /// [`scene`](Self::scene) with the same options and tile size, built from nothing (what the
    /// tests and `portolan edits` compare against).
    ///
    /// ```
    /// use portolan::dynamic::DynamicNavMesh;
    /// use portolan::{BuildOptions, Scene};
    /// let mut nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 100.0).unwrap();
    /// nav.add_obstacle([(10.0, 10.0), (20.0, 10.0), (15.0, 20.0)]).unwrap();
    /// nav.update().unwrap();
    /// let scratch = nav.build_from_scratch().unwrap();
    /// assert_eq!(scratch.polygon_count(), nav.snapshot().mesh().polygon_count());
    /// ```
    pub fn build_from_scratch(&self) -> Result<crate::NavMesh, BuildError> {
        tiles::build_tiled(&self.scene(), &self.options, self.grid().size())
    }

    /// The snapshot `patch` leads to from the current one, without copying the map when it
    /// can: the spare (the snapshot before the current one), once no reader holds it, is brought
    /// up to date with the patch that made the current one and then patched; otherwise the
    /// current one is copied and patched. The current snapshot becomes the spare. On an error
    /// (the writer's bug, found by debug builds' checks) nothing is published and the spare is
    /// dropped.
    fn next_snapshot(
        &mut self,
        patch: publish::SnapshotPatch,
    ) -> Result<Arc<Snapshot>, crate::mesh::InvariantError> {
        let patch = Arc::new(patch);
        let reused = match self.spare.take() {
            Some((mut spare, last)) => match Arc::get_mut(&mut spare) {
                Some(s) => {
                    s.apply(&last)?;
                    Some(spare)
                }
                None => None,
            },
            None => None,
        };
        let mut next = reused.unwrap_or_else(|| Arc::new((*self.current).clone()));
        Arc::get_mut(&mut next)
            .expect("a snapshot not yet published has no other holder")
            .apply(&patch)?;
        self.spare = Some((Arc::clone(&self.current), patch));
        Ok(next)
    }

    fn obstacle(&self, id: ObstacleId) -> Result<&Obstacle, EditError> {
        self.slots
            .get(id.slot as usize)
            .and_then(Option::as_ref)
            .filter(|o| o.generation == id.generation)
            .ok_or(EditError::UnknownObstacle(id))
    }

    fn unplace(&mut self, slot: u32, placed: &[(usize, Arc<Solid>)]) {
        for (t, _) in placed {
            self.tile_obstacles[*t].remove(&slot);
            self.dirty.insert(*t);
        }
    }

    /// Checks a shape and places its grown solids on the tiles.
    fn check_and_place(&self, ring: &[Vec2]) -> Result<Vec<(usize, Arc<Solid>)>, EditError> {
        if let Some(vertex) = ring.iter().position(|p| !p.is_finite()) {
            return Err(EditError::NonFinite { vertex });
        }
        let bounds = self.base.bounds;
        if let Some(vertex) = ring.iter().position(|p| !bounds.contains(*p)) {
            return Err(EditError::OutsideWorld {
                vertex,
                point: ring[vertex],
            });
        }
        if let Some(vertex) = ring.iter().position(|&p| !point_in_range(p)) {
            return Err(EditError::CoordinateRange {
                vertex,
                point: ring[vertex],
            });
        }
        check_ring(ring).map_err(EditError::Degenerate)?;
        if let Err(crate::geom::SimplicityError::SelfIntersection { first, second }) =
            polygon_is_simple(ring)
        {
            return Err(EditError::SelfIntersecting { first, second });
        }
        let t = &self.tiled;
        let units = crate::build::local::obstacle_units(ring, &[], t.radius, t.max_angle)?;
        let mut placed = Vec::new();
        for unit in units {
            placed.extend(t.layout.place(unit, false)?);
        }
        Ok(placed)
    }
}
