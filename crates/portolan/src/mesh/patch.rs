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
//! corners + lists touched), plus O(log) per membership test.

use super::rows::gather;
use super::*;

/// One polygon a [`MeshEdit`] writes: its id in the new mesh, ring, neighbours (slot `i` across
/// the edge from vertex `i` to `i + 1`, ids of the new mesh), box, centroid (as
/// [`polygon_measures`] gives them) and point-location cells (by the mesh's plan).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PolygonWrite {
    pub(crate) id: PolyId,
    pub(crate) ring: Vec<VertexId>,
    pub(crate) neighbours: Vec<Option<PolyId>>,
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
    /// The new mesh's bounds and walkable area.
    pub(crate) bounds: Aabb,
    pub(crate) area: f64,
}

/// A [`MeshEdit`] with what follows from it (final values; see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct MeshPatch {
    edit: MeshEdit,
    /// Per vertex whose list or flags may have changed: id, polygons around it, corner, pinch.
    vertex_lists: Vec<(u32, Vec<PolyId>, bool, bool)>,
    /// Per point-location cell whose list may have changed: cell index, polygons listed.
    cell_lists: Vec<(u32, Vec<PolyId>)>,
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
}

impl PatchScratch {
    fn begin(&mut self, ids: usize) -> u32 {
        if self.flux.len() < ids {
            self.flux.resize(ids, 0);
            self.write.resize(ids, (0, 0));
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.flux.fill(0);
            self.write.fill((0, 0));
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
        let stamp = scratch.begin(n_old.max(n_new));
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
        let (marks, writes) = (&scratch.flux, &scratch.write);
        let in_flux = |q: PolyId| marks[q.index()] == stamp;
        let write_of = |q: PolyId| {
            let (s, i) = writes[q.index()];
            (s == stamp).then(|| &edit.polygons[i as usize])
        };

        // Vertices: memberships the written polygons bring, and every vertex that may lose one.
        let vertex_count = edit.vertex_count as u32;
        let rewritten: Vec<u32> = edit.vertices.iter().map(|&(v, _)| v.0).collect();
        let mut adds: Vec<(u32, PolyId)> = edit
            .polygons
            .iter()
            .flat_map(|w| w.ring.iter().map(move |v| (v.0, w.id)))
            .collect();
        adds.sort_unstable();
        let mut touched: Vec<u32> = adds.iter().map(|a| a.0).collect();
        touched.extend(&rewritten);
        for &p in &flux {
            touched.extend(
                self.polygon_vertices(PolyId(p))
                    .iter()
                    .map(|v| v.0)
                    .filter(|&v| v < vertex_count),
            );
        }
        touched.sort_unstable();
        touched.dedup();
        let old_vertices = self.vertex_count() as u32;
        let mut vertex_lists = Vec::with_capacity(touched.len());
        for &v in &touched {
            // A rewritten slot names another point: nothing of its old list is about it.
            let kept = v < old_vertices && rewritten.binary_search(&v).is_err();
            let mut list: Vec<PolyId> = if kept {
                self.vertex_polygons(VertexId(v))
                    .iter()
                    .copied()
                    .filter(|&q| !in_flux(q))
                    .collect()
            } else {
                Vec::new()
            };
            let from = adds.partition_point(|a| a.0 < v);
            list.extend(adds[from..].iter().take_while(|a| a.0 == v).map(|a| a.1));
            // Walls ending at v: 2 per wedge of free space (as `finish` counts them).
            let mut walls = 0;
            for &q in &list {
                let (ring, nbs) = match write_of(q) {
                    Some(w) => (w.ring.as_slice(), w.neighbours.as_slice()),
                    None => (self.polygon_vertices(q), self.neighbours(q)),
                };
                let n = ring.len();
                for i in 0..n {
                    if nbs[i].is_none() {
                        walls +=
                            usize::from(ring[i].0 == v) + usize::from(ring[(i + 1) % n].0 == v);
                    }
                }
            }
            vertex_lists.push((v, list, walls > 0, walls > 2));
        }

        // Point-location cells, by the same rule.
        let plan = self.locator.plan();
        let nx = plan.columns() as u32;
        let cell_of = |cx: u32, cy: u32| cy * nx + cx;
        let mut cell_adds: Vec<(u32, PolyId)> = Vec::new();
        for w in &edit.polygons {
            let [x0, y0, x1, y1] = w.cells;
            for cy in y0..y1 + 1 {
                for cx in x0..x1 + 1 {
                    cell_adds.push((cell_of(cx, cy), w.id));
                }
            }
        }
        cell_adds.sort_unstable();
        let mut cells: Vec<u32> = cell_adds.iter().map(|a| a.0).collect();
        for &p in &flux {
            let [x0, y0, x1, y1] = plan.cells(self.poly_bounds[p as usize]);
            for cy in y0..y1 + 1 {
                for cx in x0..x1 + 1 {
                    cells.push(cell_of(cx, cy));
                }
            }
        }
        cells.sort_unstable();
        cells.dedup();
        let cell_lists = cells
            .iter()
            .map(|&c| {
                let mut list: Vec<PolyId> = self.locator.items[self.locator.cells.get(c as usize)]
                    .iter()
                    .copied()
                    .filter(|&q| !in_flux(q))
                    .collect();
                let from = cell_adds.partition_point(|a| a.0 < c);
                list.extend(
                    cell_adds[from..]
                        .iter()
                        .take_while(|a| a.0 == c)
                        .map(|a| a.1),
                );
                (c, list)
            })
            .collect();
        MeshPatch {
            edit,
            vertex_lists,
            cell_lists,
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
        for (v, list, corner, pinch) in &patch.vertex_lists {
            let v = *v as usize;
            let r = self.vertex_rows.place(v, list.len());
            self.vertex_polygons
                .resize(self.vertex_rows.end(), PolyId(0));
            self.vertex_polygons[r].copy_from_slice(list);
            self.vertex_is_corner[v] = *corner;
            self.vertex_is_pinch[v] = *pinch;
        }
        debug_assert_eq!(self.vertex_rows.len(), nv, "every new vertex is written");

        let np = e.polygon_count;
        self.rows.truncate(np);
        self.poly_bounds.truncate(np);
        self.centroids.truncate(np);
        for w in &e.polygons {
            let p = w.id.index();
            let r = self.rows.place(p, w.ring.len());
            let end = self.rows.end();
            self.poly_vertices.resize(end, VertexId(0));
            self.poly_neighbours.resize(end, None);
            self.poly_vertices[r.clone()].copy_from_slice(&w.ring);
            self.poly_neighbours[r].copy_from_slice(&w.neighbours);
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
        for (c, list) in &patch.cell_lists {
            let r = loc.cells.place(*c as usize, list.len());
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
