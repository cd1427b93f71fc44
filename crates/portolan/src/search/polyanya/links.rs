//! Off-mesh links in the exact search: take-off and landing nodes, and the per-query lower
//! bound through shortcut links that keeps the heuristic admissible.

use super::*;

/// How many shortcut edges get their own term in the heuristic: the ones with the least direct
/// bound `cost + |landing goal|`. Their bounds come from a Dijkstra over them alone, `O(K²)`
/// per query; every other shortcut is covered by one constant, [`ExactSearch::link_cap`]. So
/// preparing a query is `O(k + K²)` for `k` directed edges, and a node's heuristic costs at
/// most `K` terms, however many links the mesh has (issue 16, item 8: the all-pairs version
/// was `O(k²)` per query and `O(k)` per node; 100,000 links took 31 s a query).
#[cfg(not(test))]
pub(super) const LINK_BOUND_EDGES: usize = 64;
/// The unit tests pick only 2, so that the cap's branch is checked against an oracle on
/// meshes with a handful of links (`search/tests/links.rs`).
#[cfg(test)]
pub(super) const LINK_BOUND_EDGES: usize = 2;

impl ExactSearch {
    /// Prepares the links heuristic for goal `t`:
    ///
    /// ```text
    /// h(x) = min( |x t|,  min over picked edges j of |x from_j| + B_j,  C )
    /// ```
    ///
    /// - the *picked* edges are the (at most [`LINK_BOUND_EDGES`]) shortcuts with the least
    ///   direct bound `cost_j + |to_j t|`; `B_j = cost_j + D(to_j)`, where
    ///   `D(y) = min(|y t|, min over picked i of |y from_i| + B_i, C)`, by Dijkstra over the
    ///   picked edges (`O(K²)`);
    /// - `C` ([`ExactSearch::link_cap`]) covers every other shortcut `j`:
    ///   `C = min over them of cost_j + min(|to_j t|, c)`, with `c` the least cost of a picked
    ///   edge (a lower bound on every `B_i`).
    ///
    /// `h` is consistent, hence admissible: it is a minimum of 1-Lipschitz terms and a
    /// constant, so a straight move of length `l` lowers it by at most `l`; taking a picked
    /// shortcut `j` costs `cost_j`, and `h(from_j) <= B_j = cost_j + D(to_j) = cost_j + h(to_j)`
    /// (`D` is `h` at a landing); taking another shortcut `j`, `h(from_j) <= C`, and
    /// `C <= cost_j + |to_j t|`, `C <= cost_j + c + |to_j from_i| <= cost_j + |to_j from_i| +
    /// B_i`, `C <= cost_j + C`: so `C <= cost_j + h(to_j)`. With no more shortcuts than
    /// [`LINK_BOUND_EDGES`], `C` is infinite and `h` is the exact straight-line distance
    /// through the links, as before.
    ///
    /// Only *shortcuts* (cost below the straight distance between the ends) take part: for any
    /// other link, `h(from) <= |from to| + h(to) <= cost + h(to)` already, by the Lipschitz
    /// bound. Links that are only dearer ways across a wall cost the heuristic nothing.
    pub(super) fn prepare_links(&mut self, mesh: &NavMesh, t: Vec2) {
        let k = 2 * mesh.links().len();
        let pick = &mut self.link_pick;
        pick.clear();
        for j in 0..k {
            let (from, to, cost) = link_end(mesh, j);
            let exists = j.is_multiple_of(2) || mesh.links()[j / 2].bidirectional;
            if exists && cost < dist(from, to) {
                pick.push((cost + dist(to, t), j as u32));
            }
        }
        let by_bound = |x: &(f64, u32), y: &(f64, u32)| x.0.total_cmp(&y.0);
        let picked = pick.len().min(LINK_BOUND_EDGES);
        if pick.len() > picked {
            pick.select_nth_unstable_by(picked, by_bound);
        }
        let (chosen, rest) = pick.split_at(picked);
        let least_cost = chosen
            .iter()
            .map(|&(_, j)| link_end(mesh, j as usize).2)
            .fold(f64::INFINITY, f64::min);
        let cap = rest
            .iter()
            .map(|&(_, j)| {
                let (_, to, cost) = link_end(mesh, j as usize);
                cost + dist(to, t).min(least_cost)
            })
            .fold(f64::INFINITY, f64::min);
        // Dijkstra from the goal over the picked edges: `d[i]` is `D(to_i)`.
        let (d, done) = (&mut self.link_bound, &mut self.link_settled);
        d.clear();
        done.clear();
        for &(_, j) in chosen {
            d.push(dist(link_end(mesh, j as usize).1, t).min(cap));
            done.push(false);
        }
        while let Some(a) = (0..picked)
            .filter(|&a| !done[a])
            .min_by(|&a, &b| d[a].total_cmp(&d[b]))
        {
            done[a] = true;
            let (from, _, cost) = link_end(mesh, chosen[a].1 as usize);
            let via = cost + d[a];
            for b in 0..picked {
                if !done[b] {
                    let (_, to, _) = link_end(mesh, chosen[b].1 as usize);
                    d[b] = d[b].min(dist(to, from) + via);
                }
            }
        }
        self.link_order.clear();
        for (a, &(_, j)) in chosen.iter().enumerate() {
            let b = d[a] + link_end(mesh, j as usize).2;
            if b.is_finite() {
                self.link_order.push((b, j));
            }
        }
        self.link_order.sort_by(by_bound);
        self.link_cap = cap;
    }

    /// A lower bound on the cost from point `x` to the goal `t` on a mesh with links: straight
    /// there, or straight to a shortcut's take-off and on at least its bound.
    pub(super) fn point_h_links(&self, mesh: &NavMesh, x: Vec2, t: Vec2) -> f64 {
        self.links_h(mesh, dist(x, t), |f| dist(x, f))
    }

    /// `h` lowered through the shortcuts: the least of `h`, [`ExactSearch::link_cap`] and, per
    /// picked shortcut, `to(take-off)` (a lower bound on the way there) plus its bound.
    #[inline]
    pub(super) fn links_h(&self, mesh: &NavMesh, h: f64, to: impl Fn(Vec2) -> f64) -> f64 {
        let mut h = h.min(self.link_cap);
        for &(b, j) in &self.link_order {
            if b >= h {
                break; // the bounds only grow from here
            }
            h = h.min(to(link_end(mesh, j as usize).0) + b);
        }
        h
    }

    /// The path reaches the take-off point of link edge `e` straight from `root` (at distance
    /// `g`; `root` sees it). Makes a pseudo node for the corner `root` when it is not the
    /// parent's root, a take-off pseudo node, and the landing node, queued like any node and
    /// expanded like a start. A landing is kept only when it improves on the best made there.
    pub(super) fn take_off(
        &mut self,
        mesh: &NavMesh,
        q: &Query,
        parent: u32,
        root: u32,
        g: f64,
        e: &LinkEdge,
    ) {
        if q.filter.is_some_and(|f| f.is_excluded(e.to_polygon)) {
            return;
        }
        let j = 2 * e.link.index() + usize::from(e.reversed);
        let up = (mesh.vertex_count() + 2 * j) as u32;
        let g_up = g + dist(Self::root_point(mesh, q, root), e.from);
        let g_down = g_up + e.cost;
        // What follows a landing does not depend on how the search got there: a landing that
        // does not strictly improve on one already made adds nothing. (Letting equal ones
        // through, as `root_ok` does for corners, loops forever on a cycle of free links.)
        // Decided first, so that a refused landing leaves no nodes behind.
        let down = up + 1;
        let i = down as usize;
        if self.roots[i].stamp == self.generation && g_down >= self.roots[i].g {
            return;
        }
        let (parent_root, poly) = {
            let p = &self.nodes[parent as usize];
            (p.root, p.poly)
        };
        let mut parent = parent;
        if root != parent_root {
            if !self.root_ok(mesh, root, g) {
                return;
            }
            parent = self.push_point_node(g, root, poly, VIA, parent);
        }
        // Records the landing's `g` (it improves, so `root_ok` accepts it). Take-off points need
        // no record: their nodes are never queued, and their `g` follows the landing's.
        self.root_ok(mesh, down, g_down);
        let takeoff = self.push_point_node(g_up, up, poly, TAKEOFF, parent);
        let landing = self.push_point_node(g_down, down, e.to_polygon.0, LANDING, takeoff);
        self.succ.push(landing);
    }
}

/// Directed link edge `j` of the mesh (link `j / 2`, taken backwards when `j` is odd): its
/// take-off point, landing point and cost.
#[inline]
pub(super) fn link_end(mesh: &NavMesh, j: usize) -> (Vec2, Vec2, f64) {
    let l = &mesh.links()[j / 2];
    if j.is_multiple_of(2) {
        (l.from, l.to, l.cost)
    } else {
        (l.to, l.from, l.cost)
    }
}
