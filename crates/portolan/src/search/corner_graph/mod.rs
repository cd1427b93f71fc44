//! The corner graph: a precomputed index of the mesh's turning corners and the taut lines of
//! sight between them, which makes exact queries several times faster on maps where paths bend
//! around many walls ([`SearchMethod::Corner`](crate::search::SearchMethod::Corner)).
//!
//! # Why corners
//! A Euclidean shortest path among polygonal walls is a polyline that bends only at *corners*:
//! mesh vertices where the free space turns through more than a half turn (a reflex wedge). And
//! it is *taut* there: it wraps around the wall, with both walls at the corner inside the angle
//! the path makes. So between its first and last bend, a shortest path is a shortest path in the
//! graph whose nodes are the corners and whose edges are the segments between two corners that
//! see each other and are taut at both ends: the *sparse visibility graph* of Oh and Leong
//! (*Edge N-Level Sparse Visibility Graphs*, SoCS 2017). Edges that are not taut at both ends
//! are left out: no shortest path uses them, which keeps the mean degree at 3 to 26 on game maps
//! where a full visibility graph has hundreds.
//!
//! # Building it (this module)
//! - **Corners**: per vertex, the free wedges around it (walking around the vertex polygon by
//!   polygon from a wall to the next); a vertex is a corner when one wedge is reflex. A vertex
//!   has at most one reflex wedge (a pinch vertex may add narrow ones, which never hold a bend).
//! - **Edges**: one *sweep* per corner `c`: the exact search (Polyanya) started at `c` into its
//!   reflex wedge, expanding only nodes rooted at `c` (everything `c` sees), and recording every
//!   corner where Polyanya would turn, the non-observable successors' roots. Those are exactly
//!   the corners seen from `c` past which the free space goes on out of `c`'s sight, decided by
//!   the same exact `orient` tests as the search, collinear walls, grazed vertices and pinches
//!   included. An edge is kept when both of its corners' walls lie on one side of its line.
//!   The sweeps are independent and run in parallel (cargo feature `parallel`). Where the
//!   labels below exist, the sweeps run a second time to record what each corner sees of each
//!   polygon, for the views (`sweep_cones`: recorded in the first pass, those records were a
//!   fifth of the build's peak memory on maps whose labels then fail).
//! - **Hub labels** (`labels.rs`, pruned landmark labeling): exact graph distances between any
//!   two corners, when they fit a budget (what the index's memory budget leaves them, at most
//!   [`MAX_ENTRIES`]; they do on cave and dungeon maps and city blocks, not on large open
//!   ones), and kept only with the views they serve (below): where the build finds the views
//!   not worth it, the labels go too, and the graph is fitted as one without them. Where the views pass the
//!   memory budget and the labels do not, the labels may stay without them, as the swept
//!   search's exact corner heuristic, where the build's sample finds that search at least a
//!   tenth faster than the best way without them.
//! - **Landmarks**: 16 [`Landmarks`] for an ALT heuristic where there are no labels:
//!   `h(c) = max(|c t|, landmark bound)`; kept only where they make the search at least 10%
//!   faster on the build's fixed sample of queries (`sample.rs`): on mazes, dead-end pruning
//!   already leads the search, and on open maps the straight line does; there they gain
//!   nothing and cost 64 bytes per vertex.
//! - **Sweeps or not**, where there are no labels: whether a query runs the swept search over
//!   the edges (below) or the plain search, timed on the same sample with the landmarks' choice
//!   ([`CornerGraph::answers_from_edges`]). The sweeps pay on maps of many small obstacles (a
//!   random grid, the generated map of BENCHMARKS.md), where Polyanya turns at corner after
//!   corner; not on mazes, where a forced channel answers most queries.
//!
//! - **Saving it** ([the `file` module](self::file)): [`CornerGraph::to_bytes`] and [`CornerGraph::from_bytes`], a
//!   versioned format with a checksum, tied to its mesh by [`NavMesh::fingerprint`].
//! - **Views** (`views.rs`, with labels only): per polygon, the corners seen from some point
//!   of it and, as the sweeps' exact cones, from which points; per part of a large polygon
//!   (`cells.rs`), only those a point of it may take; per edge, the polygons its segment
//!   crosses; and per corner, the polygons around it in order (`fans.rs`), which give a path's
//!   channel at its bends.
//!
//! # Querying it
//! See [`SearchMethod::Corner`](crate::search::SearchMethod::Corner). With labels, the views
//! answer a query without a search: the segment when the start sees the goal (a raycast),
//! otherwise the least `|s a| + d(a, b) + |b t|` over the corners `a` the start sees and `b`
//! the goal sees, read from their labels (`views.rs` explains why that is exact). Graphs
//! without labels whose build found the sweeps worth it run the swept search below, with their
//! landmarks where kept. The other graphs (views that saved less than a tenth of the plain
//! search's time on the build's sample, or no labels and sweeps that did not pay) leave the
//! query to the plain exact search, with their landmarks. The rest of this section is the
//! search that runs where the views give no answer, and on graphs that sweep.
//!
//! One A* holds three kinds
//! of nodes: the intervals of a sweep from the start (Polyanya's nodes, all rooted at the
//! start), the intervals of a sweep from the goal (ordered by the same kind of lower bound on a
//! whole path, toward the start), and corner nodes. Where the start's sweep would turn at a
//! corner, it makes a corner node; a corner node is expanded along the graph edges that keep the
//! path taut at its corner. Where the goal's sweep sees a corner that the start's side has
//! reached (or the other way round), a path is complete. The first complete path popped is a
//! shortest path: every key is a lower bound on the length of a path through its node.
//!
//! With hub labels, the goal's sweep runs first, whole; then a corner's heuristic is its exact
//! graph distance to the goal (the least `d(c, b) + |b t|` over the corners `b` that see the
//! goal, one pass over `c`'s label), and A* goes nearly straight along the path's own corners.
//!
//! With an `epsilon`, the search stops as soon as the best path found is within `1 + epsilon` of
//! every lower bound still open, and says how close it is
//! ([`Path::bound`](crate::search::Path::bound)).
//!
//! # Why this design (issue 11)
//! The chapter's channel search is fast per node but picks poor channels on real maps (12–72%
//! optimal), and weighted Polyanya barely prunes (measured: w = 1.05 saves 7% of the nodes and
//! gives 64% optimal paths). The corner graph keeps the answers exact while moving the work into
//! a build: the query only sweeps what its two ends see. It pays off where paths bend around
//! many walls, and not on open maps, where Polyanya's own straight-line heuristic already leads
//! it to the goal in a few dozen nodes; BENCHMARKS.md has the figures per map.
//!
//! # Cost
//! Building: one sweep per corner, each the size of what the corner sees (`O(c · v)` in the
//! worst case, far less on game maps), and a second where there are labels, one pruned
//! Dijkstra per corner for the labels, 16
//! whole-mesh searches for the landmarks and the build's timed sample four ways, plain and swept,
//! with and without them (without labels only; two rounds of 0.63–0.68 s each on a
//! 48,801-polygon grid), one raycast per edge for the
//! views and the timed sample that fits their use (`sample.rs`). Memory: 5 bytes per directed
//! edge (its target and sides; not its length, which is the distance between its corners),
//! 16 per vertex, `16 × 4` bytes per vertex for the landmarks, 16 bytes per label entry
//! and 4 more for its link where it fits beside the views,
//! 8 bytes per (polygon, corner in view) pair, 12 per cone and 8 per sweep node kept for the
//! views (`views.rs`), 12–34 per pair for their cells (`cells.rs`), 4 per polygon an
//! edge crosses, and with the views 4 per vertex and 4 per polygon of a corner's fan
//! (`fans.rs`); all of it within
//! [`MAX_INDEX_BYTES`] (48 MiB up to 50,331 polygons), which a build keeps by dropping parts
//! in a fixed order (see there). While it builds, the views' sweeps hold their records, 40
//! bytes each while the views are made from them, and stop once there are more than a quarter
//! of the room the views have in bytes (more than could fit it): a build's peak stays within a
//! small multiple of the budget plus the mesh (BENCHMARKS.md, "Session 37: the views' sweeps
//! within their room": 1.3 GB on an open map of 57,444 tiny polygons, whose unbounded pass
//! failed under an 8 GB limit).
//! Build time, memory and query speed-ups per map are in BENCHMARKS.md.
//!
//! ```
//! use portolan::{build, BuildOptions, PathFinder, Scene, SearchOptions};
//! use portolan::search::corner_graph::CornerGraph;
//! use std::sync::Arc;
//!
//! let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
//! let graph = Arc::new(CornerGraph::build(&mesh));
//! assert!(graph.corner_count() > 0 && graph.edge_count() > 0);
//! let (s, g) = (Scene::DEFAULT_START, Scene::DEFAULT_GOAL);
//! let mut finder = PathFinder::new();
//! let fast = finder.find_path(&mesh, s, g, &SearchOptions::corner(graph)).unwrap();
//! let exact = finder.find_path(&mesh, s, g, &SearchOptions::exact()).unwrap();
//! assert!((fast.length - exact.length).abs() <= 1e-9 * exact.length);
//! assert_eq!(fast.bound, Some(1.0));
//! ```

mod cells;
mod fans;
pub mod file;
mod labels;
mod sample;
mod views;

#[cfg(test)]
mod budget_tests;
#[cfg(test)]
mod sweep_tests;

pub use file::IndexError;
pub(crate) use labels::HubLabels;
pub use labels::MAX_ENTRIES;

/// The most memory, in bytes, that a [`CornerGraph`] built for a mesh of up to 50,331 polygons
/// holds ([`CornerGraph::memory_budget`]): 48 MiB, under the 50 MB that issue 15 allows an index
/// of a 50,000-polygon mesh. A build keeps within it by dropping, in this order:
/// 1. the views' per-edge strips, then their cells (which only save the tests of entries a
///    query surely takes or cannot take), then the cones' chains (the strips and the chains only
///    save the raycasts that build a view path's channel), all of them after the labels' links
///    (a link only saves a search per corner where a path is read back from the labels: the
///    views take the room the labels leave without them, and the links stay where they fit
///    beside what the views kept);
/// 2. the views (the labels stay, as the swept search's heuristic, where the build's sample
///    finds that search at least a tenth faster than the best way without them);
/// 3. of the ways a graph without labels answers (the plain search or the sweeps over its
///    edges, each with or without landmarks), those whose edges and landmarks pass it are not
///    timed or chosen, and edges that no query sweeps are dropped where they pass it (on maps
///    of dense lines of sight, such as a large grid of city blocks, the plain search with
///    landmarks then answers the queries).
///
/// The labels' own budget ([`MAX_ENTRIES`]) is also cut to what the edges leave of it. What a
/// graph keeps whatever its budget: its corners (per mesh vertex its two walls, a polygon and
/// where its edges start: 16 bytes); a budget below them (`portolan index --budget-mib 0`, say)
/// leaves the graph only them, and its queries to the plain exact search.
///
/// ```
/// use portolan::search::corner_graph::{CornerGraph, MAX_INDEX_BYTES};
/// use portolan::{build, BuildOptions, Scene};
/// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
/// assert!(CornerGraph::build(&mesh).memory_bytes() <= MAX_INDEX_BYTES);
/// ```
pub const MAX_INDEX_BYTES: usize = 48 << 20;

/// The memory budget per polygon of a [`CornerGraph`] for meshes past 50,331 polygons
/// ([`CornerGraph::memory_budget`]): 50 MB per 50,000 polygons.
///
/// ```
/// use portolan::search::corner_graph::{CornerGraph, INDEX_BYTES_PER_POLYGON};
/// assert_eq!(CornerGraph::memory_budget(100_000), 100_000 * INDEX_BYTES_PER_POLYGON);
/// ```
pub const INDEX_BYTES_PER_POLYGON: usize = 1_000;
use views::{SweepCones, Views};
pub(crate) use views::{ViewAnswer, ViewChoice, ViewScratch};

use super::landmarks::Landmarks;
use super::polyanya::ExactSearch;
use crate::build::{BuildError, CancelToken};
use crate::geom::{orient, Orientation, Vec2};
use crate::mesh::{NavMesh, PolyId, VertexId};
use std::sync::Arc;

/// How many landmarks the graph's heuristic uses (see [`Landmarks`]; 16 is the measured sweet
/// spot there).
///
/// ```
/// use portolan::search::corner_graph::LANDMARKS;
/// use portolan::search::landmarks::Landmarks;
/// use portolan::{build, BuildOptions, Scene};
/// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
/// // The table a graph without labels keeps where it pays: LANDMARKS distances per vertex,
/// // 4 bytes each.
/// let landmarks = Landmarks::build(&mesh, LANDMARKS);
/// assert_eq!(landmarks.count(), LANDMARKS);
/// assert_eq!(landmarks.memory_bytes(), LANDMARKS * 4 * mesh.vertex_count());
/// ```
pub const LANDMARKS: usize = 16;

const NONE: u32 = u32::MAX;

/// Bytes per directed edge: its target (4) and sides (1). Its length is not kept: it is the
/// distance between its corners, `geom::dist` of their coordinates, to the bit what the sweep that
/// found it measured (the sweep's `0 + dist(c, d)`), so a search computes it where it reads it.
const EDGE_BYTES: usize = 5;

/// The turning corners of a mesh and the taut lines of sight between them, with landmark
/// distances: the index of [`SearchMethod::Corner`](crate::search::SearchMethod::Corner).
/// Built once per mesh ([`CornerGraph::build`]), shared in an `Arc` by every query, tied to
/// its mesh by [`NavMesh::instance_id`] (another mesh's graph is refused with
/// [`PathError::ForeignData`](crate::search::PathError::ForeignData)). See the
/// [module docs](self).
#[derive(Clone, Debug, PartialEq)]
pub struct CornerGraph {
    mesh_id: u64,
    /// The mesh's [`NavMesh::fingerprint`] and polygon count (saving the graph).
    mesh_fingerprint: u64,
    polygons: usize,
    /// Per vertex: the wall vertices before and after it around its reflex wedge (`u → v → w`
    /// with the free space on the left), or `[NONE, NONE]` when it is not a corner.
    turns: Vec<[u32; 2]>,
    /// Per vertex: a polygon of its reflex wedge (`NONE` when it is not a corner).
    wedge_poly: Vec<u32>,
    /// Edges in compressed rows: the edges of vertex `v` are `offsets[v]..offsets[v + 1]`.
    offsets: Vec<u32>,
    targets: Vec<u32>,
    /// Per edge `c → d`: [`LEFT`] when both of `c`'s walls are left of the line `c → d` (or on
    /// it), [`RIGHT`] when both are right of it (or on it): which turns at `c` the edge can
    /// continue tautly.
    sides: Vec<u8>,
    /// Landmarks for the heuristic where there are no labels (and they pay).
    landmarks: Option<Arc<Landmarks>>,
    /// Exact graph distances between corners, when they fit ([`MAX_ENTRIES`], the budget).
    labels: Option<HubLabels>,
    /// Per polygon, the corners it sees and from where (with labels only; `views.rs`).
    views: Option<Views>,
    /// Without labels: whether corner queries run the swept search over the edges (with the
    /// landmarks, where kept) instead of the plain search ([`sample::label_less_fit`]).
    sweeps: bool,
}

/// A path turning left at a corner (see [`CornerGraph::turn_mask`]).
pub(crate) const LEFT: u8 = 1;
/// A path turning right at a corner.
pub(crate) const RIGHT: u8 = 2;

impl CornerGraph {
    /// Builds the graph of `mesh`: corners, one sweep per corner, hub labels and, with them,
    /// the views (a second sweep per corner), both kept where the views make queries at least
    /// 10% faster on the build's timed sample; where the labels do not fit or are not kept,
    /// [`LANDMARKS`] landmarks and the swept search over the edges, each on the same condition
    /// (see the module docs).
    /// The graph measures a mesh with off-mesh links without them; the corner search is the
    /// plain exact search on such a mesh, so neither landmarks nor sweeps are kept there.
    ///
    /// ```
    /// use portolan::search::corner_graph::CornerGraph;
    /// use portolan::{build, BuildOptions, PathFinder, Scene, SearchOptions};
    /// use std::sync::Arc;
    /// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
    /// let graph = CornerGraph::build(&mesh);
    /// assert!(graph.corner_count() > 0 && graph.mesh_id() == mesh.instance_id());
    /// let corner = SearchOptions::corner(Arc::new(graph));
    /// let (s, t) = (Scene::DEFAULT_START, Scene::DEFAULT_GOAL);
    /// let mut finder = PathFinder::new();
    /// let fast = finder.find_path(&mesh, s, t, &corner).unwrap();
    /// let exact = finder.find_path(&mesh, s, t, &SearchOptions::exact()).unwrap();
    /// assert!((fast.length - exact.length).abs() <= 1e-9 * exact.length);
    /// ```
    pub fn build(mesh: &NavMesh) -> CornerGraph {
        Self::build_with(mesh, &CornerGraphOptions::default(), &CancelToken::new())
            .expect("a token nobody cancels never stops the build")
    }

    /// [`build`](CornerGraph::build) that stops early, with [`BuildError::Cancelled`], once
    /// `cancel` is cancelled or past its deadline: between stages, and between the corners of
    /// the sweeps, the samples and hubs of the labels and the samples of the views' fit, its
    /// longest parts (on a 48,750-polygon mesh it returned within about 0.2 s of its deadline;
    /// BENCHMARKS.md, "How soon does a cancelled build stop?"). For callers that must bound the
    /// time a build may take (a server answering a request).
    ///
    /// ```
    /// # use portolan::{build, BuildOptions, Scene};
    /// use portolan::build::{BuildError, CancelToken};
    /// use portolan::search::corner_graph::CornerGraph;
    /// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
    /// assert!(CornerGraph::build_cancellable(&mesh, &CancelToken::new()).is_ok());
    /// let stopped = CancelToken::new();
    /// stopped.cancel();
    /// assert!(matches!(CornerGraph::build_cancellable(&mesh, &stopped), Err(BuildError::Cancelled)));
    /// ```
    pub fn build_cancellable(
        mesh: &NavMesh,
        cancel: &CancelToken,
    ) -> Result<CornerGraph, BuildError> {
        Self::build_with(mesh, &CornerGraphOptions::default(), cancel)
    }

    /// [`build`](CornerGraph::build) without the timed choices, so the same mesh always gives
    /// the same graph: the views kept wherever there are labels and answering every query,
    /// even where the build's sample finds them saving less than a tenth of the plain search's
    /// time ([`CornerGraph::answers_from_views`]) or the plain search faster for short queries
    /// ([`CornerGraph::plain_first_below`] is 0), and the landmarks kept and the edges swept
    /// ([`CornerGraph::answers_from_edges`]) wherever there are no labels: for maps whose
    /// queries are known to be long, to test the views on small meshes,
    /// and where counts must follow from the input alone (the seeded evaluation).
    ///
    /// ```
    /// # use portolan::{build, BuildOptions, Scene};
    /// # use portolan::search::corner_graph::CornerGraph;
    /// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
    /// assert!(CornerGraph::build_with_views(&mesh).answers_from_views());
    /// ```
    pub fn build_with_views(mesh: &NavMesh) -> CornerGraph {
        Self::build_with(mesh, &CornerGraphOptions::untimed(), &CancelToken::new())
            .expect("a token nobody cancels never stops the build")
    }

    /// The most memory, in bytes, that a graph built for a mesh of `polygons` polygons holds
    /// ([`CornerGraph::memory_bytes`]): [`MAX_INDEX_BYTES`], or [`INDEX_BYTES_PER_POLYGON`]
    /// per polygon where that is more (past 50,331 polygons).
    ///
    /// ```
    /// use portolan::search::corner_graph::{CornerGraph, MAX_INDEX_BYTES};
    /// assert_eq!(CornerGraph::memory_budget(50_000), MAX_INDEX_BYTES);
    /// assert_eq!(CornerGraph::memory_budget(200_000), 200_000_000);
    /// ```
    pub fn memory_budget(polygons: usize) -> usize {
        MAX_INDEX_BYTES.max(polygons.saturating_mul(INDEX_BYTES_PER_POLYGON))
    }

    /// The graph built as `options` say ([`CornerGraphOptions`]: whether the build times its
    /// choices, how long its labels and landmarks may take, and within how much memory: by
    /// default its [`memory_budget`](CornerGraph::memory_budget)); stops with
    /// [`BuildError::Cancelled`] as [`build_cancellable`](CornerGraph::build_cancellable) does.
    /// [`CornerGraph::build`] is this with the default options.
    ///
    /// ```
    /// use portolan::build::CancelToken;
    /// use portolan::search::corner_graph::{CornerGraph, CornerGraphOptions};
    /// use portolan::{build, BuildOptions, Scene};
    /// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
    /// // Labels and landmarks as long as they take: never dropped for time.
    /// let options = CornerGraphOptions::default().with_time_limits(None, None);
    /// let graph = CornerGraph::build_with(&mesh, &options, &CancelToken::new()).unwrap();
    /// assert_eq!(graph.mesh_id(), mesh.instance_id());
    /// ```
    pub fn build_with(
        mesh: &NavMesh,
        options: &CornerGraphOptions,
        cancel: &CancelToken,
    ) -> Result<CornerGraph, BuildError> {
        let budget = options.budget_for(mesh.polygon_count());
        Self::build_within(mesh, options, budget, cancel)
    }

    /// [`build_with`](CornerGraph::build_with) within `budget` bytes (see [`MAX_INDEX_BYTES`]
    /// for what goes first).
    fn build_within(
        mesh: &NavMesh,
        options: &CornerGraphOptions,
        budget: usize,
        cancel: &CancelToken,
    ) -> Result<CornerGraph, BuildError> {
        let (timed, label_time, landmark_time) =
            (options.fit, options.label_time, options.landmark_time);
        let (turns, wedge_poly) = turning_corners(mesh);
        let corners: Vec<u32> = (0..mesh.vertex_count() as u32)
            .filter(|&v| turns[v as usize][0] != NONE)
            .collect();
        let mut rows = sweep_edges(mesh, &turns, &wedge_poly, &corners, cancel)?;
        symmetrize(&corners, &mut rows, mesh.vertex_count());
        let mut offsets = vec![0u32; mesh.vertex_count() + 1];
        for (c, row) in corners.iter().zip(&rows) {
            offsets[*c as usize + 1] = row.len() as u32;
        }
        for i in 0..mesh.vertex_count() {
            offsets[i + 1] += offsets[i];
        }
        let mut targets = Vec::with_capacity(offsets[mesh.vertex_count()] as usize);
        let mut sides = Vec::with_capacity(targets.capacity());
        let mut grouped = Vec::new();
        for (&c, row) in corners.iter().zip(rows) {
            let x = mesh.vertex(VertexId(c));
            let [u, w] = turns[c as usize];
            // Grouped by the turns they continue (`taut_edges`), each group by target.
            grouped.clear();
            grouped.extend(row.into_iter().map(|d| {
                let side = side_mask(x, mesh.vertex(VertexId(d)), walls(mesh, u, w));
                (side_group(side), d, side)
            }));
            grouped.sort_unstable_by_key(|e| (e.0, e.1));
            for &(_, d, side) in &grouped {
                targets.push(d);
                sides.push(side);
            }
        }
        cancel.check()?;
        let mut graph = CornerGraph {
            mesh_id: mesh.instance_id(),
            mesh_fingerprint: mesh.fingerprint(),
            polygons: mesh.polygon_count(),
            turns,
            wedge_poly,
            offsets,
            targets,
            sides,
            labels: None,
            landmarks: None,
            views: None,
            sweeps: false,
        };
        // What the graph holds with its edges and without them (`memory_bytes` without labels,
        // views and landmarks), and what the landmarks would.
        let n = mesh.vertex_count();
        let edge_bytes = graph.memory_bytes();
        let bare_bytes = edge_bytes - graph.edge_count() * EDGE_BYTES;
        let lm_bytes = Landmarks::memory_for(LANDMARKS, n);
        // Edges that do not fit serve nothing: no labels (whose paths read them), no sweeps.
        if edge_bytes <= budget {
            // A timed build gives them `LABEL_TIME`; past it, none.
            let limited = match label_time {
                Some(limit) => cancel.within(limit),
                None => cancel.clone(),
            };
            let row = |c: u32| -> Vec<(u32, f64)> { graph.weighted_edges(mesh, c).collect() };
            graph.labels = match HubLabels::build(n, &corners, &row, budget - edge_bytes, &limited)
            {
                Ok(labels) => labels,
                // Stopped by the limit, not by the caller.
                Err(BuildError::Cancelled) if cancel.check().is_ok() => None,
                Err(e) => return Err(e),
            };
        }
        cancel.check()?;
        // Views are only of use with labels (the query joins them).
        // The views take the room the labels leave without their links (below).
        let (label_bytes, links) = graph
            .labels
            .as_ref()
            .map_or((0, 0), |l| (l.memory_bytes(), l.link_bytes()));
        let room = budget.saturating_sub(edge_bytes + label_bytes - links);
        let cones = match graph.labels {
            Some(_) => sweep_cones(mesh, &graph.wedge_poly, &corners, room, cancel)?,
            None => None,
        };
        if let Some(cones) = cones {
            let mut views = Views::build(mesh, &graph, &corners, cones);
            // The views take the room the labels leave without their links, and the links stay
            // where they fit beside what the views kept: the links are the first part to go.
            // They only save a search per corner where a path is read back (1.01–1.08× on the
            // view queries), less than the strips (11–17%) or the cells (6–13%) save, and a
            // 1,024 × 1,024 grid of city blocks keeps its views, 10× its exact search against
            // 2.3× without them, only without its links (BENCHMARKS.md, "Session 29").
            // Within the budget, or not at all (the labels stay, for the swept search below);
            // the cells and then the strips, which the budget drops first, only where the rest
            // leaves them room (the strips only with the cells, the cells only with the chains).
            if views.fit_memory(room) {
                views.add_cells_and_strips(mesh, &graph, room, cancel)?;
                if views.memory_bytes() + links > room {
                    if let Some(labels) = graph.labels.as_mut() {
                        labels.drop_links();
                    }
                }
                graph.views = Some(views);
            }
            cancel.check()?;
            // Kept where they pay (`views::fit`), with how queries use them. Where they do
            // not, the labels go too: no query would read them (a 512 × 512 maze's labels
            // fit since the greedy hub order, 43 entries per corner and 8.5 MB, and its views
            // save nothing over its forced channels), and the graph is fitted as one without.
            if timed && graph.views.is_some() {
                let choice = views::fit(mesh, &graph, cancel)?;
                match (graph.views.as_mut(), choice) {
                    (Some(v), Some(c)) => v.choice = c,
                    _ => {
                        graph.views = None;
                        graph.labels = None;
                    }
                }
            }
        }
        if graph.views.is_none() {
            // Without views: landmarks and the swept search over the edges, both, either or
            // neither, as `sample.rs` decides, among the ways whose memory fits the budget;
            // edges that no query sweeps are dropped where they pass it.
            // (Labels without views serve as the swept search's heuristic, which never reads a
            // way back: their links go.)
            let labels = graph.labels.take().map(|mut labels| {
                labels.drop_links();
                labels
            });
            let fits = |edges: bool, lm: bool| {
                let edges = if edges { edge_bytes } else { bare_bytes };
                edges + if lm { lm_bytes } else { 0 } <= budget
            };
            let allowed = [true, fits(false, true), fits(true, false), fits(true, true)];
            let landmarks = || landmarks_within(mesh, landmark_time, cancel);
            let (fitted, choice) =
                sample::label_less_fit(mesh, graph, landmarks, timed, allowed, cancel)?;
            graph = fitted;
            graph.sweeps = choice.sweeps;
            if !choice.landmarks {
                graph.landmarks = None;
            }
            // Labels left here (the views passed the budget, the labels did not) serve the
            // swept search alone, as its exact corner heuristic (which reads no landmarks):
            // kept where that search is at least a tenth faster than the way just chosen
            // (untimed: always): brc202d within 2 MiB, 3.2 times its exact search against 1.8
            // with landmarks (BENCHMARKS.md, "What does the index buy per megabyte?").
            if let Some(labels) = labels {
                graph = sample::labels_where_they_pay(mesh, graph, labels, timed, cancel)?;
            }
            if !graph.sweeps && graph.memory_bytes() > budget {
                graph.drop_edges();
            }
        }
        Ok(graph)
    }

    /// Drops every edge (each corner's row empty), for a graph whose edges pass its memory
    /// budget: its queries then run the plain search.
    fn drop_edges(&mut self) {
        self.offsets = vec![0; self.offsets.len()];
        self.targets = Vec::new();
        self.sides = Vec::new();
    }

    /// The [`NavMesh::instance_id`] of the mesh this graph was built for.
    ///
    /// ```
    /// # use portolan::{build, BuildOptions, Scene};
    /// # use portolan::search::corner_graph::CornerGraph;
    /// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
    /// assert_eq!(CornerGraph::build(&mesh).mesh_id(), mesh.instance_id());
    /// ```
    pub fn mesh_id(&self) -> u64 {
        self.mesh_id
    }

    /// How many corners (graph nodes) the mesh has.
    ///
    /// ```
    /// # use portolan::{build, geom::Aabb, BuildOptions, Scene, Vec2};
    /// # use portolan::search::corner_graph::CornerGraph;
    /// // One square obstacle: its four corners.
    /// let scene = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(10.0, 10.0)))
    ///     .with_obstacle([(4.0, 4.0), (6.0, 4.0), (6.0, 6.0), (4.0, 6.0)]);
    /// let mesh = build(&scene, &BuildOptions::default()).unwrap();
    /// assert_eq!(CornerGraph::build(&mesh).corner_count(), 4);
    /// ```
    pub fn corner_count(&self) -> usize {
        self.turns.iter().filter(|t| t[0] != NONE).count()
    }

    /// `true` when vertex `v` is a corner (a graph node).
    ///
    /// ```
    /// # use portolan::{build, BuildOptions, Scene};
    /// # use portolan::mesh::VertexId;
    /// # use portolan::search::corner_graph::CornerGraph;
    /// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
    /// let graph = CornerGraph::build(&mesh);
    /// let corners = (0..mesh.vertex_count() as u32).filter(|&v| graph.is_corner(VertexId(v)));
    /// assert_eq!(corners.count(), graph.corner_count());
    /// ```
    pub fn is_corner(&self, v: VertexId) -> bool {
        self.turns.get(v.index()).is_some_and(|t| t[0] != NONE)
    }

    /// How many directed edges the graph has (each line of sight counts twice).
    ///
    /// ```
    /// # use portolan::{build, geom::Aabb, BuildOptions, Scene, Vec2};
    /// # use portolan::search::corner_graph::CornerGraph;
    /// let scene = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(10.0, 10.0)))
    ///     .with_obstacle([(4.0, 4.0), (6.0, 4.0), (6.0, 6.0), (4.0, 6.0)]);
    /// let mesh = build(&scene, &BuildOptions::default()).unwrap();
    /// // Each corner of the square sees its two neighbours tautly; the diagonals cross it.
    /// assert_eq!(CornerGraph::build(&mesh).edge_count(), 8);
    /// ```
    pub fn edge_count(&self) -> usize {
        self.targets.len()
    }

    /// The edges out of corner `v`: the corners it sees tautly (none for a vertex that is not
    /// a corner). An edge's length is the distance between its two corners on the mesh, which
    /// the graph does not keep (see the [module docs](self), "Cost").
    ///
    /// ```
    /// # use portolan::{build, BuildOptions, Scene};
    /// # use portolan::mesh::VertexId;
    /// # use portolan::search::corner_graph::CornerGraph;
    /// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
    /// let graph = CornerGraph::build(&mesh);
    /// for v in (0..mesh.vertex_count() as u32).map(VertexId) {
    ///     for w in graph.edges(v) {
    ///         assert!(graph.is_corner(v) && graph.is_corner(w));
    ///         // Every edge is a clear line of sight between its corners.
    ///         let ray = portolan::raycast(&mesh, mesh.vertex(v), mesh.vertex(w)).unwrap();
    ///         assert!(ray.is_clear());
    ///     }
    /// }
    /// ```
    pub fn edges(&self, v: VertexId) -> impl ExactSizeIterator<Item = VertexId> + '_ {
        // (A vertex past the mesh's has none.)
        let r = if (v.0 as usize) < self.turns.len() {
            self.row(v.0)
        } else {
            0..0
        };
        self.targets[r].iter().map(|&t| VertexId(t))
    }

    /// The edges out of corner `c` with their lengths on `mesh` (this graph's): `dist` of the
    /// corners' coordinates, to the bit what the build's sweep measured (`EDGE_BYTES`).
    pub(crate) fn weighted_edges<'a>(
        &'a self,
        mesh: &'a NavMesh,
        c: u32,
    ) -> impl ExactSizeIterator<Item = (u32, f64)> + 'a {
        let (vs, x) = (mesh.vertices(), mesh.vertices()[c as usize]);
        self.targets[self.row(c)]
            .iter()
            .map(move |&d| (d, crate::geom::dist(x, vs[d as usize])))
    }

    /// The landmark table of the graph's heuristic: `None` where the graph has hub labels, and
    /// where the build found the landmarks save less than 10% of its search's time (the plain
    /// search's, or the swept search's on a graph that [sweeps](CornerGraph::answers_from_edges)).
    ///
    /// ```
    /// # use portolan::{build, BuildOptions, Scene};
    /// # use portolan::search::corner_graph::{CornerGraph, LANDMARKS};
    /// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
    /// // Small enough for hub labels: no landmarks needed.
    /// assert!(CornerGraph::build(&mesh).landmarks().is_none());
    /// ```
    pub fn landmarks(&self) -> Option<&Arc<Landmarks>> {
        self.landmarks.as_ref()
    }

    /// Heap memory held, in bytes (landmarks included).
    ///
    /// ```
    /// # use portolan::{build, BuildOptions, Scene};
    /// # use portolan::search::corner_graph::CornerGraph;
    /// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
    /// let graph = CornerGraph::build(&mesh);
    /// assert!(graph.memory_bytes() >= graph.edge_count() * 5);
    /// ```
    pub fn memory_bytes(&self) -> usize {
        self.turns.len() * 8
            + self.wedge_poly.len() * 4
            + self.offsets.len() * 4
            + self.targets.len() * EDGE_BYTES
            + self.landmarks.as_ref().map_or(0, |l| l.memory_bytes())
            + self.labels.as_ref().map_or(0, HubLabels::memory_bytes)
            + self.views.as_ref().map_or(0, Views::memory_bytes)
    }

    /// How many (polygon, corner seen from it) pairs the views hold, or `None` when the graph
    /// has none (no hub labels); see `views.rs`.
    ///
    /// ```
    /// # use portolan::{build, BuildOptions, Scene};
    /// # use portolan::search::corner_graph::CornerGraph;
    /// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
    /// let graph = CornerGraph::build_with_views(&mesh);
    /// assert!(graph.view_entries().unwrap() >= mesh.polygon_count());
    /// ```
    pub fn view_entries(&self) -> Option<usize> {
        self.views.as_ref().map(Views::entry_count)
    }

    /// How many hub-label entries the graph holds, or `None` when it has no labels: they
    /// would have passed [`MAX_ENTRIES`] or the memory budget (open maps), or
    /// the build's timed fit found the views they serve not worth it (then no query would read
    /// them), or, where the views passed the budget, the labels' swept search not a tenth
    /// faster than the best way without them; see the [module docs](self).
    ///
    /// ```
    /// # use portolan::{build, BuildOptions, Scene};
    /// # use portolan::search::corner_graph::CornerGraph;
    /// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
    /// let graph = CornerGraph::build_with_views(&mesh);
    /// assert!(graph.label_entries().unwrap() >= graph.corner_count());
    /// ```
    pub fn label_entries(&self) -> Option<usize> {
        self.labels.as_ref().map(HubLabels::entries)
    }

    #[inline]
    pub(crate) fn labels(&self) -> Option<&HubLabels> {
        self.labels.as_ref()
    }

    /// How queries use the views: `None` when they saved less than a tenth of the plain exact
    /// search's time on the build's sample (small maps, and open maps where the endpoints see
    /// many corners and plain queries are short): the corner search then runs the plain search. See
    /// [`CornerGraph::answers_from_views`].
    #[inline]
    pub(crate) fn view_choice(&self) -> Option<ViewChoice> {
        self.views.as_ref().map(|v| v.choice)
    }

    /// Where the views answer ([`answers_from_views`](CornerGraph::answers_from_views)): the
    /// straight-line distance between start and goal below which a corner query first tries
    /// the plain exact search for a few nodes (short queries; 0 where the views won at every
    /// distance the build sampled). `None` without views.
    ///
    /// ```
    /// # use portolan::{build, BuildOptions, Scene};
    /// # use portolan::search::corner_graph::CornerGraph;
    /// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
    /// let graph = CornerGraph::build_with_views(&mesh);
    /// assert!(graph.plain_first_below().is_some_and(|d| d >= 0.0));
    /// ```
    pub fn plain_first_below(&self) -> Option<f64> {
        self.view_choice().map(|c| c.plain_below)
    }

    /// Whether corner queries on this mesh are answered from the graph's views (`true`), or by the
    /// plain exact search because the build found the views saved less than a tenth of its time
    /// here (`false`: the views are then dropped, and the labels with them). The build decides by
    /// running a fixed sample of at most 256 queries between polygon centroids (polygons drawn by
    /// area; a quarter between random polygons, the rest short; short draws off the mesh, and
    /// pairs of one polygon, are skipped) both ways, up to
    /// three times in rounds, and comparing their least times. Where the views are kept, the same
    /// sample fits the straight-line distance below which a query first tries the plain search for
    /// a few nodes: short queries, which the plain search ends sooner than the views can read what
    /// the endpoints see. The sample is fixed and the answers are exact either way; only this
    /// choice follows the building machine's times, so two builds may differ in it.
    ///
    /// ```
    /// # use portolan::{build, BuildOptions, Scene};
    /// # use portolan::search::corner_graph::CornerGraph;
    /// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
    /// let graph = CornerGraph::build(&mesh);
    /// assert_eq!(graph.answers_from_views(), graph.view_entries().is_some());
    /// // Whichever way the timed fit went, labels are kept only with views that answer.
    /// assert_eq!(graph.answers_from_views(), graph.label_entries().is_some());
    /// ```
    pub fn answers_from_views(&self) -> bool {
        self.views.is_some()
    }

    /// Whether corner queries on this mesh run the swept search over the graph's edges: on
    /// graphs without hub labels (open maps, where they pass the memory budget), where
    /// the build found it at least a tenth faster than the plain exact search on its sample
    /// (with the [`landmarks`](CornerGraph::landmarks) or without them, as they paid). `false`
    /// with labels ([`answers_from_views`](CornerGraph::answers_from_views) says how those
    /// answer), and where the plain search was as fast: then a corner query is the plain
    /// search, with the graph's landmarks where it has them. [`CornerGraph::build_with_views`]
    /// makes no timed choice: every graph without labels sweeps its edges, but on a mesh with
    /// off-mesh links (where the corner search is the plain search).
    ///
    /// ```
    /// # use portolan::{build, BuildOptions, Scene};
    /// # use portolan::search::corner_graph::CornerGraph;
    /// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
    /// // Small enough for hub labels: the views answer, and the edges are not swept.
    /// let graph = CornerGraph::build_with_views(&mesh);
    /// assert!(graph.answers_from_views() && !graph.answers_from_edges());
    /// ```
    pub fn answers_from_edges(&self) -> bool {
        self.sweeps
    }

    #[inline]
    pub(crate) fn row(&self, v: u32) -> std::ops::Range<usize> {
        self.offsets[v as usize] as usize..self.offsets[v as usize + 1] as usize
    }

    /// The edges out of corner `v` that a path may continue along after turning `mask`
    /// ([`turn_mask`](CornerGraph::turn_mask)) there: a row's edges are grouped by their
    /// [`sides`](CornerGraph::sides), left-only, both, right-only ([`side_group`]), so those
    /// whose sides share a bit with the mask are one run of the row. On a random grid about
    /// one edge in five does (BENCHMARKS.md, "Session 19"): the expansion of a corner reads
    /// only those.
    #[inline]
    pub(crate) fn taut_edges(&self, v: u32, mask: u8) -> std::ops::Range<usize> {
        let r = self.row(v);
        let sides = &self.sides[r.clone()];
        // The groups wanted, `lo..hi`: left turns take groups 0 and 1, right turns 1 and 2.
        let (lo, hi) = match mask & (LEFT | RIGHT) {
            0 => return r.start..r.start,
            LEFT => (0, 2),
            RIGHT => (1, 3),
            _ => (0, 3),
        };
        let at = |g: u8| match g {
            0 => 0,
            3 => sides.len(),
            g => sides.partition_point(|&x| side_group(x) < g),
        };
        r.start + at(lo)..r.start + at(hi)
    }

    /// The index of the edge `a → b`, if there is one: a scan of `a`'s row (11 to 27 targets
    /// on average on the shared maps; cheaper than a search per side group).
    pub(crate) fn edge_index(&self, a: u32, b: u32) -> Option<usize> {
        let r = self.row(a);
        self.targets[r.clone()]
            .iter()
            .position(|&t| t == b)
            .map(|k| r.start + k)
    }

    #[inline]
    pub(crate) fn targets(&self) -> &[u32] {
        &self.targets
    }

    #[inline]
    pub(crate) fn sides(&self) -> &[u8] {
        &self.sides
    }

    /// The turns a path arriving at corner `v` from `p` may make there tautly: [`LEFT`] when
    /// both walls are left of `p → v` (or on that line), [`RIGHT`] when both are right of it.
    /// An edge `v → d` then continues tautly when `p → v → d` turns that way and the edge's
    /// [`sides`](CornerGraph::sides) allow it, or when the three points are on one line.
    #[inline]
    pub(crate) fn turn_mask(&self, mesh: &NavMesh, p: Vec2, v: u32) -> u8 {
        let [u, w] = self.turns[v as usize];
        side_mask(p, mesh.vertex(VertexId(v)), walls(mesh, u, w))
    }

    /// A polygon of corner `v`'s reflex wedge.
    #[inline]
    pub(crate) fn wedge_poly(&self, v: u32) -> PolyId {
        PolyId(self.wedge_poly[v as usize])
    }

    /// `true` when `v` is a corner and the line from `p` to it leaves both of its walls on one
    /// side (a path from `p` can bend there around the wall).
    #[inline]
    pub(crate) fn taut_from(&self, mesh: &NavMesh, p: Vec2, v: u32) -> bool {
        let [u, w] = self.turns[v as usize];
        u != NONE && one_side(p, mesh.vertex(VertexId(v)), walls(mesh, u, w))
    }

    /// `true` when `p` lies strictly inside the cone opposite corner `v`'s walls (the points
    /// `v - a·(u - v) - b·(w - v)`, `a, b > 0`): the line from `p` to `v` runs into the wall
    /// head-on, so a path from `p` cannot bend at `v` ([`taut_from`](CornerGraph::taut_from)
    /// is false there, as it is behind the wall).
    pub(crate) fn faces(&self, mesh: &NavMesh, p: Vec2, v: u32) -> bool {
        let [u, w] = self.turns[v as usize];
        if u == NONE {
            return false;
        }
        let c = mesh.vertex(VertexId(v));
        let [xu, xw] = walls(mesh, u, w);
        let (a, b) = (orient(c, xu, p), orient(c, xw, p));
        match orient(c, xu, xw) {
            Orientation::CounterClockwise => {
                a == Orientation::Clockwise && b == Orientation::CounterClockwise
            }
            Orientation::Clockwise => {
                a == Orientation::CounterClockwise && b == Orientation::Clockwise
            }
            Orientation::Collinear => false,
        }
    }

    /// `true` when the path `p → v → d` wraps around corner `v`'s wall: both walls lie in the
    /// closed angle the path makes at `v` (or the three points are on one line), so it cannot
    /// be shortened near `v`.
    #[inline]
    pub(crate) fn taut_turn(&self, mesh: &NavMesh, p: Vec2, v: u32, d: Vec2) -> bool {
        let [u, w] = self.turns[v as usize];
        let c = mesh.vertex(VertexId(v));
        let (want_d, want_p) = match orient(p, c, d) {
            Orientation::Collinear => return true,
            Orientation::CounterClockwise => {
                (Orientation::CounterClockwise, Orientation::Clockwise)
            }
            Orientation::Clockwise => (Orientation::Clockwise, Orientation::CounterClockwise),
        };
        walls(mesh, u, w).iter().all(|&x| {
            let (sd, sp) = (orient(c, d, x), orient(c, p, x));
            (sd == want_d || sd.is_collinear()) && (sp == want_p || sp.is_collinear())
        })
    }
}

#[inline]
fn walls(mesh: &NavMesh, u: u32, w: u32) -> [Vec2; 2] {
    [mesh.vertex(VertexId(u)), mesh.vertex(VertexId(w))]
}

/// `true` when neither point of `walls` is strictly on the other side of the line `p → c` than
/// the other one.
#[inline]
fn one_side(p: Vec2, c: Vec2, walls: [Vec2; 2]) -> bool {
    let (a, b) = (orient(p, c, walls[0]), orient(p, c, walls[1]));
    a.is_collinear() || b.is_collinear() || a == b
}

/// [`LEFT`] when both `walls` are left of (or on) the line `p → c`, [`RIGHT`] when both are
/// right of (or on) it; both bits when both are on it.
#[inline]
fn side_mask(p: Vec2, c: Vec2, walls: [Vec2; 2]) -> u8 {
    let mut m = LEFT | RIGHT;
    for x in walls {
        match orient(p, c, x) {
            Orientation::CounterClockwise => m &= LEFT,
            Orientation::Clockwise => m &= RIGHT,
            Orientation::Collinear => {}
        }
    }
    m
}

/// Where an edge with `sides` goes in its corner's row: edges continuing left turns only
/// first (0), then both (1), then right turns only (2). No stored edge has neither side (both
/// ends are taut); a loaded index is checked for that.
#[inline]
pub(crate) fn side_group(sides: u8) -> u8 {
    match sides {
        LEFT => 0,
        RIGHT => 2,
        _ => 1,
    }
}

/// Per vertex: its reflex wedge's walls `[u, w]` (or `[NONE, NONE]`) and a polygon of that wedge.
fn turning_corners(mesh: &NavMesh) -> (Vec<[u32; 2]>, Vec<u32>) {
    let mut turns = vec![[NONE, NONE]; mesh.vertex_count()];
    let mut wedge_poly = vec![NONE; mesh.vertex_count()];
    for p in mesh.polygons() {
        let vs = mesh.polygon_vertices(p);
        let n = vs.len();
        for i in 0..n {
            // A wall u → v ends at v (the free space on its left, in p): walk around v through
            // the edges at v, away from that wall, to the wall that closes the wedge.
            let prev = (i + n - 1) % n;
            if mesh.neighbours(p)[prev].is_some() {
                continue;
            }
            let (u, v) = (vs[prev], vs[i]);
            if turns[v.index()][0] != NONE {
                continue;
            }
            let Some(w) = wedge_end(mesh, v, p) else {
                continue;
            };
            if orient(mesh.vertex(u), mesh.vertex(v), mesh.vertex(w)) == Orientation::Clockwise {
                turns[v.index()] = [u.0, w.0];
                wedge_poly[v.index()] = p.0;
            }
        }
    }
    (turns, wedge_poly)
}

/// From polygon `p` across `v`'s outgoing edges polygon by polygon until a wall `v → w`:
/// returns `w` (`None` on a malformed fan).
fn wedge_end(mesh: &NavMesh, v: VertexId, p: PolyId) -> Option<VertexId> {
    let (last, slot) = fans::walk_wedge(mesh, v, p, |_| {})?;
    let vs = mesh.polygon_vertices(last);
    Some(vs[(slot + 1) % vs.len()])
}

/// Runs `one` on every corner, in order, with a scratch made by `init` and kept per worker; on
/// the pool with the `parallel` feature. (The sweeps, with a search each; the hub order's
/// shortest-path trees, with a Dijkstra's arrays.)
pub(super) fn per_corner<S, T: Send>(
    corners: &[u32],
    init: impl Fn() -> S + Sync + Send,
    one: impl Fn(&mut S, u32) -> Result<T, BuildError> + Sync,
) -> Result<Vec<T>, BuildError> {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        corners
            .par_iter()
            .map_init(init, |s, &c| one(s, c))
            .collect()
    }
    #[cfg(not(feature = "parallel"))]
    {
        let mut s = init();
        corners.iter().map(|&c| one(&mut s, c)).collect()
    }
}

/// Per corner, its kept edges sorted by target: a sweep from every corner, reading no cones
/// (the views, which need them, exist only once the labels do: [`sweep_cones`]).
fn sweep_edges(
    mesh: &NavMesh,
    turns: &[[u32; 2]],
    wedge_poly: &[u32],
    corners: &[u32],
    cancel: &CancelToken,
) -> Result<Vec<Vec<u32>>, BuildError> {
    per_corner(corners, ExactSearch::new, |search: &mut ExactSearch, c| {
        cancel.check()?;
        search.corner_sweep(mesh, VertexId(c), Some(PolyId(wedge_poly[c as usize])));
        let mut swept = Vec::new();
        search.swept_corners(&mut swept);
        let x = mesh.vertex(VertexId(c));
        let [u, w] = turns[c as usize];
        // Only the targets: an edge's length is `dist` of its corners, which is what the
        // sweep measured (`EDGE_BYTES`).
        let mut row: Vec<u32> = swept.into_iter().map(|(d, _)| d).collect();
        row.retain(|&d| {
            let [du, dw] = turns[d as usize];
            d != c
                && du != NONE
                && one_side(x, mesh.vertex(VertexId(d)), walls(mesh, du, dw))
                && one_side(mesh.vertex(VertexId(d)), x, walls(mesh, u, w))
        });
        row.sort_unstable();
        Ok(row)
    })
}

/// The landmarks of `mesh` ([`LANDMARKS`] of them); under a `limit` (a timed build's
/// [`LANDMARK_TIME`]), those whose searches ended within it, `None` if none did;
/// [`BuildError::Cancelled`] where `cancel` fires.
fn landmarks_within(
    mesh: &NavMesh,
    limit: Option<std::time::Duration>,
    cancel: &CancelToken,
) -> Result<Option<Landmarks>, BuildError> {
    let Some(limit) = limit else {
        return Landmarks::build_until(mesh, LANDMARKS, &|| cancel.check()).map(Some);
    };
    let limited = cancel.within(limit);
    let check = || limited.check();
    let landmarks = Landmarks::build_partial(mesh, LANDMARKS, &check);
    // Stopped by the caller, not by the limit: an error, whatever was kept.
    cancel.check()?;
    Ok(landmarks)
}

/// How a [`CornerGraph`] is built ([`CornerGraph::build_with`]): whether it times its choices,
/// and how long its hub labels and landmarks may take. `#[non_exhaustive]`: start from
/// [`CornerGraphOptions::default`] (what [`CornerGraph::build`] does) or
/// [`CornerGraphOptions::untimed`] and set fields with the `with_*` methods.
///
/// The time limits bound a build's time on maps whose labels or landmarks take long, at the
/// price that two builds of one mesh on a slow or busy machine can keep different parts (the
/// labels of a 1,024 × 1,024 map of city blocks took 6.2–7.5 s of their 8 before session 30,
/// and one build in several went without them; the whole build of that map now takes about
/// 4 s; BENCHMARKS.md). Without limits the labels and landmarks are
/// never dropped for time, and the build takes as long as they do.
///
/// ```
/// use portolan::search::corner_graph::CornerGraphOptions;
/// use std::time::Duration;
/// let o = CornerGraphOptions::default();
/// assert!(o.fit);
/// assert_eq!((o.label_time, o.landmark_time), (Some(Duration::from_secs(8)), Some(Duration::from_secs(5))));
/// let u = CornerGraphOptions::untimed();
/// assert!(!u.fit && u.label_time.is_none() && u.landmark_time.is_none());
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct CornerGraphOptions {
    /// Time the build's sample of queries to choose how the graph answers: whether its views
    /// answer and below what distance a query tries the plain search first, and, without
    /// labels, plain or swept search, with or without landmarks (see the module docs). The
    /// choice affects speed only, never an answer, and can differ between two builds. Without
    /// it the views answer every query wherever there are labels, and the landmarks and the
    /// swept search are kept wherever there are none ([`CornerGraph::build_with_views`]).
    /// Default `true`.
    pub fit: bool,
    /// The longest the hub labels may take; past it the graph goes without them (and without
    /// views). `None`: no limit. Default 8 s.
    pub label_time: Option<std::time::Duration>,
    /// The longest the landmarks' searches may take; past it the graph keeps the landmarks
    /// whose searches ended, or none. `None`: no limit. Default 5 s.
    pub landmark_time: Option<std::time::Duration>,
    /// The most memory, in bytes, the graph may hold ([`CornerGraph::memory_bytes`]); a build
    /// drops parts to keep within it, in the order [`MAX_INDEX_BYTES`] gives, down to the
    /// plain search (for a console or a phone that can spare less, or to see what each part
    /// buys: BENCHMARKS.md, "What does the index buy per megabyte?"). Its corners are always
    /// kept, 16 bytes per mesh vertex and 4 more: a budget below that gives a graph of that
    /// size, which leaves every query to the plain search. `None`:
    /// [`CornerGraph::memory_budget`] of the mesh. Default `None`.
    pub memory_budget: Option<usize>,
}

impl Default for CornerGraphOptions {
    /// The timed build of [`CornerGraph::build`]: its choices fitted, labels within 8 s,
    /// landmarks within 5 s.
    ///
    /// ```
    /// use portolan::search::corner_graph::CornerGraphOptions;
    /// assert!(CornerGraphOptions::default().fit);
    /// ```
    fn default() -> CornerGraphOptions {
        CornerGraphOptions {
            fit: true,
            label_time: Some(LABEL_TIME),
            landmark_time: Some(LANDMARK_TIME),
            memory_budget: None,
        }
    }
}

impl CornerGraphOptions {
    /// No timed choice and no time limit: the same mesh always gives the same graph (what
    /// [`CornerGraph::build_with_views`] builds).
    ///
    /// ```
    /// use portolan::search::corner_graph::CornerGraphOptions;
    /// assert!(!CornerGraphOptions::untimed().fit);
    /// ```
    pub fn untimed() -> CornerGraphOptions {
        CornerGraphOptions {
            fit: false,
            label_time: None,
            landmark_time: None,
            memory_budget: None,
        }
    }

    /// Sets [`CornerGraphOptions::label_time`] and [`CornerGraphOptions::landmark_time`]
    /// (`None`: no limit).
    ///
    /// ```
    /// use portolan::search::corner_graph::CornerGraphOptions;
    /// let o = CornerGraphOptions::default().with_time_limits(None, None);
    /// assert!(o.fit && o.label_time.is_none() && o.landmark_time.is_none());
    /// ```
    pub fn with_time_limits(
        mut self,
        label_time: Option<std::time::Duration>,
        landmark_time: Option<std::time::Duration>,
    ) -> CornerGraphOptions {
        self.label_time = label_time;
        self.landmark_time = landmark_time;
        self
    }

    /// Sets [`CornerGraphOptions::memory_budget`] (`None`: the mesh's default budget).
    ///
    /// ```
    /// use portolan::search::corner_graph::{CornerGraph, CornerGraphOptions};
    /// use portolan::build::CancelToken;
    /// use portolan::{build, BuildOptions, Scene};
    /// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
    /// let full = CornerGraph::build_with_views(&mesh);
    /// // Half of what the whole graph holds: it keeps less, and within the budget.
    /// let half = full.memory_bytes() / 2;
    /// let options = CornerGraphOptions::untimed().with_memory_budget(Some(half));
    /// let small = CornerGraph::build_with(&mesh, &options, &CancelToken::new()).unwrap();
    /// assert!(small.memory_bytes() <= half);
    /// ```
    pub fn with_memory_budget(mut self, bytes: Option<usize>) -> CornerGraphOptions {
        self.memory_budget = bytes;
        self
    }

    /// [`with_memory_budget`](CornerGraphOptions::with_memory_budget) of `mib` MiB (2²⁰
    /// bytes; fractions allowed, rounded to the byte), for a budget a user types in MiB; `None`
    /// for a count that is negative, not a number, infinite or past `usize`.
    ///
    /// ```
    /// use portolan::search::corner_graph::CornerGraphOptions;
    /// let o = CornerGraphOptions::default();
    /// assert_eq!(o.clone().with_memory_budget_mib(0.5).unwrap().memory_budget, Some(1 << 19));
    /// for bad in [-1.0, f64::NAN, f64::INFINITY, 1e300] {
    ///     assert!(o.clone().with_memory_budget_mib(bad).is_none());
    /// }
    /// ```
    pub fn with_memory_budget_mib(self, mib: f64) -> Option<CornerGraphOptions> {
        let bytes = (mib * (1u64 << 20) as f64).round();
        (bytes >= 0.0 && bytes < usize::MAX as f64)
            .then(|| self.with_memory_budget(Some(bytes as usize)))
    }

    /// The budget a build of a mesh of `polygons` polygons keeps within:
    /// [`CornerGraphOptions::memory_budget`], or [`CornerGraph::memory_budget`] of the mesh.
    ///
    /// ```
    /// use portolan::search::corner_graph::{CornerGraph, CornerGraphOptions};
    /// let o = CornerGraphOptions::default();
    /// assert_eq!(o.budget_for(1_000), CornerGraph::memory_budget(1_000));
    /// assert_eq!(o.with_memory_budget(Some(1 << 20)).budget_for(1_000), 1 << 20);
    /// ```
    pub fn budget_for(&self, polygons: usize) -> usize {
        self.memory_budget
            .unwrap_or_else(|| CornerGraph::memory_budget(polygons))
    }

    /// Sets [`CornerGraphOptions::fit`].
    ///
    /// ```
    /// use portolan::search::corner_graph::CornerGraphOptions;
    /// assert!(!CornerGraphOptions::default().with_fit(false).fit);
    /// ```
    pub fn with_fit(mut self, fit: bool) -> CornerGraphOptions {
        self.fit = fit;
        self
    }
}

/// The longest a timed build spends on its hub labels (the greedy order and the pruned
/// Dijkstras): past it the graph goes without them, as where they do not fit. A bound on the
/// build's time where the early stop's forecast does not see that the labels will fail, or
/// where they fit but take long: a 1,024 × 1,024 grid of city blocks (7,660 polygons, 191
/// entries per corner at a mean degree of 56) builds its labels in 6.2–7.5 s, the longest
/// seen; the maps in shared data take under 0.8 s (BENCHMARKS.md, "Does the index keep within
/// its budget").
const LABEL_TIME: std::time::Duration = std::time::Duration::from_secs(8);

/// The longest a timed build spends on its [`LANDMARKS`] landmarks (one whole-mesh exact
/// search each, two at a time on two cores): past it the graph keeps those done (a site's
/// search stopped half way is dropped), or none. On open maps those searches grow faster than
/// the mesh: 4.3 s for a 30,700-polygon grid of city blocks, 10.1 s for a 48,277-polygon one,
/// most of the 12.9 s its build took; with the limit it keeps 7 and builds in 7.0 s
/// (BENCHMARKS.md, "Does the index keep within its budget"). The landmarks are only built
/// where there are no labels: 2.2 s on the random grid of BENCHMARKS.md, 0.04 s on its maze.
const LANDMARK_TIME: std::time::Duration = std::time::Duration::from_secs(5);

/// Per corner, what its sweep saw of each polygon, for the views (from a pinch corner,
/// through every wedge): the sweeps of [`sweep_edges`] again, recording their cones.
///
/// A second pass rather than cones recorded in the first: the cones take 16 bytes per sweep
/// node, which on a map whose labels fail served nothing (a 512 × 512 random grid, which keeps
/// no views, built with a peak of 436–454 MB with them and 347–349 MB without), while the
/// second pass costs the maps that keep labels a part of their build (lak303d 61–83 → 74–88
/// ms, brc202d 99–132 → 126–155 ms; BENCHMARKS.md, "Session 18").
///
/// `None`, the sweeps stopped early, once they have recorded more than
/// [`records_within`]`(room)` cones: views of that many records would not fit `room` bytes, and
/// the records alone take 16 bytes each (40 while the views are made from them). Without the
/// cap, an open map of many small polygons (a 1,600 × 900 scatter map in tiles of 5: 57,444
/// polygons) failed to allocate under an 8 GB limit (BENCHMARKS.md, "Session 37").
fn sweep_cones(
    mesh: &NavMesh,
    wedge_poly: &[u32],
    corners: &[u32],
    room: usize,
    cancel: &CancelToken,
) -> Result<Option<Vec<SweepCones>>, BuildError> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let cap = records_within(room);
    let recorded = AtomicUsize::new(0);
    let sweeps = per_corner(corners, ExactSearch::new, |search: &mut ExactSearch, c| {
        cancel.check()?;
        let mut cones = SweepCones::default();
        if recorded.load(Ordering::Relaxed) > cap {
            return Ok(cones);
        }
        // A point can see a pinch corner through any of its wedges.
        let wedge = (!mesh.is_pinch(VertexId(c))).then_some(PolyId(wedge_poly[c as usize]));
        search.corner_sweep(mesh, VertexId(c), wedge);
        search.swept_cones(&mut cones.cones, &mut cones.parents);
        let n = cones.cones.len();
        if recorded.fetch_add(n, Ordering::Relaxed) + n > cap {
            cones = SweepCones::default();
        }
        Ok(cones)
    })?;
    Ok((recorded.into_inner() <= cap).then_some(sweeps))
}

/// The most sweep records whose views could fit `room` bytes. Views keep about 10 bytes a
/// record at the least, without their chains (an entry of 8 bytes per polygon and corner, 8 per
/// cone, the per-polygon offsets and the fans: 12.3 on den011d, 15.8 on the default map, test
/// `views_keep_more_bytes_a_record_than_the_cap_assumes`; 9.9–11.8 on the other maps of shared
/// data, printed once by a scratch build in session 37), so allowing 4 bytes a record leaves a
/// margin of 2.5.
fn records_within(room: usize) -> usize {
    room / 4
}

/// Adds the reverse of every edge found from one side only (a sweep can miss a line of sight
/// its other end finds, at grazed vertices): the labels take edges both ways, and a path read
/// back from them must find each edge in its source's row. Rows stay sorted by target.
fn symmetrize(corners: &[u32], rows: &mut [Vec<u32>], vertices: usize) {
    let mut index = vec![NONE; vertices];
    for (i, &c) in corners.iter().enumerate() {
        index[c as usize] = i as u32;
    }
    let mut missing = Vec::new();
    for (i, &c) in corners.iter().enumerate() {
        for &d in &rows[i] {
            let j = index[d as usize] as usize;
            if rows[j].binary_search(&c).is_err() {
                missing.push((j, c));
            }
        }
    }
    for &(j, c) in &missing {
        rows[j].push(c);
    }
    if !missing.is_empty() {
        for row in rows.iter_mut() {
            row.sort_unstable();
            row.dedup();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{build, BuildOptions};
    use crate::scene::Scene;

    /// The views' sweeps stop once their records pass what the room could hold
    /// ([`records_within`]): `None` below that room, the same records as an unbounded pass
    /// above it. (An open map of tiny polygons recorded hundreds of millions before.)
    #[test]
    fn the_views_sweeps_stop_at_what_their_room_could_hold() {
        let den = crate::testkit::data_map("movingai/dao/den011d.map").to_scene();
        let mesh = build(&den, &BuildOptions::cdt()).unwrap();
        let (_, wedge_poly) = turning_corners(&mesh);
        let corners: Vec<u32> = (0..mesh.vertex_count() as u32)
            .filter(|&v| wedge_poly[v as usize] != NONE)
            .collect();
        let cancel = CancelToken::new();
        let all = sweep_cones(&mesh, &wedge_poly, &corners, usize::MAX, &cancel)
            .unwrap()
            .expect("no cap");
        let records: usize = all.iter().map(|c| c.cones.len()).sum();
        assert!(records > 10_000, "{records}");
        // Room for exactly the records: kept, the same ones.
        let kept = sweep_cones(&mesh, &wedge_poly, &corners, records * 4, &cancel)
            .unwrap()
            .expect("within the cap");
        assert_eq!(kept.len(), all.len());
        for (a, b) in kept.iter().zip(&all) {
            assert_eq!((&a.cones, &a.parents), (&b.cones, &b.parents));
        }
        // One record less: none.
        assert!(
            sweep_cones(&mesh, &wedge_poly, &corners, (records - 1) * 4, &cancel)
                .unwrap()
                .is_none()
        );
    }

    /// What [`records_within`] assumes: views keep at least 4 bytes per sweep record, without
    /// the chains the budget drops last, so that views from more records than the cap could not
    /// fit their room. On a cave map and the default map (`-- --nocapture` prints the bytes a
    /// record: 9.9–12.3 on the maps of shared data).
    #[test]
    fn views_keep_more_bytes_a_record_than_the_cap_assumes() {
        let den = crate::testkit::data_map("movingai/dao/den011d.map").to_scene();
        for scene in [den, Scene::default_map()] {
            let mesh = build(&scene, &BuildOptions::cdt()).unwrap();
            let graph = CornerGraph::build_with_views(&mesh);
            let (_, wedge_poly) = turning_corners(&mesh);
            let corners: Vec<u32> = (0..mesh.vertex_count() as u32)
                .filter(|&v| wedge_poly[v as usize] != NONE)
                .collect();
            let cones = sweep_cones(
                &mesh,
                &wedge_poly,
                &corners,
                usize::MAX,
                &CancelToken::new(),
            )
            .unwrap()
            .expect("no cap");
            let records: usize = cones.iter().map(|c| c.cones.len()).sum();
            let views = Views::build(&mesh, &graph, &corners, cones);
            let bare = views.memory_bytes() - views.cone_node.len() * 4 - views.tree.len() * 8;
            let per_record = bare as f64 / records as f64;
            eprintln!(
                "{} polygons: {records} records, {per_record:.2} bytes a record",
                mesh.polygon_count()
            );
            assert!(
                records_within(bare) >= records,
                "{per_record:.2} bytes a record, below what the cap assumes"
            );
        }
    }

    /// The graph keeps no edge lengths (`EDGE_BYTES`): a search takes `dist` of the corners.
    /// That is the distance each corner's sweep measured, to the bit, on every corner of a
    /// published cave map, a random grid (pinches, collinear walls) and the default map: so the
    /// labels, built from those lengths, and every query that reads them add the same numbers
    /// the sweeps found. Returns nothing; fails on the first edge whose bits differ.
    #[test]
    fn each_corner_sweeps_distances_are_dist_to_the_bit() {
        let den = crate::testkit::data_map("movingai/dao/den011d.map").to_scene();
        let grid = crate::random_grid::random_blocked_grid(64, 64, 0.25, 11).unwrap();
        let meshes = [den, grid.to_scene(), Scene::default_map()]
            .map(|scene| build(&scene, &BuildOptions::cdt()).unwrap());
        let (mut search, mut swept, mut checked) = (ExactSearch::new(), Vec::new(), 0);
        for mesh in &meshes {
            let (_, wedge_poly) = turning_corners(mesh);
            for c in (0..mesh.vertex_count() as u32).filter(|&v| wedge_poly[v as usize] != NONE) {
                search.corner_sweep(mesh, VertexId(c), Some(PolyId(wedge_poly[c as usize])));
                swept.clear();
                search.swept_corners(&mut swept);
                let x = mesh.vertex(VertexId(c));
                for &(d, g) in &swept {
                    let want = crate::geom::dist(x, mesh.vertex(VertexId(d)));
                    assert_eq!(
                        g.to_bits(),
                        want.to_bits(),
                        "corner {c} to {d}: {g} vs {want}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 20_000, "only {checked} swept corners");
    }

    /// `taut_edges` is the row filtered by the mask, as one run; `edge_index` finds every edge
    /// and nothing else. On a random grid, whose corners' rows mix left and right edges.
    #[test]
    fn taut_edges_are_the_rows_edges_that_allow_the_turn() {
        let map = crate::random_grid::random_blocked_grid(48, 48, 0.2, 3).unwrap();
        let mesh = build(&map.to_scene(), &BuildOptions::cdt()).unwrap();
        let graph = CornerGraph::build_with_views(&mesh);
        let (mut runs, mut groups) = (0, [0usize; 3]);
        for v in 0..mesh.vertex_count() as u32 {
            let row = graph.row(v);
            for e in row.clone() {
                groups[usize::from(side_group(graph.sides[e]))] += 1;
                assert_eq!(graph.edge_index(v, graph.targets[e]), Some(e));
            }
            let others =
                (0..mesh.vertex_count() as u32).filter(|d| !graph.targets[row.clone()].contains(d));
            for d in others.take(8) {
                assert_eq!(graph.edge_index(v, d), None);
            }
            for mask in 0..=(LEFT | RIGHT) {
                let want: Vec<usize> = row
                    .clone()
                    .filter(|&e| graph.sides[e] & mask != 0)
                    .collect();
                let got: Vec<usize> = graph.taut_edges(v, mask).collect();
                assert_eq!(got, want, "vertex {v}, mask {mask}");
                runs += usize::from(!got.is_empty() && got.len() < row.len());
            }
        }
        // (Edges continuing both turns lie along both walls: none on a grid.)
        assert!(groups[0] > 0 && groups[2] > 0, "{groups:?}");
        assert!(runs > 0);
    }

    #[test]
    fn a_cancelled_build_stops_at_any_check_and_an_uncancelled_one_is_the_plain_build() {
        let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
        // The views' fit follows the machine's times (`views::fit`): two builds may differ in
        // it, and under load even in whether the views are kept. Everything else must be equal.
        let fixed = |mut g: CornerGraph, views: bool| {
            match g.views.as_mut() {
                Some(v) if views => v.choice = views::ViewChoice::ALWAYS,
                _ => g.views = None,
            }
            g.to_bytes()
        };
        let first = CornerGraph::build(&mesh);
        let had_views = first.views.is_some();
        let want = fixed(first, true);
        // The token fires at its (n + 1)-th check: every stage's checks are reached for some
        // n, and each stops the build with the typed error, never a panic or a partial graph.
        let (mut stopped, mut n) = (0, 0);
        loop {
            match CornerGraph::build_cancellable(&mesh, &CancelToken::after_checks(n)) {
                Err(BuildError::Cancelled) => stopped += 1,
                Err(e) => panic!("check {n}: {e}"),
                Ok(g) => {
                    let both = had_views && g.views.is_some();
                    let want = if both {
                        want
                    } else {
                        fixed(CornerGraph::build(&mesh), false)
                    };
                    assert_eq!(fixed(g, both), want, "stopped by none of {n} checks");
                    break;
                }
            }
            n = if n < 64 { n + 1 } else { n * 2 };
        }
        assert!(stopped > 64, "only {stopped} cancelled builds");
    }
}
