//! Off-mesh links in the exact search: take-off and landing nodes, and the per-query lower
//! bound through shortcut links that keeps the heuristic admissible.

use super::*;

impl ExactSearch {
    /// Per directed link edge, a lower bound on the cost of reaching the goal `t` by taking it:
    /// its cost plus `D(landing)`, where `D(x) = min(|x t|, min over edges j of
    /// |x from_j| + cost_j + D(to_j))` (straight lines between link ends and the goal), by
    /// Dijkstra over the edges: O(k²) for k directed edges. With these the heuristic
    /// ([`ExactSearch::point_h_links`]) stays admissible however cheap a link is.
    ///
    /// Only *shortcuts* (cost below the straight distance between the ends) take part: for any
    /// other link, `h(from) + cost + D(to) ≥ h(to) + D(to)` by the triangle inequality (the
    /// interval heuristic is a shortest distance through the interval), which the goal's or
    /// another link's term already bounds from below, so it could never lower a bound. Links
    /// that are only dearer ways across a wall cost the heuristic nothing.
    pub(super) fn prepare_links(&mut self, mesh: &NavMesh, t: Vec2) {
        let k = 2 * mesh.links().len();
        let (d, done) = (&mut self.link_bound, &mut self.link_settled);
        d.clear();
        done.clear();
        for j in 0..k {
            let (from, to, cost) = link_end(mesh, j);
            let exists = j.is_multiple_of(2) || mesh.links()[j / 2].bidirectional;
            let shortcut = exists && cost < dist(from, to);
            d.push(if shortcut { dist(to, t) } else { f64::INFINITY });
            done.push(!shortcut);
        }
        while let Some(j) = (0..k)
            .filter(|&j| !done[j])
            .min_by(|&a, &b| d[a].total_cmp(&d[b]))
        {
            done[j] = true;
            let (from, _, cost) = link_end(mesh, j);
            let via = cost + d[j];
            for i in 0..k {
                if !done[i] {
                    let (_, to, _) = link_end(mesh, i);
                    d[i] = d[i].min(dist(to, from) + via);
                }
            }
        }
        self.link_order.clear();
        for (j, b) in d.iter_mut().enumerate() {
            *b += link_end(mesh, j).2;
            if b.is_finite() {
                self.link_order.push((*b, j as u32));
            }
        }
        self.link_order.sort_by(|x, y| x.0.total_cmp(&y.0));
    }

    /// A lower bound on the cost from point `x` to the goal `t` on a mesh with links: straight
    /// there, or straight to a shortcut's take-off and on at least its bound.
    pub(super) fn point_h_links(&self, mesh: &NavMesh, x: Vec2, t: Vec2) -> f64 {
        self.links_h(mesh, dist(x, t), |f| dist(x, f))
    }

    /// `h` lowered through the shortcuts: the least of `h` and, per shortcut, `to(take-off)`
    /// (a lower bound on the way there) plus its bound.
    #[inline]
    pub(super) fn links_h(&self, mesh: &NavMesh, mut h: f64, to: impl Fn(Vec2) -> f64) -> f64 {
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
        if self.root_stamp[i] == self.generation && g_down >= self.root_g[i] {
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
