//! The neighbour index: a uniform grid of square cells over the agents' positions, rebuilt
//! every step by a counting sort (O(n + cells)), with each agent's position copied next to
//! its index in cell order (a query reads contiguous memory, not the crowd's arrays). The k
//! nearest agents within a range are found cell ring by cell ring outward from the query
//! point's cell, skipping every cell farther than the k-th nearest found so far: with cells
//! about half the range, a query visits a few dozen candidates in a dense crowd, where a
//! 3 × 3 block of cells of the full range would visit hundreds.
//!
//! ```text
//!   ┌───┬───┬───┬───┬───┐   cells[c] = items[starts[c]..starts[c + 1]]
//!   │ 2 │ 2 │ 2 │ 2 │ 2 │   rings around the query's cell (0), visited in order;
//!   ├───┼───┼───┼───┼───┤   a cell is skipped once its nearest point is farther
//!   │ 2 │ 1 │ 1 │ 1 │ 2 │   than the k-th nearest agent found
//!   ├───┼───┼───┼───┼───┤
//!   │ 2 │ 1 │ 0 │ 1 │ 2 │   Agents are listed in each cell in index order and
//!   ├───┼───┼───┼───┼───┤   cells are visited in a fixed order, so a query gives
//!   │ 2 │ 1 │ 1 │ 1 │ 2 │   the same answer on every run and thread.
//!   └───┴───┴───┴───┴───┘
//! ```

use crate::geom::Vec2;

/// Most cells the grid allocates; past this the cells grow instead.
const MAX_CELLS: usize = 1 << 22;
/// The grid never has more than this many cells per point (and at least [`MIN_CELLS`]): a
/// large map with few agents would otherwise clear and sum mostly empty cells every step.
const CELLS_PER_POINT: usize = 4;
/// See [`CELLS_PER_POINT`].
const MIN_CELLS: usize = 1024;

#[derive(Clone, Debug, Default)]
pub(crate) struct Grid {
    origin: Vec2,
    cell: f64,
    inv_cell: f64,
    nx: usize,
    ny: usize,
    starts: Vec<u32>,
    /// Agent indices in cell order.
    items: Vec<u32>,
    /// Their positions, in the same order.
    points: Vec<Vec2>,
    cell_of: Vec<u32>,
    next: Vec<u32>,
}

impl Grid {
    /// Rebuilds the grid over `positions` with cells of side at least `cell`.
    pub(crate) fn rebuild(&mut self, positions: &[Vec2], cell: f64) {
        let (mut min, mut max) = (Vec2::new(f64::MAX, f64::MAX), Vec2::new(f64::MIN, f64::MIN));
        for p in positions {
            min = Vec2::new(min.x.min(p.x), min.y.min(p.y));
            max = Vec2::new(max.x.max(p.x), max.y.max(p.y));
        }
        if positions.is_empty() {
            min = Vec2::ZERO;
            max = Vec2::ZERO;
        }
        let mut cell = if cell.is_finite() && cell > 0.0 {
            cell
        } else {
            1.0
        };
        let mut size = max - min;
        if !(size.x.is_finite() && size.y.is_finite()) {
            // (Positions stay on the mesh, so this is not expected: one cell then, not a
            // loop that never ends or a count that wraps.)
            size = Vec2::ZERO;
        }
        let most = (positions.len().saturating_mul(CELLS_PER_POINT)).clamp(MIN_CELLS, MAX_CELLS);
        loop {
            // (Saturating: `as usize` saturates a huge quotient, and the count must not wrap.)
            let nx = ((size.x / cell) as usize).saturating_add(1);
            let ny = ((size.y / cell) as usize).saturating_add(1);
            if nx.saturating_mul(ny) <= most {
                self.nx = nx;
                self.ny = ny;
                break;
            }
            cell *= 2.0;
        }
        self.origin = min;
        self.cell = cell;
        self.inv_cell = 1.0 / cell;
        let cells = self.nx * self.ny;
        self.starts.clear();
        self.starts.resize(cells + 1, 0);
        self.cell_of.clear();
        for &p in positions {
            let c = self.cell_index(p);
            self.cell_of.push(c as u32);
            self.starts[c + 1] += 1;
        }
        for c in 0..cells {
            self.starts[c + 1] += self.starts[c];
        }
        self.items.clear();
        self.items.resize(positions.len(), 0);
        self.points.clear();
        self.points.resize(positions.len(), Vec2::ZERO);
        // Fill each cell from its start, a moving cursor per cell.
        self.next.clear();
        self.next.extend_from_slice(&self.starts[..cells]);
        for (i, &c) in self.cell_of.iter().enumerate() {
            let slot = &mut self.next[c as usize];
            self.items[*slot as usize] = i as u32;
            self.points[*slot as usize] = positions[i];
            *slot += 1;
        }
    }

    /// The agents in cell order: `items()[slot]` is the agent at a slot.
    #[inline]
    pub(crate) fn items(&self) -> &[u32] {
        &self.items
    }

    #[inline]
    fn coords(&self, p: Vec2) -> (usize, usize) {
        let fx = ((p.x - self.origin.x) * self.inv_cell).max(0.0) as usize;
        let fy = ((p.y - self.origin.y) * self.inv_cell).max(0.0) as usize;
        (fx.min(self.nx - 1), fy.min(self.ny - 1))
    }

    #[inline]
    fn cell_index(&self, p: Vec2) -> usize {
        let (x, y) = self.coords(p);
        y * self.nx + x
    }

    /// The `near.len()` nearest agents to `p` closer than `sqrt(range_sq)`, other than agent
    /// `exclude`, as (squared distance, slot) sorted by distance (ties: the order cells and
    /// agents are visited in, which is fixed), into `near`; returns how many. A slot is a
    /// place in cell order: [`Grid::items`]`[slot]` is the agent.
    pub(crate) fn nearest(
        &self,
        p: Vec2,
        exclude: usize,
        mut range_sq: f64,
        near: &mut [(f64, u32)],
    ) -> usize {
        let k = near.len();
        if k == 0 || range_sq.is_nan() || range_sq <= 0.0 {
            return 0;
        }
        let mut count = 0;
        let (cx, cy) = self.coords(p);
        let r = range_sq.sqrt();
        // The box of cells the range reaches.
        let lo = |v: f64, o: f64| (((v - r - o) * self.inv_cell).max(0.0)) as usize;
        let hi = |v: f64, o: f64, n: usize| {
            let h = (v + r - o) * self.inv_cell;
            if h < 0.0 {
                0
            } else {
                (h as usize).min(n - 1)
            }
        };
        let (x0, x1) = (
            lo(p.x, self.origin.x).min(cx),
            hi(p.x, self.origin.x, self.nx).max(cx),
        );
        let (y0, y1) = (
            lo(p.y, self.origin.y).min(cy),
            hi(p.y, self.origin.y, self.ny).max(cy),
        );
        let rings = (cx - x0).max(x1 - cx).max(cy - y0).max(y1 - cy);
        let mut visit = |x: usize, y: usize, range_sq: &mut f64, count: &mut usize| {
            // Squared distance from p to the cell's square.
            let ox = self.origin.x + x as f64 * self.cell;
            let oy = self.origin.y + y as f64 * self.cell;
            let dx = (ox - p.x).max(p.x - (ox + self.cell)).max(0.0);
            let dy = (oy - p.y).max(p.y - (oy + self.cell)).max(0.0);
            // Edge cells hold the points clamped into them from outside the square.
            let inner_x = x > 0 && x + 1 < self.nx;
            let inner_y = y > 0 && y + 1 < self.ny;
            let d_cell = if inner_x { dx * dx } else { 0.0 } + if inner_y { dy * dy } else { 0.0 };
            if d_cell >= *range_sq {
                return;
            }
            let c = y * self.nx + x;
            let (a, b) = (self.starts[c] as usize, self.starts[c + 1] as usize);
            for (n, (&j, &q)) in self.items[a..b].iter().zip(&self.points[a..b]).enumerate() {
                if j as usize == exclude {
                    continue;
                }
                let d = (q - p).length_squared();
                if d >= *range_sq {
                    continue;
                }
                // Insertion into the k nearest, kept sorted by distance.
                let mut slot = (*count).min(k - 1);
                if *count < k {
                    *count += 1;
                } else if d >= near[k - 1].0 {
                    continue;
                }
                while slot > 0 && near[slot - 1].0 > d {
                    near[slot] = near[slot - 1];
                    slot -= 1;
                }
                near[slot] = (d, (a + n) as u32);
                if *count == k {
                    *range_sq = near[k - 1].0;
                }
            }
        };
        for d in 0..=rings {
            let (ya, yb) = (cy.saturating_sub(d).max(y0), (cy + d).min(y1));
            let (xa, xb) = (cx.saturating_sub(d).max(x0), (cx + d).min(x1));
            for y in ya..=yb {
                if y + d == cy || y == cy + d {
                    for x in xa..=xb {
                        visit(x, y, &mut range_sq, &mut count);
                    }
                } else {
                    if cx >= d && cx - d >= x0 {
                        visit(cx - d, y, &mut range_sq, &mut count);
                    }
                    if d > 0 && cx + d <= x1 {
                        visit(cx + d, y, &mut range_sq, &mut count);
                    }
                }
            }
        }
        count
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Rng;

    #[test]
    fn finds_the_k_nearest_within_range_as_brute_force_does() {
        let mut rng = Rng::new(7);
        let pts: Vec<Vec2> = (0..500)
            .map(|_| Vec2::new(rng.range_f64(-50.0, 50.0), rng.range_f64(0.0, 20.0)))
            .collect();
        let mut checked = 0;
        for cell in [0.7, 1.5, 3.0, 10.0] {
            let mut grid = Grid::default();
            grid.rebuild(&pts, cell);
            for (i, &p) in pts.iter().enumerate() {
                for (k, range) in [(1, 3.0), (10, 3.0), (16, 2.0), (4, 0.5)] {
                    let mut near = vec![(0.0, 0); k];
                    let n = grid.nearest(p, i, range * range, &mut near);
                    let mut brute: Vec<(f64, u32)> = (0..pts.len())
                        .filter(|&j| j != i)
                        .map(|j| ((pts[j] - p).length_squared(), j as u32))
                        .filter(|&(d, _)| d < range * range)
                        .collect();
                    brute.sort_by(|a, b| a.partial_cmp(b).unwrap());
                    brute.truncate(k);
                    assert_eq!(
                        near[..n]
                            .iter()
                            .map(|x| (x.0, grid.items()[x.1 as usize]))
                            .collect::<Vec<_>>(),
                        brute.iter().map(|x| (x.0, x.1)).collect::<Vec<_>>(),
                        "point {i}, cell {cell}, k {k}"
                    );
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 4 * 500 * 4);
    }

    /// Points spread past what a cell count can hold (the count wrapped to 0 cells, an index
    /// out of bounds, when a crowd's agents were thrown 1e301 off the map: session 36) still
    /// make a grid, with every point in it.
    #[test]
    fn points_spread_past_any_cell_count_make_a_grid() {
        for pts in [
            vec![
                Vec2::new(-1e308, 0.0),
                Vec2::new(1e308, 1.0),
                Vec2::new(0.0, 0.0),
            ],
            vec![
                Vec2::new(0.0, 0.0),
                Vec2::new(1e301, -1e301),
                Vec2::new(1.0, 1.0),
            ],
            vec![
                Vec2::new(0.0, 0.0),
                Vec2::new(f64::NAN, 1.0),
                Vec2::new(1.0, 1.0),
            ],
        ] {
            let mut grid = Grid::default();
            grid.rebuild(&pts, 1.0);
            let mut seen = grid.items().to_vec();
            seen.sort_unstable();
            assert_eq!(seen, [0, 1, 2]);
            let mut near = [(0.0, 0); 3];
            let n = grid.nearest(Vec2::new(0.5, 0.5), usize::MAX, 4.0, &mut near);
            assert!((1..=3).contains(&n));
        }
    }

    #[test]
    fn points_outside_the_grid_box_are_still_found() {
        // Queries from outside the points' bounding box (an agent's own position is always
        // inside it, but the grid must not lose points clamped into edge cells).
        let pts = vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(10.0, 10.0),
            Vec2::new(0.2, 9.9),
        ];
        let mut grid = Grid::default();
        grid.rebuild(&pts, 1.0);
        let mut near = [(0.0, 0); 3];
        let n = grid.nearest(Vec2::new(-0.5, -0.5), usize::MAX, 4.0, &mut near);
        assert_eq!((n, grid.items()[near[0].1 as usize]), (1, 0));
        let n = grid.nearest(Vec2::new(10.5, 10.5), usize::MAX, 1.0, &mut near);
        assert_eq!((n, grid.items()[near[0].1 as usize]), (1, 1));
    }
}
