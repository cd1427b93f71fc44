//! The neighbour index: a uniform grid of square cells over the agents' positions, rebuilt
//! every step by a counting sort (O(n + cells)), queried by scanning the 3 × 3 block of cells
//! around a point (the cell side is at least the query range).
//!
//! ```text
//!   ┌───┬───┬───┐   cells[c] = agents[starts[c]..starts[c + 1]]
//!   │ · │·· │   │   an agent's neighbours within range r ≤ cell are in its
//!   ├───┼───┼───┤   cell and the eight around it
//!   │  ·│ ● │ · │
//!   ├───┼───┼───┤   Agents are listed in each cell in index order, so a query
//!   │   │ · │   │   visits candidates in the same order on every run.
//!   └───┴───┴───┘
//! ```

use crate::geom::Vec2;

/// Most cells the grid allocates; past this the cells grow instead.
const MAX_CELLS: usize = 1 << 22;

#[derive(Clone, Debug, Default)]
pub(crate) struct Grid {
    origin: Vec2,
    cell: f64,
    inv_cell: f64,
    nx: usize,
    ny: usize,
    starts: Vec<u32>,
    items: Vec<u32>,
    cell_of: Vec<u32>,
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
        let size = max - min;
        loop {
            let nx = (size.x / cell) as usize + 1;
            let ny = (size.y / cell) as usize + 1;
            if nx.saturating_mul(ny) <= MAX_CELLS {
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
        // Fill each cell from its start; a moving cursor per cell, reusing `starts` shifted.
        let mut next: Vec<u32> = self.starts[..cells].to_vec();
        for (i, &c) in self.cell_of.iter().enumerate() {
            let slot = &mut next[c as usize];
            self.items[*slot as usize] = i as u32;
            *slot += 1;
        }
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

    /// Calls `f(j)` for every agent in the 3 × 3 cells around `p`, cell by cell, in index
    /// order within a cell. Only complete when the query range is at most the cell side.
    #[inline]
    pub(crate) fn for_each_near(&self, p: Vec2, mut f: impl FnMut(usize)) {
        let (cx, cy) = self.coords(p);
        let (x0, x1) = (cx.saturating_sub(1), (cx + 1).min(self.nx - 1));
        let (y0, y1) = (cy.saturating_sub(1), (cy + 1).min(self.ny - 1));
        for y in y0..=y1 {
            let row = y * self.nx;
            let (a, b) = (
                self.starts[row + x0] as usize,
                self.starts[row + x1 + 1] as usize,
            );
            for &j in &self.items[a..b] {
                f(j as usize);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Rng;

    #[test]
    fn finds_every_point_within_one_cell_as_brute_force_does() {
        let mut rng = Rng::new(7);
        let pts: Vec<Vec2> = (0..500)
            .map(|_| Vec2::new(rng.range_f64(-50.0, 50.0), rng.range_f64(0.0, 20.0)))
            .collect();
        let mut grid = Grid::default();
        grid.rebuild(&pts, 3.0);
        for (i, &p) in pts.iter().enumerate() {
            let mut found = Vec::new();
            grid.for_each_near(p, |j| {
                if j != i && pts[j].distance(p) <= 3.0 {
                    found.push(j)
                }
            });
            found.sort_unstable();
            let brute: Vec<usize> = (0..pts.len())
                .filter(|&j| j != i && pts[j].distance(p) <= 3.0)
                .collect();
            assert_eq!(found, brute);
        }
    }
}
