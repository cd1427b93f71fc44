//! Hub labels on the corner graph: exact graph distances between any two corners from two short
//! lists, which give the corner search an exact heuristic.
//!
//! Pruned landmark labeling (T. Akiba, Y. Iwata, Y. Yoshida, *Fast Exact Shortest-Path Distance
//! Queries on Large Networks by Pruned Landmark Labeling*, SIGMOD 2013): corners are ranked (here
//! greedily, each next hub the corner on most of the sampled shortest paths the hubs before it left
//! uncovered, see `centrality_order`); from each corner `r` in rank order a Dijkstra runs over the
//! graph (its edges taken both ways), and every corner `u` it settles at distance `d` gets the
//! label entry `(r, d)`, unless the labels made so far already give a distance ≤ `d` between `r`
//! and `u`: then `u` is neither labelled nor expanded. Afterwards, for any two corners, the least
//! `d(a, h) + d(h, b)` over the hubs `h` in both labels is their graph distance.
//!
//! # Use in the search
//! With the goal's view swept first (the corners `B` that see the goal, with `|b t|`), a table
//! `T[h] = min over b in B of (d(h, b) + |b t|)` turns the label of any corner `c` into
//! `min over its hubs of d(c, h) + T[h]`: the length of the shortest way from `c` to the goal
//! through the graph, a lower bound on what is left of any path the search can make from `c`
//! (the search only continues along graph edges, and only into the goal from `B`). With such a
//! heuristic, A* expands little more than the corners of the path itself.
//!
//! # Cost
//! Building: the order from up to 512 shortest-path trees (one Dijkstra each, kept until the order
//! is made: at most about two million tree vertices, 28 bytes each; `O(t · c · depth)` for the
//! greedy picks), then one pruned Dijkstra per corner; the labels' size depends on the map: a few
//! dozen entries per corner on caves and dungeons, hundreds on open terrain and mazes (about 490 on
//! a 512 × 512 maze of corridors 3 cells wide). The build stops, and the graph goes without labels
//! (queries then sweep its edges, or run the plain search, with or without landmarks, as the
//! build's sample finds faster; `sample.rs`), once the labels pass [`MAX_ENTRIES`] or what
//! the index's memory budget leaves them after the edges
//! ([`MAX_INDEX_BYTES`](super::MAX_INDEX_BYTES)), which bounds both the time and the memory.
//! There is no cap per corner: until session 30 a mean of 200 entries a corner was one, and a
//! 1,024 × 1,024 map of city blocks whose labels held 227 went without them, 2.2× the exact
//! search instead of 9.4–9.9× within the same budget (BENCHMARKS.md, "Session 30"; test
//! `tests/index_budget.rs`). 16 bytes per entry (hub, distance, next hop), and 4 more for its
//! *link*, where the next hop's label holds the same hub: a path read back from the labels then
//! follows one index per corner instead of a search per corner, 1.01–1.08× on the view queries
//! of the shared maps (BENCHMARKS.md, "Session 28"). The links are derived from the rest at
//! build and load, not saved, and kept only where the views are and the links fit beside them:
//! they are the first part an index within its budget drops (a 1,024 × 1,024 grid of city
//! blocks keeps its views, 10× the exact search, only without them; "Session 29"), and labels
//! without views (the swept search's heuristic) never read them.
//!
//! It also stops early, where its budget allows at least [`FORECAST_MIN_ENTRIES`] entries, when
//! the first hubs label too much for the whole to fit: after hub `k`
//! of the first 1,024 in rank order the labels may hold at most `sqrt(max(k, 8) / 1024)` of the
//! budget ([`FORECAST_HUBS`]): 9% after hub 8, 18% after hub 32, half after hub 256. That is a
//! forecast, not a bound: PLL's first hubs label the most, and the labels' growth slows as
//! pruning takes over. Measured (BENCHMARKS.md, "Does the index keep within its budget"),
//! every map whose labels fit stays under 0.65 of the curve: the maps in shared data hold 5–14%
//! of the budget after hub 64 and 13–31% after hub 1,024, and the fullest map seen, a
//! 1,024 × 1,024 grid of city blocks, 14% and 64%. Where they do not fit, the curve stops the
//! build early: on the 512 × 512 grid with 20% of its cells blocked at random of BENCHMARKS.md,
//! whose first hub labels every corner
//! (11% of what the memory its edges leave holds), after hub 1 (after hub 8 before session 20);
//! on a 1,024 × 1,024 map of 800 small obstacles after hub 65, where the rule before session 20
//! (`max(k, 16) / 64` over the first 64 hubs only) ran 1,251 hubs and 5.8 s to the budget. A map
//! that the rule wrongly stopped would only lose its labels' speed, never an answer. Where the
//! graph's components alone show that the first hub will stop it, whichever corner the order
//! puts first, the build stops before making the order (`first_hub_past_forecast`): that random
//! grid's index builds in 5.8–6.4 s, against 6.6–7.3 s (BENCHMARKS.md, "Session 22").

use super::NONE;
use crate::build::{BuildError, CancelToken};
use crate::mesh::rows::bucket;
use std::collections::BinaryHeap;

/// The most label entries a build keeps in all: 48 MB at 20 bytes an entry with its link, under
/// the 50 MB an index of a 50,000-polygon mesh is to stay within; past that the labels are
/// dropped. (The whole index has its own budget, [`MAX_INDEX_BYTES`](super::MAX_INDEX_BYTES),
/// which cuts this one to what the edges leave.) (It was `4 << 20` entries, 48 MB at the 12
/// bytes an entry took before the next hops, then 3,000,000 at 16 bytes before the next hops'
/// entries. No map in shared data comes near any of them: AcrosstheCape's labels hold about
/// 510,000 entries.)
///
/// ```
/// use portolan::search::corner_graph::{CornerGraph, MAX_ENTRIES};
/// use portolan::{build, BuildOptions, Scene};
/// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
/// // (Untimed: a timed build drops the labels where its views do not pay.)
/// let graph = CornerGraph::build_with_views(&mesh);
/// let entries = graph.label_entries().expect("the default map keeps its labels");
/// assert!(entries <= MAX_ENTRIES);
/// ```
pub const MAX_ENTRIES: usize = 2_400_000;

/// Bytes per label entry: hub rank (4), distance (8), next hop (4); its link, where kept
/// ([`HubLabels::next_at`]), takes [`LINK_BYTES`] more.
const ENTRY_BYTES: usize = 16;

/// Bytes per label entry's link (the next hop's entry for the same hub), where kept.
const LINK_BYTES: usize = 4;

/// The early stop of the [module docs](self): after hub `k`, for `k < FORECAST_HUBS`, the labels
/// may hold at most `sqrt(max(k, 8) / FORECAST_HUBS)` of the budget.
const FORECAST_HUBS: usize = 1024;

/// The least `dists[i] + table[hubs[i]]` (infinite for none): a label joined through a table by
/// hub, the hottest loop of both the labels' build (its prune test) and a view query. Four
/// running minima, each a plain comparison: `f64::min` (which minds NaN, of which there is none:
/// distances and table entries are numbers or infinite) and a single minimum make each entry
/// wait for the one before; the labels' build took 10–15% less time without that chain
/// (BENCHMARKS.md, "Does the index keep within its budget").
#[inline]
fn least_sum(hubs: &[u32], dists: &[f64], table: &[f64]) -> f64 {
    let least = |a: f64, b: f64| if b < a { b } else { a };
    let mut acc = [f64::INFINITY; 4];
    let (hc, dc) = (hubs.chunks_exact(4), dists.chunks_exact(4));
    let (hr, dr) = (hc.remainder(), dc.remainder());
    for (h, d) in hc.zip(dc) {
        for k in 0..4 {
            acc[k] = least(acc[k], d[k] + table[h[k] as usize]);
        }
    }
    for (&h, &d) in hr.iter().zip(dr) {
        acc[0] = least(acc[0], d + table[h as usize]);
    }
    least(least(acc[0], acc[1]), least(acc[2], acc[3]))
}

/// Whether some `dists[i] + table[hubs[i]]` is at most `bound`: [`least_sum`] stopped at the
/// first block of entries that has one. The labels' prune test: a label lists its hubs in
/// rank order, and the first hubs, on the most shortest paths, prune the most, so the witness
/// of a pruned corner comes early in its label.
#[inline]
fn some_sum_at_most(hubs: &[u32], dists: &[f64], table: &[f64], bound: f64) -> bool {
    const BLOCK: usize = 16;
    let (hc, dc) = (hubs.chunks(BLOCK), dists.chunks(BLOCK));
    hc.zip(dc).any(|(h, d)| least_sum(h, d, table) <= bound)
}

/// The most entries the labels of `corners` corners on `n` vertices may hold:
/// at most [`MAX_ENTRIES`], and what `max_bytes` holds past the fixed part (the offsets and the
/// hubs' vertices).
fn entry_budget(n: usize, corners: usize, max_bytes: usize) -> usize {
    let fixed = (n + 1 + corners) * 4;
    MAX_ENTRIES.min(max_bytes.saturating_sub(fixed) / ENTRY_BYTES)
}

/// The fewest entries a budget must allow for the early stop to apply: 2¹⁹ (8 MiB of labels).
/// Below it a build that will not fit reaches its budget within about a second, and the curve,
/// drawn for budgets of millions of entries, would stop labels that fit a
/// budget cut close to their size (`CornerGraphOptions::with_memory_budget`): den011d's 13,646
/// entries pass it only with room for about 45,000, three times what they hold.
const FORECAST_MIN_ENTRIES: usize = 1 << 19;

/// Whether `entries` after `done` hubs pass the early stop's curve for `budget` (module docs);
/// never for a budget under [`FORECAST_MIN_ENTRIES`].
fn past_forecast(entries: usize, done: usize, budget: usize) -> bool {
    budget >= FORECAST_MIN_ENTRIES
        && done < FORECAST_HUBS
        && (entries as f64).powi(2) * FORECAST_HUBS as f64
            > (budget as f64).powi(2) * done.max(8) as f64
}

/// The hub labels of every corner (see the [module docs](self)).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct HubLabels {
    /// Per vertex, its entries are `offsets[v]..offsets[v + 1]`, by increasing hub rank.
    pub(super) offsets: Vec<u32>,
    pub(super) hubs: Vec<u32>,
    pub(super) dists: Vec<f64>,
    /// Per entry `(h, d)` of vertex `v`: the next corner on the way from `v` to hub `h` (its
    /// parent in `h`'s pruned Dijkstra, which is labelled with `h` too), `v` itself for `h`'s
    /// own entry. Following them reads a shortest path back.
    pub(super) next: Vec<u32>,
    /// Per entry `(h, d)` of vertex `v`, other than `h`'s own: the index of the entry for `h`
    /// in the label of `v`'s next hop (there is one: the next hop is labelled with `h` too);
    /// `NONE` where it is missing (a damaged file). Derived from the rest ([`HubLabels::linked`]);
    /// `None` where dropped ([`HubLabels::drop_links`]): a way is then read by a search per
    /// corner.
    pub(super) next_at: Option<Vec<u32>>,
    /// Per hub rank: its vertex.
    pub(super) hub_vertex: Vec<u32>,
    /// How many hubs (corners) there are: hub ranks are below this.
    pub(super) hub_count: usize,
}

/// A min-heap of vertices keyed by distance, with each vertex at most once: a shorter way to a
/// queued vertex lowers its key in place ([`IndexedHeap::lower`]) instead of queueing it again.
/// The pruned Dijkstras of a dense corner graph queue each vertex about three times otherwise
/// (a 1,024 × 1,024 map of city blocks, 90 edges a corner: 27.8 million pops, 9.4 million of
/// them current), and each stale pop costs a sift through the heap.
struct IndexedHeap {
    /// (distance, vertex), a binary heap.
    items: Vec<(f64, u32)>,
    /// Per vertex its index in `items`, or `u32::MAX` when it is not queued.
    at: Vec<u32>,
}

/// The heap's order: by distance, then by vertex (so that ties settle in the same order on
/// every build, and the labels' next hops with them).
#[inline]
fn less(a: (f64, u32), b: (f64, u32)) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)
}

impl IndexedHeap {
    fn new(n: usize) -> IndexedHeap {
        IndexedHeap {
            items: Vec::new(),
            at: vec![u32::MAX; n],
        }
    }

    /// Queues `v` at `d`, or lowers its key to `d` where it is queued farther (the caller only
    /// lowers).
    #[inline]
    fn lower(&mut self, v: u32, d: f64) {
        let i = match self.at[v as usize] {
            u32::MAX => {
                self.items.push((d, v));
                self.items.len() - 1
            }
            i => {
                self.items[i as usize].0 = d;
                i as usize
            }
        };
        self.up(i);
    }

    /// The queued vertex of least distance, taken out.
    #[inline]
    fn pop(&mut self) -> Option<(f64, u32)> {
        let last = self.items.pop()?;
        let top = match self.items.first_mut() {
            Some(first) => std::mem::replace(first, last),
            None => last,
        };
        self.at[top.1 as usize] = u32::MAX;
        if !self.items.is_empty() {
            self.down(0);
        }
        Some(top)
    }

    #[inline]
    fn up(&mut self, mut i: usize) {
        let item = self.items[i];
        while i > 0 {
            let p = (i - 1) / 2;
            if !less(item, self.items[p]) {
                break;
            }
            self.items[i] = self.items[p];
            self.at[self.items[i].1 as usize] = i as u32;
            i = p;
        }
        self.items[i] = item;
        self.at[item.1 as usize] = i as u32;
    }

    #[inline]
    fn down(&mut self, mut i: usize) {
        let item = self.items[i];
        let n = self.items.len();
        loop {
            let mut c = 2 * i + 1;
            if c >= n {
                break;
            }
            if c + 1 < n && less(self.items[c + 1], self.items[c]) {
                c += 1;
            }
            if !less(self.items[c], item) {
                break;
            }
            self.items[i] = self.items[c];
            self.at[self.items[i].1 as usize] = i as u32;
            i = c;
        }
        self.items[i] = item;
        self.at[item.1 as usize] = i as u32;
    }
}

impl HubLabels {
    /// Labels for the graph whose adjacency of vertex `v` is `adj(v)` (pairs of neighbour and
    /// length), on `n` vertices of which `corners` are the nodes; `None` when they would exceed
    /// their budget (at most [`MAX_ENTRIES`] and at most
    /// `max_bytes` of memory without their links, which they come with and the caller drops
    /// where they do not fit, [`HubLabels::drop_links`]) or when the first hubs forecast so
    /// ([`FORECAST_HUBS`]); at once,
    /// before any work, when the budget cannot hold one entry per corner (the first hub's).
    /// Stops with [`BuildError::Cancelled`] once `cancel` fires (checked once per hub).
    pub(crate) fn build(
        n: usize,
        corners: &[u32],
        adj: &dyn Fn(u32) -> Vec<(u32, f64)>,
        max_bytes: usize,
        cancel: &CancelToken,
    ) -> Result<Option<HubLabels>, BuildError> {
        let budget = entry_budget(n, corners.len(), max_bytes);
        if budget < corners.len() {
            return Ok(None);
        }
        // Undirected adjacency (an edge found from one side only still joins both).
        let mut both: Vec<Vec<(u32, f64)>> = vec![Vec::new(); n];
        for &c in corners {
            for (d, w) in adj(c) {
                both[c as usize].push((d, w));
                both[d as usize].push((c, w));
            }
        }
        for row in &mut both {
            row.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
            row.dedup_by_key(|e| e.0);
        }
        // The first hub labels its whole component (no label prunes yet): where the forecast
        // would stop there whichever corner the order puts first, the order is not made.
        if first_hub_past_forecast(n, corners, &both, budget) {
            return Ok(None);
        }
        let order = centrality_order(n, corners, &both, cancel)?;
        // The pruned Dijkstras run on dense corner numbers (`dense[v]`), over the adjacency
        // as flat arrays, with each label's hubs and distances apart: the prune test reads
        // 12 bytes an entry and the relaxations a run of 4-byte targets. (On vertex ids with
        // tuple rows the same build took 10–20% longer on maps of dense lines of sight;
        // BENCHMARKS.md, "Does the index keep within its budget".)
        let mut dense = vec![u32::MAX; n];
        for (i, &c) in corners.iter().enumerate() {
            dense[c as usize] = i as u32;
        }
        let m = corners.len();
        let mut adj_at = Vec::with_capacity(m + 1);
        let (mut adj_to, mut adj_len) = (Vec::new(), Vec::new());
        adj_at.push(0u32);
        for &c in corners {
            for &(d, w) in &both[c as usize] {
                adj_to.push(dense[d as usize]);
                adj_len.push(w);
            }
            adj_at.push(adj_to.len() as u32);
        }
        drop(both);
        let mut hubs_of: Vec<Vec<u32>> = vec![Vec::new(); m];
        let mut dists_of: Vec<Vec<f64>> = vec![Vec::new(); m];
        let mut parents_of: Vec<Vec<u32>> = vec![Vec::new(); m];
        let mut parent = vec![u32::MAX; m];
        let mut entries = 0usize;
        // The root's label as a dense array (hub rank → distance), and Dijkstra's distances.
        let mut root_label = vec![f64::INFINITY; m];
        let mut dist = vec![f64::INFINITY; m];
        let mut touched: Vec<u32> = Vec::new();
        let mut heap = IndexedHeap::new(m);
        for (rank, &r) in order.iter().enumerate() {
            cancel.check()?;
            let r = dense[r as usize];
            for (&h, &d) in hubs_of[r as usize].iter().zip(&dists_of[r as usize]) {
                root_label[h as usize] = d;
            }
            dist[r as usize] = 0.0;
            parent[r as usize] = r;
            touched.push(r);
            heap.lower(r, 0.0);
            while let Some((d, u)) = heap.pop() {
                let u = u as usize;
                // Pruned: the labels so far already know a way at most this long.
                if some_sum_at_most(&hubs_of[u], &dists_of[u], &root_label, d) {
                    continue;
                }
                hubs_of[u].push(rank as u32);
                dists_of[u].push(d);
                parents_of[u].push(parent[u]);
                entries += 1;
                if entries > budget {
                    return Ok(None);
                }
                let edges = adj_at[u] as usize..adj_at[u + 1] as usize;
                for (&v, &w) in adj_to[edges.clone()].iter().zip(&adj_len[edges]) {
                    let nd = d + w;
                    if nd < dist[v as usize] {
                        if dist[v as usize] == f64::INFINITY {
                            touched.push(v);
                        }
                        dist[v as usize] = nd;
                        parent[v as usize] = u as u32;
                        heap.lower(v, nd);
                    }
                }
            }
            for &h in &hubs_of[r as usize] {
                root_label[h as usize] = f64::INFINITY;
            }
            // The first hubs label too much: the whole will not fit (module docs).
            if past_forecast(entries, rank + 1, budget) {
                return Ok(None);
            }
            for &t in &touched {
                dist[t as usize] = f64::INFINITY;
            }
            touched.clear();
        }
        let mut offsets = Vec::with_capacity(n + 1);
        let (mut hubs, mut dists) = (Vec::with_capacity(entries), Vec::with_capacity(entries));
        let mut next = Vec::with_capacity(entries);
        offsets.push(0u32);
        for &i in &dense {
            if i != u32::MAX {
                let i = i as usize;
                hubs.extend_from_slice(&hubs_of[i]);
                dists.extend_from_slice(&dists_of[i]);
                next.extend(parents_of[i].iter().map(|&p| corners[p as usize]));
            }
            offsets.push(hubs.len() as u32);
        }
        Ok(Some(HubLabels::from_parts(
            offsets,
            hubs,
            dists,
            next,
            order,
            corners.len(),
            true,
        )))
    }

    /// How many hubs there are (the size of a [`HubLabels::fill`] table).
    #[inline]
    pub(crate) fn hub_count(&self) -> usize {
        self.hub_count
    }

    /// How many entries vertex `v`'s label has.
    #[inline]
    pub(crate) fn len(&self, v: u32) -> usize {
        (self.offsets[v as usize + 1] - self.offsets[v as usize]) as usize
    }

    /// Vertex `v`'s label: (hub rank, distance) pairs.
    #[inline]
    pub(crate) fn label(&self, v: u32) -> impl Iterator<Item = (u32, f64)> + '_ {
        let r = self.offsets[v as usize] as usize..self.offsets[v as usize + 1] as usize;
        self.hubs[r.clone()]
            .iter()
            .copied()
            .zip(self.dists[r].iter().copied())
    }

    /// Lowers `table[h]` to `extra + d(v, h)` for every hub `h` of `v`, recording the hubs
    /// touched in `touched` (to reset the table cheaply).
    #[inline]
    pub(crate) fn fill(&self, v: u32, extra: f64, table: &mut [f64], touched: &mut Vec<u32>) {
        for (h, d) in self.label(v) {
            let x = &mut table[h as usize];
            if *x == f64::INFINITY {
                touched.push(h);
            }
            if extra + d < *x {
                *x = extra + d;
            }
        }
    }

    /// The least `d(v, h) + table[h]` over `v`'s hubs (infinite when none is in the table).
    #[inline]
    pub(crate) fn join(&self, v: u32, table: &[f64]) -> f64 {
        let r = self.offsets[v as usize] as usize..self.offsets[v as usize + 1] as usize;
        least_sum(&self.hubs[r.clone()], &self.dists[r], table)
    }

    /// The graph distance between corners `a` and `b`: the least `d(a, h) + d(h, b)` over the
    /// hubs in both labels (a merge of the two lists, sorted by hub rank); infinite when they
    /// share none. (The labels' own test; queries read distances through a table by hub.)
    #[cfg(test)]
    pub(crate) fn distance(&self, a: u32, b: u32) -> f64 {
        use std::cmp::Ordering;
        let ra = self.offsets[a as usize] as usize..self.offsets[a as usize + 1] as usize;
        let rb = self.offsets[b as usize] as usize..self.offsets[b as usize + 1] as usize;
        let (ha, hb) = (&self.hubs[ra.clone()], &self.hubs[rb.clone()]);
        let (da, db) = (&self.dists[ra], &self.dists[rb]);
        let (mut i, mut j, mut best) = (0, 0, f64::INFINITY);
        while i < ha.len() && j < hb.len() {
            match ha[i].cmp(&hb[j]) {
                Ordering::Less => i += 1,
                Ordering::Greater => j += 1,
                Ordering::Equal => {
                    best = best.min(da[i] + db[j]);
                    i += 1;
                    j += 1;
                }
            }
        }
        best
    }

    /// Lowers `table[h]` to `extra + d(v, h)` for every hub `h` of `v`, with no branch per
    /// entry (whether an entry lowers its hub is as good as random); [`clear`](HubLabels::clear)
    /// puts the table back.
    #[inline]
    pub(crate) fn lower(&self, v: u32, extra: f64, table: &mut [f64]) {
        for (h, d) in self.label(v) {
            let x = &mut table[h as usize];
            let y = extra + d;
            *x = if y < *x { y } else { *x };
        }
    }

    /// Sets `table[h]` back to infinity for every hub `h` of `v`.
    #[inline]
    pub(crate) fn clear(&self, v: u32, table: &mut [f64]) {
        let r = self.offsets[v as usize] as usize..self.offsets[v as usize + 1] as usize;
        for &h in &self.hubs[r] {
            table[h as usize] = f64::INFINITY;
        }
    }

    /// `d(v, h)`, when hub `h` is in `v`'s label.
    pub(crate) fn distance_to_hub(&self, v: u32, h: u32) -> Option<f64> {
        self.entry(v, h).map(|e| self.dists[e])
    }

    /// [`join`](HubLabels::join) and the hub that gives it (`None` when infinite).
    pub(crate) fn join_arg(&self, v: u32, table: &[f64]) -> (f64, Option<u32>) {
        let mut best = (f64::INFINITY, None);
        for (h, d) in self.label(v) {
            if d + table[h as usize] < best.0 {
                best = (d + table[h as usize], Some(h));
            }
        }
        best
    }

    /// Appends the corners after `v` on its shortest way to hub `h` (which is in `v`'s label),
    /// the hub's own vertex last; `false` if a next hop is missing its entry (not expected).
    /// One search for `h` in `v`'s label, then one index per corner through the links
    /// ([`HubLabels::next_at`]), or one search per corner where they were dropped.
    pub(crate) fn way_to_hub(&self, v: u32, h: u32, out: &mut Vec<u32>) -> bool {
        let end = self.hub_vertex[h as usize];
        if v == end {
            return true;
        }
        let Some(mut e) = self.entry(v, h) else {
            return false;
        };
        for _ in 0..self.hub_count {
            let v = self.next[e];
            out.push(v);
            if v == end {
                return true;
            }
            let next = match &self.next_at {
                Some(at) => Some(at[e]).filter(|&x| x != NONE).map(|x| x as usize),
                None => self.entry(v, h),
            };
            match next {
                None => return false,
                Some(x) => e = x,
            }
        }
        false
    }

    /// The index of hub `h`'s entry in `v`'s label (a search: labels are sorted by hub rank).
    #[inline]
    fn entry(&self, v: u32, h: u32) -> Option<usize> {
        let r = self.offsets.get(v as usize..v as usize + 2)?;
        let r = r[0] as usize..r[1] as usize;
        let k = self.hubs.get(r.clone())?.binary_search(&h).ok()?;
        Some(r.start + k)
    }

    /// Drops the links ([`HubLabels::next_at`]): [`LINK_BYTES`] per entry less, for a way read
    /// back by a search per corner instead of an index ([`HubLabels::way_to_hub`]).
    pub(crate) fn drop_links(&mut self) {
        self.next_at = None;
    }

    /// Whether the labels keep their links ([`HubLabels::drop_links`]).
    pub(crate) fn has_links(&self) -> bool {
        self.next_at.is_some()
    }

    /// The bytes the links take (what [`HubLabels::drop_links`] frees).
    pub(crate) fn link_bytes(&self) -> usize {
        self.next_at.as_ref().map_or(0, |at| at.len() * LINK_BYTES)
    }

    /// Labels from their saved arrays (per vertex offsets, then per entry the hub ranks, the
    /// distances and the next hops; per hub rank its vertex; the number of hubs), with
    /// [`next_at`](HubLabels::next_at) made from them ([`linked`](HubLabels::linked)) where
    /// `links`. The caller has checked that the arrays agree in length.
    pub(crate) fn from_parts(
        offsets: Vec<u32>,
        hubs: Vec<u32>,
        dists: Vec<f64>,
        next: Vec<u32>,
        hub_vertex: Vec<u32>,
        hub_count: usize,
        links: bool,
    ) -> HubLabels {
        let labels = HubLabels {
            offsets,
            hubs,
            dists,
            next,
            next_at: None,
            hub_vertex,
            hub_count,
        };
        if links {
            labels.linked()
        } else {
            labels
        }
    }

    /// These labels with [`next_at`](HubLabels::next_at) made from the rest: per entry, a
    /// search for its hub in its next hop's label (`O(entries · log label)`, once per build or
    /// load). A next hop out of range or without the entry (only a damaged file has one) gets
    /// `NONE`, which ends a way read through it ([`way_to_hub`](HubLabels::way_to_hub)).
    fn linked(mut self) -> HubLabels {
        let mut at = vec![NONE; self.hubs.len()];
        for (v, row) in self.offsets.windows(2).enumerate() {
            let (lo, hi) = (row[0] as usize, row[1] as usize);
            let Some(slots) = at.get_mut(lo..hi) else {
                continue;
            };
            for (e, slot) in (lo..hi).zip(slots) {
                let w = self.next[e];
                if w as usize != v {
                    if let Some(k) = self.entry(w, self.hubs[e]) {
                        *slot = k as u32;
                    }
                }
            }
        }
        self.next_at = Some(at);
        self
    }

    /// Heap memory held, in bytes.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.offsets.len() * 4
            + self.hubs.len() * ENTRY_BYTES
            + self.link_bytes()
            + self.hub_vertex.len() * 4
    }

    /// Entries over all labels.
    pub(crate) fn entries(&self) -> usize {
        self.hubs.len()
    }
}

/// Whether the build would stop after its first hub whatever the order ([`past_forecast`] on
/// the first hub's label entries), told from the graph's components before the order is made
/// (on the 512 × 512 random grid of BENCHMARKS.md the order took 1.2 s of a 6.7 s build, to
/// stop after the first hub; "Session 22").
///
/// The first hub's Dijkstra, with every label still empty, labels each corner of its
/// component: `|K|` entries. Which component holds the first hub follows from the order's
/// scores alone: a corner's score is the sum of its subtree's sizes over the sampled trees
/// ([`order_roots`]), at most `roots(K) · |K|` in component `K`, and a root's is at least its
/// own component's size. So the first hub lies in a component with `roots(K) · |K| ≥ |G|`,
/// `G` the largest component holding a root; if every such component stops the forecast, the
/// build stops after the first hub, as this says. The same answer as making the order, sooner.
fn first_hub_past_forecast(
    n: usize,
    corners: &[u32],
    both: &[Vec<(u32, f64)>],
    budget: usize,
) -> bool {
    // Components by union-find over the undirected adjacency.
    let mut up: Vec<u32> = (0..n as u32).collect();
    fn find(up: &mut [u32], mut v: u32) -> u32 {
        while up[v as usize] != v {
            let next = up[up[v as usize] as usize];
            up[v as usize] = next;
            v = next;
        }
        v
    }
    for &c in corners {
        for &(d, _) in &both[c as usize] {
            let (a, b) = (find(&mut up, c), find(&mut up, d));
            if a != b {
                up[a.max(b) as usize] = a.min(b);
            }
        }
    }
    let mut size = vec![0usize; n];
    let mut roots = vec![0usize; n];
    for &c in corners {
        let r = find(&mut up, c);
        size[r as usize] += 1;
    }
    for r in order_roots(corners) {
        let r = find(&mut up, r);
        roots[r as usize] += 1;
    }
    let rooted = || (0..n).filter(|&k| roots[k] > 0);
    let Some(largest) = rooted().map(|k| size[k]).max() else {
        return false;
    };
    rooted()
        .filter(|&k| roots[k] * size[k] >= largest)
        .all(|k| size[k] > budget || past_forecast(size[k], 1, budget))
}

/// The roots of the trees [`centrality_order`] samples (and [`first_hub_past_forecast`]
/// reasons about): [`adaptive_roots`] of them up to [`ADAPTIVE_CORNERS`] corners,
/// [`COVERAGE_ROOTS`] past it (`coverage_order`).
fn order_roots(corners: &[u32]) -> Vec<u32> {
    if corners.len() > ADAPTIVE_CORNERS {
        every_kth(corners, COVERAGE_ROOTS)
    } else {
        every_kth(corners, adaptive_roots(corners.len()))
    }
}

/// How many trees the coverage order alone samples (past [`ADAPTIVE_CORNERS`] corners).
const COVERAGE_ROOTS: usize = 32;

/// The hub order. Up to [`ADAPTIVE_CORNERS`] corners, the greedy order of RXL (Delling,
/// Goldberg, Pajor, Werneck, *Robust Exact Distance Queries on Massive Networks*, 2014): over
/// shortest-path trees from a sample of roots ([`adaptive_roots`] of them, every `k`-th
/// corner), the next hub is the corner below which the most tree vertices still hang, and once
/// it is picked its subtrees leave every tree (the shortest paths through it are covered, so
/// the next hubs are the ones that cover what is left). The corners no tree counts any more
/// follow by their *coverage* in the trees as sampled (how many vertices lie below each, summed:
/// the corners many shortest paths run through first). Past [`ADAPTIVE_CORNERS`], the coverage
/// order alone, from 32 trees, none kept. (Akiba et al. rank by degree; on visibility graphs,
/// where degree says little about centrality, coverage gives shorter labels, and the greedy
/// order shorter still: 12–24% fewer entries than coverage on den011d, lak303d, brc202d,
/// AcrosstheCape and scene_mp_2p_01, for 50–150 ms more build on the smaller maps and about
/// 0.3 s on AcrosstheCape; BENCHMARKS.md, "Session 19".)
fn centrality_order(
    n: usize,
    corners: &[u32],
    both: &[Vec<(u32, f64)>],
    cancel: &CancelToken,
) -> Result<Vec<u32>, BuildError> {
    let roots = order_roots(corners);
    if corners.len() > ADAPTIVE_CORNERS {
        return coverage_order(n, corners, both, &roots, cancel);
    }
    let trees = super::per_corner(
        &roots,
        || Scratch::new(n),
        |scratch, r| {
            cancel.check()?;
            Ok(Tree::build(both, r, scratch))
        },
    )?;
    cancel.check()?;
    greedy_order(n, corners, trees, cancel)
}

/// The most corners for which [`centrality_order`] keeps its sampled trees and picks hubs
/// greedily: a bound on the order's time and memory (at 32,768 corners, 61 trees; past it the
/// labels would fit only under 92 entries per corner, [`MAX_ENTRIES`], which no map here with
/// that many corners comes near: a 512 × 512 random grid's first 16 hubs alone pass a quarter
/// of the budget).
const ADAPTIVE_CORNERS: usize = 32_768;

/// How many trees the greedy order samples for `corners` corners: up to 512, as many as keep
/// the trees within about two million vertices in all (28 bytes each, kept until the order is
/// made: 56 MB), at least 32. Fewer trees soon stop telling hubs apart: after the first few
/// hundred hubs every tree is covered and the rest go by coverage. On lak303d 512 trees give
/// 31 entries per corner; in a scratch version, about 270 gave 34 and all 1,352 gave 28, with
/// the order taking about 4× as long as with 512.
fn adaptive_roots(corners: usize) -> usize {
    (TREE_VERTICES / corners.max(1)).clamp(32, 512).min(corners)
}

/// The budget of [`adaptive_roots`]: vertices over all the sampled trees.
const TREE_VERTICES: usize = 2_000_000;

/// `k` of `corners` (all of them if fewer), evenly spaced.
fn every_kth(corners: &[u32], k: usize) -> Vec<u32> {
    let (len, k) = (corners.len(), k.min(corners.len()));
    (0..k).map(|i| corners[i * len / k]).collect()
}

/// The coverage order alone, from the trees of `roots` added up as they are made (see
/// [`centrality_order`], which gives it [`COVERAGE_ROOTS`] of them).
fn coverage_order(
    n: usize,
    corners: &[u32],
    both: &[Vec<(u32, f64)>],
    roots: &[u32],
    cancel: &CancelToken,
) -> Result<Vec<u32>, BuildError> {
    // Each root's tree adds to the scores; the sums are integers, so the order in which the
    // trees are added (threads) does not change them.
    #[cfg(feature = "parallel")]
    let score = {
        use rayon::prelude::*;
        roots
            .par_iter()
            .try_fold(
                || Coverage::new(n),
                |mut c, &r| -> Result<Coverage, BuildError> {
                    cancel.check()?;
                    c.add_tree(both, r);
                    Ok(c)
                },
            )
            .map(|c| c.map(|c| c.score))
            .try_reduce(
                || vec![0u64; n],
                |mut a, b| {
                    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                    Ok(a)
                },
            )?
    };
    #[cfg(not(feature = "parallel"))]
    let score = {
        let mut c = Coverage::new(n);
        for &r in roots {
            cancel.check()?;
            c.add_tree(both, r);
        }
        c.score
    };
    Ok(by_score(corners, &score))
}

/// `corners` by decreasing score, ties by id.
fn by_score(corners: &[u32], score: &[u64]) -> Vec<u32> {
    let mut order = corners.to_vec();
    order.sort_by_key(|&c| (std::cmp::Reverse(score[c as usize]), c));
    order
}

/// A Dijkstra's scratch, reused from tree to tree.
struct Scratch {
    dist: Vec<f64>,
    parent: Vec<u32>,
    local: Vec<u32>,
    heap: IndexedHeap,
}

impl Scratch {
    fn new(n: usize) -> Scratch {
        Scratch {
            dist: vec![f64::INFINITY; n],
            parent: vec![u32::MAX; n],
            local: vec![u32::MAX; n],
            heap: IndexedHeap::new(n),
        }
    }
}

/// One sampled shortest-path tree, kept for [`greedy_order`]: its vertices in settling order
/// (each after its parent), with their parents' indices, their children, and how many
/// vertices still hang below each (itself included; 0 once it has left the tree).
struct Tree {
    nodes: Vec<u32>,
    parent: Vec<u32>,
    child_at: Vec<u32>,
    children: Vec<u32>,
    below: Vec<u32>,
}

impl Tree {
    fn build(both: &[Vec<(u32, f64)>], r: u32, s: &mut Scratch) -> Tree {
        let mut nodes = Vec::new();
        s.dist[r as usize] = 0.0;
        s.heap.lower(r, 0.0);
        while let Some((d, u)) = s.heap.pop() {
            s.local[u as usize] = nodes.len() as u32;
            nodes.push(u);
            for &(v, w) in &both[u as usize] {
                let nd = d + w;
                if nd < s.dist[v as usize] {
                    s.dist[v as usize] = nd;
                    s.parent[v as usize] = u;
                    s.heap.lower(v, nd);
                }
            }
        }
        let m = nodes.len();
        // Parents settle first: every index below is its parent's in `nodes`.
        let parent: Vec<u32> = nodes
            .iter()
            .map(|&u| match s.parent[u as usize] {
                u32::MAX => u32::MAX,
                p => s.local[p as usize],
            })
            .collect();
        for &u in &nodes {
            s.dist[u as usize] = f64::INFINITY;
            s.parent[u as usize] = u32::MAX;
            s.local[u as usize] = u32::MAX;
        }
        let mut below = vec![1u32; m];
        for i in (1..m).rev() {
            below[parent[i] as usize] += below[i];
        }
        let (child_at, children) = bucket(m, 0, |push| {
            for (i, &p) in parent.iter().enumerate().skip(1) {
                push(p as usize, i as u32);
            }
        });
        Tree {
            nodes,
            parent,
            child_at,
            children,
            below,
        }
    }

    /// Takes the subtree of node `i` out of the tree: its size off every ancestor's count
    /// and each of its nodes' count off `score`.
    fn cut(&mut self, i: usize, score: &mut [u64], stack: &mut Vec<u32>) {
        let b = self.below[i];
        let mut a = self.parent[i];
        while a != u32::MAX {
            self.below[a as usize] -= b;
            score[self.nodes[a as usize] as usize] -= u64::from(b);
            a = self.parent[a as usize];
        }
        stack.push(i as u32);
        while let Some(u) = stack.pop() {
            let u = u as usize;
            if self.below[u] == 0 {
                continue; // left with a hub picked before
            }
            score[self.nodes[u] as usize] -= u64::from(self.below[u]);
            self.below[u] = 0;
            stack.extend_from_slice(
                &self.children[self.child_at[u] as usize..self.child_at[u + 1] as usize],
            );
        }
    }
}

/// The greedy order of [`centrality_order`] over `trees`: the corner with the most tree
/// vertices below it (ties by the coverage order), its subtrees cut from every tree, and
/// again; then the corners no tree counts, by coverage. `O(t · c · depth)` for `t` trees of
/// `c` corners.
fn greedy_order(
    n: usize,
    corners: &[u32],
    mut trees: Vec<Tree>,
    cancel: &CancelToken,
) -> Result<Vec<u32>, BuildError> {
    let mut score = vec![0u64; n];
    for t in &trees {
        for (&u, &below) in t.nodes.iter().zip(&t.below) {
            score[u as usize] += u64::from(below);
        }
    }
    // Per vertex, where it is in each tree: (tree, index) pairs.
    let (at_offsets, at) = bucket(n, (0, 0), |push| {
        for (k, t) in trees.iter().enumerate() {
            for (i, &u) in t.nodes.iter().enumerate() {
                push(u as usize, (k as u32, i as u32));
            }
        }
    });
    let coverage = by_score(corners, &score);
    // Ties by the coverage order: its rank as the key's second part.
    let mut rank = vec![0u32; n];
    for (k, &c) in coverage.iter().enumerate() {
        rank[c as usize] = k as u32;
    }
    let key = |score: &[u64], v: u32| (score[v as usize], std::cmp::Reverse(rank[v as usize]), v);
    let mut heap: BinaryHeap<(u64, std::cmp::Reverse<u32>, u32)> =
        corners.iter().map(|&c| key(&score, c)).collect();
    let mut picked = vec![false; n];
    let mut order = Vec::with_capacity(corners.len());
    let mut stack = Vec::new();
    while let Some((s, _, v)) = heap.pop() {
        if picked[v as usize] {
            continue;
        }
        if s != score[v as usize] {
            // Its count fell since it was queued (counts only fall): queued again as it is.
            heap.push(key(&score, v));
            continue;
        }
        if s == 0 {
            break;
        }
        picked[v as usize] = true;
        order.push(v);
        if order.len() % 256 == 0 {
            cancel.check()?;
        }
        for &(k, i) in &at[at_offsets[v as usize] as usize..at_offsets[v as usize + 1] as usize] {
            let t = &mut trees[k as usize];
            if t.below[i as usize] > 0 {
                t.cut(i as usize, &mut score, &mut stack);
            }
        }
    }
    order.extend(coverage.into_iter().filter(|&c| !picked[c as usize]));
    Ok(order)
}

/// The coverage scores of [`coverage_order`] over some shortest-path trees, with the scratch
/// of their Dijkstras.
struct Coverage {
    score: Vec<u64>,
    scratch: Scratch,
}

impl Coverage {
    fn new(n: usize) -> Coverage {
        Coverage {
            score: vec![0; n],
            scratch: Scratch::new(n),
        }
    }

    /// Adds, per vertex, the size of its subtree in the shortest-path tree from `r`.
    fn add_tree(&mut self, both: &[Vec<(u32, f64)>], r: u32) {
        let tree = Tree::build(both, r, &mut self.scratch);
        for (&u, &below) in tree.nodes.iter().zip(&tree.below) {
            self.score[u as usize] += u64::from(below);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The undirected adjacency of a line `0 - 1 - … - (n-1)` with unit edges.
    fn line(n: u32) -> Vec<Vec<(u32, f64)>> {
        (0..n)
            .map(|v| {
                [v.checked_sub(1), (v + 1 < n).then_some(v + 1)]
                    .into_iter()
                    .flatten()
                    .map(|w| (w, 1.0))
                    .collect()
            })
            .collect()
    }

    /// On a line of 7, trees from every vertex: both orders pick the middle first. Coverage
    /// then picks its neighbours (2 and 4 lie on more shortest paths than 1 and 5); the greedy
    /// order picks the middles of the halves the first hub left (1 and 5 cover what 3 did not),
    /// which gives the smaller labels.
    #[test]
    fn the_greedy_order_picks_what_the_hubs_before_left_uncovered() {
        let corners: Vec<u32> = (0..7).collect();
        let both = line(7);
        let greedy = centrality_order(7, &corners, &both, &CancelToken::new()).unwrap();
        let roots = every_kth(&corners, COVERAGE_ROOTS);
        let coverage = coverage_order(7, &corners, &both, &roots, &CancelToken::new()).unwrap();
        assert_eq!(greedy[0], 3);
        assert_eq!(coverage[0], 3);
        let mut next = [greedy[1], greedy[2]];
        next.sort();
        assert_eq!(next, [1, 5], "{greedy:?}");
        let mut next = [coverage[1], coverage[2]];
        next.sort();
        assert_eq!(next, [2, 4], "{coverage:?}");
        // Both are orders of every corner.
        for order in [greedy, coverage] {
            let mut sorted = order.clone();
            sorted.sort();
            assert_eq!(sorted, corners);
        }
        let adj = |v: u32| both[v as usize].clone();
        let labels = HubLabels::build(7, &corners, &adj, usize::MAX, &CancelToken::new())
            .unwrap()
            .unwrap();
        // Hubs 3, then 1 and 5: every vertex's label holds at most three hubs.
        assert!(
            (0..7).all(|v| labels.len(v) <= 3),
            "{:?}",
            (0..7).map(|v| labels.len(v)).collect::<Vec<_>>()
        );
    }

    /// The greedy order over the trees of a random grid's corner graph: every corner once,
    /// and the same order whatever the number of threads building the trees.
    #[test]
    fn the_greedy_order_is_a_permutation_of_the_corners_whatever_the_threads() {
        let map = crate::random_grid::random_blocked_grid(40, 40, 0.2, 5).unwrap();
        let mesh = crate::build(&map.to_scene(), &crate::BuildOptions::cdt()).unwrap();
        let graph = super::super::CornerGraph::build_with_views(&mesh);
        let corners: Vec<u32> = (0..mesh.vertex_count() as u32)
            .filter(|&v| graph.is_corner(crate::mesh::VertexId(v)))
            .collect();
        let mut both: Vec<Vec<(u32, f64)>> = vec![Vec::new(); mesh.vertex_count()];
        for &c in &corners {
            both[c as usize].extend(graph.weighted_edges(&mesh, c));
        }
        let n = mesh.vertex_count();
        let order = || centrality_order(n, &corners, &both, &CancelToken::new()).unwrap();
        let many = order();
        let mut sorted = many.clone();
        sorted.sort();
        assert_eq!(sorted, corners);
        // Not the coverage order of 32 trees.
        assert_ne!(
            many,
            coverage_order(
                n,
                &corners,
                &both,
                &every_kth(&corners, COVERAGE_ROOTS),
                &CancelToken::new()
            )
            .unwrap()
        );
        #[cfg(feature = "parallel")]
        {
            let one = rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .build()
                .unwrap()
                .install(order);
            assert_eq!(one, many);
        }
    }

    /// The pre-check before the order ([`first_hub_past_forecast`]) says "stops after the first
    /// hub" only where the order made in full puts first a corner whose component stops the
    /// forecast. Components of 60, 25, 25, 4 and 1 corners (lines, their vertices interleaved so
    /// that the sampled roots fall in several), at every budget from 1 to 1,000 entries: both
    /// answers occur.
    #[test]
    fn the_check_before_the_order_agrees_with_the_order() {
        let sizes = [60u32, 25, 25, 4, 1];
        let n: u32 = sizes.iter().sum();
        // Component `k`'s `i`-th vertex: ids dealt round-robin over the components.
        let mut ids: Vec<Vec<u32>> = vec![Vec::new(); sizes.len()];
        let mut next = 0;
        for i in 0..*sizes.iter().max().unwrap() {
            for (k, &len) in sizes.iter().enumerate() {
                if i < len {
                    ids[k].push(next);
                    next += 1;
                }
            }
        }
        let mut both: Vec<Vec<(u32, f64)>> = vec![Vec::new(); n as usize];
        for line in &ids {
            for w in line.windows(2) {
                both[w[0] as usize].push((w[1], 1.0));
                both[w[1] as usize].push((w[0], 1.0));
            }
        }
        let corners: Vec<u32> = (0..n).collect();
        let order = centrality_order(n as usize, &corners, &both, &CancelToken::new()).unwrap();
        let first = ids.iter().find(|line| line.contains(&order[0])).unwrap();
        let (mut stops, mut goes_on) = (0, 0);
        for budget in 1..=1000 {
            if first_hub_past_forecast(n as usize, &corners, &both, budget) {
                stops += 1;
                assert!(
                    first.len() > budget || past_forecast(first.len(), 1, budget),
                    "budget {budget}"
                );
            } else {
                goes_on += 1;
            }
        }
        assert!(stops > 0 && goes_on > 0, "{stops} {goes_on}");
    }

    /// The early stop's curve: `sqrt(max(k, 8) / 1024)` of the budget after hub `k`, none
    /// from hub 1,024 on, nor under [`FORECAST_MIN_ENTRIES`].
    #[test]
    fn the_forecast_is_the_square_root_curve() {
        let budget = 1 << 20;
        // sqrt(8 / 1024) = 0.0884: 92,681.9 entries.
        for done in [1, 2, 8] {
            assert!(!past_forecast(92_681, done, budget));
            assert!(past_forecast(92_682, done, budget));
        }
        // A quarter after hub 64, half after hub 256.
        assert!(!past_forecast(budget / 4, 64, budget));
        assert!(past_forecast(budget / 4 + 1, 64, budget));
        assert!(!past_forecast(budget / 2, 256, budget));
        assert!(past_forecast(budget / 2 + 1, 256, budget));
        assert!(!past_forecast(budget, 1024, budget));
        assert!(!past_forecast(budget * 4, 5000, budget));
        // None for a budget under FORECAST_MIN_ENTRIES, however full after the first hub.
        let (least, less) = (FORECAST_MIN_ENTRIES, FORECAST_MIN_ENTRIES - 1);
        assert!(past_forecast(least, 1, least));
        assert!(!past_forecast(less, 1, less));
    }

    /// The labels of the published maps that keep them grow well under the early stop's
    /// curve: after every hub `k` (powers of two, 8 to 1,024) they hold less than 0.65 of what
    /// the curve allows, so a small change to the order cannot make the forecast drop them. The
    /// labels after hub `k` are the final entries of hub rank below `k` (PLL only adds). Prints
    /// the fractions of the budget (`--nocapture`; BENCHMARKS.md, "Does the index keep within
    /// its budget").
    #[test]
    fn published_labels_stay_under_the_forecast() {
        use crate::search::corner_graph::CornerGraph;
        for name in ["den011d", "lak303d", "brc202d"] {
            let path = crate::testkit::data_dir().join(format!("movingai/dao/{name}.map"));
            let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
            let map = crate::io::movingai::read_map(file).unwrap();
            let mesh = crate::build(&map.to_scene(), &crate::BuildOptions::cdt()).unwrap();
            let graph = CornerGraph::build_with_views(&mesh);
            let labels = graph
                .labels
                .as_ref()
                .expect("the dao maps keep their labels");
            let budget = entry_budget(mesh.vertex_count(), labels.hub_count, usize::MAX);
            let mut line = format!("{name}:");
            for k in (3..=10).map(|e| 1usize << e) {
                let held = labels.hubs.iter().filter(|&&h| (h as usize) < k).count();
                let share = held as f64 / budget as f64;
                let curve = (k as f64 / FORECAST_HUBS as f64).sqrt();
                line += &format!(" k={k} {share:.3}");
                assert!(share < 0.65 * curve, "{name}: {share} after hub {k}");
            }
            println!("{line}");
        }
    }

    /// Random lowers and pops against a sorted list of the same keys: the pops come out in
    /// (distance, vertex) order, each vertex once at its least key, and a popped vertex may be
    /// queued again.
    #[test]
    fn the_indexed_heap_pops_least_keys_first_each_vertex_once() {
        let mut rng = crate::random::Rng::new(5);
        let n = 40;
        let mut heap = IndexedHeap::new(n);
        let mut want: Vec<Option<f64>> = vec![None; n];
        for step in 0..20_000 {
            if rng.range_usize(0, 2) > 0 {
                let v = rng.range_usize(0, n - 1);
                // Few distinct keys, so ties are common.
                let d = rng.range_usize(0, 15) as f64;
                if want[v].is_none_or(|w| d < w) {
                    heap.lower(v as u32, d);
                    want[v] = Some(d);
                }
            } else {
                let least = (0..n)
                    .filter_map(|v| want[v].map(|d| (d, v as u32)))
                    .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                assert_eq!(heap.pop(), least, "step {step}");
                if let Some((_, v)) = least {
                    want[v as usize] = None;
                }
            }
        }
    }

    /// A path 0 - 1 - 2 - 3 and a shortcut 0 - 3 longer than the path.
    #[test]
    fn labels_give_graph_distances() {
        let edges: Vec<(u32, u32, f64)> = vec![(0, 1, 1.0), (1, 2, 2.0), (2, 3, 1.5), (0, 3, 5.0)];
        let adj = |v: u32| {
            edges
                .iter()
                .filter(|e| e.0 == v)
                .map(|e| (e.1, e.2))
                .collect::<Vec<_>>()
        };
        let labels = HubLabels::build(4, &[0, 1, 2, 3], &adj, usize::MAX, &CancelToken::new())
            .unwrap()
            .unwrap();
        let dist = |a: u32, b: u32| {
            let mut table = vec![f64::INFINITY; labels.hub_count()];
            labels.fill(b, 0.0, &mut table, &mut Vec::new());
            labels.join(a, &table)
        };
        assert_eq!(dist(0, 3), 4.5);
        assert_eq!(dist(3, 0), 4.5);
        assert_eq!(dist(1, 3), 3.5);
        assert_eq!(dist(2, 2), 0.0);
        // The merge of two labels says the same as the table.
        for a in 0..4 {
            for b in 0..4 {
                assert_eq!(labels.distance(a, b), dist(a, b), "{a} {b}");
            }
        }
        assert!(labels.entries() >= 4);
    }

    /// Every way read back through the next hops' entries (`next_at`) is the way a search for
    /// the hub in each next hop's label reads, for every entry of den011d's labels, and the way
    /// read with the links dropped; a damaged link ends the way (`false`), never a panic.
    #[test]
    fn ways_through_the_next_hops_entries_are_the_searched_ways() {
        use crate::search::corner_graph::CornerGraph;
        use crate::{build, BuildOptions};
        let scene = crate::testkit::data_map("movingai/dao/den011d.map").to_scene();
        let mesh = build(&scene, &BuildOptions::cdt()).unwrap();
        let graph = CornerGraph::build_with_views(&mesh);
        let labels = graph.labels().expect("den011d keeps its labels");
        let searched = |mut v: u32, h: u32| -> Option<Vec<u32>> {
            let end = labels.hub_vertex[h as usize];
            let mut way = Vec::new();
            while v != end {
                let r =
                    labels.offsets[v as usize] as usize..labels.offsets[v as usize + 1] as usize;
                let k = labels.hubs[r.clone()].binary_search(&h).ok()?;
                v = labels.next[r.start + k];
                way.push(v);
            }
            Some(way)
        };
        // Without the links, the same ways, each hop searched.
        let mut unlinked = labels.clone();
        unlinked.drop_links();
        assert!(!unlinked.has_links() && unlinked.link_bytes() == 0);
        assert_eq!(
            unlinked.memory_bytes() + labels.link_bytes(),
            labels.memory_bytes()
        );
        let mut checked = 0;
        for v in 0..labels.offsets.len() as u32 - 1 {
            for (h, _) in labels.label(v) {
                let (mut way, mut without) = (Vec::new(), Vec::new());
                assert!(labels.way_to_hub(v, h, &mut way));
                assert!(unlinked.way_to_hub(v, h, &mut without));
                assert_eq!(without, way, "corner {v}, hub {h}, without links");
                assert_eq!(Some(way), searched(v, h), "corner {v}, hub {h}");
                checked += 1;
            }
        }
        assert!(checked > 10_000, "{checked} ways");
        // A link cut: the ways through it end with `false`.
        let mut cut = labels.clone();
        let at = cut.next_at.as_mut().expect("built labels keep their links");
        let e = at.iter().position(|&x| x != NONE).unwrap();
        at[e] = NONE;
        let v = cut.offsets.partition_point(|&o| o as usize <= e) as u32 - 1;
        assert!(!cut.way_to_hub(v, cut.hubs[e], &mut Vec::new()));
    }
}
