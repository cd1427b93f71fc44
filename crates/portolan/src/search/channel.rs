//! Channel search: A* over the polygons of a mesh.
//!
//! A polygon is not a point, so the chapter gives each one a *position*: the point where the agent
//! enters it, estimated when its portal is crossed ([`portal_point`]). The cost of a step is the
//! straight distance between consecutive positions, the heuristic the straight distance to the
//! goal. With [`PortalPoint::TowardGoal`] the entry point is where the line from the current
//! position toward the goal meets the portal, clamped to [0.02, 0.98] of it; with
//! [`PortalPoint::Midpoint`] it is the portal's middle.
//!
//! Because a polygon's position depends on the parent it was reached from, this is a heuristic
//! search over a graph that changes as it is explored: it finds a short channel, not always the
//! one holding the globally shortest path (the chapter's table measures how often). The exact
//! alternative is [`SearchMethod::Exact`](super::SearchMethod).
//!
//! Beyond the chapter, the search also follows the mesh's off-mesh links
//! ([`NavMesh::with_links`]: a link is one more edge, costing the walk to its start plus its own
//! cost, and the next position is its landing point), skips polygons excluded by
//! [`SearchOptions::filter`], stops after [`SearchOptions::max_expanded`] polygons, and with
//! [`SearchOptions::allow_partial`] ends an unsuccessful search at the expanded polygon closest to
//! the goal (Detour's partial paths).
//!
//! Cost: O(E log V) for the polygons and portals it touches. [`PathFinder`](super::PathFinder) keeps its arrays
//! between queries and clears them lazily with a generation counter, so a query allocates only
//! its result and the two short lists of polygons holding the start and the goal.

use super::open::Open;
use super::{Endpoint, PartialReason, PathError, PathStatus, PortalPoint, SearchOptions};
use crate::geom::{dist, Vec2};
use crate::mesh::{LinkEdge, NavMesh, PolyId};
use std::collections::BinaryHeap;

/// The chapter's `portalPoint`: where the line `from → goal` crosses the portal `a b`, clamped to
/// [0.02, 0.98] of it (a little away from the ends, which usually touch obstacles). When the line
/// is parallel to the portal, the midpoint.
///
/// ```
/// use portolan::geom::Vec2;
/// use portolan::search::channel::portal_point;
/// let (a, b) = (Vec2::new(0.0, 0.0), Vec2::new(0.0, 10.0));
/// assert_eq!(portal_point(a, b, Vec2::new(-1.0, 2.0), Vec2::new(1.0, 2.0)), Vec2::new(0.0, 2.0));
/// assert_eq!(portal_point(a, b, Vec2::new(-1.0, 50.0), Vec2::new(1.0, 50.0)), Vec2::new(0.0, 9.8));
/// ```
#[inline]
pub fn portal_point(a: Vec2, b: Vec2, from: Vec2, goal: Vec2) -> Vec2 {
    let ab = b - a;
    let d = goal - from;
    let denom = d.cross(ab);
    let mut t = 0.5;
    // |denom| > 1e-12 |d| |ab|, squared: no square roots in the A*'s inner loop.
    if denom * denom > 1e-24 * d.length_squared() * ab.length_squared() {
        t = d.cross(from - a) / denom;
    }
    a + ab * t.clamp(0.02, 0.98)
}

/// The channel A*'s arrays, kept between queries by [`PathFinder`](super::PathFinder) and
/// cleared lazily with a generation counter.
#[derive(Debug, Default, Clone)]
pub(crate) struct ChannelSearch {
    generation: u32,
    seen: Vec<u32>,
    closed: Vec<u32>,
    g: Vec<f64>,
    /// The `f` of polygon `i`'s latest push, whose key is `Open::new(f[i], g[i], i)`: an entry
    /// popped with another key is stale, the polygon having been reached more cheaply since
    /// (the key keeps `g` only to `f32`, so `g` alone cannot tell).
    f: Vec<f64>,
    pos: Vec<Vec2>,
    parent: Vec<u32>,
    goal_mark: Vec<u32>,
    /// How polygon `i` was reached from its parent: `NO_LINK` through a portal, otherwise the
    /// index of the link edge in the parent's [`NavMesh::links_from`].
    via: Vec<u32>,
    heap: BinaryHeap<Open>,
}

const NO_LINK: u32 = u32::MAX;

/// What the channel search found: polygons from start to end, how each was entered, where the
/// path ends (the goal, or the closest reachable point for a partial search).
#[derive(Clone, Debug)]
pub(crate) struct ChannelRun {
    pub(crate) polygons: Vec<PolyId>,
    /// `via[i]`: the link taken from `polygons[i - 1]` into `polygons[i]`, `None` for a portal
    /// (and for `i = 0`).
    pub(crate) via: Vec<Option<LinkEdge>>,
    pub(crate) end: Vec2,
    pub(crate) status: PathStatus,
    pub(crate) expanded: usize,
}

impl ChannelSearch {
    fn reset(&mut self, n: usize) {
        if self.seen.len() < n {
            self.seen.resize(n, 0);
            self.closed.resize(n, 0);
            self.goal_mark.resize(n, 0);
            self.g.resize(n, 0.0);
            self.f.resize(n, 0.0);
            self.pos.resize(n, Vec2::ZERO);
            self.parent.resize(n, 0);
            self.via.resize(n, NO_LINK);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.closed.iter_mut().for_each(|s| *s = 0);
            self.goal_mark.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
        self.heap.clear();
    }

    /// The channel A*, with links, filter, budget and partial results.
    pub(crate) fn search(
        &mut self,
        mesh: &NavMesh,
        start: &Endpoint,
        goal: &Endpoint,
        options: &SearchOptions,
    ) -> Result<ChannelRun, PathError> {
        let filter = options.filter.as_deref().filter(|f| !f.is_empty());
        let excluded = |p: PolyId| filter.is_some_and(|f| f.is_excluded(p));
        let complete = |polygons: Vec<PolyId>, via, expanded| ChannelRun {
            polygons,
            via,
            end: goal.point,
            status: PathStatus::Complete,
            expanded,
        };
        if let Some(&p) = start
            .polygons
            .iter()
            .find(|&&p| goal.polygons.contains(&p) && !excluded(p))
        {
            return Ok(complete(vec![p], vec![None], 0));
        }
        self.reset(mesh.polygon_count());
        let gen = self.generation;
        let (sp, gp) = (start.point, goal.point);
        for &p in &goal.polygons {
            if !excluded(p) {
                self.goal_mark[p.index()] = gen;
            }
        }
        for &p in &start.polygons {
            let i = p.index();
            self.seen[i] = gen;
            self.g[i] = 0.0;
            self.pos[i] = sp;
            self.parent[i] = u32::MAX;
            self.via[i] = NO_LINK;
            self.f[i] = dist(sp, gp);
            self.heap.push(Open::new(self.f[i], 0.0, p.0));
        }
        let portal = options.portal_point;
        let mut expanded = 0;
        let mut found = None;
        let mut limited = false;
        // The expanded polygon closest to the goal, for partial paths: (distance, polygon, point).
        let mut closest: Option<(f64, usize, Vec2)> = None;
        while let Some(top) = self.heap.pop() {
            let poly = top.id();
            let cur = poly as usize;
            // Stale unless its key is the latest push's (an older push with the same key pops in
            // the same place, where the latest one would).
            if self.closed[cur] == gen || top != Open::new(self.f[cur], self.g[cur], poly) {
                continue;
            }
            if options.max_expanded.is_some_and(|max| expanded >= max) {
                limited = true;
                break;
            }
            self.closed[cur] = gen;
            expanded += 1;
            if self.goal_mark[cur] == gen {
                found = Some(cur);
                break;
            }
            let pid = PolyId(poly);
            if options.allow_partial {
                // Nudged onto the mesh below, for the winner only.
                let (d, q) = mesh.nearest_in(pid, gp);
                if closest.is_none_or(|(best, _, _)| d < best) {
                    closest = Some((d, cur, q));
                }
            }
            let here = self.pos[cur];
            let nbs = mesh.neighbours(pid);
            for (i, nb) in nbs.iter().enumerate() {
                let Some(nb) = *nb else { continue };
                let j = nb.index();
                if self.closed[j] == gen || excluded(nb) {
                    continue;
                }
                let (a, b) = mesh.edge(pid, i);
                let entry = match portal {
                    PortalPoint::TowardGoal => portal_point(a, b, here, gp),
                    PortalPoint::Midpoint => (a + b) * 0.5,
                };
                let ng = self.g[cur] + dist(here, entry);
                self.relax(j, ng, entry, poly, NO_LINK, gp);
            }
            for (k, link) in mesh.links_from(pid).iter().enumerate() {
                let j = link.to_polygon.index();
                if self.closed[j] == gen || excluded(link.to_polygon) {
                    continue;
                }
                let ng = self.g[cur] + dist(here, link.from) + link.cost;
                self.relax(j, ng, link.to, poly, k as u32, gp);
            }
        }
        let (end_poly, end, status) = match (found, closest) {
            (Some(p), _) => (p, gp, PathStatus::Complete),
            (None, Some((_, p, q))) if options.allow_partial => {
                let q = mesh.pull_inside(PolyId(p as u32), q);
                let reason = if limited {
                    PartialReason::SearchLimit
                } else {
                    PartialReason::Unreachable
                };
                (p, q, PathStatus::Partial(reason))
            }
            (None, None) if options.allow_partial => {
                // Nothing was expanded (a budget of 0): stay at the start.
                let p = start.polygons[0];
                let status = PathStatus::Partial(if limited {
                    PartialReason::SearchLimit
                } else {
                    PartialReason::Unreachable
                });
                return Ok(ChannelRun {
                    polygons: vec![p],
                    via: vec![None],
                    end: sp,
                    status,
                    expanded,
                });
            }
            (None, _) if limited => return Err(PathError::SearchLimit { expanded }),
            (None, _) => return Err(PathError::NoPath),
        };
        let mut p = end_poly;
        let mut polygons = vec![PolyId(p as u32)];
        let mut via = Vec::new();
        while self.parent[p] != u32::MAX {
            let parent = self.parent[p] as usize;
            via.push(match self.via[p] {
                NO_LINK => None,
                k => Some(mesh.links_from(PolyId(parent as u32))[k as usize]),
            });
            p = parent;
            polygons.push(PolyId(p as u32));
        }
        via.push(None);
        polygons.reverse();
        via.reverse();
        Ok(ChannelRun {
            polygons,
            via,
            end,
            status,
            expanded,
        })
    }

    /// A* relaxation of polygon `j`, reached at `entry` with cost `ng`.
    #[inline]
    fn relax(&mut self, j: usize, ng: f64, entry: Vec2, parent: u32, via: u32, gp: Vec2) {
        let gen = self.generation;
        if self.seen[j] != gen || ng < self.g[j] {
            self.seen[j] = gen;
            self.g[j] = ng;
            self.pos[j] = entry;
            self.parent[j] = parent;
            self.via[j] = via;
            self.f[j] = ng + dist(entry, gp);
            self.heap.push(Open::new(self.f[j], ng, j as u32));
        }
    }
}
