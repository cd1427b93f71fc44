//! Immutable snapshots of a [`DynamicNavMesh`](super::DynamicNavMesh), stable polygon references
//! and the shared handle readers keep.

use super::publish::SnapshotPatch;
use crate::build::tiles::TileGrid;
use crate::geom::{Aabb, Vec2};
use crate::mesh::{InvariantError, NavMesh, PolyId};
use std::sync::{Arc, RwLock};

/// A polygon named by its tile, its index among the tile's polygons and the tile's salt (the
/// version at which the tile was last rebuilt): valid in every snapshot where the tile has not
/// been rebuilt since.
///
/// ```
/// use portolan::dynamic::DynamicNavMesh;
/// use portolan::{BuildOptions, PolyId, Scene};
/// let nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 100.0).unwrap();
/// let snap = nav.snapshot();
/// let r = snap.poly_ref(PolyId(3)).unwrap();
/// assert_eq!(snap.resolve(r), Ok(PolyId(3)));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PolyRef {
    /// The tile (row-major index from the map's lower left).
    pub tile: u32,
    /// The polygon's index among its tile's polygons.
    pub index: u32,
    /// The tile's salt when the reference was taken.
    pub salt: u64,
}

/// Why a [`PolyRef`] does not name a polygon of a snapshot.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PolyRefError {
    /// The tile was rebuilt since the reference was taken: its polygons are not the same.
    #[error("stale polygon reference: tile {tile} has salt {current}, the reference {salt}")]
    Stale {
        /// The tile.
        tile: u32,
        /// The reference's salt.
        salt: u64,
        /// The tile's salt now.
        current: u64,
    },
    /// No such tile, or no such polygon in the tile (a reference not made by this mesh).
    #[error("no polygon {index} in tile {tile}")]
    NotFound {
        /// The tile.
        tile: u32,
        /// The index.
        index: u32,
    },
}

/// One published version of a dynamic mesh: the stitched [`NavMesh`] and, per tile, its salt and
/// which polygons are its. Immutable; share it through the `Arc` it comes in.
#[derive(Clone, Debug)]
pub struct Snapshot {
    mesh: Arc<NavMesh>,
    version: u64,
    grid: TileGrid,
    salts: Vec<u64>,
    /// Per tile, the polygon id of each of its polygons.
    ids: Vec<Vec<u32>>,
    /// Per polygon, its (tile, index in the tile).
    owner: Vec<(u32, u32)>,
}

impl Snapshot {
    /// Bytes of the tile bookkeeping (salts, the tiles' id lists, the owners), not the mesh.
    pub(crate) fn memory_bytes(&self) -> usize {
        use std::mem::size_of_val;
        size_of_val(&self.salts[..])
            + self
                .ids
                .iter()
                .map(|l| 24 + size_of_val(&l[..]))
                .sum::<usize>()
            + size_of_val(&self.owner[..])
    }

    /// A snapshot of `mesh`, whose polygons are the tiles' in tile order, `counts` of them per
    /// tile.
    pub(crate) fn new(
        mesh: NavMesh,
        grid: &TileGrid,
        counts: impl Iterator<Item = usize>,
        salts: &[u64],
        version: u64,
    ) -> Snapshot {
        let mut ids = Vec::with_capacity(salts.len());
        let mut owner = Vec::with_capacity(mesh.polygon_count());
        for (t, c) in counts.enumerate() {
            let first = owner.len() as u32;
            ids.push((first..first + c as u32).collect());
            owner.extend((0..c as u32).map(|k| (t as u32, k)));
        }
        debug_assert_eq!(owner.len(), mesh.polygon_count());
        Snapshot {
            mesh: Arc::new(mesh),
            version,
            grid: *grid,
            salts: salts.to_vec(),
            ids,
            owner,
        }
    }

    /// Per tile the ids of its polygons, and per polygon its (tile, index).
    pub(crate) fn ids(&self) -> (&[Vec<u32>], &[(u32, u32)]) {
        (&self.ids, &self.owner)
    }

    /// Makes this snapshot the one `patch` leads to (`publish.rs`): in place, in time
    /// proportional to the patch, unless a reader holds this snapshot's mesh (then the mesh is
    /// copied first). Debug builds check the mesh's invariants.
    pub(crate) fn apply(&mut self, patch: &SnapshotPatch) -> Result<(), InvariantError> {
        Arc::make_mut(&mut self.mesh).apply(&patch.mesh)?;
        for (t, list) in &patch.tiles {
            let ids = &mut self.ids[*t as usize];
            ids.clear();
            ids.extend_from_slice(list);
        }
        self.owner.resize(patch.polygon_count, (u32::MAX, u32::MAX));
        for &(id, at) in &patch.owners {
            self.owner[id as usize] = at;
        }
        for &t in &patch.rebuilt {
            self.salts[t] = patch.version;
        }
        self.version = patch.version;
        debug_assert!(self
            .owner
            .iter()
            .enumerate()
            .all(|(p, &(t, k))| { self.ids[t as usize].get(k as usize) == Some(&(p as u32)) }));
        Ok(())
    }

    /// The mesh: search it with a [`PathFinder`](crate::PathFinder) as any other.
    ///
    /// ```
    /// use portolan::dynamic::DynamicNavMesh;
    /// use portolan::{BuildOptions, PathFinder, Scene, SearchOptions};
    /// let nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 100.0).unwrap();
    /// let snap = nav.snapshot();
    /// let path = PathFinder::new()
    ///     .find_path(snap.mesh(), Scene::DEFAULT_START, Scene::DEFAULT_GOAL, &SearchOptions::exact())
    ///     .unwrap();
    /// assert!(path.length > 0.0);
    /// ```
    pub fn mesh(&self) -> &Arc<NavMesh> {
        &self.mesh
    }

    /// The version: 1 for the first snapshot, one more for each update that rebuilt something.
    ///
    /// ```
    /// use portolan::dynamic::DynamicNavMesh;
    /// use portolan::{BuildOptions, Scene};
    /// let mut nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 100.0).unwrap();
    /// nav.add_obstacle([(10.0, 10.0), (20.0, 10.0), (15.0, 20.0)]).unwrap();
    /// nav.update().unwrap();
    /// assert_eq!(nav.snapshot().version(), 2);
    /// ```
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The tiles.
    ///
    /// ```
    /// use portolan::dynamic::DynamicNavMesh;
    /// use portolan::{BuildOptions, Scene};
    /// let nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 400.0).unwrap();
    /// assert_eq!(nav.snapshot().grid().columns(), 2);
    /// ```
    pub fn grid(&self) -> &TileGrid {
        &self.grid
    }

    /// The salt of tile `tile` (the version at which it was last rebuilt), `None` past the last.
    ///
    /// ```
    /// use portolan::dynamic::DynamicNavMesh;
    /// use portolan::{BuildOptions, Scene};
    /// let nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 400.0).unwrap();
    /// assert_eq!(nav.snapshot().tile_salt(0), Some(1));
    /// assert_eq!(nav.snapshot().tile_salt(4), None); // 2 × 2 tiles
    /// ```
    pub fn tile_salt(&self, tile: usize) -> Option<u64> {
        self.salts.get(tile).copied()
    }

    /// The tile holding polygon `p`, `None` if `p` is not a polygon of this mesh.
    ///
    /// ```
    /// use portolan::dynamic::DynamicNavMesh;
    /// use portolan::{BuildOptions, PolyId, Scene};
    /// let nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 400.0).unwrap();
    /// assert_eq!(nav.snapshot().tile_of(PolyId(0)), Some(0));
    /// ```
    pub fn tile_of(&self, p: PolyId) -> Option<usize> {
        self.owner.get(p.index()).map(|&(t, _)| t as usize)
    }

    /// The stable reference of polygon `p` of this snapshot.
    ///
    /// ```
    /// use portolan::dynamic::DynamicNavMesh;
    /// use portolan::{BuildOptions, PolyId, Scene};
    /// let nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 400.0).unwrap();
    /// assert_eq!(nav.snapshot().poly_ref(PolyId(0)).unwrap().index, 0);
    /// ```
    pub fn poly_ref(&self, p: PolyId) -> Option<PolyRef> {
        let &(tile, index) = self.owner.get(p.index())?;
        Some(PolyRef {
            tile,
            index,
            salt: self.salts[tile as usize],
        })
    }

    /// The polygon `r` names in this snapshot: [`PolyRefError::Stale`] if its tile was rebuilt
    /// since `r` was taken.
    ///
    /// ```
    /// use portolan::dynamic::{DynamicNavMesh, PolyRefError};
    /// use portolan::{BuildOptions, PolyId, Scene};
    /// let mut nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 400.0).unwrap();
    /// let r = nav.snapshot().poly_ref(PolyId(0)).unwrap();
    /// nav.add_obstacle([(10.0, 10.0), (20.0, 10.0), (15.0, 20.0)]).unwrap();
    /// nav.update().unwrap();
    /// assert!(matches!(nav.snapshot().resolve(r), Err(PolyRefError::Stale { .. })));
    /// ```
    pub fn resolve(&self, r: PolyRef) -> Result<PolyId, PolyRefError> {
        let not_found = PolyRefError::NotFound {
            tile: r.tile,
            index: r.index,
        };
        let t = r.tile as usize;
        let current = *self.salts.get(t).ok_or(not_found)?;
        if current != r.salt {
            return Err(PolyRefError::Stale {
                tile: r.tile,
                salt: r.salt,
                current,
            });
        }
        let &id = self.ids[t].get(r.index as usize).ok_or(not_found)?;
        Ok(PolyId(id))
    }

    /// The tiles whose salts differ between `older` and this snapshot (rebuilt in between).
    ///
    /// ```
    /// use portolan::dynamic::DynamicNavMesh;
    /// use portolan::{BuildOptions, Scene};
    /// let mut nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 400.0).unwrap();
    /// let old = nav.snapshot();
    /// nav.add_obstacle([(10.0, 10.0), (20.0, 10.0), (15.0, 20.0)]).unwrap();
    /// nav.update().unwrap();
    /// assert_eq!(nav.snapshot().changed_tiles_since(&old), vec![0]);
    /// ```
    pub fn changed_tiles_since(&self, older: &Snapshot) -> Vec<usize> {
        (0..self.salts.len())
            .filter(|&t| older.salts.get(t) != Some(&self.salts[t]))
            .collect()
    }

    /// Whether a corridor (polygon references taken from an older snapshot, a path's channel)
    /// crosses a tile rebuilt since: then it must be planned again.
    ///
    /// ```
    /// use portolan::dynamic::DynamicNavMesh;
    /// use portolan::{BuildOptions, PathFinder, Scene, SearchOptions};
    /// let mut nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 200.0).unwrap();
    /// let old = nav.snapshot();
    /// let path = PathFinder::new()
    ///     .find_path(old.mesh(), Scene::DEFAULT_START, Scene::DEFAULT_GOAL, &SearchOptions::default())
    ///     .unwrap();
    /// let corridor: Vec<_> = path.channel.iter().filter_map(|&p| old.poly_ref(p)).collect();
    /// nav.add_obstacle([(790.0, 10.0), (795.0, 10.0), (795.0, 15.0)]).unwrap();
    /// nav.update().unwrap();
    /// // The path runs from the left side to the right; the corner tile changed.
    /// let _ = nav.snapshot().needs_replan(&corridor);
    /// assert!(!nav.snapshot().needs_replan(&[]));
    /// ```
    pub fn needs_replan(&self, corridor: &[PolyRef]) -> bool {
        corridor.iter().any(|&r| self.resolve(r).is_err())
    }

    /// Whether the polyline `points` (a path found on `older`) passes through a tile rebuilt
    /// since `older`: the segments are tested against the changed tiles' rectangles (closed, so
    /// a path along a tile border counts).
    ///
    /// ```
    /// use portolan::dynamic::DynamicNavMesh;
    /// use portolan::{BuildOptions, Scene, Vec2};
    /// let mut nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 400.0).unwrap();
    /// let old = nav.snapshot();
    /// nav.add_obstacle([(10.0, 10.0), (20.0, 10.0), (15.0, 20.0)]).unwrap();
    /// nav.update().unwrap();
    /// let left = [Vec2::new(10.0, 300.0), Vec2::new(100.0, 300.0)];
    /// let right = [Vec2::new(500.0, 300.0), Vec2::new(700.0, 300.0)];
    /// assert!(nav.snapshot().path_crosses_changed(&old, &left));
    /// assert!(!nav.snapshot().path_crosses_changed(&old, &right));
    /// ```
    pub fn path_crosses_changed(&self, older: &Snapshot, points: &[Vec2]) -> bool {
        let changed = self.changed_tiles_since(older);
        if changed.is_empty() {
            return false;
        }
        let c = self.grid.columns();
        let rects: Vec<Aabb> = changed
            .iter()
            .map(|&t| self.grid.tile_bounds(t % c, t / c))
            .collect();
        let segments: Vec<(Vec2, Vec2)> = match points {
            [] => return false,
            [p] => vec![(*p, *p)],
            _ => points.windows(2).map(|w| (w[0], w[1])).collect(),
        };
        segments
            .iter()
            .any(|&(a, b)| rects.iter().any(|r| segment_meets_rect(a, b, *r)))
    }
}

/// Whether the closed segment `ab` shares a point with the closed rectangle `r` (slab clipping).
fn segment_meets_rect(a: Vec2, b: Vec2, r: Aabb) -> bool {
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, d, lo, hi) in [
        (a.x, b.x - a.x, r.min.x, r.max.x),
        (a.y, b.y - a.y, r.min.y, r.max.y),
    ] {
        if d == 0.0 {
            if p < lo || p > hi {
                return false;
            }
        } else {
            let (mut u, mut v) = ((lo - p) / d, (hi - p) / d);
            if u > v {
                std::mem::swap(&mut u, &mut v);
            }
            t0 = t0.max(u);
            t1 = t1.min(v);
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

/// A handle on the latest snapshot of a [`DynamicNavMesh`](super::DynamicNavMesh), for other
/// threads: cheap to clone, `Send + Sync`.
///
/// ```
/// use portolan::dynamic::DynamicNavMesh;
/// use portolan::{BuildOptions, Scene};
/// let mut nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 100.0).unwrap();
/// let reader = nav.reader();
/// nav.add_obstacle([(10.0, 10.0), (20.0, 10.0), (15.0, 20.0)]).unwrap();
/// nav.update().unwrap();
/// assert_eq!(reader.current().version(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct SnapshotReader {
    shared: Arc<RwLock<Arc<Snapshot>>>,
}

impl SnapshotReader {
    pub(crate) fn new(shared: Arc<RwLock<Arc<Snapshot>>>) -> SnapshotReader {
        SnapshotReader { shared }
    }

    /// The latest published snapshot (an `Arc` clone; the lock is held for that alone).
    ///
    /// ```
    /// use portolan::dynamic::DynamicNavMesh;
    /// use portolan::{BuildOptions, Scene};
    /// let nav = DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 100.0).unwrap();
    /// assert_eq!(nav.reader().current().version(), 1);
    /// ```
    pub fn current(&self) -> Arc<Snapshot> {
        Arc::clone(&self.shared.read().unwrap_or_else(|e| e.into_inner()))
    }
}
