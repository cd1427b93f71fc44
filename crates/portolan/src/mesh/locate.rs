//! Point location: a uniform grid over polygon bounding boxes.
//!
//! The grid has about as many cells as the mesh has polygons (so a cell holds a handful of
//! candidates for meshes of evenly sized polygons); each cell lists the polygons whose bounding
//! box overlaps it, in compressed-row form. A query hashes the point to its cell and tests the
//! few candidates with exact orientation predicates: O(1) expected, against O(n) for the
//! chapter's linear `findPoly` (see `benches/locate.rs`). Memory is O(n): where long thin
//! polygons would be listed in too many cells (at most 16 entries per polygon on average), the
//! cells grow until they fit.

use super::rows::Rows;
use super::{NavMesh, PolyId, VertexId};
use crate::geom::{orient, Aabb, Orientation, Vec2};

/// Where a point lies on a [`NavMesh`](super::NavMesh).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// Strictly inside one polygon.
    InPolygon(PolyId),
    /// On edge `edge` of `polygon` (not at a vertex); `neighbour` is the polygon across it, if any.
    OnEdge {
        /// A polygon with that edge.
        polygon: PolyId,
        /// The edge index in `polygon`.
        edge: usize,
        /// The polygon on the other side, `None` when the edge is a wall.
        neighbour: Option<PolyId>,
    },
    /// Exactly on a mesh vertex; `polygon` is one of the polygons around it.
    OnVertex {
        /// The vertex.
        vertex: VertexId,
        /// One polygon that has it.
        polygon: PolyId,
    },
    /// Not on the mesh: inside an obstacle or off the map.
    Outside,
}

impl Location {
    /// A polygon that holds the point (for points on edges or vertices, one of them).
    pub fn polygon(&self) -> Option<PolyId> {
        match *self {
            Location::InPolygon(p) => Some(p),
            Location::OnEdge { polygon, .. } | Location::OnVertex { polygon, .. } => Some(polygon),
            Location::Outside => None,
        }
    }
}

#[derive(Clone, Debug)]
pub(super) struct Locator {
    origin: Vec2,
    inv_cell: f64,
    cell: f64,
    nx: usize,
    ny: usize,
    /// Cell `c` holds `items[cells.get(c)]`.
    pub(super) cells: Rows,
    pub(super) items: Vec<PolyId>,
}

const MAX_CELLS: usize = 1 << 22;
/// The grid lists at most this many polygons per polygon, on average: a polygon is listed in
/// every cell its bounding box overlaps, and a fan of long thin triangles (a convex obstacle of
/// many vertices, triangulated) would otherwise be listed about `n` times each, O(n²) memory.
/// Cells grow until the lists fit; on ordinary meshes they hold 2-4 per polygon and nothing
/// changes.
const MAX_ITEMS_PER_POLYGON: usize = 16;

/// The cell of coordinate `v` along an axis of `n` cells from `origin`.
#[inline]
fn cell_coord(v: f64, origin: f64, inv_cell: f64, n: usize) -> usize {
    // For c > 0, truncation is the floor (and `as` saturates); c ≤ 0 and NaN give cell 0.
    // No `f64::floor`: without SSE4.1 it is a libm call, a few percent of a small build.
    let c = (v - origin) * inv_cell;
    if c > 0.0 {
        (c as usize).min(n - 1)
    } else {
        0
    }
}

/// The cells of a [`Locator`]: where the grid starts, the side of a cell and how many there
/// are along each axis. A mesh patched between snapshots ([`dynamic`](crate::dynamic)) keeps one
/// plan, made for the whole map, and the cells each polygon covers.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct LocatorPlan {
    origin: Vec2,
    inv_cell: f64,
    cell: f64,
    nx: usize,
    ny: usize,
}

/// The cells a polygon's box covers: first and last column, first and last row.
pub(crate) type CellRange = [u32; 4];

impl LocatorPlan {
    /// About as many cells over `bounds` as there are polygons (see the module docs).
    pub(crate) fn new(bounds: Aabb, poly_bounds: &[Aabb]) -> LocatorPlan {
        let size = bounds.size();
        let n = poly_bounds.len().clamp(1, MAX_CELLS);
        let mut cell =
            (size.x.max(f64::MIN_POSITIVE) * size.y.max(f64::MIN_POSITIVE) / n as f64).sqrt();
        if !(cell.is_finite() && cell > 0.0) {
            cell = size.x.max(size.y).max(1.0);
        }
        // Degenerate (very thin) bounds: keep the cell count bounded.
        let cells_along = |len: f64, cell: f64| ((len / cell).floor() as usize).saturating_add(1);
        while cells_along(size.x, cell).saturating_mul(cells_along(size.y, cell)) > MAX_CELLS {
            cell *= 2.0;
        }
        let plan = |cell: f64| LocatorPlan {
            origin: bounds.min,
            inv_cell: 1.0 / cell,
            cell,
            nx: cells_along(size.x, cell),
            ny: cells_along(size.y, cell),
        };
        // Memory linear in the polygons: grow the cells until the lists fit (see
        // `MAX_ITEMS_PER_POLYGON`); counting costs O(n) per try, and each try at least halves
        // the cells along both sides.
        let covered = |plan: LocatorPlan| -> usize {
            poly_bounds.iter().fold(0usize, |sum, b| {
                let [x0, y0, x1, y1] = plan.cells(*b).map(|c| c as usize);
                sum.saturating_add((x1 - x0 + 1).saturating_mul(y1 - y0 + 1))
            })
        };
        while covered(plan(cell)) > MAX_ITEMS_PER_POLYGON.saturating_mul(n)
            && cells_along(size.x, cell).saturating_mul(cells_along(size.y, cell)) > 1
        {
            cell *= 2.0;
        }
        plan(cell)
    }

    #[inline]
    fn coord(&self, v: f64, origin: f64, n: usize) -> usize {
        cell_coord(v, origin, self.inv_cell, n)
    }

    /// Cells along x: cell `(cx, cy)` has index `cy * columns() + cx`.
    pub(crate) fn columns(&self) -> usize {
        self.nx
    }

    /// The cells box `b` covers (clamped to the grid).
    #[inline]
    pub(crate) fn cells(&self, b: Aabb) -> CellRange {
        [
            self.coord(b.min.x, self.origin.x, self.nx) as u32,
            self.coord(b.min.y, self.origin.y, self.ny) as u32,
            self.coord(b.max.x, self.origin.x, self.nx) as u32,
            self.coord(b.max.y, self.origin.y, self.ny) as u32,
        ]
    }
}

impl Locator {
    /// Bytes of the cells' spans and lists.
    pub(super) fn memory_bytes(&self) -> usize {
        self.cells.memory_bytes() + std::mem::size_of_val(&self.items[..])
    }

    pub(super) fn new(bounds: Aabb, poly_bounds: &[Aabb]) -> Locator {
        let plan = LocatorPlan::new(bounds, poly_bounds);
        Locator::fill(plan, poly_bounds.len(), |p| plan.cells(poly_bounds[p]))
    }

    /// The grid of `plan` listing polygon `p` (of `n`) in the cells `cells(p)`.
    pub(super) fn fill(plan: LocatorPlan, n: usize, cells: impl Fn(usize) -> CellRange) -> Locator {
        let LocatorPlan {
            origin,
            inv_cell,
            cell,
            nx,
            ny,
        } = plan;
        let mut starts = vec![0u32; nx * ny + 1];
        // Counting pass, then filling pass (compressed rows).
        for p in 0..n {
            // Exclusive ranges: `..=` iterates measurably slower in these hot loops.
            let [x0, y0, x1, y1] = cells(p).map(|c| c as usize);
            for cy in y0..y1 + 1 {
                for cx in x0..x1 + 1 {
                    starts[cy * nx + cx + 1] += 1;
                }
            }
        }
        for c in 0..nx * ny {
            starts[c + 1] += starts[c];
        }
        let mut fill = starts.clone();
        let mut loc = Locator {
            origin,
            inv_cell,
            cell,
            nx,
            ny,
            cells: Rows::from_offsets(&starts),
            items: vec![PolyId(0); starts[nx * ny] as usize],
        };
        for p in 0..n {
            let [x0, y0, x1, y1] = cells(p).map(|c| c as usize);
            for cy in y0..y1 + 1 {
                for cx in x0..x1 + 1 {
                    let c = cy * nx + cx;
                    loc.items[fill[c] as usize] = PolyId(p as u32);
                    fill[c] += 1;
                }
            }
        }
        loc
    }

    /// How many polygon entries the cells hold in all (memory: 4 bytes each).
    #[cfg(test)]
    pub(super) fn item_count(&self) -> usize {
        (0..self.nx * self.ny)
            .map(|c| self.cells.get(c).len())
            .sum()
    }

    /// The plan the grid was laid out by.
    pub(super) fn plan(&self) -> LocatorPlan {
        LocatorPlan {
            origin: self.origin,
            inv_cell: self.inv_cell,
            cell: self.cell,
            nx: self.nx,
            ny: self.ny,
        }
    }

    /// How many cells the grid has.
    #[cfg(test)]
    pub(super) fn cell_count(&self) -> usize {
        self.nx * self.ny
    }

    #[inline]
    fn coord(&self, v: f64, origin: f64, n: usize) -> usize {
        cell_coord(v, origin, self.inv_cell, n)
    }

    fn cell_range(&self, b: Aabb) -> (usize, usize, usize, usize) {
        (
            self.coord(b.min.x, self.origin.x, self.nx),
            self.coord(b.min.y, self.origin.y, self.ny),
            self.coord(b.max.x, self.origin.x, self.nx),
            self.coord(b.max.y, self.origin.y, self.ny),
        )
    }

    /// The polygons whose bounding boxes overlap the cell of `p` (`p` inside the grid bounds).
    #[inline]
    pub(super) fn candidates(&self, p: Vec2) -> &[PolyId] {
        let cx = self.coord(p.x, self.origin.x, self.nx);
        let cy = self.coord(p.y, self.origin.y, self.ny);
        self.cell_items(cx, cy)
    }

    #[inline]
    fn cell_items(&self, cx: usize, cy: usize) -> &[PolyId] {
        let c = cy * self.nx + cx;
        &self.items[self.cells.get(c)]
    }

    /// Every polygon listed in a cell that `b` overlaps (with repeats).
    pub(super) fn overlapping(&self, b: Aabb) -> impl Iterator<Item = PolyId> + '_ {
        let (x0, y0, x1, y1) = self.cell_range(b);
        (y0..=y1).flat_map(move |cy| {
            (x0..=x1).flat_map(move |cx| self.cell_items(cx, cy).iter().copied())
        })
    }

    /// Visits the polygons of the cells around `p`, ring by ring outwards, with a lower bound on the
    /// distance from `p` to anything in that ring. Stops when `f` returns `false` or past
    /// `max_distance`.
    pub(super) fn visit_rings(
        &self,
        p: Vec2,
        max_distance: f64,
        mut f: impl FnMut(PolyId, f64) -> bool,
    ) {
        let fx = ((p.x - self.origin.x) * self.inv_cell).floor();
        let fy = ((p.y - self.origin.y) * self.inv_cell).floor();
        // Clamp far-away points so the ring arithmetic stays in range.
        let lim = (self.nx.max(self.ny) as f64) * 2.0 + 2.0;
        let cx = fx.clamp(-lim, lim) as i64;
        let cy = fy.clamp(-lim, lim) as i64;
        let (nx, ny) = (self.nx as i64, self.ny as i64);
        let r_grid = [cx, nx - 1 - cx, cy, ny - 1 - cy]
            .iter()
            .map(|d| d.abs())
            .max()
            .unwrap_or(0);
        // Distance from p to its (possibly virtual) cell's block is ≥ 0; ring r is ≥ (r - 1) cells away.
        let outside_dx = (self.origin.x - p.x)
            .max(p.x - (self.origin.x + nx as f64 * self.cell))
            .max(0.0);
        let outside_dy = (self.origin.y - p.y)
            .max(p.y - (self.origin.y + ny as f64 * self.cell))
            .max(0.0);
        let base = outside_dx.hypot(outside_dy);
        for r in 0..=r_grid + 1 {
            let ring_distance = (base.max(((r - 1).max(0)) as f64 * self.cell)).min(f64::MAX);
            if ring_distance > max_distance {
                return;
            }
            let mut visit = |x: i64, y: i64| -> bool {
                if x < 0 || y < 0 || x >= nx || y >= ny {
                    return true;
                }
                self.cell_items(x as usize, y as usize)
                    .iter()
                    .all(|&poly| f(poly, ring_distance))
            };
            if r == 0 {
                if !visit(cx, cy) {
                    return;
                }
                continue;
            }
            for x in cx - r..=cx + r {
                if !visit(x, cy - r) || !visit(x, cy + r) {
                    return;
                }
            }
            for y in cy - r + 1..cy + r {
                if !visit(cx - r, y) || !visit(cx + r, y) {
                    return;
                }
            }
        }
    }
}

impl NavMesh {
    /// Which polygon holds `p`: strictly inside one, on an edge, on a vertex, or outside the mesh
    /// (in an obstacle or off the map). Uses a uniform grid over polygon bounding boxes, so the
    /// cost does not grow with the mesh size for meshes of evenly sized polygons.
    pub fn locate(&self, p: Vec2) -> Location {
        if !p.is_finite() || !self.bounds.contains(p) {
            return Location::Outside;
        }
        for &poly in self.locator.candidates(p) {
            if !self.poly_bounds[poly.index()].contains(p) {
                continue;
            }
            if let Some(loc) = self.locate_in(poly, p) {
                return loc;
            }
        }
        Location::Outside
    }

    /// Locates `p` by testing every polygon in turn (the chapter's `findPoly`): O(n), kept as the
    /// reference for tests and benchmarks of [`NavMesh::locate`].
    pub fn locate_linear(&self, p: Vec2) -> Location {
        if !p.is_finite() {
            return Location::Outside;
        }
        self.polygons()
            .find_map(|poly| self.locate_in(poly, p))
            .unwrap_or(Location::Outside)
    }

    /// Classifies `p` against one polygon: `None` when outside it.
    pub fn locate_in(&self, poly: PolyId, p: Vec2) -> Option<Location> {
        let vs = self.polygon_vertices(poly);
        let n = vs.len();
        let mut on_edge = None;
        for i in 0..n {
            // (No `(i + 1) % n`: a division per edge, in every query's first step.)
            let j = if i + 1 == n { 0 } else { i + 1 };
            let a = self.vertices[vs[i].index()];
            let b = self.vertices[vs[j].index()];
            match orient(a, b, p) {
                Orientation::Clockwise => return None,
                Orientation::Collinear => {
                    if p == a {
                        return Some(Location::OnVertex {
                            vertex: vs[i],
                            polygon: poly,
                        });
                    }
                    if p == b {
                        return Some(Location::OnVertex {
                            vertex: vs[j],
                            polygon: poly,
                        });
                    }
                    // In a convex polygon, "left of or on every edge line" means inside or on
                    // the boundary; on the line of edge i and inside means on edge i — unless
                    // collinear neighbours share that line: then only the edge whose range holds
                    // p (exact coordinate comparisons, p being on the line).
                    if crate::geom::on_segment(p, a, b) {
                        on_edge = Some(i);
                    }
                }
                Orientation::CounterClockwise => {}
            }
        }
        Some(match on_edge {
            Some(edge) => Location::OnEdge {
                polygon: poly,
                edge,
                neighbour: self.neighbours(poly)[edge],
            },
            None => Location::InPolygon(poly),
        })
    }
}
