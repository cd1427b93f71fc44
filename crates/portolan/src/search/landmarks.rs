//! Landmarks: precomputed distances that give the exact search a stronger heuristic.
//!
//! Polyanya's own heuristic ([`SearchMethod::Exact`](super::SearchMethod::Exact)) is the straight-line distance through
//! a node's interval. Behind a long wall it is far below the true distance, and A* expands every
//! node whose `f` is below the optimum: on game maps most of a query's time goes into the
//! pockets a path must detour around.
//!
//! The ALT bound (Goldberg and Harrelson, *Computing the shortest path: A\* search meets graph
//! theory*, SODA 2005) fixes that with a little preprocessing: pick a few *landmark* vertices
//! `L` and store the exact shortest distance `d(L, v)` from each to every vertex. The triangle
//! inequality then bounds the distance from any vertex `r` to the goal `t` from below:
//!
//! ```text
//!   d(r, t) >= d(L, r) - d(L, t)        (L behind r, seen from t)
//!   d(r, t) >= d(L, t) - d(L, r)        (L behind t, seen from r)
//! ```
//!
//! The goal is a point, not a vertex; every vertex `v` of a polygon holding it sees it, so
//! `d(L, v) - |v t| <= d(L, t) <= d(L, v) + |v t|`, computed once per query. A search node of
//! Polyanya is rooted at a vertex `r`, and every path it stands for goes on from `r` to the goal,
//! so `f = g(r) + max(interval heuristic, landmark bound of r)` is still a lower bound on the
//! length of those paths: A* stays exact and expands only fewer nodes. Root-level pruning does
//! not depend on the heuristic, so it is unaffected.
//!
//! # Building
//! Landmarks are chosen farthest first: the first is the corner farthest from an arbitrary
//! corner, each next one the corner farthest from all chosen so far, where "far" is measured
//! cheaply along the mesh's edges. Landmarks on the rim of the map bound best, and this picks
//! the rim. A mesh in several unconnected parts gives each part landmarks in proportion to its
//! polygons (small islands get none: their queries run with the plain heuristic). Pinch vertices,
//! where walls meet at a single point, are never landmarks and never used in a bound: their
//! distance depends on the side. Each landmark's exact distances then come from one run of
//! Polyanya without a goal over the whole mesh (a one-to-all run of the exact search), the runs in
//! parallel with the `parallel` feature.
//!
//! The table keeps each distance as the nearest `f32`: half the memory of `f64` (the table is
//! most of a label-less corner graph's index after its edges: on a 48,801-polygon random grid,
//! 16 landmarks took it from 34 to 50 MB in `f64`), at a relative error of at most 2⁻²⁴. The
//! bounds read each stored distance as the interval it stands for (`[d(1 − 2⁻²³), d(1 + 2⁻²³)]`,
//! `STORED_ERROR`), so they stay lower bounds. A distance outside `f32`'s normal range
//! (meshes larger than about 10³⁸ or finer than 10⁻³⁸) is stored as NaN and gives no bound.
//!
//! Cost: `count` whole-mesh searches to build, `4 · count` bytes per vertex to keep, and per
//! queued search node one pass over the root's `count` distances (once per root and query).
//!
//! ```
//! use std::sync::Arc;
//! use portolan::search::landmarks::Landmarks;
//! use portolan::{build, BuildOptions, PathFinder, Scene, SearchMethod, SearchOptions};
//!
//! let scene = Scene::default_map();
//! let mesh = build(&scene, &BuildOptions::default())?;
//! let landmarks = Arc::new(Landmarks::build(&mesh, 4));
//! let (start, goal) = (Scene::DEFAULT_START, Scene::DEFAULT_GOAL);
//! let plain = SearchOptions::exact();
//! let with_landmarks = plain.clone().with_landmarks(Some(landmarks));
//! let mut finder = PathFinder::new();
//! let a = finder.find_path(&mesh, start, goal, &plain)?;
//! let b = finder.find_path(&mesh, start, goal, &with_landmarks)?;
//! assert_eq!(a.length, b.length); // the same shortest path...
//! assert!(b.expanded <= a.expanded); // ...found with fewer expansions
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::open::Open;
use crate::mesh::{NavMesh, VertexId};

/// The relative error a stored distance is read with: the `f32` it is stored as is within
/// 2⁻²⁴ of the `f64` one (round to nearest, in `f32`'s normal range), and this is twice that,
/// which also covers the `f64` one's own rounding (sums of square roots, relative error about
/// the number of segments times 1.1e-16).
pub(crate) const STORED_ERROR: f64 = 1.0 / (1u64 << 23) as f64;

/// A distance as the table stores it: the nearest `f32`; NaN where it is outside `f32`'s
/// normal range (where the rounding's relative error is not bounded) and for NaN; infinity
/// and zero as they are.
fn stored(d: f64) -> f32 {
    if d.is_nan() || d == f64::INFINITY || d == 0.0 {
        d as f32
    } else if d.abs() < f64::from(f32::MIN_POSITIVE) || d.abs() > f64::from(f32::MAX) / 2.0 {
        f32::NAN
    } else {
        d as f32
    }
}

/// The interval a stored distance stands for: `(low, high)`, holding the distance it was
/// stored from ([`STORED_ERROR`]); infinite for infinity, NaN for NaN.
#[inline]
fn widen(d: f32) -> (f64, f64) {
    let d = f64::from(d);
    (d * (1.0 - STORED_ERROR), d * (1.0 + STORED_ERROR))
}

/// Exact distances from a few landmark vertices to every vertex of one mesh.
///
/// Built once per mesh, immutable, and shared between threads through an `Arc` in
/// [`SearchOptions::landmarks`](super::SearchOptions::landmarks).
#[derive(Clone, Debug)]
pub struct Landmarks {
    mesh_id: u64,
    sites: Vec<VertexId>,
    /// `dist[v * count + l]`: from landmark `l` to vertex `v`, as [`stored`]; infinite where
    /// unreachable.
    dist: Vec<f32>,
}

/// Equal when built for the same mesh with the same sites and the same distances, bit for bit
/// (the table holds NaN for pinch vertices, which `f32`'s `==` would call unequal to itself).
impl PartialEq for Landmarks {
    fn eq(&self, o: &Landmarks) -> bool {
        self.mesh_id == o.mesh_id
            && self.sites == o.sites
            && self.dist.len() == o.dist.len()
            && self
                .dist
                .iter()
                .zip(&o.dist)
                .all(|(a, b)| a.to_bits() == b.to_bits())
    }
}

impl Landmarks {
    /// A table from its columns: `columns[l][v]` is the distance from `sites[l]` to vertex `v`.
    /// Pinch vertices get NaN (see [`Landmarks::distance`]).
    pub(crate) fn from_columns(
        mesh: &NavMesh,
        sites: Vec<VertexId>,
        columns: &[Vec<f64>],
    ) -> Landmarks {
        let (nv, k) = (mesh.vertex_count(), sites.len());
        let mut dist = vec![f32::INFINITY; nv * k];
        for (l, col) in columns.iter().enumerate() {
            for (v, &d) in col.iter().enumerate() {
                dist[v * k + l] = stored(d);
            }
        }
        // A pinch vertex (walls meeting only there) has one distance per side; the table holds
        // the smaller, which may be on a side the goal cannot reach through the vertex. NaN
        // keeps such rows out of every bound (`f64::max` and `min` skip it).
        for v in (0..nv as u32).map(VertexId).filter(|&v| mesh.is_pinch(v)) {
            dist[v.index() * k..v.index() * k + k].fill(f32::NAN);
        }
        Landmarks {
            mesh_id: mesh.instance_id(),
            sites,
            dist,
        }
    }

    /// A table from its parts as [`Landmarks::table`] gives them (reading a saved index).
    pub(crate) fn from_parts(mesh_id: u64, sites: Vec<VertexId>, dist: Vec<f32>) -> Landmarks {
        Landmarks {
            mesh_id,
            sites,
            dist,
        }
    }

    /// The whole table: `table()[v * count + l]` is the distance from landmark `l` to vertex
    /// `v` (saving an index).
    pub(crate) fn table(&self) -> &[f32] {
        &self.dist
    }

    /// The number of landmarks.
    pub fn count(&self) -> usize {
        self.sites.len()
    }

    /// The landmark vertices, in the order chosen.
    pub fn sites(&self) -> &[VertexId] {
        &self.sites
    }

    /// The shortest distance from landmark `l` to vertex `v`, as stored: the nearest `f32`
    /// (within 2⁻²⁴ of it, relative); infinite when unreachable, NaN for a pinch vertex (where
    /// walls meet only at that point) and for a distance outside `f32`'s normal range, which
    /// are not used. `None` when there is no landmark `l` or no vertex `v`.
    ///
    /// ```
    /// use portolan::search::landmarks::Landmarks;
    /// use portolan::{build, BuildOptions, Scene};
    /// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
    /// let landmarks = Landmarks::build(&mesh, 2);
    /// let site = landmarks.sites()[0];
    /// assert_eq!(landmarks.distance(0, site), Some(0.0));
    /// assert_eq!(landmarks.distance(2, site), None);
    /// ```
    pub fn distance(&self, l: usize, v: VertexId) -> Option<f64> {
        if l >= self.count() {
            return None;
        }
        self.dist
            .get(v.index() * self.count() + l)
            .map(|&d| f64::from(d))
    }

    /// The [`NavMesh::instance_id`] of the mesh these were built for.
    pub fn mesh_id(&self) -> u64 {
        self.mesh_id
    }

    /// Bytes of distance table.
    pub fn memory_bytes(&self) -> usize {
        self.dist.len() * std::mem::size_of::<f32>()
    }

    /// [`memory_bytes`](Landmarks::memory_bytes) of a table of `count` landmarks on a mesh of
    /// `vertices` vertices, before building it.
    pub(crate) fn memory_for(count: usize, vertices: usize) -> usize {
        count * vertices * std::mem::size_of::<f32>()
    }

    /// Per landmark, an interval holding its distance to `v` ([`widen`] of the stored value):
    /// what every bound reads, so that none can take a stored `f32` for the distance.
    #[inline]
    pub(crate) fn row(&self, v: VertexId) -> impl Iterator<Item = (f64, f64)> + '_ {
        let k = self.count();
        self.dist[v.index() * k..v.index() * k + k]
            .iter()
            .map(|&d| widen(d))
    }
}

/// Farthest-first landmark sites, per connected part in proportion to its size. "Far" is
/// measured along the mesh's edges (Dijkstra on the graph of polygon sides), an upper bound of
/// the true distance that ranks vertices alike and costs a fraction of an exact search, so the
/// exact distances of all sites can then be computed independently (in parallel).
pub(crate) fn choose_sites(mesh: &NavMesh, count: usize) -> Vec<VertexId> {
    let nv = mesh.vertex_count();
    let parts = Parts::new(mesh);
    let graph = EdgeGraph::new(mesh);
    let mut sites = Vec::new();
    let mut nearest = vec![f64::INFINITY; nv];
    for (part, share) in shares(&parts, count) {
        // Candidates: corners (shortest paths turn only there) of this part where the free
        // space is not pinched, so the landmark's side is unambiguous.
        let usable: Vec<VertexId> = (0..nv as u32)
            .map(VertexId)
            .filter(|&v| {
                mesh.is_corner(v)
                    && mesh
                        .vertex_polygons(v)
                        .first()
                        .is_some_and(|p| parts.of[p.index()] == part)
                    && !mesh.is_pinch(v)
            })
            .collect();
        let Some(&seed) = usable.first() else {
            continue;
        };
        // `nearest[v]`: distance to the nearest site of this part so far (the seed's at first).
        graph.distances(seed, &mut nearest, true);
        let first = sites.len();
        while sites.len() - first < share.min(usable.len()) {
            let far = usable
                .iter()
                .copied()
                .filter(|v| !sites[first..].contains(v))
                .max_by(|&a, &b| {
                    nearest[a.index()]
                        .total_cmp(&nearest[b.index()])
                        .then(b.0.cmp(&a.0))
                });
            let Some(far) = far else { break };
            graph.distances(far, &mut nearest, sites.len() == first);
            sites.push(far);
        }
    }
    sites
}

/// The graph of polygon sides: vertices joined by the edges of the mesh, weighted by length.
struct EdgeGraph {
    /// Vertex `v`'s neighbours are `to[start[v]..start[v + 1]]`.
    start: Vec<u32>,
    to: Vec<(u32, f64)>,
}

impl EdgeGraph {
    fn new(mesh: &NavMesh) -> EdgeGraph {
        let nv = mesh.vertex_count();
        let mut degree = vec![0u32; nv + 1];
        let sides = || {
            mesh.polygons().flat_map(move |p| {
                let vs = mesh.polygon_vertices(p);
                (0..vs.len()).map(move |i| (vs[i], vs[(i + 1) % vs.len()]))
            })
        };
        for (a, b) in sides() {
            degree[a.index()] += 1;
            degree[b.index()] += 1;
        }
        let mut start = vec![0u32; nv + 1];
        for v in 0..nv {
            start[v + 1] = start[v] + degree[v];
        }
        let mut fill = start.clone();
        let mut to = vec![(0, 0.0); start[nv] as usize];
        for (a, b) in sides() {
            let w = mesh.vertex(a).distance(mesh.vertex(b));
            for (x, y) in [(a, b), (b, a)] {
                to[fill[x.index()] as usize] = (y.0, w);
                fill[x.index()] += 1;
            }
        }
        EdgeGraph { start, to }
    }

    /// Dijkstra from `source`: overwrites `out` when `replace`, else lowers it to the minimum
    /// of both (the distance to the nearest of several sources).
    fn distances(&self, source: VertexId, out: &mut [f64], replace: bool) {
        let mut d = vec![f64::INFINITY; out.len()];
        let mut heap = std::collections::BinaryHeap::new();
        d[source.index()] = 0.0;
        // Dijkstra's key is its distance, which the compact key keeps to the bit as `f`.
        heap.push(Open::new(0.0, 0.0, source.0));
        while let Some(o) = heap.pop() {
            let (v, dv) = (o.id() as usize, o.f());
            if dv > d[v] {
                continue;
            }
            for &(w, len) in &self.to[self.start[v] as usize..self.start[v + 1] as usize] {
                let g = dv + len;
                if g < d[w as usize] {
                    d[w as usize] = g;
                    heap.push(Open::new(g, g, w));
                }
            }
        }
        for (o, x) in out.iter_mut().zip(d) {
            *o = if replace { x } else { o.min(x) };
        }
    }
}

/// The connected parts of a mesh (polygons linked by shared edges).
struct Parts {
    /// Part of each polygon.
    of: Vec<u32>,
    /// Polygons in each part.
    size: Vec<usize>,
}

impl Parts {
    fn new(mesh: &NavMesh) -> Parts {
        let of = mesh.connected_components();
        let mut size = vec![0; of.iter().max().map_or(0, |&m| m as usize + 1)];
        for &part in &of {
            size[part as usize] += 1;
        }
        Parts { of, size }
    }
}

/// How many of `count` landmarks each part gets: in proportion to its polygons, largest parts
/// first, rounded down (so small islands get none), and at least one for the largest part.
fn shares(parts: &Parts, count: usize) -> Vec<(u32, usize)> {
    let total: usize = parts.size.iter().sum();
    let mut order: Vec<u32> = (0..parts.size.len() as u32).collect();
    order.sort_by_key(|&p| std::cmp::Reverse(parts.size[p as usize]));
    let mut left = count;
    let mut out = Vec::new();
    for (i, &p) in order.iter().enumerate() {
        // (Saturating: `count` is the caller's and may be any usize.)
        let fair = count.saturating_mul(parts.size[p as usize]) / total.max(1);
        let n = if i == 0 { fair.max(1) } else { fair }.min(left);
        if n == 0 {
            break;
        }
        left -= n;
        out.push((p, n));
    }
    // What rounding left over goes to the largest part.
    if let Some(first) = out.first_mut() {
        first.1 += left;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stored distance's interval holds the distance it was stored from, across `f32`'s
    /// normal range (and just inside its ends); values outside that range are stored as NaN;
    /// infinity, zero and NaN stay what they are. Without the widening (an interval of the
    /// stored value alone) about half the draws fall outside.
    #[test]
    fn the_stored_interval_holds_the_distance() {
        let mut rng = crate::random::Rng::new(7);
        let mut outside_unwidened = 0;
        let n = 200_000;
        for _ in 0..n {
            // Log-uniform over the normal range of f32.
            let e = -125.0 + 250.0 * rng.next_f64();
            let d = e.exp2() * (1.0 + rng.next_f64());
            let s = stored(d);
            assert!(!s.is_nan(), "{d} stored as NaN");
            let (low, high) = widen(s);
            assert!(
                low <= d && d <= high,
                "{d}: stored {s}, read as [{low}, {high}]"
            );
            outside_unwidened += usize::from(f64::from(s) != d);
        }
        assert!(outside_unwidened > n / 3, "{outside_unwidened}");
        for d in [
            f64::from(f32::MIN_POSITIVE),
            f64::from(f32::MAX) / 2.0,
            1.0,
            0.1,
        ] {
            let (low, high) = widen(stored(d));
            assert!(low <= d && d <= high, "{d}");
        }
        for d in [
            1e-300,
            f64::from(f32::MIN_POSITIVE) / 2.0,
            f64::from(f32::MAX),
            1e300,
        ] {
            assert!(stored(d).is_nan(), "{d}");
        }
        assert_eq!(stored(f64::INFINITY), f32::INFINITY);
        assert_eq!(widen(f32::INFINITY), (f64::INFINITY, f64::INFINITY));
        assert_eq!(stored(0.0), 0.0);
        assert!(stored(f64::NAN).is_nan() && widen(f32::NAN).0.is_nan());
    }
}
