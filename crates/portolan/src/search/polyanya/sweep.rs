//! Sweeps and the corner search ([`CornerGraph`], [`SearchMethod::Corner`]).
//!
//! A *sweep* is this search started at a point and restricted to nodes rooted there: it covers
//! everything the point sees. Where Polyanya would turn at a corner (a non-observable successor,
//! or a walk along a wall to a corner), the sweep does not make the successor; in
//! [`Sweep::Collect`] mode it records the corner and its distance (building the graph, and the
//! goal's side of a query), in [`Sweep::Corners`] mode it makes a corner-graph node instead,
//! which the A* loop expands along the graph's edges.
//!
//! [`SearchMethod::Corner`]: crate::search::SearchMethod::Corner

use super::*;
use crate::search::corner_graph::{HubLabels, LEFT, RIGHT};

impl ExactSearch {
    fn grow_sweep_buffers(&mut self, mesh: &NavMesh) {
        let nv = mesh.vertex_count();
        if self.seen_stamp.len() < nv {
            self.seen_stamp.resize(nv, 0);
            self.seen_g.resize(nv, 0.0);
            self.corner_stamp.resize(nv, 0);
            self.corner_g.resize(nv, 0.0);
            self.corner_h.resize(nv, f64::NAN);
            self.corner_node.resize(nv, NONE);
        }
    }

    /// A sweep from corner `c` into its reflex wedge (the wedge of polygon `wedge`; every wedge
    /// when `wedge` is `None`): every node rooted at `c`, which is everything `c` sees. Read
    /// what it found with [`swept_corners`](Self::swept_corners) and
    /// [`swept_cones`](Self::swept_cones), before the next search. Returns the nodes it expanded.
    pub(crate) fn corner_sweep(
        &mut self,
        mesh: &NavMesh,
        c: VertexId,
        wedge: Option<PolyId>,
    ) -> usize {
        self.reset(mesh);
        self.grow_sweep_buffers(mesh);
        let x = mesh.vertex(c);
        let q = Query::from_point(mesh, x);
        self.sweep = Sweep::Collect;
        self.seen.clear();
        let pinch = mesh.is_pinch(c);
        for &p in mesh.vertex_polygons(c) {
            if !pinch || wedge.is_none_or(|w| mesh.same_wedge(c, p, w)) {
                self.expand_point::<false>(mesh, &q, NONE, START, 0.0, Location::InPolygon(p));
            }
        }
        self.queue_all_successors();
        let mut expanded = 0;
        self.run(mesh, &q, &mut expanded, None);
        self.sweep = Sweep::Off;
        expanded
    }

    /// The last [`corner_sweep`](Self::corner_sweep)'s corners past which the free space goes
    /// on out of the swept corner's sight, with their distances, appended to `out`, unfiltered
    /// (the graph keeps the taut ones). Each distance is `dist(c, d)` from the swept corner `c`
    /// to the bit (every node of the sweep is rooted at `c`, with `g = 0`), which the corner
    /// graph relies on to keep no lengths (`corner_graph::sweep_tests` checks it).
    pub(crate) fn swept_corners(&self, out: &mut Vec<(u32, f64)>) {
        out.extend(self.seen.iter().map(|&v| (v, self.seen_g[v as usize])));
    }

    /// What the swept corner `c` of the last [`corner_sweep`](Self::corner_sweep) sees of each
    /// polygon the sweep entered, appended: to `cones`, per node, the polygon and its cone's
    /// sides as the far vertices of the lines from `c` (right, left), or `[u32::MAX; 2]` for a
    /// polygon `c` is a vertex of (it sees all of it); to `parents`, one per cone, the index in
    /// `cones` of the cone of the node's parent (`u32::MAX` for none): read back from a node,
    /// the polygons a segment from `c` to a point of its polygon in its cone crosses.
    pub(crate) fn swept_cones(&mut self, cones: &mut Vec<(u32, [u32; 2])>, parents: &mut Vec<u32>) {
        // Every node of the sweep is rooted at `c` (turns are emitted, not made), so its cone
        // is what `c` sees of its polygon: the lines are `[START, v]`, from `c` through `v`.
        // Per node, the index of its cone (nodes come after their parents).
        let cone_of = &mut self.cone_of;
        cone_of.clear();
        cone_of.resize(self.nodes.len(), NONE);
        for (i, n) in self.nodes.iter().enumerate() {
            let cone = if n.entry == ORIGIN {
                [NONE, NONE]
            } else if n.entry < SPECIAL && n.right_line[0] == START && n.left_line[0] == START {
                debug_assert_eq!(n.root, START);
                [n.right_line[1], n.left_line[1]]
            } else {
                debug_assert!(n.entry >= SPECIAL, "a sweep node not rooted at the corner");
                continue;
            };
            cone_of[i] = cones.len() as u32;
            parents.push(cone_of.get(n.parent as usize).copied().unwrap_or(NONE));
            cones.push((n.poly, cone));
        }
    }

    /// Queues every node of `succ` (a sweep's start: order does not matter, `h` is 0).
    fn queue_all_successors(&mut self) {
        for &id in &self.succ {
            let g = self.nodes[id as usize].g;
            self.heap.push(Open::new(g, g, id));
        }
        self.succ.clear();
    }

    /// A corner query's goal side: queues the nodes of a sweep from the goal (located at
    /// `tloc`), which runs in the same A* as the start's side, ordered by the same kind of
    /// lower bound on a whole path (its interval heuristic toward the start).
    pub(super) fn start_goal_sweep(&mut self, mesh: &NavMesh, q: &Query, tloc: Location) {
        self.grow_sweep_buffers(mesh);
        self.seen.clear();
        self.push_point_nodes::<false>(mesh, q, GOAL, tloc);
    }

    /// In a sweep, a successor whose edge lies on a line through the root (Polyanya walks along
    /// it to a corner and turns there): the corner is emitted, whether or not the edge is a wall,
    /// and no node is made. Returns `true` when the successor is dealt with. (Turns at an
    /// interval's end are emitted by `expand`, which makes no successor for them in a sweep.)
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn sweep_turn(
        &mut self,
        mesh: &NavMesh,
        q: &Query,
        parent: u32,
        poly: PolyId,
        slot: usize,
        root: u32,
        g: f64,
        right: End,
        left: End,
    ) -> bool {
        debug_assert_eq!(
            root, self.nodes[parent as usize].root,
            "a sweep keeps its root"
        );
        let vs = mesh.polygon_vertices(poly);
        let (ea, eb) = (vs[slot], vs[wrap(slot + 1, vs.len())]);
        let r = Self::root_point(mesh, q, root);
        if !orient(mesh.vertex(ea), mesh.vertex(eb), r).is_collinear() {
            return false;
        }
        if let Some(id) = collinear_turn(mesh, q, r, (ea, eb), right, left) {
            self.emit(mesh, q, parent, id.0, g + dist(r, mesh.vertex(id)));
        }
        true
    }

    /// A successor of `parent` would turn at corner `c`, at distance `g` from the sweep's root.
    #[inline]
    pub(super) fn emit(&mut self, mesh: &NavMesh, q: &Query, parent: u32, c: u32, g: f64) {
        let i = c as usize;
        match self.sweep {
            Sweep::Off => {}
            Sweep::Collect => {
                if self.seen_stamp[i] != self.generation {
                    self.seen_stamp[i] = self.generation;
                    self.seen_g[i] = g;
                    self.seen.push(c);
                } else if g < self.seen_g[i] {
                    self.seen_g[i] = g;
                }
            }
            Sweep::Corners => {
                let Some(graph) = q.graph else { return };
                if self.nodes[parent as usize].root != GOAL {
                    if graph.taut_from(mesh, q.start, c) {
                        self.push_corner(graph, parent, c, g);
                    }
                    return;
                }
                // The goal's side: `c` sees the goal at distance `g`. Where the start's side
                // has reached `c` already, the two meet.
                if !graph.taut_from(mesh, q.goal, c) || self.seen_stamp[i] == self.generation {
                    return;
                }
                self.seen_stamp[i] = self.generation;
                self.seen_g[i] = g;
                self.seen.push(c);
                if self.corner_stamp[i] == self.generation {
                    let at = self.corner_node[i];
                    self.meet(mesh, q, graph, at);
                }
            }
        }
    }

    /// A final node through corner node `at`, whose corner the goal sweep saw: unless the path
    /// would not wrap around the corner (then a shorter one exists).
    fn meet(&mut self, mesh: &NavMesh, q: &Query, graph: &CornerGraph, at: u32) {
        let n = self.nodes[at as usize];
        let c = n.root;
        let prev = Self::root_point(mesh, q, self.nodes[n.parent as usize].root);
        if graph.taut_turn(mesh, prev, c, q.goal) {
            let total = n.g + self.seen_g[c as usize];
            let f = self.push_point_node(total, c, n.poly, FINAL, at);
            self.succ.push(f);
        }
    }

    /// Makes a corner node at `c` with distance `g` (child of `parent`) unless `c` already has
    /// one at most as far.
    #[inline]
    fn push_corner(&mut self, graph: &CornerGraph, parent: u32, c: u32, g: f64) {
        let i = c as usize;
        if self.corner_stamp[i] == self.generation {
            if g >= self.corner_g[i] {
                return;
            }
        } else {
            self.corner_stamp[i] = self.generation;
            self.corner_h[i] = f64::NAN;
        }
        self.corner_g[i] = g;
        let idx = self.push_point_node(g, c, graph.wedge_poly(c).0, CORNER, parent);
        self.corner_node[i] = idx;
        self.succ.push(idx);
    }

    /// Expands corner node `idx`: into the goal when the goal sweep saw its corner, and along
    /// every graph edge that keeps the path taut there.
    pub(super) fn expand_corner(&mut self, mesh: &NavMesh, q: &Query, idx: u32) {
        let n = self.nodes[idx as usize];
        let c = n.root;
        if self.corner_stamp[c as usize] == self.generation && n.g > self.corner_g[c as usize] {
            return; // a shorter way to this corner was found since
        }
        let Some(graph) = q.graph else { return };
        let prev = Self::root_point(mesh, q, self.nodes[n.parent as usize].root);
        if self.seen_stamp[c as usize] == self.generation {
            self.meet(mesh, q, graph, idx);
        }
        // Taut at c: the path turns toward the walls (which `mask` says, from where it came)
        // and the edge leaves them on that side (its `sides`), or it goes straight on.
        let mask = graph.turn_mask(mesh, prev, c);
        let x = mesh.vertices()[c as usize];
        let (targets, sides, vs) = (graph.targets(), graph.sides(), mesh.vertices());
        // Only the edges whose sides allow the turn (one in five on a random grid).
        for e in graph.taut_edges(c, mask) {
            let ok = mask & sides[e];
            let d = targets[e];
            // The edge's length, to the bit the one the build's sweep measured (`EDGE_BYTES`).
            let dv = vs[d as usize];
            let g = n.g + dist(x, dv);
            if self.corner_stamp[d as usize] == self.generation && g >= self.corner_g[d as usize] {
                continue;
            }
            let turn = match orient(prev, x, dv) {
                Orientation::CounterClockwise => LEFT,
                Orientation::Clockwise => RIGHT,
                Orientation::Collinear => LEFT | RIGHT,
            };
            if ok & turn == 0 {
                continue;
            }
            self.push_corner(graph, idx, d, g);
        }
    }

    /// After a whole goal sweep: the table of [`HubLabels::join`], per hub the least
    /// `d(hub, b) + |b t|` over the corners `b` that see the goal.
    pub(super) fn goal_table(&mut self, labels: &HubLabels) {
        // The queue held only the goal's side, now spent.
        self.nodes.clear();
        self.heap.clear();
        self.succ.clear();
        self.best_final = f64::INFINITY;
        self.best_final_node = NONE;
        for &h in &self.hub_touched {
            self.hub_t[h as usize] = f64::INFINITY;
        }
        self.hub_touched.clear();
        if self.hub_t.len() < labels.hub_count() {
            self.hub_t.resize(labels.hub_count(), f64::INFINITY);
        }
        for &b in &self.seen {
            labels.fill(
                b,
                self.seen_g[b as usize],
                &mut self.hub_t,
                &mut self.hub_touched,
            );
        }
    }

    /// The heuristic of corner `c`: the straight line to the goal, raised to the exact graph
    /// distance from the hub labels (shrunk by [`LANDMARK_SLACK`] against rounding; infinite
    /// when the graph leads nowhere from `c`), else to the landmark bound.
    #[inline]
    pub(super) fn corner_heuristic(&mut self, mesh: &NavMesh, q: &Query, c: u32) -> f64 {
        let i = c as usize;
        if !self.corner_h[i].is_nan() {
            return self.corner_h[i];
        }
        let mut h = dist(mesh.vertices()[i], q.goal);
        if let Some(labels) = q.graph.and_then(CornerGraph::labels) {
            let d = labels.join(c, &self.hub_t);
            h = if d == f64::INFINITY {
                d
            } else {
                h.max(d - LANDMARK_SLACK * d)
            };
        } else if let Some(lm) = q.landmarks {
            for ((low, high), &(lb, ub)) in lm.row(VertexId(c)).zip(&self.alt_goal) {
                h = h.max(lower_bound(low, ub)).max(lower_bound(lb, high));
            }
        }
        self.corner_h[i] = h;
        h
    }
}

/// The polygons a polyline on the mesh passes through, in order, consecutive ones sharing an
/// edge: each leg walked by an exact raycast, and wherever two polygons in a row meet only at
/// a vertex (at a bend, or where a leg passes through a vertex), the polygons around that vertex
/// between them (the corner search finds paths through the graph, not polygon by polygon).
pub(crate) fn channel_along(mesh: &NavMesh, points: &[Vec2]) -> Vec<PolyId> {
    let mut buffers = ChannelBuffers::default();
    channel_through(
        mesh,
        points,
        &mut buffers,
        |_, from, to, leg| {
            // The legs of a path found on this mesh are clear; a refused ray leaves `leg` empty.
            let _ = crate::search::raycast::raycast_into(mesh, from, to, leg);
            false
        },
        |_| &[],
    );
    buffers.take()
}

/// The buffers [`channel_through`] builds a channel in. A query that builds a channel per path
/// keeps one, so that the channel grows in a buffer that is already large and the path gets
/// one allocation of the right size ([`ChannelBuffers::copy`]); a one-off call takes the
/// buffer itself ([`ChannelBuffers::take`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct ChannelBuffers {
    out: Vec<PolyId>,
    leg: Vec<PolyId>,
}

impl ChannelBuffers {
    /// The channel last built, copied out at its size (the buffers keep their capacity).
    pub(crate) fn copy(&self) -> Vec<PolyId> {
        self.out.to_vec()
    }
    /// The channel last built, taken (no copy; the buffer starts again empty).
    pub(crate) fn take(&mut self) -> Vec<PolyId> {
        std::mem::take(&mut self.out)
    }
}

/// [`channel_along`] with the polygons of leg `i` (from `points[i]` to `points[i + 1]`, in
/// order) written into the buffer by `leg` (which may know them without a raycast), which
/// returns `true` when they are already a chain of polygons sharing edges (then only the joint
/// with the previous leg is checked). Where two legs meet at a mesh vertex whose polygons in
/// order `fan(i)` gives (empty where it does not know them: a corner's fan, `corner_graph`),
/// the polygons between the legs come from it; otherwise from a walk around the vertex. The
/// channel is left in `buffers`.
pub(crate) fn channel_through<'f>(
    mesh: &NavMesh,
    points: &[Vec2],
    buffers: &mut ChannelBuffers,
    mut legs: impl FnMut(usize, Vec2, Vec2, &mut Vec<PolyId>) -> bool,
    fan: impl Fn(usize) -> &'f [PolyId],
) {
    let ChannelBuffers { out, leg } = buffers;
    out.clear();
    if let [p] = points {
        out.extend(mesh.locate(*p).polygon());
    }
    for (i, w) in points.windows(2).enumerate() {
        leg.clear();
        let chained = legs(i, w[0], w[1], leg);
        for (k, &b) in leg.iter().enumerate() {
            if chained && k == 1 {
                out.extend_from_slice(&leg[1..]);
                break;
            }
            match out.last() {
                Some(&a) if a == b => continue,
                Some(&a) => {
                    // (Only the leg's first polygon meets the last leg at `points[i]`.) Two
                    // polygons on a fan are next to each other there where they share an
                    // edge: nothing between them.
                    let fan = if k == 0 { fan(i) } else { &[] };
                    if !between_on_fan(fan, a, b, out) && mesh.shared_edge(a, b).is_none() {
                        around_vertex(mesh, a, b, out);
                    }
                }
                None => {}
            }
            out.push(b);
        }
    }
}

/// The channel of the segment `a → b` from `ray`, the polygons a raycast along it crossed in
/// order: made a chain of polygons sharing edges (where the segment passes through a vertex,
/// the polygons around it between), left in `buffers`.
pub(crate) fn segment_channel(
    mesh: &NavMesh,
    (a, b): (Vec2, Vec2),
    ray: &[PolyId],
    buffers: &mut ChannelBuffers,
) {
    channel_through(
        mesh,
        &[a, b],
        buffers,
        |_, _, _, out| {
            out.extend_from_slice(ray);
            false
        },
        |_| &[],
    );
}

/// Appends to `out` the polygons strictly between `a` and `b` on `fan` (the polygons around a
/// vertex, in order), in order from `a`; `false`, with nothing appended, where either is not on
/// it.
#[inline]
pub(crate) fn between_on_fan(fan: &[PolyId], a: PolyId, b: PolyId, out: &mut Vec<PolyId>) -> bool {
    let (Some(i), Some(j)) = (
        fan.iter().position(|&x| x == a),
        fan.iter().position(|&x| x == b),
    ) else {
        return false;
    };
    if i < j {
        out.extend_from_slice(&fan[i + 1..j]);
    } else {
        out.extend(fan[j + 1..i].iter().rev());
    }
    true
}

/// Appends the polygons strictly between `a` and `b` around a vertex they share, walking across
/// the edges at that vertex the way that reaches `b` (the shorter way when both do; the way
/// through `a`'s edge that starts at the vertex when they tie). Counts both ways first, then
/// writes the shorter one: no allocation (a corner query's path calls this once per bend).
fn around_vertex(mesh: &NavMesh, a: PolyId, b: PolyId, out: &mut Vec<PolyId>) {
    let ring = mesh.polygon_vertices(a);
    let bs = mesh.polygon_vertices(b);
    let Some(k) = ring.iter().position(|v| bs.contains(v)) else {
        return;
    };
    let v = ring[k];
    let n = ring.len();
    let ways = [k, (k + n - 1) % n];
    let [x, y] = ways.map(|first| mesh.walk_around(v, a, b, first, &mut |_| {}));
    let first = match (x, y) {
        (Some(x), Some(y)) if y < x => ways[1],
        (Some(_), _) => ways[0],
        (None, Some(_)) => ways[1],
        (None, None) => return,
    };
    mesh.walk_around(v, a, b, first, &mut |p| out.push(p));
}
