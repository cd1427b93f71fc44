//! Incremental stitching: the writer's side of [`DynamicNavMesh`](super::DynamicNavMesh) keeps
//! every tile stitched (vertex ids, border splits, adjacency, polygon measures), and an update
//! redoes that only for the rebuilt tiles and their four edge neighbours.
//!
//! # Method
//! The result is the mesh [`tiles::stitch`](crate::build::tiles) makes from the same tile
//! polygons, polygon for polygon (same ids in tile order, same rings as points, same neighbours,
//! same bounds, centroids and area); only the vertex numbering differs.
//! - **Vertices** are shared through one map from coordinates to id, with a count of the raw
//!   rings that use each. A rebuilt tile's old rings are released and its new ones looked up;
//!   vertices no ring uses any more are removed by moving the last vertex into their slot (its
//!   id rewritten in the at most four tiles whose closed rectangle holds it), so ids stay dense.
//! - **Border splits** of a tile's edge depend on the vertices lying on that border, which come
//!   from the tile and the neighbour across it alone: when a tile is rebuilt, it and its four
//!   edge neighbours are split again from their raw rings; no other tile's rings change.
//! - **Adjacency** is kept per corner as (tile, index in tile), so it survives the shift of
//!   polygon ids when a rebuilt tile's polygon count changes. The re-split tiles match their
//!   edges among themselves and against the edges their neighbours have on the shared border
//!   line. An untouched tile next to a re-split one keeps its entries: only rebuilt tiles
//!   renumber their polygons, and every neighbour of one is re-split.
//!
//! - **What changed** is logged per replace ([`TileStitch::changes`]): the tiles stitched
//!   again, the vertices appended or moved into a freed slot, and the rings of other tiles a
//!   vertex move rewrote. The publisher (`publish.rs`) turns that log into the next snapshot's
//!   patch; nothing here is proportional to the map.
//!
//! [`TileStitch::mesh`] still concatenates every tile into a whole [`NavMesh`]: for the first
//! snapshot, and for the tests against a build from scratch. BENCHMARKS.md ("Dynamic
//! obstacles") measures the parts of an update.

use crate::build::tiles::{FastMap, TileGrid};
use crate::build::BuildError;
use crate::geom::{Aabb, Vec2};
use crate::mesh::{polygon_measures, CellRange, LocatorPlan, MeshError, NavMesh, PolyId, VertexId};

/// `across` tile of a wall.
pub(crate) const WALL: u32 = u32::MAX;

/// The union of `boxes` (`None` for none).
fn corners_box(boxes: &[Aabb]) -> Option<Aabb> {
    Aabb::from_points(boxes.iter().flat_map(|b| [b.min, b.max]))
}

/// One stitched polygon ([`TileStitch::polygon`]).
pub(crate) struct StitchedPolygon<'a> {
    pub(crate) ring: &'a [VertexId],
    /// Per corner: the (tile, index) across the edge from it, tile [`WALL`] for a wall.
    pub(crate) across: &'a [(u32, u32)],
    pub(crate) bounds: Aabb,
    pub(crate) centroid: Vec2,
    pub(crate) cells: CellRange,
}

/// One tile's polygons, before and after the border splits.
#[derive(Clone, Debug, Default)]
struct Block {
    /// The polygons as built, as vertex ids: polygon `k` is `raw[raw_starts[k]..raw_starts[k + 1]]`.
    raw: Vec<u32>,
    raw_starts: Vec<u32>,
    /// The polygons with the border splits (the mesh's rings), in `starts` rows.
    ring: Vec<VertexId>,
    starts: Vec<u32>,
    /// Per corner of `ring`: the polygon across the edge from it, as (tile, index in the tile);
    /// tile [`WALL`] for a wall.
    across: Vec<(u32, u32)>,
    bounds: Vec<Aabb>,
    centroids: Vec<Vec2>,
    /// The point-location cells each polygon covers ([`TileStitch::plan`]).
    cells: Vec<CellRange>,
    /// The tile's walkable area (its polygons' areas summed in order) and the union of their
    /// boxes (`None` for a tile with no polygon).
    area: f64,
    bbox: Option<Aabb>,
}

impl Block {
    fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    fn raw_polygons(&self) -> impl Iterator<Item = &[u32]> + '_ {
        self.raw_starts
            .windows(2)
            .map(|w| &self.raw[w[0] as usize..w[1] as usize])
    }

    /// Polygon `k`'s ring and, per corner, what is across its edge.
    fn polygon(&self, k: usize) -> (&[VertexId], &[(u32, u32)]) {
        let r = self.starts[k] as usize..self.starts[k + 1] as usize;
        (&self.ring[r.clone()], &self.across[r])
    }

    fn polygons(&self) -> impl Iterator<Item = &[VertexId]> + '_ {
        self.starts
            .windows(2)
            .map(|w| &self.ring[w[0] as usize..w[1] as usize])
    }
}

/// One inner side of a tile: along a column border (`x = at`) or a row border (`y = at`), and
/// the tile across it.
#[derive(Copy, Clone, Debug)]
struct Side {
    column: bool,
    at: f64,
    across: usize,
}

impl Side {
    /// The point's coordinate across the line and along it.
    fn coords(&self, p: Vec2) -> (f64, f64) {
        if self.column {
            (p.x, p.y)
        } else {
            (p.y, p.x)
        }
    }

    fn holds(&self, p: Vec2) -> bool {
        self.coords(p).0 == self.at
    }
}

/// Every tile stitched, kept between updates (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct TileStitch {
    grid: TileGrid,
    vertices: Vec<Vec2>,
    index: FastMap<(u64, u64), u32>,
    /// Per vertex, how many corners of raw rings use it.
    refs: Vec<u32>,
    tiles: Vec<Block>,
    /// The point-location grid of every snapshot: laid over the whole map for the polygon count
    /// of the first, so a polygon's cells are known when its tile is stitched.
    plan: LocatorPlan,
    /// What the last [`TileStitch::replace`] changed.
    log: Changes,
}

/// What a [`TileStitch::replace`] changed, for publishing a patch instead of a whole mesh
/// (`publish.rs`): the tiles stitched again, the vertex slots that hold a new point, and the
/// polygons of other tiles whose rings were renumbered (a vertex moved into a freed slot).
#[derive(Clone, Debug, Default)]
pub(crate) struct Changes {
    pub(crate) tiles: Vec<usize>,
    pub(crate) vertices: Vec<u32>,
    pub(crate) rings: Vec<(u32, u32)>,
}

/// The map key of a point: -0.0 and 0.0 are one point.
fn key(p: Vec2) -> (u64, u64) {
    ((p.x + 0.0).to_bits(), (p.y + 0.0).to_bits())
}

impl TileStitch {
    /// Stitches the polygons of every tile (`tile_polygons[t]`, counter-clockwise points).
    pub(crate) fn new(
        grid: &TileGrid,
        tile_polygons: &[Vec<Vec<Vec2>>],
    ) -> Result<TileStitch, BuildError> {
        let mut stitch = TileStitch {
            grid: *grid,
            vertices: Vec::new(),
            index: FastMap::default(),
            refs: Vec::new(),
            tiles: vec![Block::default(); tile_polygons.len()],
            plan: LocatorPlan::new(grid.bounds(), &[]),
            log: Changes::default(),
        };
        let all: Vec<(usize, &[Vec<Vec2>])> = tile_polygons
            .iter()
            .enumerate()
            .map(|(t, p)| (t, p.as_slice()))
            .collect();
        stitch.replace(&all)?;
        let boxes: Vec<Aabb> = stitch.tiles.iter().flat_map(|b| b.bounds.clone()).collect();
        stitch.plan = LocatorPlan::new(grid.bounds(), &boxes);
        for u in 0..stitch.tiles.len() {
            stitch.measure(u);
        }
        Ok(stitch)
    }

    /// How many polygons tile `t` has.
    pub(crate) fn tile_len(&self, t: usize) -> usize {
        self.tiles[t].len()
    }

    /// The polygons of tile `t` as built (before the border splits), as points.
    pub(crate) fn tile_points(&self, t: usize) -> Vec<Vec<Vec2>> {
        self.tiles[t]
            .raw_polygons()
            .map(|ring| ring.iter().map(|&v| self.vertices[v as usize]).collect())
            .collect()
    }

    /// Replaces the polygons of the tiles named in `changed` and stitches them and their
    /// neighbours again. On an error (an edge twice in one direction: the tiles' bug) the state
    /// is not usable; the caller starts again with [`TileStitch::new`].
    pub(crate) fn replace(&mut self, changed: &[(usize, &[Vec<Vec2>])]) -> Result<(), BuildError> {
        self.log = Changes::default();
        let mut dying = Vec::new();
        for &(t, polygons) in changed {
            let mut raw = std::mem::take(&mut self.tiles[t].raw);
            for &v in &raw {
                let r = &mut self.refs[v as usize];
                *r -= 1;
                if *r == 0 {
                    dying.push(v);
                }
            }
            raw.clear();
            let mut starts = std::mem::take(&mut self.tiles[t].raw_starts);
            starts.clear();
            starts.push(0);
            for polygon in polygons {
                for &p in polygon {
                    raw.push(self.vertex(p));
                }
                starts.push(raw.len() as u32);
            }
            self.tiles[t].raw = raw;
            self.tiles[t].raw_starts = starts;
        }
        // Vertices no raw ring uses any more (a released one may have been taken up again).
        let mut dead: Vec<u32> = dying
            .into_iter()
            .filter(|&v| self.refs[v as usize] == 0)
            .collect();
        dead.sort_unstable();
        dead.dedup();
        for &v in &dead {
            self.index.remove(&key(self.vertices[v as usize]));
        }
        // The rebuilt tiles and their edge neighbours (the tiles across their sides).
        let mut affected = Vec::with_capacity(changed.len() * 5);
        for &(t, _) in changed {
            affected.push(t);
            affected.extend(self.sides(t).iter().map(|s| s.across));
        }
        affected.sort_unstable();
        affected.dedup();
        for &u in &affected {
            self.split(u);
        }
        for &u in &affected {
            self.link(u)?;
        }
        for &u in &affected {
            self.measure(u);
        }
        self.compact(dead);
        self.log.tiles = affected;
        let nv = self.vertices.len() as u32;
        self.log.vertices.retain(|&v| v < nv);
        self.log.vertices.sort_unstable();
        self.log.vertices.dedup();
        self.log.rings.sort_unstable();
        self.log.rings.dedup();
        Ok(())
    }

    /// What the last [`TileStitch::replace`] changed.
    pub(crate) fn changes(&self) -> &Changes {
        &self.log
    }

    /// The vertex at `p`, added if new; counts one more use.
    fn vertex(&mut self, p: Vec2) -> u32 {
        let next = self.vertices.len() as u32;
        let v = *self.index.entry(key(p)).or_insert(next);
        if v == next {
            self.vertices.push(p);
            self.refs.push(0);
            self.log.vertices.push(v);
        }
        self.refs[v as usize] += 1;
        v
    }

    /// The inner sides of tile `u` (the map's border is no side: nothing is across it).
    fn sides(&self, u: usize) -> Vec<Side> {
        let g = &self.grid;
        let (columns, rows) = (g.columns(), g.rows());
        let (i, j) = (u % columns, u / columns);
        let mut sides = Vec::with_capacity(4);
        if i > 0 {
            sides.push(Side {
                column: true,
                at: g.x(i),
                across: u - 1,
            });
        }
        if i + 1 < columns {
            sides.push(Side {
                column: true,
                at: g.x(i + 1),
                across: u + 1,
            });
        }
        if j > 0 {
            sides.push(Side {
                column: false,
                at: g.y(j),
                across: u - columns,
            });
        }
        if j + 1 < rows {
            sides.push(Side {
                column: false,
                at: g.y(j + 1),
                across: u + columns,
            });
        }
        sides
    }

    /// Tile `u`'s rings from its raw ones: every edge lying on an inner side split at the
    /// vertices (of this tile or the one across) strictly inside it, in order along the edge.
    fn split(&mut self, u: usize) {
        let sides = self.sides(u);
        let vertices = &self.vertices;
        let lines: Vec<Vec<(f64, u32)>> = sides
            .iter()
            .map(|side| {
                let mut line = Vec::new();
                for t in [u, side.across] {
                    for &v in &self.tiles[t].raw {
                        let (on, along) = side.coords(vertices[v as usize]);
                        if on == side.at {
                            line.push((along, v));
                        }
                    }
                }
                line.sort_by(|a, b| a.0.total_cmp(&b.0));
                line.dedup_by_key(|e| e.1);
                line
            })
            .collect();
        let block = &self.tiles[u];
        let mut ring = Vec::with_capacity(block.raw.len() + 8);
        let mut starts = Vec::with_capacity(block.raw_starts.len());
        starts.push(0u32);
        for polygon in block.raw_polygons() {
            let n = polygon.len();
            for k in 0..n {
                let (a, b) = (polygon[k], polygon[(k + 1) % n]);
                ring.push(VertexId(a));
                let (pa, pb) = (vertices[a as usize], vertices[b as usize]);
                let Some(s) = sides.iter().position(|s| s.holds(pa) && s.holds(pb)) else {
                    continue;
                };
                let (lo, hi) = (sides[s].coords(pa).1, sides[s].coords(pb).1);
                let (min, max) = (lo.min(hi), lo.max(hi));
                let line = &lines[s];
                let start = line.partition_point(|&(t, _)| t <= min);
                let count = line[start..].iter().take_while(|&&(t, _)| t < max).count();
                let inside = line[start..start + count].iter().map(|&(_, v)| VertexId(v));
                if lo < hi {
                    ring.extend(inside);
                } else {
                    ring.extend(inside.rev());
                }
            }
            starts.push(ring.len() as u32);
        }
        let block = &mut self.tiles[u];
        block.ring = ring;
        block.starts = starts;
    }

    /// Tile `u`'s adjacency: each edge `a → b` against `b → a` in the tile, or, for an edge on
    /// an inner side, in the tile across.
    fn link(&mut self, u: usize) -> Result<(), BuildError> {
        let sides = self.sides(u);
        let block = &self.tiles[u];
        let mut own: FastMap<(u32, u32), u32> =
            FastMap::with_capacity_and_hasher(block.ring.len(), Default::default());
        for (k, polygon) in block.polygons().enumerate() {
            let n = polygon.len();
            for i in 0..n {
                let (a, b) = (polygon[i].0, polygon[(i + 1) % n].0);
                if let Some(first) = own.insert((a, b), k as u32) {
                    let base: usize = self.tiles[..u].iter().map(Block::len).sum();
                    return Err(BuildError::Mesh(
                        MeshError::NonManifoldEdge {
                            a: a as usize,
                            b: b as usize,
                            first: base + first as usize,
                            second: base + k,
                        }
                        .into(),
                    ));
                }
            }
        }
        // The edges of the tile across each side that lie on it, made when first needed.
        let mut across_side: Vec<Option<FastMap<(u32, u32), u32>>> = vec![None; sides.len()];
        let mut across = Vec::with_capacity(block.ring.len());
        for polygon in block.polygons() {
            let n = polygon.len();
            for i in 0..n {
                let (a, b) = (polygon[i].0, polygon[(i + 1) % n].0);
                if let Some(&q) = own.get(&(b, a)) {
                    across.push((u as u32, q));
                    continue;
                }
                let (pa, pb) = (self.vertices[a as usize], self.vertices[b as usize]);
                let found = sides
                    .iter()
                    .position(|s| s.holds(pa) && s.holds(pb))
                    .and_then(|s| {
                        let side = sides[s];
                        let edges =
                            across_side[s].get_or_insert_with(|| self.edges_on(side.across, side));
                        edges.get(&(b, a)).map(|&q| (side.across as u32, q))
                    });
                across.push(found.unwrap_or((WALL, 0)));
            }
        }
        self.tiles[u].across = across;
        Ok(())
    }

    /// The edges of tile `t` lying on `side`'s line, to the polygon (index in `t`) that has each.
    fn edges_on(&self, t: usize, side: Side) -> FastMap<(u32, u32), u32> {
        let mut edges = FastMap::default();
        for (k, polygon) in self.tiles[t].polygons().enumerate() {
            let n = polygon.len();
            for i in 0..n {
                let (a, b) = (polygon[i].0, polygon[(i + 1) % n].0);
                if side.holds(self.vertices[a as usize]) && side.holds(self.vertices[b as usize]) {
                    edges.insert((a, b), k as u32);
                }
            }
        }
        edges
    }

    /// Tile `u`'s polygon bounds, centroids and areas.
    fn measure(&mut self, u: usize) {
        let block = &self.tiles[u];
        let (mut bounds, mut centroids, mut cells) = (
            Vec::with_capacity(block.len()),
            Vec::with_capacity(block.len()),
            Vec::with_capacity(block.len()),
        );
        let mut area = 0.0;
        for polygon in block.polygons() {
            let (b, c, t) = polygon_measures(&self.vertices, polygon);
            bounds.push(b);
            centroids.push(c);
            cells.push(self.plan.cells(b));
            area += t * 0.5;
        }
        let block = &mut self.tiles[u];
        block.area = area;
        block.bbox = corners_box(&bounds);
        block.bounds = bounds;
        block.centroids = centroids;
        block.cells = cells;
    }

    /// Removes the `dead` vertices (sorted, unused): each slot, from the highest, takes the last
    /// vertex, whose id is rewritten in the tiles that hold it.
    fn compact(&mut self, mut dead: Vec<u32>) {
        while let Some(hole) = dead.pop() {
            // Every dead vertex above `hole` is gone already: the last one is alive.
            let last = (self.vertices.len() - 1) as u32;
            if hole != last {
                let p = self.vertices[last as usize];
                self.vertices[hole as usize] = p;
                self.refs[hole as usize] = self.refs[last as usize];
                if let Some(v) = self.index.get_mut(&key(p)) {
                    *v = hole;
                }
                self.log.vertices.push(hole);
                for t in self.tiles_at(p) {
                    let block = &mut self.tiles[t];
                    for v in block.raw.iter_mut().filter(|v| **v == last) {
                        *v = hole;
                    }
                    for (i, v) in block.ring.iter_mut().enumerate() {
                        if v.0 == last {
                            *v = VertexId(hole);
                            let k = block.starts.partition_point(|&s| s as usize <= i) - 1;
                            self.log.rings.push((t as u32, k as u32));
                        }
                    }
                }
            }
            self.vertices.pop();
            self.refs.pop();
        }
    }

    /// The tiles whose closed rectangle holds `p` (at most four). A vertex on the map's border
    /// may lie just outside it: where that border is off the overlay's grid, the overlay rounds
    /// its points to the grid, outward as often as inward (by less than a step). It belongs to
    /// the tiles at the border, so `p` is first brought into the map's bounds. (Unclamped, such
    /// a vertex was in no tile, a compaction that moved it left its rings on a freed id, and the
    /// next patch indexed past the vertices.)
    fn tiles_at(&self, p: Vec2) -> Vec<usize> {
        let g = &self.grid;
        let b = g.bounds();
        let p = Vec2::new(p.x.clamp(b.min.x, b.max.x), p.y.clamp(b.min.y, b.max.y));
        let (columns, rows) = (g.columns() as isize, g.rows() as isize);
        let fi = ((p.x - g.origin().x) / g.size()).floor() as isize;
        let fj = ((p.y - g.origin().y) / g.size()).floor() as isize;
        let mut out = Vec::with_capacity(4);
        for j in (fj - 1).max(0)..=(fj + 1).min(rows - 1) {
            for i in (fi - 1).max(0)..=(fi + 1).min(columns - 1) {
                if g.tile_bounds(i as usize, j as usize).contains(p) {
                    out.push(j as usize * columns as usize + i as usize);
                }
            }
        }
        debug_assert!(!out.is_empty(), "{p} is in no tile");
        out
    }

    /// The stitched mesh: the tiles' arrays concatenated in tile order.
    pub(crate) fn mesh(&self) -> Result<NavMesh, BuildError> {
        let mut first = Vec::with_capacity(self.tiles.len());
        let mut count = 0u32;
        let mut corners = 0;
        for b in &self.tiles {
            first.push(count);
            count += b.len() as u32;
            corners += b.ring.len();
        }
        if count == 0 {
            return Err(BuildError::NoWalkableSpace);
        }
        let n = count as usize;
        let mut offsets = Vec::with_capacity(n + 1);
        let mut poly_vertices = Vec::with_capacity(corners);
        let mut neighbours = Vec::with_capacity(corners);
        let mut bounds = Vec::with_capacity(n);
        let mut centroids = Vec::with_capacity(n);
        let mut cells = Vec::with_capacity(n);
        for b in &self.tiles {
            let base = poly_vertices.len() as u32;
            offsets.extend(b.starts[..b.len()].iter().map(|&s| s + base));
            poly_vertices.extend_from_slice(&b.ring);
            neighbours.extend(
                b.across
                    .iter()
                    .map(|&(t, q)| (t != WALL).then(|| PolyId(first[t as usize] + q))),
            );
            bounds.extend_from_slice(&b.bounds);
            centroids.extend_from_slice(&b.centroids);
            cells.extend_from_slice(&b.cells);
        }
        let (area, _) = self.totals();
        offsets.push(poly_vertices.len() as u32);
        NavMesh::from_stitched_parts(
            self.vertices.clone(),
            offsets,
            poly_vertices,
            neighbours,
            bounds,
            centroids,
            area,
            self.plan,
            &cells,
        )
        .map_err(BuildError::Mesh)
    }

    /// The walkable area (the tiles' areas summed in tile order, the same way by every
    /// snapshot) and the union of the polygons' boxes (`None` without polygons). O(tiles).
    pub(crate) fn totals(&self) -> (f64, Option<Aabb>) {
        let area = self.tiles.iter().map(|b| b.area).sum();
        let boxes: Vec<Aabb> = self.tiles.iter().filter_map(|b| b.bbox).collect();
        (area, corners_box(&boxes))
    }

    /// The vertices, by id (the published meshes' ids).
    pub(crate) fn vertices(&self) -> &[Vec2] {
        &self.vertices
    }

    /// Polygon `k` of tile `t`: ring, per corner the (tile, index) across or [`WALL`]'s tile,
    /// box, centroid and cells.
    pub(crate) fn polygon(&self, t: usize, k: usize) -> StitchedPolygon<'_> {
        let b = &self.tiles[t];
        let (ring, across) = b.polygon(k);
        StitchedPolygon {
            ring,
            across,
            bounds: b.bounds[k],
            centroid: b.centroids[k],
            cells: b.cells[k],
        }
    }

    /// Bytes held, estimated from array lengths.
    pub(crate) fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        let per_tile: usize = self
            .tiles
            .iter()
            .map(|b| {
                size_of::<Block>()
                    + (b.raw.len() + b.raw_starts.len() + b.starts.len()) * 4
                    + b.ring.len() * size_of::<VertexId>()
                    + b.across.len() * 8
                    + b.bounds.len() * size_of::<Aabb>()
                    + b.centroids.len() * size_of::<Vec2>()
                    + b.cells.len() * size_of::<CellRange>()
            })
            .sum();
        per_tile
            + self.vertices.len() * (size_of::<Vec2>() + 4)
            + self.index.capacity() * (size_of::<((u64, u64), u32)>() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::tiles::{self, TiledScene};
    use crate::build::BuildOptions;
    use crate::scene::Scene;

    /// The same polygons in the same order as a full stitch: rings as points, neighbours, bounds,
    /// centroids, area; and the mesh's invariants.
    fn assert_same(a: &NavMesh, b: &NavMesh) {
        a.check_invariants().unwrap();
        assert_eq!(a.polygon_count(), b.polygon_count());
        assert_eq!(a.vertex_count(), b.vertex_count());
        assert_eq!(a.area(), b.area());
        assert_eq!(a.bounds(), b.bounds());
        for p in a.polygons() {
            assert!(a.polygon_points(p).eq(b.polygon_points(p)), "{p}");
            assert_eq!(a.neighbours(p), b.neighbours(p), "{p}");
            assert_eq!(a.polygon_bounds(p), b.polygon_bounds(p));
            assert_eq!(a.centroid(p), b.centroid(p));
            for (&v, &w) in a.polygon_vertices(p).iter().zip(b.polygon_vertices(p)) {
                assert_eq!(a.is_corner(v), b.is_corner(w));
                assert_eq!(a.is_pinch(v), b.is_pinch(w));
                assert_eq!(a.vertex_polygons(v).len(), b.vertex_polygons(w).len());
            }
        }
    }

    /// Tiles replaced one after another by the tiles of other scenes (obstacles appearing,
    /// moving and vanishing, tiles emptied): after each replacement the kept stitch equals a full
    /// stitch of the same tiles.
    #[test]
    fn replacing_tiles_equals_a_full_stitch() {
        let base = Scene::default_map();
        let size = 100.0;
        let options = BuildOptions::cdt();
        let variants: Vec<Scene> = vec![
            base.clone(),
            base.clone().with_obstacle([
                (95.0, 95.0),
                (130.0, 95.0),
                (130.0, 130.0),
                (95.0, 130.0),
            ]),
            base.clone()
                .with_obstacle([(190.0, 10.0), (260.0, 10.0), (225.0, 110.0)]),
            // Covers tile (2, 3) whole: an empty tile.
            base.clone().with_obstacle([
                (195.0, 295.0),
                (305.0, 295.0),
                (305.0, 405.0),
                (195.0, 405.0),
            ]),
        ];
        let tiled: Vec<Vec<Vec<Vec<Vec2>>>> = variants
            .iter()
            .map(|s| {
                let t = TiledScene::new(s, &options, size).unwrap();
                (0..t.tile_count())
                    .map(|i| t.tile_polygons(i, &[]).unwrap())
                    .collect()
            })
            .collect();
        let grid = TiledScene::new(&base, &options, size).unwrap().layout.grid;
        let mut current = tiled[0].clone();
        let mut stitch = TileStitch::new(&grid, &current).unwrap();
        let full = |tiles: &[Vec<Vec<Vec2>>]| {
            tiles::stitch(&grid, tiles.iter().map(Vec::as_slice)).unwrap()
        };
        assert_same(&stitch.mesh().unwrap(), &full(&current));
        let mut rng = crate::random::Rng::new(5);
        let (mut checked, mut changes) = (0, 0);
        for _ in 0..30 {
            let v = rng.range_usize(0, variants.len() - 1);
            // One tile or two (a block of neighbours at once).
            // A tile the variant changes, when there is one.
            let differ: Vec<usize> = (0..current.len())
                .filter(|&t| tiled[v][t] != current[t])
                .collect();
            let t = match differ.len() {
                0 => rng.range_usize(0, current.len() - 1),
                k => differ[rng.range_usize(0, k - 1)],
            };
            changes += usize::from(!differ.is_empty());
            let mut changed = vec![t];
            if rng.range_usize(0, 1) == 1 && t + 1 < current.len() {
                changed.push(t + 1);
            }
            for &t in &changed {
                current[t] = tiled[v][t].clone();
            }
            let pairs: Vec<(usize, &[Vec<Vec2>])> = changed
                .iter()
                .map(|&t| (t, current[t].as_slice()))
                .collect();
            stitch.replace(&pairs).unwrap();
            assert_same(&stitch.mesh().unwrap(), &full(&current));
            for (t, block) in stitch.tiles.iter().enumerate() {
                assert_eq!(block.len(), current[t].len());
            }
            assert_eq!(stitch.vertices.len(), stitch.index.len());
            assert!(stitch.refs.iter().all(|&r| r > 0));
            checked += 1;
        }
        assert_eq!(checked, 30);
        assert!(changes >= 15, "only {changes} replacements changed a tile");
    }
}
