//! Queries through a forced channel: the funnel answers them exactly, without a search.
//!
//! Where the polygons between the start and the goal form a chain with no cycle (every portal
//! between them is a bridge of the mesh's dual graph and every polygon on the way is a
//! 2-edge-connected component of its own: [`DeadEnds::forced_channel`]), every path from the
//! start to the goal crosses the same polygons in the same order. The free space along the way
//! is then a *sleeve*, a simply connected strip of convex pieces, and all its paths between two
//! points are of one homotopy class. The shortest of them is what the funnel algorithm computes
//! from the sleeve's portals (D. T. Lee, F. P. Preparata, *Euclidean shortest paths in the
//! presence of rectilinear barriers*, Networks 14, 1984; J. Hershberger, J. Snoeyink,
//! *Computing minimum length paths of a given homotopy class*, CGTA 4, 1994): a path that turns
//! only at portal ends, always around the wall side, so the shortest path of the whole mesh.
//!
//! ```text
//!   ┌──────┬──────┬──────┐      a corridor of convex pieces, each joined to the next by a
//!   │ s    │      │      │      bridge: one channel, and the funnel through its portals (the
//!   │  `·. │      │      │      shared edges) is the shortest path; a search would have
//!   └─────`·.─────┴────┐ │      found the same path after expanding its nodes one by one
//!                  `·. │ │
//!                     `t │
//!                      └─┘
//! ```
//!
//! This is the general case of what Polyanya's dead-end pruning exploits
//! ([`crate::mesh::dead_ends`]): on a map whose walls are all connected to its border (a
//! perfect maze, a cave or dungeon without islands) every query is forced; on other maps the
//! queries between tree-shaped parts are (corridors, rooms off a hall without a pillar inside).
//! An endpoint on an edge or a vertex belongs to several polygons: every pair of the start's and
//! the goal's polygons is funnelled and the shortest path kept (a shortest path leaves the start
//! into one of them and reaches the goal from one of them; at a pinch vertex that is the rule
//! of [`NavMesh::is_pinch`]).
//!
//! # Cost
//! The channel's length, twice over at most: the walk up the bridge forest (one record read per
//! polygon, which holds the bridge to the parent: the walk gives the portals too,
//! [`DeadEnds::forced_bridges`]; reading each shared edge from the polygons' slots instead
//! took 0.77× the speed on a 512 × 512 maze, BENCHMARKS.md) and the funnel (the one with two chains,
//! [`ChainFunnel`]: each portal end enters its deque once and leaves it once, one or two exact
//! orientation tests each). A query that is
//! not forced pays the walk until the first polygon with a cycle through it, and then the
//! search. Figures: BENCHMARKS.md (issue 15).

use super::{for_each_polygon, ExactSearch};
use crate::geom::Vec2;
use crate::mesh::dead_ends::DeadEnds;
use crate::mesh::{Location, NavMesh, PolyId};
use crate::search::chain_funnel::ChainFunnel;
use crate::search::funnel::Portal;
use crate::search::{Endpoint, Path, PathStatus, SearchOptions};

/// Reusable buffers of [`ExactSearch::forced_path`]: the polygons holding each endpoint, and
/// the funnels' buffers.
#[derive(Clone, Debug, Default)]
pub(super) struct ForcedScratch {
    starts: Vec<PolyId>,
    goals: Vec<PolyId>,
    funnels: Funnels,
}

/// The buffers of [`Funnels::shortest`]: a channel (and the walk's other half), its portals
/// (and the other half's), the funnel's deque, the path's points (copied out at their size: a
/// path allocates its vectors once).
#[derive(Clone, Debug, Default)]
pub(super) struct Funnels {
    pub(super) channel: Vec<PolyId>,
    tail: Vec<PolyId>,
    pub(super) portals: Vec<Portal>,
    tail_portals: Vec<Portal>,
    funnel: ChainFunnel,
    points: Vec<Vec2>,
}

impl ExactSearch {
    /// The shortest path from `s` (located at `sloc`) to `t` (at `tloc`) when every pair of
    /// their polygons is joined by a forced channel (see the [module docs](self)); `None` when
    /// one pair is not, and the search must decide.
    pub(super) fn forced_path(
        &mut self,
        mesh: &NavMesh,
        dead_ends: &DeadEnds,
        (s, sloc): (Vec2, Location),
        (t, tloc): (Vec2, Location),
    ) -> Option<Path> {
        let x = &mut self.forced;
        x.starts.clear();
        x.goals.clear();
        for_each_polygon(mesh, sloc, |p| x.starts.push(p));
        for_each_polygon(mesh, tloc, |p| x.goals.push(p));
        x.funnels.shortest(dead_ends, (s, &x.starts), (t, &x.goals))
    }

    /// The funnel search's shortcut: the exact path when the channel between the resolved
    /// endpoints is forced (then it is the only channel, and the one the channel A* would
    /// find after exploring), on a mesh without off-mesh links and under no polygon filter
    /// (which the bridges do not know), once the mesh's dead-end table exists (an exact query
    /// or [`NavMesh::dead_ends`] derived it: the funnel search does not pay that O(n) table,
    /// which a dynamic mesh's every snapshot would charge to its first query); `None`
    /// otherwise.
    pub(crate) fn forced_funnel(
        &mut self,
        mesh: &NavMesh,
        s: &Endpoint,
        g: &Endpoint,
        options: &SearchOptions,
    ) -> Option<Path> {
        if mesh.has_links() || options.filter.as_ref().is_some_and(|f| !f.is_empty()) {
            return None;
        }
        let dead_ends = mesh.dead_ends_if_derived()?;
        self.forced
            .funnels
            .shortest(dead_ends, (s.point, &s.polygons), (g.point, &g.polygons))
    }
}

impl Funnels {
    /// The forced channel from polygon `a` to `b` into `self.channel`, and its portals from
    /// `s` to `t` into `self.portals`; `false` when the channel is not forced. The portals are
    /// the bridges the walk crosses ([`DeadEnds::forced_bridges`]): from the start's side in
    /// order, from the goal's side in reverse, crossed the other way.
    pub(super) fn forced_portals(
        &mut self,
        dead_ends: &DeadEnds,
        (a, b): (PolyId, PolyId),
        (s, t): (Vec2, Vec2),
    ) -> bool {
        let (portals, tail_portals) = (&mut self.portals, &mut self.tail_portals);
        portals.clear();
        tail_portals.clear();
        portals.push(Portal::point(s));
        let forced = dead_ends.forced_bridges(
            a,
            b,
            &mut self.channel,
            &mut self.tail,
            |goal_side, [e0, e1]| {
                if goal_side {
                    tail_portals.push(Portal {
                        left: e0,
                        right: e1,
                    });
                } else {
                    portals.push(Portal {
                        left: e1,
                        right: e0,
                    });
                }
            },
        );
        if forced {
            portals.extend(tail_portals.iter().rev());
            portals.push(Portal::point(t));
        }
        forced
    }

    /// The shortest of the funnels through the forced channels from each polygon of `starts`
    /// to each of `goals`; `None` when one pair is not joined by a forced channel.
    fn shortest(
        &mut self,
        dead_ends: &DeadEnds,
        (s, starts): (Vec2, &[PolyId]),
        (t, goals): (Vec2, &[PolyId]),
    ) -> Option<Path> {
        let mut best: Option<Path> = None;
        for &a in starts {
            for &b in goals {
                if !self.forced_portals(dead_ends, (a, b), (s, t)) {
                    return None;
                }
                self.funnel.pull(&self.portals, &mut self.points);
                let length = Path::polyline_length(&self.points);
                // (On a tie, the shorter channel: an end on an edge is in both polygons, and
                // the one the path does not cross need not be listed.)
                let better = |p: &Path| {
                    length < p.length
                        || (length == p.length && self.channel.len() < p.channel.len())
                };
                if best.as_ref().is_none_or(better) {
                    best = Some(Path {
                        points: self.points.clone(),
                        length,
                        channel: self.channel.clone(),
                        expanded: 0,
                        status: PathStatus::Complete,
                        links: Vec::new(),
                        bound: Some(1.0),
                    });
                }
            }
        }
        best
    }
}
