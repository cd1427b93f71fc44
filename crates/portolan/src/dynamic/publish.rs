//! Publishing an update as a patch: the next snapshot made from the last in time proportional
//! to what the update stitched again, not to the map.
//!
//! Polygon ids stay dense (`0..n`, as every search's per-polygon arrays want) and stable for
//! every polygon that did not change:
//! - a tile stitched again keeps its old ids for its first polygons; the polygons it has beyond
//!   its old count take the ids other tiles freed, else new ids at the end;
//! - ids freed and not taken again are filled by moving the polygons with the highest ids into
//!   them (swap-remove), highest hole first; a moved polygon and its neighbours (which name it)
//!   are written again.
//!
//! The writer then names every polygon written (those of the tiles stitched again, the moved
//! ones and their neighbours, and those whose rings a vertex renumbering touched) and every
//! vertex slot that holds a new point: a [`MeshEdit`], which the mesh turns into a
//! [`MeshPatch`] (`mesh/patch.rs`) by reading the published mesh. [`SnapshotPatch`] adds the
//! tiles' id lists, the owners of the ids and the salts. All of it holds final values, so the
//! writer can bring its spare snapshot (the one before the last) up to date with the last patch
//! and then apply the new one, instead of copying the published one ([`DynamicNavMesh::update`](
//! super::DynamicNavMesh::update)).

use super::snapshot::Snapshot;
use super::stitch::{TileStitch, WALL};
use crate::build::BuildError;
use crate::mesh::{MeshEdit, MeshPatch, PatchScratch, PolyId, PolygonWrite, VertexId};
use std::collections::BTreeMap;

/// What turns one snapshot into the next (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct SnapshotPatch {
    pub(crate) mesh: MeshPatch,
    /// Tiles whose id lists changed, with the new lists.
    pub(crate) tiles: Vec<(u32, Vec<u32>)>,
    /// The number of polygons, and (tile, index) of every id written.
    pub(crate) polygon_count: usize,
    pub(crate) owners: Vec<(u32, (u32, u32))>,
    /// Tiles rebuilt (their salt becomes `version`).
    pub(crate) rebuilt: Vec<usize>,
    pub(crate) version: u64,
}

/// The patch from `current` to the stitch's state after its last replace (see the module docs).
pub(crate) fn plan(
    stitch: &TileStitch,
    current: &Snapshot,
    rebuilt: &[usize],
    version: u64,
    scratch: &mut PatchScratch,
) -> Result<SnapshotPatch, BuildError> {
    let changes = stitch.changes();
    let (old_ids, old_owner) = current.ids();
    let mut lists: BTreeMap<usize, Vec<u32>> = BTreeMap::new();
    let mut owners: BTreeMap<u32, (u32, u32)> = BTreeMap::new();
    let mut count = old_owner.len() as u32;
    let (mut freed, mut needed) = (Vec::new(), Vec::new());
    for &u in &changes.tiles {
        let old = &old_ids[u];
        let k = stitch.tile_len(u);
        let mut list = old[..k.min(old.len())].to_vec();
        freed.extend(old.iter().skip(k));
        needed.extend((old.len()..k).map(|i| (u, i)));
        list.resize(k, u32::MAX);
        lists.insert(u, list);
    }
    // New polygons take the lowest freed ids first (the highest are the likeliest to be at the
    // end, where they go without moving anything), then new ids.
    freed.sort_unstable();
    let mut reuse = freed.iter().copied();
    let mut freed_left = freed.len();
    for (u, i) in needed {
        let id = match reuse.next() {
            Some(h) => {
                freed_left -= 1;
                h
            }
            None => {
                count += 1;
                count - 1
            }
        };
        lists.get_mut(&u).expect("listed above")[i] = id;
        owners.insert(id, (u as u32, i as u32));
    }
    // The ids left free: each takes the polygon with the highest id, highest hole first.
    let mut moved = Vec::new();
    for &h in freed[freed.len() - freed_left..].iter().rev() {
        count -= 1;
        if h == count {
            continue;
        }
        let (t, k) = owners
            .get(&count)
            .copied()
            .unwrap_or(old_owner[count as usize]);
        owners.insert(h, (t, k));
        let list = lists
            .entry(t as usize)
            .or_insert_with(|| old_ids[t as usize].clone());
        list[k as usize] = h;
        moved.push((t, k));
    }
    let id_of = |t: u32, k: u32| -> u32 {
        match lists.get(&(t as usize)) {
            Some(l) => l[k as usize],
            None => old_ids[t as usize][k as usize],
        }
    };

    // Every polygon written: by (tile, index), then by id.
    let mut dirty: Vec<(u32, u32)> = changes.rings.clone();
    for &u in &changes.tiles {
        dirty.extend((0..stitch.tile_len(u) as u32).map(|k| (u as u32, k)));
    }
    for &(t, k) in &moved {
        dirty.push((t, k));
        let p = stitch.polygon(t as usize, k as usize);
        dirty.extend(p.across.iter().copied().filter(|&(a, _)| a != WALL));
    }
    dirty.sort_unstable();
    dirty.dedup();
    let corners: usize = dirty
        .iter()
        .map(|&(t, k)| stitch.polygon(t as usize, k as usize).ring.len())
        .sum();
    let mut rings = Vec::with_capacity(corners);
    let mut neighbours = Vec::with_capacity(corners);
    let mut polygons: Vec<PolygonWrite> = dirty
        .iter()
        .map(|&(t, k)| {
            let p = stitch.polygon(t as usize, k as usize);
            let id = id_of(t, k);
            owners.insert(id, (t, k));
            let from = rings.len() as u32;
            rings.extend_from_slice(p.ring);
            neighbours.extend(
                p.across
                    .iter()
                    .map(|&(a, q)| (a != WALL).then(|| PolyId(id_of(a, q)))),
            );
            PolygonWrite {
                id: PolyId(id),
                corners: [from, rings.len() as u32],
                bounds: p.bounds,
                centroid: p.centroid,
                cells: p.cells,
            }
        })
        .collect();
    polygons.sort_unstable_by_key(|w| w.id);
    let vertices = stitch.vertices();
    let (area, bbox) = stitch.totals();
    let (Some(bbox), true) = (bbox, count > 0) else {
        return Err(BuildError::NoWalkableSpace);
    };
    let edit = MeshEdit {
        vertex_count: vertices.len(),
        vertices: changes
            .vertices
            .iter()
            .map(|&v| (VertexId(v), vertices[v as usize]))
            .collect(),
        polygon_count: count as usize,
        polygons,
        rings,
        neighbours,
        bounds: bbox,
        area,
    };
    Ok(SnapshotPatch {
        mesh: current.mesh().plan_patch(edit, scratch),
        tiles: lists.into_iter().map(|(t, l)| (t as u32, l)).collect(),
        polygon_count: count as usize,
        owners: owners.into_iter().filter(|&(id, _)| id < count).collect(),
        rebuilt: rebuilt.to_vec(),
        version,
    })
}
