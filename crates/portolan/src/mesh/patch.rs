//! Patching a mesh in place: the next snapshot of a dynamic mesh made from the last one in time
//! proportional to what changed, not to the mesh ([`dynamic`](crate::dynamic)).
//!
//! The writer says what changed as a [`MeshEdit`]: the vertices written (new, or a slot that now
//! holds another point), every polygon whose ring, neighbours or id changed ([`PolygonWrite`]),
//! and the new counts. Everything not named is unchanged, id for id. [`NavMesh::plan_patch`]
//! derives, from the mesh the edit was made against, what a mesh derives as a whole but only
//! where it changes: the polygons around each vertex touched, its corner and pinch flags, and the
//! point-location cells touched. The result, a [`MeshPatch`], holds final values only (no
//! deltas), so it applies ([`NavMesh::apply`]) to any mesh with the same contents as the one it
//! was planned on; a writer that keeps two meshes (one published, one spare) brings the spare up
//! to date with the last patch and then the new one.
//!
//! The rule that makes it local: a list (of a vertex or a cell) changes only by polygons *in
//! flux*, the old ids that the edit rewrites or removes. Its new contents are its old contents
//! without those, plus the written polygons that belong to it. Cost: O(written polygons × their
//! corners + lists touched): membership tests and grouping go through per-id marks kept between
//! patches ([`PatchScratch`]), not sorts or searches.

use super::rows::{bucket, gather};
use super::*;

/// One polygon a [`MeshEdit`] writes: its id in the new mesh, the span of its corners in the
/// edit's [`rings`](MeshEdit::rings) and [`neighbours`](MeshEdit::neighbours), box, centroid (as
/// [`polygon_measures`] gives them) and point-location cells (by the mesh's plan).
#[derive(Clone, Debug)]
pub(crate) struct PolygonWrite {
    pub(crate) id: PolyId,
    pub(crate) corners: [u32; 2],
    pub(crate) bounds: Aabb,
    pub(crate) centroid: Vec2,
    pub(crate) cells: CellRange,
}

/// What changes from one mesh to the next (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct MeshEdit {
    /// Vertices in the new mesh.
    pub(crate) vertex_count: usize,
    /// Every vertex whose slot holds a point it did not hold before (every new slot among them),
    /// by increasing id, with its point.
    pub(crate) vertices: Vec<(VertexId, Vec2)>,
    /// Polygons in the new mesh.
    pub(crate) polygon_count: usize,
    /// Every polygon of the new mesh whose ring, neighbours, measures or id changed (every new
    /// id among them), by increasing id.
    pub(crate) polygons: Vec<PolygonWrite>,
    /// The written polygons' rings and neighbours (slot `i` across the edge from vertex `i` to
    /// `i + 1`, ids of the new mesh), each polygon's at its [`PolygonWrite::corners`].
    pub(crate) rings: Vec<VertexId>,
    pub(crate) neighbours: Vec<Option<PolyId>>,
    /// The new mesh's bounds and walkable area.
    pub(crate) bounds: Aabb,
    pub(crate) area: f64,
}

impl MeshEdit {
    /// The ring of `w`, one of this edit's polygons.
    fn ring(&self, w: &PolygonWrite) -> &[VertexId] {
        &self.rings[w.corners[0] as usize..w.corners[1] as usize]
    }

    /// The neighbours of `w`, one of this edit's polygons.
    fn neighbours_of(&self, w: &PolygonWrite) -> &[Option<PolyId>] {
        &self.neighbours[w.corners[0] as usize..w.corners[1] as usize]
    }
}

/// A [`MeshEdit`] with what follows from it (final values; see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct MeshPatch {
    edit: MeshEdit,
    /// Every vertex whose list or flags may have changed: the polygons around it (in
    /// `vertex_items`), corner, pinch.
    vertex_lists: Vec<ListWrite>,
    vertex_items: Vec<PolyId>,
    /// Every point-location cell whose list may have changed: the polygons listed (in
    /// `cell_items`; no flags).
    cell_lists: Vec<ListWrite>,
    cell_items: Vec<PolyId>,
}

/// One list of a [`MeshPatch`]: whose (vertex or cell index), its items' span in the patch's
/// item array, and a vertex's flags.
#[derive(Clone, Copy, Debug)]
struct ListWrite {
    at: u32,
    items: [u32; 2],
    corner: bool,
    pinch: bool,
}

impl ListWrite {
    fn items<'a>(&self, all: &'a [PolyId]) -> &'a [PolyId] {
        &all[self.items[0] as usize..self.items[1] as usize]
    }
}

/// The slot of `key` in this patch (`marks[key] = (stamp, slot)`), given in first-seen order:
/// a new key is appended to `keys`. O(1).
fn slot(marks: &mut [(u32, u32)], stamp: u32, key: u32, keys: &mut Vec<u32>) -> usize {
    let (s, i) = marks[key as usize];
    if s == stamp {
        return i as usize;
    }
    marks[key as usize] = (stamp, keys.len() as u32);
    keys.push(key);
    keys.len() - 1
}

/// Marks per polygon id, reused between patches so that membership tests cost O(1) without an
/// O(mesh) allocation per patch (the arrays grow with the mesh, once).
#[derive(Clone, Debug, Default)]
pub(crate) struct PatchScratch {
    stamp: u32,
    /// `flux[p] == stamp`: old id `p` is in flux.
    flux: Vec<u32>,
    /// `write[p] = (stamp, i)`: new id `p` is written by the edit's polygon `i`.
    write: Vec<(u32, u32)>,
    /// `vertex[v] = (stamp, i)`: vertex `v` is the patch's touched vertex `i`.
    vertex: Vec<(u32, u32)>,
    /// `cell[c] = (stamp, i)`: point-location cell `c` is the patch's touched cell `i`.
    cell: Vec<(u32, u32)>,
}

impl PatchScratch {
    /// A new stamp, with room for `ids` polygons, `vertices` and `cells`.
    fn begin(&mut self, ids: usize, vertices: usize, cells: usize) -> u32 {
        if self.flux.len() < ids {
            self.flux.resize(ids, 0);
            self.write.resize(ids, (0, 0));
        }
        if self.vertex.len() < vertices {
            self.vertex.resize(vertices, (0, 0));
        }
        if self.cell.len() < cells {
            self.cell.resize(cells, (0, 0));
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.flux.fill(0);
            self.write.fill((0, 0));
            self.vertex.fill((0, 0));
            self.cell.fill((0, 0));
            self.stamp = 1;
        }
        self.stamp
    }
}

impl NavMesh {
    /// The patch that turns this mesh into the one `edit` describes (see the module docs).
    pub(crate) fn plan_patch(&self, edit: MeshEdit, scratch: &mut PatchScratch) -> MeshPatch {
        debug_assert!(edit.polygons.windows(2).all(|w| w[0].id < w[1].id));
        debug_assert!(edit.vertices.windows(2).all(|w| w[0].0 < w[1].0));
        let (n_old, n_new) = (self.polygon_count(), edit.polygon_count);
        let old_vertices = self.vertex_count();
        let cell_count = self.locator.cells.len();
        let stamp = scratch.begin(
            n_old.max(n_new),
            old_vertices.max(edit.vertex_count),
            cell_count,
        );
        // Old ids in flux: rewritten or gone.
        let mut flux: Vec<u32> = Vec::with_capacity(edit.polygons.len());
        for (i, w) in edit.polygons.iter().enumerate() {
            let p = w.id.index();
            scratch.write[p] = (stamp, i as u32);
            if p < n_old {
                scratch.flux[p] = stamp;
                flux.push(p as u32);
            }
        }
        for p in n_new..n_old {
            scratch.flux[p] = stamp;
            flux.push(p as u32);
        }
        let PatchScratch {
            flux: marks,
            write: writes,
            vertex: vslots,
            cell: cslots,
            ..
        } = scratch;
        let in_flux = |q: PolyId| marks[q.index()] == stamp;
        let write_of = |q: PolyId| {
            let (s, i) = writes[q.index()];
            (s == stamp).then(|| &edit.polygons[i as usize])
        };

        // Vertices touched: rewritten, on a written ring, or on the old ring of a polygon in
        // flux, each with a slot. The rewritten ones (and new ones) are *fresh*: their old list
        // is about another point, or they had none.
        let vertex_count = edit.vertex_count as u32;
        let mut touched: Vec<u32> = Vec::new();
        for &(v, _) in &edit.vertices {
            slot(vslots, stamp, v.0, &mut touched);
        }
        let rewritten = touched.len();
        for w in &edit.polygons {
            for v in edit.ring(w) {
                slot(vslots, stamp, v.0, &mut touched);
            }
        }
        for &p in &flux {
            for v in self.polygon_vertices(PolyId(p)) {
                if v.0 < vertex_count {
                    slot(vslots, stamp, v.0, &mut touched);
                }
            }
        }
        let fresh = |i: usize| i < rewritten || touched[i] as usize >= old_vertices;
        // The memberships the written polygons bring, by slot.
        let (add_start, add_items) = bucket(touched.len(), PolyId(0), |push| {
            for w in &edit.polygons {
                for v in edit.ring(w) {
                    push(vslots[v.index()].1 as usize, w.id);
                }
            }
        });

        let mut vertex_lists = Vec::with_capacity(touched.len());
        let mut vertex_items: Vec<PolyId> = Vec::new();
        for (i, &v) in touched.iter().enumerate() {
            let from = vertex_items.len();
            if !fresh(i) {
                let old = self.vertex_polygons(VertexId(v));
                vertex_items.extend(old.iter().copied().filter(|&q| !in_flux(q)));
            }
            vertex_items
                .extend_from_slice(&add_items[add_start[i] as usize..add_start[i + 1] as usize]);
            // Walls ending at v: 2 per wedge of free space (as `finish` counts them).
            let mut walls = 0;
            for &q in &vertex_items[from..] {
                let (ring, nbs) = match write_of(q) {
                    Some(w) => (edit.ring(w), edit.neighbours_of(w)),
                    None => (self.polygon_vertices(q), self.neighbours(q)),
                };
                let n = ring.len();
                for k in 0..n {
                    if nbs[k].is_none() {
                        walls +=
                            usize::from(ring[k].0 == v) + usize::from(ring[(k + 1) % n].0 == v);
                    }
                }
            }
            vertex_lists.push(ListWrite {
                at: v,
                items: [from as u32, vertex_items.len() as u32],
                corner: walls > 0,
                pinch: walls > 2,
            });
        }

        // Point-location cells, by the same rule.
        let plan = self.locator.plan();
        let nx = plan.columns() as u32;
        let cells_of = |[x0, y0, x1, y1]: CellRange| {
            (y0..y1 + 1).flat_map(move |cy| (x0..x1 + 1).map(move |cx| cy * nx + cx))
        };
        let mut cells: Vec<u32> = Vec::new();
        for w in &edit.polygons {
            for c in cells_of(w.cells) {
                slot(cslots, stamp, c, &mut cells);
            }
        }
        for &p in &flux {
            for c in cells_of(plan.cells(self.poly_bounds[p as usize])) {
                slot(cslots, stamp, c, &mut cells);
            }
        }
        let (cell_start, cell_adds) = bucket(cells.len(), PolyId(0), |push| {
            for w in &edit.polygons {
                for c in cells_of(w.cells) {
                    push(cslots[c as usize].1 as usize, w.id);
                }
            }
        });
        let mut cell_items: Vec<PolyId> = Vec::new();
        let cell_lists = cells
            .iter()
            .enumerate()
            .map(|(i, &c)| {
                let from = cell_items.len() as u32;
                let old = &self.locator.items[self.locator.cells.get(c as usize)];
                cell_items.extend(old.iter().copied().filter(|&q| !in_flux(q)));
                cell_items.extend_from_slice(
                    &cell_adds[cell_start[i] as usize..cell_start[i + 1] as usize],
                );
                ListWrite {
                    at: c,
                    items: [from, cell_items.len() as u32],
                    corner: false,
                    pinch: false,
                }
            })
            .collect();
        MeshPatch {
            edit,
            vertex_lists,
            vertex_items,
            cell_lists,
            cell_items,
        }
    }

    /// Applies `patch` (see the module docs): afterwards this mesh is the one the patch's edit
    /// describes, with a new [`NavMesh::instance_id`]. Debug builds check the invariants and
    /// return what is broken (the writer's bug).
    pub(crate) fn apply(&mut self, patch: &MeshPatch) -> Result<(), InvariantError> {
        debug_assert!(!self.has_links(), "a patched mesh has no off-mesh links");
        let e = &patch.edit;
        let nv = e.vertex_count;
        self.vertices.resize(nv, Vec2::ZERO);
        self.vertex_is_corner.resize(nv, false);
        self.vertex_is_pinch.resize(nv, false);
        self.vertex_rows.truncate(nv);
        for &(v, p) in &e.vertices {
            self.vertices[v.index()] = p;
        }
        for w in &patch.vertex_lists {
            let (v, list) = (w.at as usize, w.items(&patch.vertex_items));
            let r = self.vertex_rows.place(v, list.len());
            self.vertex_polygons
                .resize(self.vertex_rows.end(), PolyId(0));
            self.vertex_polygons[r].copy_from_slice(list);
            self.vertex_is_corner[v] = w.corner;
            self.vertex_is_pinch[v] = w.pinch;
        }
        debug_assert_eq!(self.vertex_rows.len(), nv, "every new vertex is written");

        let np = e.polygon_count;
        self.rows.truncate(np);
        self.poly_bounds.truncate(np);
        self.centroids.truncate(np);
        for w in &e.polygons {
            let p = w.id.index();
            let ring = e.ring(w);
            let r = self.rows.place(p, ring.len());
            let end = self.rows.end();
            self.poly_vertices.resize(end, VertexId(0));
            self.poly_neighbours.resize(end, None);
            self.poly_vertices[r.clone()].copy_from_slice(ring);
            self.poly_neighbours[r].copy_from_slice(e.neighbours_of(w));
            if p == self.poly_bounds.len() {
                self.poly_bounds.push(w.bounds);
                self.centroids.push(w.centroid);
            } else {
                self.poly_bounds[p] = w.bounds;
                self.centroids[p] = w.centroid;
            }
        }
        debug_assert_eq!(self.rows.len(), np, "every new polygon is written");
        debug_assert_eq!(self.poly_bounds.len(), np);

        let loc = &mut self.locator;
        for w in &patch.cell_lists {
            let list = w.items(&patch.cell_items);
            let r = loc.cells.place(w.at as usize, list.len());
            loc.items.resize(loc.cells.end(), PolyId(0));
            loc.items[r].copy_from_slice(list);
        }

        // Slack beyond the rows in use: lay them end to end again (amortised O(1) per write).
        if self.rows.needs_compaction() {
            let old = self.rows.compact();
            self.poly_vertices = gather(&old, &self.poly_vertices);
            self.poly_neighbours = gather(&old, &self.poly_neighbours);
        }
        if self.vertex_rows.needs_compaction() {
            let old = self.vertex_rows.compact();
            self.vertex_polygons = gather(&old, &self.vertex_polygons);
        }
        if loc.cells.needs_compaction() {
            let old = loc.cells.compact();
            loc.items = gather(&old, &loc.items);
        }

        self.bounds = e.bounds;
        self.area = e.area;
        self.instance = NEXT_INSTANCE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.dead_ends = std::sync::OnceLock::new();
        #[cfg(debug_assertions)]
        self.check_invariants()?;
        Ok(())
    }

    /// Each row layout's item-array length and slack: polygon rows, vertex rows, locator cells.
    /// For the tests of compaction.
    #[cfg(test)]
    pub(crate) fn row_layouts(&self) -> [(usize, usize); 3] {
        [&self.rows, &self.vertex_rows, &self.locator.cells].map(|r| (r.end(), r.slack()))
    }
}
