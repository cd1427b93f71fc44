//! The search core (nodes, expansion, the A* loop): start nodes, the A* loop, expansion of a node into successors (observable
//! and non-observable, with the pruning rules), root-level pruning and the path read back.

use super::*;
use crate::search::SearchMethod;

impl ExactSearch {
    /// An empty context; it grows to the mesh on first use.
    pub fn new() -> ExactSearch {
        ExactSearch::default()
    }

    pub(super) fn reset(&mut self, mesh: &NavMesh) {
        // Roots are vertices, then the take-off and landing points of the directed link edges.
        let (nv, np) = (
            mesh.vertex_count() + 4 * mesh.links().len(),
            mesh.polygon_count(),
        );
        if self.roots.len() < nv {
            self.roots.resize(nv, RootRecord::default());
        }
        if self.goal_stamp.len() < np {
            self.goal_stamp.resize(np, 0);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.roots.iter_mut().for_each(|r| r.stamp = 0);
            self.goal_stamp.iter_mut().for_each(|s| *s = 0);
            self.seen_stamp.iter_mut().for_each(|s| *s = 0);
            self.corner_stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
        self.goal_polys.clear();
        self.goal_many = false;
        self.nodes.clear();
        self.heap.clear();
        self.succ.clear();
        self.best_final = f64::INFINITY;
        self.best_final_node = NONE;
        self.sweep = Sweep::Off;
    }

    /// Marks `p` as a polygon holding the goal.
    #[inline]
    pub(super) fn mark_goal(&mut self, p: PolyId) {
        self.goal_stamp[p.index()] = self.generation;
        if self.goal_polys.len() < FEW_GOALS {
            self.goal_polys.push(p.0);
        } else {
            self.goal_many = true;
        }
    }

    /// `true` when `p` holds the goal (marked by [`ExactSearch::mark_goal`] in this query).
    #[inline]
    pub(super) fn is_goal(&self, p: PolyId) -> bool {
        if self.goal_many {
            self.goal_stamp[p.index()] == self.generation
        } else {
            self.goal_polys.contains(&p.0)
        }
    }

    /// Finds a shortest path from `start` to `goal` (on a mesh with off-mesh links, the cheapest,
    /// counting each link at its cost; [`Path::links`] says which segments are links). These
    /// options apply: `snap`, `landmarks` (not on a mesh with links: [`PathError::Unsupported`]),
    /// `filter` (closed polygons are walls for this query; a start polygon may be left, a goal
    /// only in closed polygons is unreachable), `max_expanded` (search nodes expanded, then
    /// [`PathError::SearchLimit`]) and `allow_partial` (an unreachable goal gives the shortest
    /// path to the reachable point nearest it; an exhausted budget, the path to the point
    /// nearest the goal that the search has seen). The other fields are for the funnel search
    /// and are ignored.
    ///
    /// [`Path::channel`] lists the polygons the search carried the path through, start polygon
    /// first, goal polygon last; consecutive ones share an edge (or are joined by a link taken),
    /// so the list is a channel that contains the path. [`Path::expanded`] counts expanded
    /// search nodes.
    pub fn find_path(
        &mut self,
        mesh: &NavMesh,
        start: Vec2,
        goal: Vec2,
        options: &SearchOptions,
    ) -> Result<Path, PathError> {
        let mut landmarks = match &options.landmarks {
            Some(lm) if lm.mesh_id() != mesh.instance_id() => {
                return Err(PathError::ForeignData {
                    option: "landmarks",
                })
            }
            // Landmark distances are measured on the mesh alone: a link can beat them.
            Some(_) if mesh.has_links() => {
                return Err(PathError::Unsupported {
                    method: "exact",
                    option: "landmarks on a mesh with off-mesh links",
                })
            }
            Some(lm) => Some(&**lm),
            None => None,
        };
        if mesh.vertex_count() + 4 * mesh.links().len() >= SPECIAL as usize {
            return Err(PathError::Unsupported {
                method: "exact",
                option: "off-mesh links (too many for its 32-bit node ids)",
            });
        }
        let (s, sloc) = locate_endpoint(mesh, start, options.snap, EndpointRole::Start)?;
        let (t, tloc) = locate_endpoint(mesh, goal, options.snap, EndpointRole::Goal)?;
        self.reset(mesh);
        // A goal only in closed polygons is unreachable; the start may be left even when its
        // polygon is closed (the agent is already there).
        let filter = options.filter.as_deref().filter(|f| !f.is_empty());
        let open = |p: PolyId| filter.is_none_or(|f| !f.is_excluded(p));
        let mut goal_open = false;
        for_each_polygon(mesh, tloc, |p| {
            if open(p) {
                self.mark_goal(p);
                goal_open = true;
            }
        });
        if !goal_open {
            return self.unreachable(mesh, s, sloc, t, options);
        }
        // Same polygon: a straight segment (polygons are convex) — unless a link could be
        // cheaper, which the search then finds (the start's own polygons hold the goal).
        let mut shared = None;
        let links = mesh.has_links();
        if links {
            self.prepare_links(mesh, t);
        }
        for_each_polygon(mesh, sloc, |p| {
            if shared.is_none() && self.is_goal(p) {
                shared = Some(p);
            }
        });
        let shared = shared.filter(|_| !links || self.point_h_links(mesh, s, t) >= s.distance(t));
        if let Some(p) = shared {
            let points = if s == t { vec![s] } else { vec![s, t] };
            return Ok(Path::proved(points, vec![p]));
        }
        // The goal's components: one, or two for a goal on a bridge; a goal on a vertex where
        // more meet is rare enough to search without dead-end pruning. (Off-mesh links lead out
        // of dead ends: no pruning on meshes with links.)
        let dead_ends = (!links).then(|| mesh.dead_ends());
        let mut goal_parts = [u32::MAX; 2];
        let mut more = false;
        if let Some(de) = dead_ends {
            for_each_polygon(mesh, tloc, |p| {
                let c = de.component(p);
                if !goal_parts.contains(&c) {
                    match goal_parts.iter_mut().find(|x| **x == u32::MAX) {
                        Some(free) => *free = c,
                        None => more = true,
                    }
                }
            });
        }
        // The corner search, where its graph applies (it measures the mesh alone).
        let graph = match (&options.corner_graph, options.method) {
            (_, SearchMethod::Exact | SearchMethod::Funnel) => None,
            (None, _) => {
                return Err(PathError::Unsupported {
                    method: "corner",
                    option: "a query without SearchOptions::corner_graph",
                })
            }
            (Some(g), _) if g.mesh_id() != mesh.instance_id() => {
                return Err(PathError::ForeignData {
                    option: "corner graph",
                })
            }
            // The graph measures the mesh without its links: the plain search, on its own.
            (Some(_), _) if links => None,
            // Its views answer, or (without labels) its edges are swept, where the build found
            // them worth it; otherwise (views that saved less than a tenth on the build's
            // sample, or no labels and sweeps that did not pay) the plain search runs. Either
            // way with the graph's landmarks where it has them (BENCHMARKS.md). Partial paths
            // and budgets are the plain search's (its nodes are what they measure), and so are
            // filters (whose closed polygons the graph does not know).
            (Some(g), _) => {
                landmarks = landmarks.or(g.landmarks().map(|l| &**l));
                let applies = filter.is_none()
                    && !options.allow_partial
                    && options.max_expanded.is_none()
                    && (g.answers_from_views() || g.answers_from_edges());
                applies.then_some(&**g)
            }
        };
        // Start and goal in parts of the mesh that no portal joins: no path, without a search
        // (which would explore the start's whole part; the corner search's views and sweeps
        // too). After the options are checked, so a bad option is an error whatever the query.
        if let Some(de) = dead_ends {
            let mut joined = false;
            for_each_polygon(mesh, sloc, |a| {
                for_each_polygon(mesh, tloc, |b| joined |= de.connected(a, b));
            });
            if !joined {
                return self.unreachable(mesh, s, sloc, t, options);
            }
        }
        // A forced channel (no cycle between the start and the goal): the funnel's path through
        // it is the shortest, without a search (`forced.rs`). Not under a filter, whose closed
        // polygons the bridges do not know.
        if let (Some(de), None) = (dead_ends, filter) {
            if let Some(path) = self.forced_path(mesh, de, (s, sloc), (t, tloc)) {
                return Ok(path);
            }
        }
        // The goal in sight: the segment, without a search (`sight.rs`); for the corner search
        // too, whose views start out of sight.
        if !links && filter.is_none() {
            if let Some(path) = self.in_sight(mesh, (s, sloc), t, options.channel) {
                return Ok(path);
            }
        }
        // (With hub labels the heuristic of corners is exact; landmarks would only slow the
        // plain part down.)
        let mut q = Query {
            layout: mesh.dead_ends(),
            start: s,
            goal: t,
            landmarks,
            goal_parts: dead_ends.filter(|_| !more).map(|_| goal_parts),
            filter,
            links,
            graph: None,
            epsilon: if graph.is_some() {
                options.epsilon
            } else {
                0.0
            },
            channel: options.channel,
        };
        if let Some(lm) = landmarks {
            self.prepare_landmarks(mesh, lm, sloc, tloc, s, t);
        }
        let mut expanded = 0usize;
        if let Some(g) = graph {
            // The views and labels answer without a search (`views.rs`); the graph was only
            // taken (above) where the build kept its views.
            if let Some(choice) = g.view_choice() {
                // Short queries try the plain search first, for what a view query costs
                // (`views::fit`): past that, the views answer.
                if dist(s, t) < choice.plain_below {
                    self.push_start_nodes(mesh, &q, sloc);
                    match self.run(mesh, &q, &mut expanded, Some(choice.budget)) {
                        Outcome::Found(node) => {
                            return Ok(self.bounded_path(mesh, node, &q, expanded))
                        }
                        Outcome::Exhausted => return self.unreachable(mesh, s, sloc, t, options),
                        Outcome::Limited => {}
                    }
                }
                if let ViewAnswer::Path(path) =
                    g.view_query(mesh, &mut self.views, (s, sloc), (t, tloc), options.channel)
                {
                    return Ok(path);
                }
            }
            // The views gave no answer (a bend the graph does not have): the swept search.
            // Start afresh (new stamps: the plain nodes are dropped, and their roots' best g
            // with them).
            self.reset(mesh);
            for_each_polygon(mesh, tloc, |p| self.mark_goal(p));
            q.graph = Some(g);
            self.sweep = Sweep::Corners;
            self.start_goal_sweep(mesh, &q, tloc);
            if let Some(labels) = g.labels() {
                // The goal's view first, whole: the labels' heuristic needs all of it.
                self.run(mesh, &q, &mut expanded, None);
                self.goal_table(labels);
            }
        }
        self.push_start_nodes(mesh, &q, sloc);
        let outcome = self.run(mesh, &q, &mut expanded, options.max_expanded);
        self.sweep = Sweep::Off;
        match outcome {
            Outcome::Found(node) if graph.is_some() => {
                let mut path = self.bounded_path(mesh, node, &q, expanded);
                if options.channel {
                    path.channel = channel_along(mesh, &path.points);
                }
                Ok(path)
            }
            Outcome::Found(node) => Ok(self.path_to(mesh, node, &q, expanded, t)),
            Outcome::Limited if options.allow_partial => {
                Ok(self.nearest_reached(mesh, &q, expanded))
            }
            Outcome::Limited => Err(PathError::SearchLimit { expanded }),
            Outcome::Exhausted => self.unreachable(mesh, s, sloc, t, options),
        }
    }

    /// The path through final node `idx`, with the bound the search proved for it (1 when it
    /// was popped; the ratio to the least `f` open when a bounded corner query stopped early).
    fn bounded_path(&self, mesh: &NavMesh, idx: u32, q: &Query, expanded: usize) -> Path {
        let mut path = self.path_to(mesh, idx, q, expanded, q.goal);
        let lb = self.lower_bound;
        path.bound = Some(if lb.is_nan() {
            1.0
        } else {
            (path.length / lb).max(1.0)
        });
        path
    }

    /// Start nodes: every edge of every start polygon that does not hold the start (those lead
    /// to polygons that are start polygons too). An edge whose line only passes through the
    /// start is reached by walking along that line (see `successor`). Queues them.
    pub(super) fn push_start_nodes(&mut self, mesh: &NavMesh, q: &Query, sloc: Location) {
        if self.is_plain(q) {
            self.push_point_nodes::<true>(mesh, q, START, sloc);
        } else {
            self.push_point_nodes::<false>(mesh, q, START, sloc);
        }
    }

    /// Queues the successors of point root `root` (the start, or the goal of a corner query's
    /// goal sweep) located at `loc`, at distance 0, with the core compiled for one kind of query
    /// (`PLAIN`: see [`is_plain`](Self::is_plain)).
    pub(super) fn push_point_nodes<const PLAIN: bool>(
        &mut self,
        mesh: &NavMesh,
        q: &Query,
        root: u32,
        loc: Location,
    ) {
        self.expand_point::<PLAIN>(mesh, q, NONE, root, 0.0, loc);
        if let Some(first) = self.queue_successors::<PLAIN>(mesh, q) {
            let n = self.nodes[first as usize];
            let f = n.g + self.node_h::<PLAIN>(mesh, q, &n);
            self.heap.push(Open::new(f, n.g, first));
        }
    }

    /// Whether this query is a *plain* one: a point-to-point search with none of the options
    /// and modes that the search core tests for at every node (no off-mesh links, filter,
    /// landmarks, bound or corner graph; not a sweep nor one-to-all). The core's functions take
    /// that as a const parameter, `PLAIN`, so that the plain search, the one most queries run,
    /// is compiled without those tests (BENCHMARKS.md, "Session 33", has what that saves). With
    /// `PLAIN` false they run as before, each test at run time.
    #[inline]
    pub(super) fn is_plain(&self, q: &Query) -> bool {
        #[cfg(test)]
        if self.force_general {
            return false;
        }
        !self.one_to_all
            && self.sweep == Sweep::Off
            && !q.links
            && q.filter.is_none()
            && q.landmarks.is_none()
            && q.graph.is_none()
            && q.epsilon == 0.0
    }

    /// The successors of a point root (the start, or where a link lands) at distance `g`,
    /// located at `loc`. Per polygon holding the point (open ones; the start's may be closed):
    /// an origin node naming the polygon, then one node per edge that does not hold the point;
    /// with links, also the goal and the link take-offs in the polygon, which the point sees
    /// (polygons are convex).
    pub(super) fn expand_point<const PLAIN: bool>(
        &mut self,
        mesh: &NavMesh,
        q: &Query,
        parent: u32,
        root: u32,
        g: f64,
        loc: Location,
    ) {
        let x = Self::root_point(mesh, q, root);
        for_each_polygon(mesh, loc, |p| {
            if !PLAIN && root != START && q.filter.is_some_and(|f| f.is_excluded(p)) {
                return;
            }
            let origin = self.push_point_node(g, root, p.0, ORIGIN, parent);
            if !PLAIN && q.links {
                if self.is_goal(p) {
                    self.final_node::<PLAIN>(mesh, q, origin, root, g);
                }
                for e in mesh.links_from(p) {
                    self.take_off(mesh, q, origin, root, g, e);
                }
            }
            let vs = mesh.polygon_vertices(p);
            let n = vs.len();
            for i in 0..n {
                let (ia, ib) = (vs[i], vs[(i + 1) % n]);
                let (a, b) = (mesh.vertex(ia), mesh.vertex(ib));
                if on_segment(x, a, b) {
                    continue;
                }
                let (from, to) = (End::Vertex(ia.0), End::Vertex(ib.0));
                self.successor::<PLAIN>(mesh, q, origin, p, i, root, g, from, to);
            }
        });
    }

    /// Pushes a node that is a point, not an interval (origin, final, corner, take-off and
    /// landing nodes: their cone lines are never read) and returns its index.
    #[inline]
    pub(super) fn push_point_node(
        &mut self,
        g: f64,
        root: u32,
        poly: u32,
        entry: u32,
        parent: u32,
    ) -> u32 {
        self.nodes.push(Node {
            g,
            root,
            poly,
            entry,
            parent,
            right_line: [root, root],
            left_line: [root, root],
        });
        self.nodes.len() as u32 - 1
    }

    /// Expands node `idx`: a landing node like a start point, any other through its polygon.
    #[inline]
    pub(super) fn expand_node<const PLAIN: bool>(&mut self, mesh: &NavMesh, q: &Query, idx: u32) {
        let n = self.nodes[idx as usize];
        if !PLAIN && n.entry == LANDING {
            let at = Self::root_point(mesh, q, n.root);
            self.expand_point::<PLAIN>(mesh, q, idx, n.root, n.g, mesh.locate(at));
        } else if !PLAIN && n.entry == CORNER {
            self.expand_corner(mesh, q, idx);
        } else {
            self.expand::<PLAIN>(mesh, q, idx);
        }
    }

    /// The A* loop: pops nodes until a final node comes out, the list is empty, or `limit`
    /// expansions are done.
    pub(super) fn run(
        &mut self,
        mesh: &NavMesh,
        q: &Query,
        expanded: &mut usize,
        limit: Option<usize>,
    ) -> Outcome {
        if self.is_plain(q) {
            self.run_as::<true>(mesh, q, expanded, limit)
        } else {
            self.run_as::<false>(mesh, q, expanded, limit)
        }
    }

    /// [`run`](Self::run) compiled for one kind of query (see [`is_plain`](Self::is_plain)).
    fn run_as<const PLAIN: bool>(
        &mut self,
        mesh: &NavMesh,
        q: &Query,
        expanded: &mut usize,
        limit: Option<usize>,
    ) -> Outcome {
        while let Some(top) = self.heap.pop() {
            let (node, f) = (top.id(), top.f());
            let n = self.nodes[node as usize];
            if n.entry == FINAL {
                // Popped: nothing open is shorter, so the path is a shortest one.
                self.lower_bound = f64::NAN;
                return Outcome::Found(node);
            }
            // Bounded corner search: the best path found is within 1 + epsilon of every path
            // still open (`f` is a lower bound on them all).
            if !PLAIN
                && q.epsilon > 0.0
                && self.best_final_node != NONE
                && self.best_final <= f * (1.0 + q.epsilon)
            {
                self.lower_bound = f;
                return Outcome::Found(self.best_final_node);
            }
            if n.root < GOAL
                && self.roots[n.root as usize].stamp == self.generation
                && n.g > self.roots[n.root as usize].g * (1.0 + ROOT_PRUNE_SLACK)
            {
                continue;
            }
            let mut cur = node;
            loop {
                if limit.is_some_and(|l| *expanded >= l) {
                    // Left open, so that a later run goes on from here (a one-to-all search
                    // run in slices, between which its builder checks for a cancel).
                    let n = self.nodes[cur as usize];
                    let f = if n.entry == FINAL {
                        n.g
                    } else {
                        n.g + self.node_h::<PLAIN>(mesh, q, &n)
                    };
                    self.heap.push(Open::new(f, n.g, cur));
                    return Outcome::Limited;
                }
                *expanded += 1;
                self.expand_node::<PLAIN>(mesh, q, cur);
                // Intermediate pruning: a lone successor is expanded at once.
                if self.succ.len() == 1 && self.nodes[self.succ[0] as usize].entry != FINAL {
                    cur = self.succ[0];
                    self.succ.clear();
                    continue;
                }
                // The best successor, if it would be the next node popped anyway, skips the heap.
                match self.queue_successors::<PLAIN>(mesh, q) {
                    Some(next) => cur = next,
                    None => break,
                }
            }
        }
        Outcome::Exhausted
    }

    /// Queues the successors of the last expansion, computing their `f` (only queued nodes
    /// need a heuristic: a lone successor is expanded at once). Returns the successor with the
    /// smallest `f` instead of queueing it when it would be the very next node popped (its `f`
    /// is below everything queued), which saves a push and a pop without changing the order of
    /// expansion.
    pub(super) fn queue_successors<const PLAIN: bool>(
        &mut self,
        mesh: &NavMesh,
        q: &Query,
    ) -> Option<u32> {
        let mut best: Option<Open> = None;
        for i in 0..self.succ.len() {
            let idx = self.succ[i];
            let n = self.nodes[idx as usize];
            let f = if n.entry == FINAL {
                if n.g < self.best_final {
                    self.best_final = n.g;
                    self.best_final_node = idx;
                }
                n.g
            } else {
                n.g + self.node_h::<PLAIN>(mesh, q, &n)
            };
            // A node that cannot beat a path already found would never be popped before it
            // (nor can one that leads nowhere: infinite `f`, corner search).
            if f > self.best_final || f == f64::INFINITY {
                continue;
            }
            let open = Open::new(f, n.g, idx);
            if n.entry != FINAL && best.is_none_or(|b| f < b.f()) {
                if let Some(b) = best.replace(open) {
                    self.heap.push(b);
                }
            } else {
                self.heap.push(open);
            }
        }
        self.succ.clear();
        let b = best?;
        if b.f() > self.best_final {
            return None;
        }
        if self.heap.peek().is_none_or(|top| b.f() < top.f()) {
            return Some(b.id());
        }
        self.heap.push(b);
        None
    }

    /// A node's root and its interval's (rounded) right and left ends; `None` when the root is
    /// an end of the entry edge (it sees the whole polygon).
    #[inline]
    pub(super) fn interval<const PLAIN: bool>(
        &self,
        mesh: &NavMesh,
        q: &Query,
        n: &Node,
    ) -> Option<(Vec2, Vec2, Vec2)> {
        let recs = q.layout.crossings(mesh, PolyId(n.poly));
        let k = n.entry as usize;
        let (rb, ra) = (recs[k], recs[wrap(k + 1, recs.len())]);
        if n.root == ra.vertex || n.root == rb.vertex {
            return None;
        }
        let r = Self::point_as::<PLAIN>(mesh, q, n.root);
        let (a, b) = (ra.point, rb.point);
        let (rp, rq) = (
            Self::point_as::<PLAIN>(mesh, q, n.right_line[0]),
            Self::point_as::<PLAIN>(mesh, q, n.right_line[1]),
        );
        let (lp, lq) = (
            Self::point_as::<PLAIN>(mesh, q, n.left_line[0]),
            Self::point_as::<PLAIN>(mesh, q, n.left_line[1]),
        );
        let right = if orient(rp, rq, a) == Orientation::Clockwise {
            ray_exit(rp, rq, a, b)
        } else {
            a
        };
        let left = if orient(lp, lq, b) == Orientation::CounterClockwise {
            ray_exit(lp, lq, a, b)
        } else {
            b
        };
        Some((r, right, left))
    }

    /// [`root_point`](Self::root_point) for a core compiled for plain queries or not: a plain
    /// query's roots and cone points are the start and mesh vertices only.
    #[inline]
    pub(super) fn point_as<const PLAIN: bool>(mesh: &NavMesh, q: &Query, id: u32) -> Vec2 {
        if !PLAIN {
            Self::root_point(mesh, q, id)
        } else if id == START {
            q.start
        } else {
            mesh.vertices()[id as usize]
        }
    }

    #[inline]
    pub(super) fn root_point(mesh: &NavMesh, q: &Query, root: u32) -> Vec2 {
        let nv = mesh.vertex_count();
        if root == START {
            q.start
        } else if root == GOAL {
            q.goal
        } else if (root as usize) < nv {
            mesh.vertices()[root as usize]
        } else {
            // A link's take-off (even) or landing (odd) point.
            let j = root as usize - nv;
            let (from, to, _) = link_end(mesh, j / 2);
            if j.is_multiple_of(2) {
                from
            } else {
                to
            }
        }
    }

    /// Root-level pruning: `true` when `root` may carry `g` (and records it as the best).
    #[inline]
    pub(super) fn root_ok(&mut self, mesh: &NavMesh, root: u32, g: f64) -> bool {
        if root >= GOAL {
            return true;
        }
        let i = root as usize;
        let gen = self.generation;
        let rec = &mut self.roots[i];
        if rec.stamp == gen {
            if rec.pinch {
                return true;
            }
            if g > rec.g * (1.0 + ROOT_PRUNE_SLACK) {
                return false;
            }
            if g < rec.g {
                rec.g = g;
            }
        } else {
            // A pinch vertex has one best `g` per wedge, and what follows depends on the
            // wedge: not pruned there (its record keeps an infinite `g`, which prunes nothing).
            let pinch = i < mesh.vertex_count() && mesh.is_pinch(VertexId(root));
            *rec = RootRecord {
                stamp: gen,
                pinch,
                g: if pinch { f64::INFINITY } else { g },
                alt: f64::NAN,
            };
        }
        true
    }

    /// Makes the successor whose interval runs from `right` to `left` on edge `slot` of `poly`
    /// (counter-clockwise in `poly`), entering the polygon across it, with root `root` at
    /// distance `g` from the start.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn successor<const PLAIN: bool>(
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
    ) {
        if !PLAIN && self.one_to_all {
            self.record(mesh, q, root, g, right);
            self.record(mesh, q, root, g, left);
        }
        if !PLAIN
            && self.sweep != Sweep::Off
            && self.sweep_turn(mesh, q, parent, poly, slot, root, g, right, left)
        {
            return;
        }
        // One record says where the edge leads: nothing of the polygon beyond is read here.
        let de = q.layout;
        let recs = de.crossings(mesh, poly);
        let crossing = recs[slot];
        if crossing.next == NONE {
            return;
        }
        let next = PolyId(crossing.next);
        // A closed polygon is a wall for this query.
        if !PLAIN && q.filter.is_some_and(|f| f.is_excluded(next)) {
            return;
        }
        // Dead-end pruning: a bridge is crossed only toward the goal (not in a goal sweep,
        // which heads for the start).
        if let Some(parts) = q.goal_parts.filter(|_| root != GOAL) {
            if !de.may_cross_code(crossing.bridge, parts[0])
                && (parts[1] == u32::MAX || !de.may_cross_code(crossing.bridge, parts[1]))
            {
                return;
            }
        }
        let far = recs[wrap(slot + 1, recs.len())];
        let (ea, eb) = (VertexId(crossing.vertex), VertexId(far.vertex));
        let (mut root, mut g, mut parent) = (root, g, parent);
        let original_root = root;
        let mut cone = (right.line(root), left.line(root));
        if root != ea.0 && root != eb.0 {
            let r = Self::point_as::<PLAIN>(mesh, q, root);
            if orient(crossing.point, far.point, r).is_collinear() {
                // A root on the edge's line sees nothing through it (collinear pruning), except
                // by walking along the line to the interval's nearer end and turning there,
                // which a taut path does only at a corner. That end becomes the root.
                let Some(id) = collinear_turn(mesh, q, r, (ea, eb), right, left) else {
                    return;
                };
                g += dist(r, mesh.vertex(id));
                root = id.0;
                // A root at an end of the edge sees all of the next polygon: no cone to keep.
                cone = ([root, root], [root, root]);
            }
        }
        // The shared edge runs eb → ea in `next`, at slot `crossing.entry`.
        let entry = (crossing.entry & !Crossing::CUL_DE_SAC) as usize;
        debug_assert_eq!(mesh.polygon_vertices(next)[entry], eb);
        // Cul-de-sac pruning.
        if crossing.entry & Crossing::CUL_DE_SAC != 0
            && !self.is_goal(next)
            && (PLAIN
                || (!self.one_to_all
                    && self.sweep != Sweep::Collect
                    && root != GOAL
                    && (!q.links || mesh.links_from(next).is_empty())))
        {
            return;
        }
        if root != self.nodes[parent as usize].root && !self.root_ok(mesh, root, g) {
            return;
        }
        if root != original_root {
            // Keep the corner walked from, for the path: a pseudo node that is never expanded.
            let poly = self.nodes[parent as usize].poly;
            parent = self.push_point_node(g, original_root, poly, VIA, parent);
        }
        let idx = self.nodes.len() as u32;
        self.nodes.push(Node {
            g,
            root,
            poly: next.0,
            entry: entry as u32,
            parent,
            right_line: cone.0,
            left_line: cone.1,
        });
        self.succ.push(idx);
    }

    /// One-to-all mode: an interval end that is a vertex is reached from `root` in a straight line.
    #[inline]
    pub(super) fn record(&mut self, mesh: &NavMesh, q: &Query, root: u32, g: f64, end: End) {
        if let End::Vertex(v) = end {
            let d = g + dist(Self::root_point(mesh, q, root), mesh.vertices()[v as usize]);
            let r = &mut self.reach[v as usize];
            if d < *r {
                *r = d;
            }
        }
    }

    /// A final node: the goal reached straight from `root` (at distance `g` from the start).
    pub(super) fn final_node<const PLAIN: bool>(
        &mut self,
        mesh: &NavMesh,
        q: &Query,
        parent: u32,
        root: u32,
        g: f64,
    ) {
        if (!PLAIN && (self.sweep == Sweep::Collect || self.nodes[parent as usize].root == GOAL))
            || !self.root_ok(mesh, root, g)
        {
            return;
        }
        let total = g + dist(Self::point_as::<PLAIN>(mesh, q, root), q.goal);
        let poly = self.nodes[parent as usize].poly;
        let idx = self.push_point_node(total, root, poly, FINAL, parent);
        self.succ.push(idx);
    }

    /// Projects node `idx` through the polygon it enters; successors go to `self.succ`.
    pub(super) fn expand<const PLAIN: bool>(&mut self, mesh: &NavMesh, q: &Query, idx: u32) {
        let n = self.nodes[idx as usize];
        let poly = PolyId(n.poly);
        // The polygon's slots, positions and ids in one contiguous run (`Crossing`).
        let recs = q.layout.crossings(mesh, poly);
        let size = recs.len();
        let k = n.entry as usize;
        let (b_id, a_id) = (
            VertexId(recs[k].vertex),
            VertexId(recs[wrap(k + 1, size)].vertex),
        );
        let r = Self::point_as::<PLAIN>(mesh, q, n.root);
        let goal_here = self.is_goal(poly);
        // The far chain c_0 = a, c_1, ..., c_m = b; far edge j runs c_j → c_{j+1} = slot(j).
        let m = size - 1;
        let slot = |j: usize| wrap(k + 1 + j, size);
        let c = |j: usize| recs[wrap(k + 1 + j, size)].point;
        let id = |j: usize| recs[wrap(k + 1 + j, size)].vertex;
        if n.root == a_id.0 || n.root == b_id.0 {
            // The root is an end of the entry edge (a corner being walked around): all of the
            // polygon is visible from it.
            if goal_here {
                self.final_node::<PLAIN>(mesh, q, idx, n.root, n.g);
                if PLAIN || !q.links {
                    return;
                }
            }
            if !PLAIN && q.links {
                for e in mesh.links_from(poly) {
                    self.take_off(mesh, q, idx, n.root, n.g, e);
                }
            }
            for j in 0..m {
                let (from, to) = (End::Vertex(id(j)), End::Vertex(id(j + 1)));
                self.successor::<PLAIN>(mesh, q, idx, poly, slot(j), n.root, n.g, from, to);
            }
            return;
        }
        // Otherwise the root lies strictly on the far side of the entry edge (by construction).
        let (a, b) = (c(0), recs[k].point);
        let rl = n.right_line;
        let ll = n.left_line;
        let point = |id| Self::point_as::<PLAIN>(mesh, q, id);
        let (rp, rq) = (point(rl[0]), point(rl[1]));
        let (lp, lq) = (point(ll[0]), point(ll[1]));
        // Does the interval end exactly at the entry edge's vertices? (Exact: the cone's sides
        // are lines through stored points.)
        let a_on_right = rl[1] == a_id.0 || orient(rp, rq, a).is_collinear();
        let b_on_left = ll[1] == b_id.0 || orient(lp, lq, b).is_collinear();
        let right_turn = a_on_right && is_corner(mesh, q, a_id);
        let left_turn = b_on_left && is_corner(mesh, q, b_id);
        if goal_here {
            let t = q.goal;
            let sr = orient(rp, rq, t);
            let sl = orient(lp, lq, t);
            if sr != Orientation::Clockwise && sl != Orientation::CounterClockwise {
                // Visible: nothing through this polygon can beat the straight line (but a
                // link somewhere may).
                self.final_node::<PLAIN>(mesh, q, idx, n.root, n.g);
                if PLAIN || !q.links {
                    return;
                }
            } else if sr == Orientation::Clockwise {
                if right_turn {
                    self.final_node::<PLAIN>(mesh, q, idx, a_id.0, n.g + dist(r, a));
                }
            } else if left_turn {
                self.final_node::<PLAIN>(mesh, q, idx, b_id.0, n.g + dist(r, b));
            }
        }
        if !PLAIN && q.links {
            // Link take-offs in this polygon, reached like the goal: straight from the root
            // when the cone holds them, else around the corner on their side.
            for e in mesh.links_from(poly) {
                let sr = orient(rp, rq, e.from);
                let sl = orient(lp, lq, e.from);
                if sr != Orientation::Clockwise && sl != Orientation::CounterClockwise {
                    self.take_off(mesh, q, idx, n.root, n.g, e);
                } else if sr == Orientation::Clockwise {
                    if right_turn {
                        self.take_off(mesh, q, idx, a_id.0, n.g + dist(r, a), e);
                    }
                } else if left_turn {
                    self.take_off(mesh, q, idx, b_id.0, n.g + dist(r, b), e);
                }
            }
        }
        // Where the right side leaves the polygon: far edge `er`, from `pr` (a vertex, or where
        // the right line cuts the edge).
        let mut j = 1;
        let mut side = orient(rp, rq, c(1));
        while j < m && side == Orientation::Clockwise {
            j += 1;
            side = orient(rp, rq, c(j));
        }
        let (er, pr) = match side {
            Orientation::Collinear => (j, End::Vertex(id(j))),
            Orientation::CounterClockwise => {
                if j == 1 && a_on_right {
                    (0, End::Vertex(id(0)))
                } else {
                    (j - 1, End::Cut(rl))
                }
            }
            // Even b is right of the cone: nothing observable.
            Orientation::Clockwise => (m, End::Vertex(id(m))),
        };
        // Where the left side leaves: far edge `el1 - 1`, up to `pl`.
        let mut j = m - 1;
        let mut side = orient(lp, lq, c(j));
        while j > 0 && side == Orientation::CounterClockwise {
            j -= 1;
            side = orient(lp, lq, c(j));
        }
        let (el1, pl) = match side {
            Orientation::Collinear => (j, End::Vertex(id(j))),
            Orientation::Clockwise => {
                if j + 1 == m && b_on_left {
                    (m, End::Vertex(id(m)))
                } else {
                    (j + 1, End::Cut(ll))
                }
            }
            Orientation::CounterClockwise => (0, End::Vertex(id(0))),
        };
        // Observable successors: far edges er ..= el1 - 1, keeping the root. None is empty: two
        // distinct lines through the root meet an edge that misses the root at distinct points.
        for j in er..el1 {
            let from = if j == er { pr } else { End::Vertex(id(j)) };
            let to = if j + 1 == el1 {
                pl
            } else {
                End::Vertex(id(j + 1))
            };
            self.successor::<PLAIN>(mesh, q, idx, poly, slot(j), n.root, n.g, from, to);
        }
        // Non-observable successors: turn at a corner that ends the interval. The side facing
        // the old cone is the old cone's side, which passes through the corner.
        // (The turn's `g` costs a square root, so it is computed only when the turn has a
        // successor.)
        let turn_right = right_turn && (er > 0 || (er < m && matches!(pr, End::Cut(_))));
        let turn_left = left_turn && (el1 < m || (el1 >= 1 && matches!(pl, End::Cut(_))));
        if !PLAIN && self.sweep != Sweep::Off {
            // A sweep turns nowhere: it records each corner past which part of this polygon
            // lies out of the root's sight, whether or not an edge leads on from that part.
            if turn_right {
                self.emit(mesh, q, idx, a_id.0, n.g + dist(r, a));
            }
            if turn_left {
                self.emit(mesh, q, idx, b_id.0, n.g + dist(r, b));
            }
            return;
        }
        if turn_right {
            let g = n.g + dist(r, a);
            for j in 0..er.min(m) {
                let (from, to) = (End::Vertex(id(j)), End::Vertex(id(j + 1)));
                self.successor::<PLAIN>(mesh, q, idx, poly, slot(j), a_id.0, g, from, to);
            }
            if er < m && matches!(pr, End::Cut(_)) {
                let from = End::Vertex(id(er));
                let cut = End::Cut(rl);
                self.successor::<PLAIN>(mesh, q, idx, poly, slot(er), a_id.0, g, from, cut);
            }
        }
        if turn_left {
            let g = n.g + dist(r, b);
            if el1 >= 1 && matches!(pl, End::Cut(_)) {
                let to = End::Vertex(id(el1));
                let cut = End::Cut(ll);
                self.successor::<PLAIN>(mesh, q, idx, poly, slot(el1 - 1), b_id.0, g, cut, to);
            }
            for j in el1..m {
                let (from, to) = (End::Vertex(id(j)), End::Vertex(id(j + 1)));
                self.successor::<PLAIN>(mesh, q, idx, poly, slot(j), b_id.0, g, from, to);
            }
        }
    }

    /// Rebuilds the path through node `idx` (a final node, or any node for a partial path),
    /// ending at `end` (the goal, or a point its root sees).
    pub(super) fn path_to(
        &self,
        mesh: &NavMesh,
        idx: u32,
        q: &Query,
        expanded: usize,
        end: Vec2,
    ) -> Path {
        // Each node adds at most one point and one polygon: counted first, the two vectors are
        // allocated once (growing them one push at a time reallocated about three times a path,
        // 3% of a query on a small mesh).
        let mut nodes = 0;
        let mut i = idx;
        while i != NONE {
            nodes += 1;
            i = self.nodes[i as usize].parent;
        }
        let mut points = Vec::with_capacity(nodes + 1);
        points.push(end);
        let mut channel: Vec<PolyId> = Vec::with_capacity(if q.channel { nodes } else { 0 });
        // Links taken, as (directed link edge, index of its take-off point in `points`), which
        // is built backwards.
        let mut links: Vec<(usize, usize)> = Vec::new();
        let mut last_root = NONE - 2;
        let mut i = idx;
        while i != NONE {
            let n = &self.nodes[i as usize];
            if n.root != last_root {
                let p = Self::root_point(mesh, q, n.root);
                // A take-off point always gets its own entry, right before its landing point
                // (a zero-length link is still a link segment).
                if points.last() != Some(&p) || n.entry == TAKEOFF {
                    points.push(p);
                }
                if n.entry == TAKEOFF {
                    let j = (n.root as usize - mesh.vertex_count()) / 2;
                    links.push((j, points.len() - 1));
                }
                last_root = n.root;
            }
            // (A landing node names one polygon holding the landing point; the origin node after
            // it names the one the path goes on in.)
            if q.channel && n.entry != LANDING && channel.last() != Some(&PolyId(n.poly)) {
                channel.push(PolyId(n.poly));
            }
            i = n.parent;
        }
        points.reverse();
        channel.reverse();
        let last = points.len() - 1;
        let links = links
            .iter()
            .rev()
            .map(|&(j, at)| LinkTraversal {
                link: LinkId((j / 2) as u32),
                segment: last - at,
                reversed: j % 2 == 1,
            })
            .collect();
        Path {
            length: Path::polyline_length(&points),
            points,
            channel,
            expanded,
            status: PathStatus::Complete,
            links,
            bound: Some(1.0),
        }
    }
}

/// `true` when `v` touches a wall: of the mesh, or of a polygon closed for this query (a vertex
/// of a closed polygon with an open one around it touches an edge between the two).
#[inline]
pub(super) fn is_corner(mesh: &NavMesh, q: &Query, v: VertexId) -> bool {
    mesh.is_corner(v)
        || q.filter
            .is_some_and(|f| mesh.vertex_polygons(v).iter().any(|&p| f.is_excluded(p)))
}

/// Collinear pruning's one exception: for a root `r` on the line of the edge `ends` (at neither
/// end), the corner at the interval's nearer end, which a taut path reaches by walking along the
/// line and turns at; `None` when that end is not a corner or the interval stops short of it.
#[inline]
pub(super) fn collinear_turn(
    mesh: &NavMesh,
    q: &Query,
    r: Vec2,
    (ea, eb): (VertexId, VertexId),
    right: End,
    left: End,
) -> Option<VertexId> {
    let (id, end) = if dist(r, mesh.vertex(ea)) <= dist(r, mesh.vertex(eb)) {
        (ea, right)
    } else {
        (eb, left)
    };
    (end == End::Vertex(id.0) && is_corner(mesh, q, id)).then_some(id)
}

/// `i mod n` for `i < 2n` without a division (a fifth of an expansion's time with `%`).
#[inline(always)]
pub(super) fn wrap(i: usize, n: usize) -> usize {
    if i >= n {
        i - n
    } else {
        i
    }
}

/// Where the ray from `r` through `x` leaves through the segment `p q` (which it crosses).
#[inline]
pub(super) fn ray_exit(r: Vec2, x: Vec2, p: Vec2, q: Vec2) -> Vec2 {
    match line_intersection_t(p, q, r, x) {
        Some(t) => p.lerp(q, t.clamp(0.0, 1.0)),
        // Parallel: cannot happen for a segment whose ends lie on both sides of the ray.
        None => p,
    }
}

/// Calls `f` for every polygon holding a located point.
pub(crate) fn for_each_polygon(mesh: &NavMesh, loc: Location, mut f: impl FnMut(PolyId)) {
    match loc {
        Location::InPolygon(p) => f(p),
        Location::OnEdge {
            polygon, neighbour, ..
        } => {
            f(polygon);
            if let Some(n) = neighbour {
                f(n);
            }
        }
        Location::OnVertex { vertex, .. } => {
            for &p in mesh.vertex_polygons(vertex) {
                f(p);
            }
        }
        Location::Outside => {}
    }
}

/// `true` for a point exactly on a pinch vertex ([`NavMesh::is_pinch`]).
pub(super) fn is_pinch(mesh: &NavMesh, loc: Location) -> bool {
    matches!(loc, Location::OnVertex { vertex, .. } if mesh.is_pinch(vertex))
}
