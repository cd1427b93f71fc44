//! Views: per polygon, the corners seen from it and from where exactly; with hub labels, they
//! answer a corner query without any search.
//!
//! # The index
//! A corner `c`'s sweep (one per corner, the graph's edges' sweep run again once the labels
//! exist, to record what it sees: `sweep_cones`) expands only nodes
//! rooted at `c`. Each node is an interval on an edge through which `c` sees into the polygon
//! behind it: the points of that polygon inside the node's *cone* (two lines from `c` through
//! mesh vertices, kept exactly by the search) are seen from `c`. And since a polygon is convex
//! and a ray from `c` enters it once, a point of the polygon is seen from `c` exactly when it
//! lies in the cone of one of the nodes that entered the polygon: seen or not depends only on
//! the direction from `c`. So per polygon the index keeps every corner some node of whose
//! sweep entered it, with those nodes' cones (none when `c` is a vertex of the polygon and
//! sees all of it). Deciding whether a point sees `c` is then two exact `orient` tests per cone,
//! instead of a sweep from the point.
//!
//! This is the idea of Euclidean Hub Labeling (Du, Shen, Cheema, *Ultrafast Euclidean Shortest
//! Path Computation Using Hub Labeling*, AAAI 2023): per region of the map, the corners seen
//! from it, joined with the corners' hub labels. EHL's regions are grid cells and may only be
//! partly seen from a corner; here they are the mesh's own polygons, and the cones say exactly
//! which part.
//!
//! # The query ([`CornerGraph::view_query`])
//! 1. If the start sees the goal, the path is the segment: the exact search finds that with one
//!    raycast before anything else (`polyanya/sight.rs`), so a view query starts out of sight.
//! 2. Then a shortest path bends first at a corner `a` the start sees, last at a corner `b`
//!    the goal sees, and runs between them through the corner graph; and it is taut at both, so
//!    `a` is [taut from](CornerGraph::taut_from) the start and `b` from the goal. The views give
//!    both sets exactly: the candidates of the endpoints' polygons, filtered by their cones and
//!    the taut test; in a large polygon only those of the endpoint's cell, some of them taken
//!    with no test (`cells.rs` says how that is decided, exactly, at build time).
//! 3. An upper bound: the two corners, one per side, with the least straight-line bound
//!    (`|s a| + |a t|`, `|s b| + |b t|`), joined label to label, give the length of a real path;
//!    a corner whose straight-line bound exceeds it is on no shortest path and is dropped.
//! 4. Per hub `h`: `T[h] = min over b of d(h, b) + |b t|` (one pass over the labels of the
//!    goal's corners), then `d(s, t) = min over a of |s a| + min over a's hubs of d(a, h) + T[h]`
//!    (one pass over the labels of the start's corners). Each term is the length of a real path
//!    (every `a` is seen from the start, every `b` sees the goal, labels are graph distances), and
//!    the shortest path is among them: the minimum is the exact distance.
//! 5. The path: the labels keep, per entry, the next corner toward its hub; from the best `a`
//!    to the hub that joins it to the goal's side, then back from that hub to the corner `b`
//!    that gave the hub its table entry. Its channel needs no raycast: between two corners it
//!    is the graph edge's strip (kept per edge), and from the start to `a` (from `b` to the
//!    goal) it is the chain of polygons the sweep from `a` (`b`) took to the endpoint's polygon
//!    through the cone that holds the endpoint: the index keeps the sweeps' nodes as a tree,
//!    and a cone its node, so a leg's channel is read back from that node to the root. Both
//!    the strips and the tree are caches: where the index's memory budget has no room for them
//!    ([`MAX_INDEX_BYTES`](super::MAX_INDEX_BYTES), [`Views::fit_memory`]) they are dropped and
//!    the legs are raycast, for the same path.
//!
//! Where anything does not add up (no corner leads to the goal: unreachable, or a path through
//! a bend the graph does not have), the query says so and the caller runs the sweeps instead.
//!
//! # Short queries
//! A short query is often answered by the plain exact search in a few nodes, while the views
//! still read every corner its endpoints see. The build times a fixed sample of long and short
//! queries both ways ([`fit`]) and picks the straight-line distance below which a query first
//! tries the plain search, for as many nodes as it expands in the time of an average view
//! query; past that budget the views answer, so a wrong guess at most doubles a query's cost.
//! The sample and the rule are fixed; the times are the building machine's, so the choice (and
//! only it: never an answer) can differ between two builds of the same mesh.
//!
//! # Cost
//! Query (after the caller's raycast): the candidates of two polygons (a few orient tests
//! each), and one pass over the labels of the corners each endpoint sees; no priority queue, no sweep. Those loops
//! run over a hundred or more entries whose outcomes (seen or not, a hub lowered or not) are as
//! good as random, so they are written without a branch per entry: the tests as plain `f64`
//! determinants behind `orient`'s own error filter (the exact predicates decide the rest), the
//! table lowered by a min and set back along the same labels. Memory: 8
//! bytes per (polygon, corner seen) pair, 12 per cone and 8 per sweep node kept in the tree
//! (the trees add about a fifth to an index), 12–15 per pair for the cells cut 3 × 3 and 17–34
//! cut 5 × 5 past 48 entries (a fifth to a third of an index),
//! and 4 per polygon an edge's strip crosses (on
//! open maps the most of all: 47 MB of a 110 MB index on a 1,024 × 1,024 map of round and
//! square obstacles, before the budget dropped them); BENCHMARKS.md ("Fast search", "Does the
//! index keep within its budget") has the figures per map.
//!
//! A view query reads little, but from all over the index: a label and a few records per corner
//! seen. Its time therefore depends on what ran before it: with the index out of the caches (other
//! work between two queries) it takes up to twice as long as back to back, where the exact search,
//! which reads mostly the data its own nodes bring in, loses little. Queries run one after another
//! (a frame's batch) gain the most; BENCHMARKS.md ("How much does a query lose when other work runs
//! between queries?") has the figures.

use super::cells::Cells;
use super::fans::Fans;
use super::labels::HubLabels;
use super::sample::{least_times, pays, sample_pairs};
use super::{CornerGraph, NONE};
use crate::build::{BuildError, CancelToken};
use crate::geom::dist;
use crate::geom::{orient, orient_static, static_orient_bound, Orientation, Vec2};
use crate::mesh::{Location, NavMesh, PolyId, VertexId};
use crate::search::polyanya::{channel_through, for_each_polygon, segment_channel, ChannelBuffers};
use crate::search::raycast::raycast_located;
use crate::search::Path;

/// What a corner's sweep saw: per node, the polygon entered and the cone (`[NONE, NONE]` for a
/// polygon the corner is a vertex of); and per node, its parent's index in `cones` (`NONE` for
/// none).
#[derive(Clone, Debug, Default)]
pub(crate) struct SweepCones {
    pub(crate) cones: Vec<(u32, [u32; 2])>,
    pub(crate) parents: Vec<u32>,
}

/// A node of one corner's sweep: (the corner's index among the sweeps, the node's index in
/// that sweep's cones).
type SweepNode = (u32, u32);

/// Per polygon, the corners seen from some point of it, with the cones saying from where.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Views {
    /// The entries of polygon `p` are `offsets[p]..offsets[p + 1]`.
    pub(super) offsets: Vec<u32>,
    /// Per entry: the corner.
    pub(super) corner: Vec<u32>,
    /// Per entry `e`: its cones are `cones[cone_at[e]..cone_at[e + 1]]`; none when the corner
    /// sees the whole polygon.
    pub(super) cone_at: Vec<u32>,
    /// `[right, left]`: the points left of (or on) the line from the corner through vertex
    /// `right` and right of (or on) the line through `left`.
    pub(super) cones: Vec<[u32; 2]>,
    /// Per cone: its node in `tree`. Empty, with `tree`, where the index's memory budget left
    /// no room for them ([`Views::fit_memory`]): the first and last legs are then raycast.
    pub(super) cone_node: Vec<u32>,
    /// The corners' sweeps' nodes that led to a cone kept, as (polygon entered, parent node or
    /// `NONE`), each after its parent: read from a cone's node back to the root, the
    /// polygons a segment from a point of the polygon in the cone to the corner crosses (a
    /// chain of polygons that share edges, ending at one around the corner). A whole
    /// polygon's chain is the polygon alone.
    pub(super) tree: Vec<(PolyId, u32)>,
    /// Per graph edge `e`, the polygons its segment crosses, in order:
    /// `strips[strip_at[e]..strip_at[e + 1]]` (a path's channel without raycasts). Both empty
    /// where the index's memory budget left no room for them ([`Views::fit_memory`]): the legs
    /// are then raycast.
    pub(super) strip_at: Vec<u32>,
    pub(super) strips: Vec<PolyId>,
    /// Per polygon its cells, and per cell only the entries a point of it may take, those it
    /// surely takes first ([`Cells`]). Empty where the index's memory budget left no room for
    /// them: every entry of the polygon is then tested.
    pub(super) cells: Cells,
    /// How queries use these views ([`fit`]; [`ViewChoice::ALWAYS`] until fitted).
    pub(super) choice: ViewChoice,
    /// Per corner, the polygons around it in order (`fans.rs`): a view path's channel at its
    /// bends. Derived from the mesh and the corners, not saved.
    pub(super) fans: Fans,
}

impl Views {
    /// The index from each corner's sweep records (`sweeps[i]` of `corners[i]`: per node, the
    /// polygon entered and its cone, `[NONE, NONE]` for a whole polygon, and its parent), on
    /// `mesh`; the records are dropped once read. A corner is left out of a polygon no
    /// point of which it is [taut from](CornerGraph::taut_from): no path from there bends at it.
    pub(crate) fn build(
        mesh: &NavMesh,
        graph: &CornerGraph,
        corners: &[u32],
        sweeps: Vec<SweepCones>,
    ) -> Views {
        // (polygon, corner, cone, sweep node), sorted: entries grouped per polygon, then per
        // corner; one node per cone (two nodes with the same cone into the same polygon hold
        // the same rays, so either's chain is theirs).
        let mut all: Vec<(u32, u32, [u32; 2], SweepNode)> = Vec::new();
        for (i, (c, recs)) in corners.iter().zip(&sweeps).enumerate() {
            all.extend(
                recs.cones
                    .iter()
                    .enumerate()
                    .map(|(k, &(p, cone))| (p, *c, cone, (i as u32, k as u32))),
            );
        }
        all.sort_unstable_by_key(|x| (x.0, x.1, x.2));
        all.dedup_by_key(|x| (x.0, x.1, x.2));
        // Left out where the whole (convex) polygon lies in the open cone facing the corner's
        // walls head-on, from which no path bends at it (`CornerGraph::faces`): where all its
        // vertices do. (Not where they are merely not taut: the points beyond the wall are not
        // taut either, and a polygon can reach from there to here past a small obstacle.)
        all.retain(|&(p, c, _, _)| {
            !mesh
                .polygon_vertices(PolyId(p))
                .iter()
                .all(|&x| graph.faces(mesh, mesh.vertex(x), c))
        });
        let polygons = mesh.polygon_count();
        // (The strips come last, where the budget leaves them room: `add_strips`.)
        let mut v = Views {
            offsets: vec![0; polygons + 1],
            ..Views::default()
        };
        // Per sweep, each node's index in the kept tree, once it is there.
        let mut kept: Vec<Vec<u32>> = sweeps.iter().map(|r| vec![NONE; r.cones.len()]).collect();
        let mut up = Vec::new();
        let mut i = 0;
        while i < all.len() {
            let (p, c) = (all[i].0, all[i].1);
            let mut j = i;
            while j < all.len() && all[j].0 == p && all[j].1 == c {
                j += 1;
            }
            v.offsets[p as usize + 1] += 1;
            v.corner.push(c);
            v.cone_at.push(v.cones.len() as u32);
            // A whole polygon sorts last ([NONE, NONE]); then no cone is needed.
            if all[j - 1].2 != [NONE, NONE] {
                for &(_, _, cone, (k, node)) in &all[i..j] {
                    v.cones.push(cone);
                    // The node and those of its ancestors not kept yet, kept root first.
                    let (sweep, map) = (&sweeps[k as usize], &mut kept[k as usize]);
                    up.clear();
                    let mut at = node;
                    while at != NONE && map[at as usize] == NONE {
                        up.push(at);
                        at = sweep.parents[at as usize];
                    }
                    for &x in up.iter().rev() {
                        let (poly, parent) = (sweep.cones[x as usize].0, sweep.parents[x as usize]);
                        let parent = if parent == NONE {
                            NONE
                        } else {
                            map[parent as usize]
                        };
                        map[x as usize] = v.tree.len() as u32;
                        v.tree.push((PolyId(poly), parent));
                    }
                    v.cone_node.push(map[node as usize]);
                }
            }
            i = j;
        }
        v.cone_at.push(v.cones.len() as u32);
        for k in 0..polygons {
            v.offsets[k + 1] += v.offsets[k];
        }
        v.cone_at.shrink_to_fit();
        v.fans = Fans::of(mesh, &graph.turns, &graph.wedge_poly);
        v
    }

    /// The entries of polygon `p`.
    #[inline]
    pub(super) fn entries(&self, p: PolyId) -> std::ops::Range<usize> {
        self.offsets[p.index()] as usize..self.offsets[p.index() + 1] as usize
    }

    /// Entry `e`'s cones (none when its corner sees the whole polygon).
    #[inline]
    pub(super) fn cones_of(&self, e: usize) -> &[[u32; 2]] {
        &self.cones[self.cone_at[e] as usize..self.cone_at[e + 1] as usize]
    }

    /// `true` when corner entry `e` (of a polygon holding `x`) is seen from `x`.
    #[inline]
    pub(super) fn sees(&self, mesh: &NavMesh, e: usize, x: Vec2) -> bool {
        self.cone_at[e] == self.cone_at[e + 1] || self.cone_holding(mesh, e, x).is_some()
    }

    /// The index in `cones` of entry `e`'s first cone that holds `x` (exact tests).
    fn cone_holding(&self, mesh: &NavMesh, e: usize, x: Vec2) -> Option<usize> {
        let vs = mesh.vertices();
        let c = vs[self.corner[e] as usize];
        (self.cone_at[e] as usize..self.cone_at[e + 1] as usize).find(|&k| {
            let [r, l] = self.cones[k];
            orient(c, vs[r as usize], x) != Orientation::Clockwise
                && orient(c, vs[l as usize], x) != Orientation::CounterClockwise
        })
    }

    /// Appends to `leg` the polygons a segment from `x` (located at `xloc`) to corner `c`
    /// crosses, in that order: the chain of `c`'s entry in a polygon holding `x`, through its
    /// first cone that holds `x` (the polygon alone where `c` is one of its vertices). `false`,
    /// and nothing appended, where no entry sees `x`.
    fn chain_into(
        &self,
        mesh: &NavMesh,
        (x, xloc): (Vec2, Location),
        c: u32,
        leg: &mut Vec<PolyId>,
    ) -> bool {
        let mut found: Option<Result<PolyId, usize>> = None;
        for_each_polygon(mesh, xloc, |p| {
            if found.is_some() {
                return;
            }
            let entries = self.entries(p);
            // Entries are sorted by corner within a polygon.
            let Ok(k) = self.corner[entries.clone()].binary_search(&c) else {
                return;
            };
            let e = entries.start + k;
            found = if self.cone_at[e] == self.cone_at[e + 1] {
                Some(Ok(p))
            } else {
                self.cone_holding(mesh, e, x).map(Err)
            };
        });
        let from = leg.len();
        match found {
            Some(Ok(p)) => leg.push(p),
            // (No chains held: the caller casts the leg.)
            Some(Err(_)) if self.cone_node.is_empty() => return false,
            Some(Err(k)) => {
                let mut at = self.cone_node[k];
                while let Some(&(p, parent)) = self.tree.get(at as usize) {
                    leg.push(p);
                    at = parent;
                }
            }
            None => return false,
        }
        // A chain ends around its corner (a loaded index is checked for ids and links, not for
        // that): otherwise none, and the caller casts the leg.
        if !leg[from..]
            .last()
            .is_some_and(|&p| mesh.polygon_vertices(p).contains(&VertexId(c)))
        {
            leg.truncate(from);
            return false;
        }
        true
    }

    /// The polygons edge `e`'s segment crosses, in order; empty where the strips were dropped
    /// (or the edge crosses none, which no edge of a built graph does).
    #[inline]
    fn strip(&self, e: usize) -> &[PolyId] {
        match self.strip_at.get(e..e + 2) {
            Some(&[a, b]) => &self.strips[a as usize..b as usize],
            _ => &[],
        }
    }

    /// Keeps these views within `max_bytes`, if they can be: the per-edge strips go first,
    /// then the cells, then the cones' chains (the strips and chains only save the raycasts of
    /// a path's channel, the cells the tests of entries a query cannot take or surely takes;
    /// without any of them a query gives a path of the same length, the same path but where
    /// several are shortest: the cells change the order the corners are met in, and the first
    /// of equal sums wins). `false` when even the views without them pass `max_bytes` (the
    /// caller drops the views).
    pub(crate) fn fit_memory(&mut self, max_bytes: usize) -> bool {
        if self.memory_bytes() > max_bytes {
            self.strip_at = Vec::new();
            self.strips = Vec::new();
        }
        if self.memory_bytes() > max_bytes {
            self.cells = Cells::default();
        }
        if self.memory_bytes() > max_bytes {
            self.cone_node = Vec::new();
            self.tree = Vec::new();
        }
        self.memory_bytes() <= max_bytes
    }

    /// Adds the cells ([`Cells`]) where they fit, cut finely or not: when these views, the
    /// cells with them, take at most `max_bytes` and the cones' chains are kept (the budget
    /// drops the cells before the chains, [`Views::fit_memory`]). `false`, and the cells left
    /// as they were, otherwise.
    pub(crate) fn add_cells(
        &mut self,
        mesh: &NavMesh,
        graph: &CornerGraph,
        max_bytes: usize,
        fine: bool,
    ) -> bool {
        let held = self.memory_bytes() - self.cells.memory_bytes();
        if self.chains_dropped() || held > max_bytes {
            return false;
        }
        match Cells::build_within(mesh, graph, self, fine, max_bytes - held) {
            Some(cells) => {
                self.cells = cells;
                true
            }
            None => false,
        }
    }

    /// Adds the cells and then the strips ([`add_cells`](Views::add_cells),
    /// [`add_strips`](Views::add_strips)) where they fit, the cells cut finely where the strips
    /// still fit with them, else coarsely: the strips save a path's channel its raycasts, more
    /// than a finer cut saves the side lists (on AcrosstheCape, the fullest map in shared data,
    /// a 4 × 4 cut of every polygon left no room for the strips). Where no cells leave the
    /// strips room, the finest cells that fit are kept without them.
    pub(crate) fn add_cells_and_strips(
        &mut self,
        mesh: &NavMesh,
        graph: &CornerGraph,
        max_bytes: usize,
        cancel: &CancelToken,
    ) -> Result<(), BuildError> {
        let rounds: &[bool] = if Cells::fine_differs(self, mesh.polygon_count()) {
            &[true, false]
        } else {
            &[false]
        };
        // The finest cells that fit, kept where no cells leave the strips room.
        let mut finest = None;
        for &fine in rounds {
            cancel.check()?;
            if !self.add_cells(mesh, graph, max_bytes, fine) {
                continue;
            }
            if self.add_strips(mesh, graph, max_bytes) {
                return Ok(());
            }
            let cells = std::mem::take(&mut self.cells);
            finest.get_or_insert(cells);
        }
        self.cells = finest.unwrap_or_default();
        Ok(())
    }

    /// Adds the per-edge strips where they fit: when these views, the strips with them, take at
    /// most `max_bytes` and the cells and the cones' chains are kept (the budget drops the
    /// strips before both, [`Views::fit_memory`]; views with a polygon of more entries than
    /// the cells index have neither). `false`, and none added, otherwise. The strips are counted
    /// as they are made and the making stops once they pass the room left, so a map whose
    /// strips do not fit does not build them whole first (on an open 1,024 × 1,024 map they
    /// were 47 MB, made and dropped).
    pub(crate) fn add_strips(
        &mut self,
        mesh: &NavMesh,
        graph: &CornerGraph,
        max_bytes: usize,
    ) -> bool {
        let held = self.memory_bytes();
        if self.chains_dropped() || self.cells.is_empty() || held > max_bytes {
            return false;
        }
        match edge_strips(mesh, graph, max_bytes - held) {
            Some((strip_at, strips)) => {
                self.strip_at = strip_at;
                self.strips = strips;
                true
            }
            None => false,
        }
    }

    /// `true` where the cones' chains were dropped: the cones have no nodes (views without
    /// cones have neither, and count as keeping them).
    fn chains_dropped(&self) -> bool {
        self.cone_node.len() != self.cones.len()
    }

    /// (polygon, corner) pairs held.
    pub(crate) fn entry_count(&self) -> usize {
        self.corner.len()
    }

    /// Heap memory held, in bytes.
    pub(crate) fn memory_bytes(&self) -> usize {
        (self.offsets.len() + self.corner.len() + self.cone_at.len()) * 4
            + self.cones.len() * 8
            + self.cone_node.len() * 4
            + self.tree.len() * 8
            + (self.strip_at.len() + self.strips.len()) * 4
            + self.cells.memory_bytes()
            + self.fans.memory_bytes()
    }
}

/// Where corner `v` is, as [`NavMesh::locate`] would say, without locating it.
fn at_vertex(mesh: &NavMesh, v: u32) -> Location {
    Location::OnVertex {
        vertex: VertexId(v),
        polygon: mesh.vertex_polygons(VertexId(v))[0],
    }
}

/// Per graph edge, the polygons a raycast along it crosses, as a chain of polygons sharing
/// edges (empty where the ray is refused, which a clear edge never is), as offsets and strips;
/// `None` once they would take more than `max_bytes` (4 per offset and per polygon listed).
fn edge_strips(
    mesh: &NavMesh,
    graph: &CornerGraph,
    max_bytes: usize,
) -> Option<(Vec<u32>, Vec<PolyId>)> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let vs = mesh.vertices();
    // Bytes made so far (the offsets' first); past `max_bytes` every row left is skipped.
    let made = AtomicUsize::new((graph.targets.len() + 1) * 4);
    let full = || made.load(Ordering::Relaxed) > max_bytes;
    let row = |c: usize, (leg, buffers): &mut (Vec<PolyId>, ChannelBuffers)| {
        if full() {
            return Vec::new();
        }
        let strips = graph
            .row(c as u32)
            .map(|e| {
                let d = graph.targets[e] as usize;
                let _ = raycast_located(mesh, vs[c], at_vertex(mesh, c as u32), vs[d], leg);
                // Made a chain of polygons sharing edges here, once, so that a query only joins
                // strips.
                segment_channel(mesh, (vs[c], vs[d]), leg, buffers);
                buffers.copy()
            })
            .collect::<Vec<Vec<PolyId>>>();
        let bytes: usize = strips.iter().map(|s| s.len() * 4).sum();
        made.fetch_add(bytes, Ordering::Relaxed);
        strips
    };
    let n = mesh.vertex_count();
    #[cfg(feature = "parallel")]
    let rows: Vec<Vec<Vec<PolyId>>> = {
        use rayon::prelude::*;
        (0..n)
            .into_par_iter()
            .map_init(Default::default, |scratch, c| row(c, scratch))
            .collect()
    };
    #[cfg(not(feature = "parallel"))]
    let rows: Vec<Vec<Vec<PolyId>>> = {
        let mut scratch = Default::default();
        (0..n).map(|c| row(c, &mut scratch)).collect()
    };
    if full() {
        return None;
    }
    let mut at = Vec::with_capacity(graph.targets.len() + 1);
    let mut strips = Vec::new();
    for strip in rows.into_iter().flatten() {
        at.push(strips.len() as u32);
        strips.extend(strip);
    }
    at.push(strips.len() as u32);
    Some((at, strips))
}

/// Reusable scratch of [`CornerGraph::view_query`].
#[derive(Clone, Debug, Default)]
pub(crate) struct ViewScratch {
    generation: u32,
    /// Per vertex: stamped when the goal sees it as a corner this query.
    goal_stamp: Vec<u32>,
    /// Per vertex: stamped when the start's side took it.
    start_stamp: Vec<u32>,
    /// Per hub: `T[h]`, infinite outside a query (each query lowers it along the labels of
    /// one side's corners, and raises it back along the same labels).
    table: Vec<f64>,
    /// The corners the goal sees tautly, and those the start sees, as (straight-line bound of
    /// a path through it, distance to the endpoint, corner).
    sides: [Vec<(f64, f64, u32)>; 2],
    /// The path being read back: corners to the hub, corners from the goal's side to the hub,
    /// and the points with their corners.
    way: Vec<u32>,
    back: Vec<u32>,
    stops: Vec<(Vec2, u32)>,
    /// The path's channel as it is built.
    channel: ChannelBuffers,
}

impl ViewScratch {
    fn reset(&mut self, vertices: usize, hubs: usize) {
        if self.goal_stamp.len() < vertices {
            self.goal_stamp.resize(vertices, 0);
            self.start_stamp.resize(vertices, 0);
        }
        if self.table.len() < hubs {
            self.table.resize(hubs, f64::INFINITY);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.goal_stamp.iter_mut().for_each(|s| *s = 0);
            self.start_stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
    }
}

/// What [`CornerGraph::view_query`] found.
pub(crate) enum ViewAnswer {
    /// A shortest path.
    Path(Path),
    /// No answer from the views: the caller searches (unreachable goals, and bends the graph
    /// does not have).
    Search,
}

impl CornerGraph {
    /// A shortest path from `s` (located at `sloc`) to `t` (at `tloc`, another polygon, out of
    /// sight of `s`: the caller has found the segment blocked, `polyanya/sight.rs`) from the
    /// views and hub labels alone; see the [module docs](self); its channel only when
    /// `with_channel` (step 5, about a sixth of the query). [`ViewAnswer::Search`] when the
    /// graph has no views or labels, or they give no answer.
    pub(crate) fn view_query(
        &self,
        mesh: &NavMesh,
        scratch: &mut ViewScratch,
        (s, sloc): (Vec2, Location),
        (t, tloc): (Vec2, Location),
        with_channel: bool,
    ) -> ViewAnswer {
        let (Some(views), Some(labels)) = (self.views.as_ref(), self.labels.as_ref()) else {
            return ViewAnswer::Search;
        };
        scratch.reset(mesh.vertex_count(), labels.hub_count());
        let gen = scratch.generation;
        // The side lists' orientation tests, filtered with one bound for the whole mesh (every
        // point they take is a vertex or an endpoint on the mesh).
        let bound = static_orient_bound(mesh.bounds());
        // 2. The corners each side sees, tautly: (straight-line bound of a path through it,
        // distance to its endpoint, corner).
        let mut sides = std::mem::take(&mut scratch.sides);
        for (side, (x, xloc), stamp) in [
            (0, (t, tloc), &mut scratch.goal_stamp),
            (1, (s, sloc), &mut scratch.start_stamp),
        ] {
            let other = if side == 0 { s } else { t };
            let list = &mut sides[side];
            list.clear();
            // A point inside one polygon sees each of its corners once: no stamps.
            let single = matches!(xloc, Location::InPolygon(_));
            for_each_polygon(mesh, xloc, |p| {
                // (One stamp per corner where the endpoint is in several polygons.)
                let mut stamps = (!single).then_some((&mut stamp[..], gen));
                let at = (x, bound);
                let entries = views.entries(p);
                // The cell's entries where there are cells, those surely taken with no test;
                // otherwise all of the polygon's, tested.
                let Some((sure, tested)) = views.cells.lists(p, x) else {
                    return self.take_tested(mesh, views, at, entries, stamps, list);
                };
                let first = entries.start;
                for &e in sure {
                    let c = views.corner[first + usize::from(e)];
                    if let Some((stamp, gen)) = &mut stamps {
                        if stamp[c as usize] == *gen {
                            continue;
                        }
                        stamp[c as usize] = *gen;
                    }
                    list.push((0.0, 0.0, c));
                }
                let tested = tested.iter().map(|&e| first + usize::from(e));
                self.take_tested(mesh, views, at, tested, stamps, list);
            });
            // The distances of the corners taken only (two square roots each).
            for item in list.iter_mut() {
                let v = mesh.vertices()[item.2 as usize];
                let d = dist(x, v);
                *item = (d + dist(v, other), d, item.2);
            }
        }
        let seen = sides[0].len() + sides[1].len();
        // 3. An upper bound first, from the most promising corners of each side (least
        // straight-line bound) joined label to label: a corner whose bound exceeds it is on no
        // shortest path, and is dropped from both sides.
        let ub = upper_bound(labels, &sides, &mut scratch.table);
        if ub < f64::INFINITY {
            let keep = ub * (1.0 + 1e-12);
            sides[0].retain(|x| x.0 <= keep);
            sides[1].retain(|x| x.0 <= keep);
        }
        // 4. The side whose labels are fewer fills the table; the other side's corners are
        // joined to it, each whose straight-line bound can still win. (In the order they
        // come: sorted by bound first, the join stopped early for 4% of them on lak303d, and
        // the sort cost more than that: without it a view query takes 0.9x the time.)
        let size = |list: &[(f64, f64, u32)]| list.iter().map(|x| labels.len(x.2)).sum::<usize>();
        let (s0, s1) = (size(&sides[0]), size(&sides[1]));
        let fill = usize::from(s1 < s0);
        for &(_, d, c) in &sides[fill] {
            labels.lower(c, d, &mut scratch.table);
        }
        let (mut best, mut joined) = (f64::INFINITY, NONE);
        for &(bound, d, c) in &sides[1 - fill] {
            if bound >= best {
                continue;
            }
            let via = d + labels.join(c, &scratch.table);
            if via < best {
                (best, joined) = (via, c);
            }
        }
        // 5. The hub that joins the best corner to the other side, and the first corner of
        // that side to give the hub its table entry (the same sums, so exactly equal).
        let hub = (joined != NONE)
            .then(|| labels.join_arg(joined, &scratch.table).1)
            .flatten();
        let filled = hub.and_then(|h| {
            let want = scratch.table[h as usize];
            sides[fill]
                .iter()
                .find(|x| {
                    labels
                        .distance_to_hub(x.2, h)
                        .is_some_and(|dh| x.1 + dh == want)
                })
                .map(|x| x.2)
        });
        // The table back to infinity: along the same labels, or whole where they hold more
        // than an eighth of its size (a fill writes a row at a time, the labels one scattered
        // hub at a time).
        let hubs = labels.hub_count();
        if [s0, s1][fill] * 8 >= hubs {
            scratch.table[..hubs].fill(f64::INFINITY);
        } else {
            for &(_, _, c) in &sides[fill] {
                labels.clear(c, &mut scratch.table);
            }
        }
        scratch.sides = sides;
        // The path: the labels' next hops from the joined corner to the hub, and from the
        // corner that filled the hub's entry to the same hub.
        let (Some(h), Some(filled)) = (hub, filled) else {
            return ViewAnswer::Search;
        };
        // `first` is the start's corner, `b` the goal's.
        let (first, b) = if fill == 0 {
            (joined, filled)
        } else {
            (filled, joined)
        };
        let (way, back) = (&mut scratch.way, &mut scratch.back);
        way.clear();
        back.clear();
        way.push(first);
        back.push(b);
        // Labels whose next hops or lengths do not add up (a loaded index is checked for ids
        // and ranges, not for that) fall back to the swept search, never to a panic.
        if !labels.way_to_hub(first, h, way) || !labels.way_to_hub(b, h, back) {
            return ViewAnswer::Search;
        }
        back.pop(); // the hub, already the last of `way`
                    // The stops: points, with their corner where they are one.
        let stops = &mut scratch.stops;
        stops.clear();
        stops.push((s, NONE));
        stops.extend(
            way.iter()
                .chain(back.iter().rev())
                .map(|&v| (mesh.vertices()[v as usize], v)),
        );
        stops.push((t, NONE));
        stops.dedup_by_key(|x| x.0);
        let channel = with_channel.then_some(&mut scratch.channel);
        let mut path = self.view_path(mesh, views, stops, (sloc, tloc), channel);
        path.expanded = seen;
        // The labels' distance is the path's length; anything else (a bug, or a loaded index
        // whose labels do not add up) is searched around.
        if (path.length - best).abs() <= 1e-9 * best.max(1.0) {
            ViewAnswer::Path(path)
        } else {
            ViewAnswer::Search
        }
    }

    /// Appends to `list` the corners of the entries in `tested` that `x` takes (the distances
    /// left for the caller; `bound` is [`quick_take`](Self::quick_take)'s), with `stamps`
    /// (stamp array, generation) skipping the corners already stamped and stamping those taken.
    /// Every entry is written at the list's end, which moves on only past those taken: no
    /// branch on a test whose outcome is as good as random. Inlined into each of its two
    /// callers (all of a polygon's entries, or a cell's), so each loop is as tight as one.
    #[inline(always)]
    fn take_tested(
        &self,
        mesh: &NavMesh,
        views: &Views,
        (x, bound): (Vec2, f64),
        tested: impl ExactSizeIterator<Item = usize>,
        mut stamps: Option<(&mut [u32], u32)>,
        list: &mut Vec<(f64, f64, u32)>,
    ) {
        let mut len = list.len();
        list.resize(len + tested.len(), (0.0, 0.0, NONE));
        for e in tested {
            let c = views.corner[e];
            if let Some((stamp, gen)) = &stamps {
                if stamp[c as usize] == *gen {
                    continue;
                }
            }
            let taken = match self.quick_take(mesh, views, e, x, bound) {
                Some(taken) => taken,
                None => self.taut_from(mesh, x, c) && views.sees(mesh, e, x),
            };
            if let (true, Some((stamp, gen))) = (taken, &mut stamps) {
                stamp[c as usize] = *gen;
            }
            list[len].2 = c;
            len += usize::from(taken);
        }
        list.truncate(len);
    }

    /// Whether a query from `x` takes view entry `e` ([`taut_from`](CornerGraph::taut_from)
    /// its corner, and [`sees`](Views::sees) it), decided by the plain `f64` determinants of
    /// those tests where each is clear of its rounding error, with their signs combined as
    /// bits rather than tested one by one (the signs are as good as random, and a branch per
    /// test mispredicts about half the time: most of what the side lists cost); `None` when
    /// one is not clear, for the exact predicates to decide.
    #[inline(always)]
    fn quick_take(
        &self,
        mesh: &NavMesh,
        views: &Views,
        e: usize,
        x: Vec2,
        bound: f64,
    ) -> Option<bool> {
        let c = views.corner[e] as usize;
        let [u, w] = self.turns[c];
        if u == NONE {
            // Not a corner: taut from nowhere (`taut_from`).
            return Some(false);
        }
        let vs = mesh.vertices();
        let cv = vs[c];
        // Taut: both walls on one side of the line x → c (the `orient(x, c, wall)` signs).
        let (a, clear_a) = orient_static(x, cv, vs[u as usize], bound);
        let (b, clear_b) = orient_static(x, cv, vs[w as usize], bound);
        // (A clear 0 is an exact one, on the line: taut, and inside a cone's closed sides.)
        let taut = (a == 0.0) | (b == 0.0) | ((a > 0.0) == (b > 0.0));
        let mut clear = clear_a & clear_b;
        // Seen: inside one of the cones (`orient(c, right, x)` not clockwise, `orient(c, left,
        // x)` not counterclockwise), or no cones (the whole polygon is seen).
        let cones = &views.cones[views.cone_at[e] as usize..views.cone_at[e + 1] as usize];
        let mut seen = cones.is_empty();
        for &[r, l] in cones {
            let (dr, clear_r) = orient_static(cv, vs[r as usize], x, bound);
            let (dl, clear_l) = orient_static(cv, vs[l as usize], x, bound);
            seen |= (dr >= 0.0) & (dl <= 0.0);
            clear &= clear_r & clear_l;
        }
        clear.then_some(taut & seen)
    }

    /// The path through `stops` (points, with their corner or `NONE`; the first is the start,
    /// located at `sloc`); its channel from the views' edge strips where a leg is a graph edge,
    /// and from raycasts elsewhere (from a located start: the start's location, or a corner's
    /// vertex), built in `buffers`; no channel without them. Its `expanded` is 0 (the caller
    /// sets what it counts).
    fn view_path(
        &self,
        mesh: &NavMesh,
        views: &Views,
        stops: &[(Vec2, u32)],
        (sloc, tloc): (Location, Location),
        buffers: Option<&mut ChannelBuffers>,
    ) -> Path {
        let points: Vec<Vec2> = stops.iter().map(|x| x.0).collect();
        let Some(buffers) = buffers else {
            return Path::proved(points, Vec::new());
        };
        let fans = &views.fans;
        let legs = |i: usize, from: Vec2, to: Vec2, leg: &mut Vec<PolyId>| {
            let (a, b) = (stops[i].1, stops[i + 1].1);
            if a != NONE && b != NONE {
                if let Some(e) = self.edge_index(a, b) {
                    let strip = views.strip(e);
                    if !strip.is_empty() {
                        leg.extend_from_slice(strip);
                        return true;
                    }
                }
            }
            // The first leg, from the start to a corner, and the last, from a corner to the
            // goal: the chain the corner's sweep took to the endpoint's polygon, which the
            // views keep (no raycast, and a chain: no test between its polygons).
            if i == 0 && b != NONE && views.chain_into(mesh, (from, sloc), b, leg) {
                return true;
            }
            if i + 2 == stops.len() && a != NONE {
                if views.chain_into(mesh, (to, tloc), a, leg) {
                    leg.reverse();
                    return true;
                }
                // Cast from the located goal back to the corner (no search for the corner's
                // polygon facing the goal), reversed.
                let _ = raycast_located(mesh, to, tloc, from, leg);
                leg.reverse();
                return false;
            }
            let loc = if a != NONE {
                at_vertex(mesh, a)
            } else if i == 0 {
                sloc
            } else {
                mesh.locate(from)
            };
            let _ = raycast_located(mesh, from, loc, to, leg);
            false
        };
        // At a bend the polygons between the legs are a run of its corner's fan.
        channel_through(mesh, &points, buffers, legs, |i| match stops[i].1 {
            NONE => &[],
            c => fans.fan(c),
        });
        Path::proved(points, buffers.copy())
    }
}

/// How many of each side's most promising corners [`upper_bound`] pairs.
/// One: a second pair (four joins instead of one) bought a tighter bound that saved less
/// than it cost on lak303d, den011d and brc202d (2–3%), and nothing measurable on
/// scene_mp_2p_01; three cost more still (BENCHMARKS.md, "Fast search").
const UB_PAIRS: usize = 1;

/// The length of a real path from the start to the goal, short when the straight line is a
/// good guide: the least `|s a| + d(a, b) + |b t|` over the [`UB_PAIRS`] corners `a` and `b` of
/// each side with the least straight-line bound. Each `d(a, b)` is read through `table` (all
/// infinite, and left so): `a`'s label spread over it by hub, then `b`'s joined to it, which
/// costs no branch per entry where a merge of the two sorted labels branches on every step.
fn upper_bound(labels: &HubLabels, sides: &[Vec<(f64, f64, u32)>; 2], table: &mut [f64]) -> f64 {
    let best = |list: &[(f64, f64, u32)]| {
        let mut top = [(f64::INFINITY, 0.0, NONE); UB_PAIRS];
        for &x in list {
            if x.0 < top[UB_PAIRS - 1].0 {
                // Insertion into the few kept, least first (bounds are numbers: no NaN).
                let mut i = UB_PAIRS - 1;
                top[i] = x;
                while i > 0 && top[i].0 < top[i - 1].0 {
                    top.swap(i, i - 1);
                    i -= 1;
                }
            }
        }
        top
    };
    let (goal, start) = (best(&sides[0]), best(&sides[1]));
    let mut ub = f64::INFINITY;
    for a in start.iter().filter(|x| x.2 != NONE) {
        labels.lower(a.2, 0.0, table);
        for b in goal.iter().filter(|x| x.2 != NONE) {
            ub = ub.min(a.1 + labels.join(b.2, table) + b.1);
        }
        labels.clear(a.2, table);
    }
    ub
}

/// How the corner search uses a graph's views, fitted once per graph by [`fit`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct ViewChoice {
    /// Queries whose endpoints are less than this apart (straight line) try the plain exact
    /// search first, for at most [`ViewChoice::budget`] nodes: short queries, where the plain
    /// search ends in a few nodes while the views would still read every corner the endpoints
    /// see. 0 on maps where the views win at every sampled distance; infinite where the plain
    /// try wins at every one (the views then answer only past the budget).
    pub(crate) plain_below: f64,
    /// The nodes the plain search is given first: as many as it expands, on average, in the time
    /// of an average view query (at least 16), so a plain try that fails at most doubles a
    /// query's cost.
    pub(crate) budget: usize,
}

impl ViewChoice {
    /// Views for every query, no plain try.
    pub(crate) const ALWAYS: ViewChoice = ViewChoice {
        plain_below: 0.0,
        budget: 0,
    };
}

/// The distance below which a query tries the plain search first, fitted on `samples` (per
/// reachable sample query: distance, plain nodes, plain ns, views ns; sorted here by distance),
/// with the plain search given `budget` nodes first and costing `per_query + per_node × nodes`;
/// and the sample's total time with it.
///
/// The threshold is the one whose times have the least *geometric* mean: each query counts by
/// its time relative to its other way, not by its time. The sample's long random pairs, whose
/// times (tens to hundreds of µs on AcrosstheCape) swamp the short queries' few µs in a sum,
/// left the total a margin of about 1% between a threshold and none there, which a build's
/// timing noise decided: over builds, by the total, 0 to 184 on the sample of 128 and 46.0 or
/// 0 on the sample of 256; by the geometric mean, 46.0 or 113.9 (on a map whose short queries
/// are about as fast either way, lak303d or brc202d, both criteria's thresholds move from build
/// to build, and the queries' times do not). No threshold fitted on a sample suits every
/// distribution of queries: AcrosstheCape's published scenario, 94 of whose 201 queries are
/// 120–184 apart and easier for the plain search than the sample's queries of those lengths,
/// runs 1.4× faster at 184 than at 113.9 (BENCHMARKS.md, "Session 18").
fn threshold(
    samples: &mut [(f64, usize, f64, f64)],
    budget: usize,
    (per_query, per_node): (f64, f64),
) -> (f64, f64) {
    // Plain first below the threshold: the plain time where it ends within the budget, else
    // the budget's worth of plain search wasted and the views after it.
    let tried = |x: &(f64, usize, f64, f64)| {
        if x.1 <= budget {
            x.2
        } else {
            per_query + per_node * budget as f64 + x.3
        }
    };
    // Times are at least a nanosecond: a logarithm is finite.
    let ln = |ns: f64| ns.max(1.0).ln();
    samples.sort_unstable_by(|p, q| p.0.total_cmp(&q.0));
    let all_views: f64 = samples.iter().map(|x| x.3).sum();
    // Per threshold: the sum of log times against views everywhere, and the total time.
    let (mut least, mut plain_below, mut best) = (0.0, 0.0, all_views);
    let (mut logs, mut total) = (0.0, all_views);
    for (k, x) in samples.iter().enumerate() {
        logs += ln(tried(x)) - ln(x.3);
        total += tried(x) - x.3;
        // Below the next sample's distance (ties are decided together).
        let below = samples.get(k + 1).map_or(f64::INFINITY, |y| y.0);
        if below > x.0 && logs < least {
            (least, plain_below, best) = (logs, below, total);
        }
    }
    (plain_below, best)
}

/// How the corner search should use `graph`'s views on `mesh`: `None` when the views, used
/// at their best threshold, do not save a tenth of the plain exact search's time on the
/// build's fixed sample of queries ([`sample_pairs`], [`pays`]); otherwise the distance below
/// which a query tries the plain search first, chosen by the least geometric mean of the
/// sample's times ([`threshold`]; the views are kept when the sample's total time at that
/// threshold saves the tenth).
/// Each sample query is timed both ways by [`least_times`], on the machine that builds the
/// graph (the `sample` module says why by time and not by a model).
pub(crate) fn fit(
    mesh: &NavMesh,
    graph: &CornerGraph,
    cancel: &CancelToken,
) -> Result<Option<ViewChoice>, BuildError> {
    let pairs = sample_pairs(mesh);
    if pairs.is_empty() {
        return Ok(Some(ViewChoice::ALWAYS));
    }
    let mut plain = crate::search::polyanya::ExactSearch::new();
    let mut scratch = ViewScratch::default();
    let mut leg = Vec::new();
    let options = crate::search::SearchOptions::exact();
    let ends = |i: usize| (mesh.centroid(pairs[i].0), mesh.centroid(pairs[i].1));
    // Per query (the same every round): the plain search's nodes (none where the goal is
    // unreachable), and whether the views answered.
    let nodes = vec![std::cell::Cell::new(None); pairs.len()];
    let answered = vec![std::cell::Cell::new(true); pairs.len()];
    let least = least_times(
        pairs.len(),
        cancel,
        [
            &mut |i| {
                let (s, t) = ends(i);
                nodes[i].set(
                    plain
                        .find_path(mesh, s, t, &options)
                        .ok()
                        .map(|p| p.expanded),
                );
            },
            // (Unreachable, or answered without a node, as a corner query answers it too before
            // its views (one polygon, a forced channel, the goal in sight): no view query.)
            &mut |i| {
                if nodes[i].get().is_some_and(|n| n > 0) {
                    let (s, t) = ends(i);
                    // What a corner query does before its views, as the plain way's time
                    // includes it: locate both ends, and find the goal out of sight.
                    let (sl, tl) = (mesh.locate(s), mesh.locate(t));
                    let _ = raycast_located(mesh, s, sl, t, &mut leg);
                    let answer = graph.view_query(mesh, &mut scratch, (s, sl), (t, tl), true);
                    answered[i].set(matches!(answer, ViewAnswer::Path(_)));
                }
            },
        ],
    )?;
    // Per reachable query: (distance, plain nodes, plain ns, views ns); the views' time is the
    // plain one for a query answered without a node (a corner query answers it the same way
    // before reaching its views), and has the plain search's added where they gave no answer
    // (the sweeps then run).
    let mut samples: Vec<(f64, usize, f64, f64)> = (0..pairs.len())
        .filter_map(|i| {
            let [plain_ns, views_ns] = least[i];
            let views_ns = if nodes[i].get() == Some(0) {
                plain_ns
            } else if answered[i].get() {
                views_ns
            } else {
                views_ns + plain_ns
            };
            let (s, t) = ends(i);
            Some((dist(s, t), nodes[i].get()?, plain_ns, views_ns))
        })
        .collect();
    if samples.is_empty() {
        return Ok(Some(ViewChoice::ALWAYS));
    }
    // The plain search's time per node and per query: least squares over the sample.
    let k = samples.len() as f64;
    let (mx, my) = (
        samples.iter().map(|x| x.1 as f64).sum::<f64>() / k,
        samples.iter().map(|x| x.2).sum::<f64>() / k,
    );
    let (sxy, sxx) = samples.iter().fold((0.0, 0.0), |(sxy, sxx), x| {
        let dx = x.1 as f64 - mx;
        (sxy + dx * (x.2 - my), sxx + dx * dx)
    });
    let per_node = if sxx > 0.0 {
        (sxy / sxx).max(1.0)
    } else {
        my.max(1.0)
    };
    let per_query = (my - per_node * mx).max(0.0);
    let all_plain: f64 = samples.iter().map(|x| x.2).sum();
    let all_views: f64 = samples.iter().map(|x| x.3).sum();
    let budget = ((all_views / k / per_node) as usize).max(16);
    let (plain_below, best) = threshold(&mut samples, budget, (per_query, per_node));
    // Kept where they save a tenth of the sample's time or more (`sample::pays`).
    Ok(pays(all_plain, best).then_some(ViewChoice {
        plain_below,
        budget,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{build, BuildOptions, Scene};

    /// The threshold goes by the queries' times relative to their other way: many short
    /// queries twice as fast plain outweigh a few long ones a tenth slower, which a total would
    /// not (it would stop below those); a map whose queries are all faster with views gets
    /// none; queries at one distance are decided together.
    #[test]
    fn the_threshold_weighs_each_query_by_its_relative_time() {
        // (distance, plain nodes, plain ns, views ns); every plain search within the budget.
        let short = |d: f64| (d, 5, 500.0, 1000.0);
        let mut samples: Vec<_> = (1..=10).map(|d| short(f64::from(d))).collect();
        samples.extend((0..3).map(|k| (50.0 + f64::from(k), 5, 1.0e6, 0.9e6)));
        samples.extend((60..70).map(|d| short(f64::from(d))));
        samples.push((500.0, 5_000, 1.0e6, 1.0e5));
        let model = (100.0, 10.0);
        let (below, total) = threshold(&mut samples.clone(), 100, model);
        assert_eq!(below, 500.0);
        // The time with it: plain below 500, views for the last.
        let expected: f64 = samples
            .iter()
            .map(|x| if x.0 < 500.0 { x.2 } else { x.3 })
            .sum();
        assert_eq!(total, expected);
        // The totals alone would have stopped below the three long ones.
        let total_at = |t: f64| {
            samples
                .iter()
                .map(|x| if x.0 < t { x.2 } else { x.3 })
                .sum::<f64>()
        };
        assert!(total_at(11.0) < total_at(500.0));
        // Views faster everywhere: no threshold.
        let mut faster: Vec<_> = (1..20).map(|d| (f64::from(d), 5, 900.0, 600.0)).collect();
        assert_eq!(threshold(&mut faster, 100, model).0, 0.0);
        // Two queries at one distance, decided together: the first of the pair alone would
        // make "below 2" look best (it counts one query of the pair without the other), but a
        // threshold cannot part them, and together they make "past both" the best.
        let mut tied = vec![
            (1.0, 5, 2000.0, 1000.0),
            (2.0, 5, 100.0, 1000.0),
            (2.0, 5, 1500.0, 1000.0),
        ];
        assert_eq!(threshold(&mut tied, 100, model).0, f64::INFINITY);
        // A plain try past its budget costs the budget's worth and then the views.
        let mut over = vec![(1.0, 1_000, 500.0, 1000.0)];
        assert_eq!(threshold(&mut over, 100, model), (0.0, 1000.0));
    }

    /// The meshes the views' tests run on: the default map and den011d, built with CDT + merge.
    fn test_meshes() -> [NavMesh; 2] {
        let grid = crate::testkit::data_map("movingai/dao/den011d.map").to_scene();
        [Scene::default_map(), grid].map(|s| build(&s, &BuildOptions::cdt()).expect("builds"))
    }

    /// Polygon `p`'s vertices.
    fn ring(mesh: &NavMesh, p: PolyId) -> Vec<Vec2> {
        mesh.polygon_vertices(p)
            .iter()
            .map(|&v| mesh.vertex(v))
            .collect()
    }

    /// A random point of the convex polygon `ring`: a convex combination of its vertices with
    /// weights bounded away from zero.
    fn random_inside(ring: &[Vec2], rng: &mut crate::random::Rng) -> Vec2 {
        let w: Vec<f64> = ring.iter().map(|_| rng.next_f64() + 1e-3).collect();
        let sum: f64 = w.iter().sum();
        let mut q = Vec2::new(0.0, 0.0);
        for (x, wi) in ring.iter().zip(&w) {
            q += *x * (wi / sum);
        }
        q
    }

    /// `quick_take` decides exactly as the exact predicates do, or leaves it to them: at
    /// random points inside polygons, at their vertices, and on the lines the tests use (the
    /// corner's own position, its walls' ends, its cones' vertices), where a determinant is
    /// zero: decided where each of its products has a zero factor (a grid's lines along an
    /// axis), left to the exact predicates elsewhere.
    #[test]
    fn quick_take_agrees_with_the_exact_tests_or_abstains() {
        let mut rng = crate::random::Rng::new(11);
        let (mut decided, mut abstained, mut taken) = (0usize, 0usize, 0usize);
        for mesh in test_meshes() {
            let graph = CornerGraph::build_with_views(&mesh);
            let views = graph.views.as_ref().expect("views");
            let vs = mesh.vertices();
            let bound = static_orient_bound(mesh.bounds());
            for p in mesh.polygons() {
                let ring = ring(&mesh, p);
                for e in views.entries(p) {
                    let c = views.corner[e];
                    let mut points = ring.clone();
                    for _ in 0..4 {
                        points.push(random_inside(&ring, &mut rng));
                    }
                    // On the tests' lines: through the corner and a wall's end or cone vertex.
                    let cv = vs[c as usize];
                    let [u, w] = graph.turns[c as usize];
                    let cones =
                        &views.cones[views.cone_at[e] as usize..views.cone_at[e + 1] as usize];
                    for &other in [u, w].iter().chain(cones.as_flattened()) {
                        let o = vs[other as usize];
                        points.push(cv + (o - cv) * 2.0);
                        // Within rounding of the line: the filter must abstain or be right.
                        points.push(cv + (o - cv) * (0.3 + 3.0 * rng.next_f64()));
                        points.push(o);
                    }
                    points.push(cv);
                    for x in points {
                        let exact = graph.taut_from(&mesh, x, c) && views.sees(&mesh, e, x);
                        match graph.quick_take(&mesh, views, e, x, bound) {
                            Some(q) => {
                                assert_eq!(q, exact, "entry {e} of {p:?}, corner {c}, point {x:?}");
                                decided += 1;
                                taken += usize::from(q);
                            }
                            None => abstained += 1,
                        }
                    }
                }
            }
        }
        assert!(
            decided > 10_000 && taken > 1_000 && decided - taken > 1_000,
            "{decided} {taken}"
        );
        assert!(
            abstained > 100,
            "the degenerate points reach the exact tests: {abstained}"
        );
    }

    /// The chain a view entry gives a point that sees its corner is the channel of the segment
    /// between them: it starts in a polygon holding the point, ends in one around the corner,
    /// each polygon shares an edge with the next, and the segment's line meets every shared
    /// edge (exact tests). Points: random inside each polygon, and its vertices.
    #[test]
    fn chains_are_the_channels_of_the_segments_to_the_corners() {
        let mut rng = crate::random::Rng::new(5);
        let (mut chained, mut whole) = (0usize, 0usize);
        let mut leg = Vec::new();
        for mesh in test_meshes() {
            let graph = CornerGraph::build_with_views(&mesh);
            let views = graph.views.as_ref().expect("views");
            let vs = mesh.vertices();
            for p in mesh.polygons() {
                let ring = ring(&mesh, p);
                for e in views.entries(p) {
                    let c = views.corner[e];
                    let cv = vs[c as usize];
                    let mut points = ring.clone();
                    for _ in 0..3 {
                        points.push(random_inside(&ring, &mut rng));
                    }
                    for x in points {
                        if x == cv || !views.sees(&mesh, e, x) {
                            continue;
                        }
                        let xloc = mesh.locate(x);
                        leg.clear();
                        assert!(
                            views.chain_into(&mesh, (x, xloc), c, &mut leg),
                            "{p:?} sees corner {c} from {x:?}, but no chain"
                        );
                        let what = format!("{p:?}, corner {c}, point {x:?}: {leg:?}");
                        assert!(
                            mesh.locate_in(leg[0], x).is_some(),
                            "{what}: starts elsewhere"
                        );
                        let last = mesh.polygon_vertices(*leg.last().unwrap());
                        assert!(last.contains(&VertexId(c)), "{what}: ends off the corner");
                        for w in leg.windows(2) {
                            let k = mesh.shared_edge(w[0], w[1]);
                            let Some(k) = k else {
                                panic!("{what}: {:?} and {:?} share no edge", w[0], w[1]);
                            };
                            let (a, b) = mesh.edge(w[0], k);
                            let sides = [orient(x, cv, a), orient(x, cv, b)];
                            assert!(
                                sides[0] != sides[1] || sides[0] == Orientation::Collinear,
                                "{what}: the segment misses the edge between {:?} and {:?}",
                                w[0],
                                w[1]
                            );
                        }
                        if leg.len() == 1 {
                            whole += 1;
                        } else {
                            chained += 1;
                        }
                    }
                }
            }
        }
        assert!(chained > 10_000 && whole > 1_000, "{chained} {whole}");
    }
}
