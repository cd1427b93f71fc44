//! Landmarks: precomputed distances that give the exact search a stronger heuristic.
//!
//! Polyanya's own heuristic ([`polyanya`](super::polyanya)) is the straight-line distance through
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
//! Polyanya without a goal over the whole mesh ([`ExactSearch::distances_from`]), the runs in
//! parallel with the `parallel` feature.
//!
//! Cost: `count` whole-mesh searches to build, `8 · count` bytes per vertex to keep, and per
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
//! let plain = SearchOptions { method: SearchMethod::Exact, ..SearchOptions::default() };
//! let with_landmarks = SearchOptions { landmarks: Some(landmarks), ..plain.clone() };
//! let mut finder = PathFinder::new();
//! let a = finder.find_path(&mesh, start, goal, &plain)?;
//! let b = finder.find_path(&mesh, start, goal, &with_landmarks)?;
//! assert_eq!(a.length, b.length); // the same shortest path...
//! assert!(b.expanded <= a.expanded); // ...found with fewer expansions
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::polyanya::ExactSearch;
use crate::mesh::{NavMesh, VertexId};

/// Exact distances from a few landmark vertices to every vertex of one mesh.
///
/// Built once per mesh, immutable, and shared between threads through an `Arc` in
/// [`SearchOptions::landmarks`](super::SearchOptions::landmarks).
#[derive(Clone, Debug)]
pub struct Landmarks {
    mesh_id: u64,
    sites: Vec<VertexId>,
    /// `dist[v * count + l]`: from landmark `l` to vertex `v`; infinite where unreachable.
    dist: Vec<f64>,
}

/// Equal when built for the same mesh with the same sites and the same distances, bit for bit
/// (the table holds NaN for pinch vertices, which `f64`'s `==` would call unequal to itself).
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
    /// Chooses up to `count` landmarks for `mesh` (farthest first; fewer when the mesh has
    /// fewer usable vertices) and computes their distances to every vertex.
    ///
    /// 8 to 24 landmarks is the useful range: each more tightens the bound a little and costs
    /// one more whole-mesh search to build and 8 bytes per vertex. On `scene_mp_2p_01` (3,860
    /// triangles) 8, 16 and 24 landmarks made queries 2.2×, 2.6× and 2.8× as fast as plain
    /// Polyanya (BENCHMARKS.md gives the command), so 16 is a good default.
    pub fn build(mesh: &NavMesh, count: usize) -> Landmarks {
        let sites = choose_sites(mesh, count);
        let columns = exact_columns(mesh, &sites);
        let (nv, k) = (mesh.vertex_count(), sites.len());
        let mut dist = vec![f64::INFINITY; nv * k];
        for (l, col) in columns.iter().enumerate() {
            for (v, &d) in col.iter().enumerate() {
                dist[v * k + l] = d;
            }
        }
        // A pinch vertex (walls meeting only there) has one distance per side; the table holds
        // the smaller, which may be on a side the goal cannot reach through the vertex. NaN
        // keeps such rows out of every bound (`f64::max` and `min` skip it).
        for v in (0..nv as u32).map(VertexId).filter(|&v| mesh.is_pinch(v)) {
            dist[v.index() * k..v.index() * k + k].fill(f64::NAN);
        }
        Landmarks {
            mesh_id: mesh.instance_id(),
            sites,
            dist,
        }
    }

    /// The number of landmarks.
    pub fn count(&self) -> usize {
        self.sites.len()
    }

    /// The landmark vertices, in the order chosen.
    pub fn sites(&self) -> &[VertexId] {
        &self.sites
    }

    /// The shortest distance from landmark `l` to vertex `v`: infinite when unreachable, NaN
    /// for a pinch vertex (where walls meet only at that point), which is not used. `None` when
    /// there is no landmark `l` or no vertex `v`.
    pub fn distance(&self, l: usize, v: VertexId) -> Option<f64> {
        if l >= self.count() {
            return None;
        }
        self.dist.get(v.index() * self.count() + l).copied()
    }

    /// The [`NavMesh::instance_id`] of the mesh these were built for.
    pub fn mesh_id(&self) -> u64 {
        self.mesh_id
    }

    /// Bytes of distance table.
    pub fn memory_bytes(&self) -> usize {
        self.dist.len() * std::mem::size_of::<f64>()
    }

    /// The distances from every landmark to `v`.
    #[inline]
    pub(crate) fn row(&self, v: VertexId) -> &[f64] {
        let k = self.count();
        &self.dist[v.index() * k..v.index() * k + k]
    }
}

/// Farthest-first landmark sites, per connected part in proportion to its size. "Far" is
/// measured along the mesh's edges (Dijkstra on the graph of polygon sides), an upper bound of
/// the true distance that ranks vertices alike and costs a fraction of an exact search, so the
/// exact distances of all sites can then be computed independently (in parallel).
fn choose_sites(mesh: &NavMesh, count: usize) -> Vec<VertexId> {
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

/// The exact distances from each site to every vertex, one goal-less Polyanya run per site.
#[cfg(feature = "parallel")]
fn exact_columns(mesh: &NavMesh, sites: &[VertexId]) -> Vec<Vec<f64>> {
    use rayon::prelude::*;
    sites
        .par_iter()
        .map_init(ExactSearch::new, |search, &v| {
            search.distances_from(mesh, v)
        })
        .collect()
}

/// The exact distances from each site to every vertex, one goal-less Polyanya run per site.
#[cfg(not(feature = "parallel"))]
fn exact_columns(mesh: &NavMesh, sites: &[VertexId]) -> Vec<Vec<f64>> {
    let mut search = ExactSearch::new();
    sites
        .iter()
        .map(|&v| search.distances_from(mesh, v))
        .collect()
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
        heap.push(super::open::Open {
            f: 0.0,
            g: 0.0,
            id: source.0,
        });
        while let Some(o) = heap.pop() {
            let v = o.id as usize;
            if o.g > d[v] {
                continue;
            }
            for &(w, len) in &self.to[self.start[v] as usize..self.start[v + 1] as usize] {
                let g = o.g + len;
                if g < d[w as usize] {
                    d[w as usize] = g;
                    heap.push(super::open::Open { f: g, g, id: w });
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
    use crate::build::{build, BuildOptions};
    use crate::geom::Vec2;
    use crate::search::test_scenes::{
        grid_point, mesh_of, pinched_squares, random_scene, split_map,
    };
    use crate::search::{PathError, PathFinder, SearchMethod, SearchOptions};
    use proptest::prelude::*;
    use std::sync::Arc;

    fn exact() -> SearchOptions {
        SearchOptions {
            method: SearchMethod::Exact,
            ..SearchOptions::default()
        }
    }

    fn with(lm: Landmarks) -> SearchOptions {
        SearchOptions {
            landmarks: Some(Arc::new(lm)),
            ..exact()
        }
    }

    /// Two unit squares touching only at (1, 1), and a third square away from both.
    fn pinched() -> NavMesh {
        let (mut v, mut polys) = pinched_squares();
        v.extend([(5.0, 5.0), (6.0, 5.0), (6.0, 6.0), (5.0, 6.0)].map(Vec2::from));
        polys.push(vec![7, 8, 9, 10]);
        NavMesh::from_polygons(v, polys).unwrap()
    }

    /// Each vertex's distance from a point query to it, the reference for the one-to-all search
    /// (pinch vertices included: a point query may leave or reach one through any wedge).
    fn point_to_point(mesh: &NavMesh, from: VertexId, to: VertexId) -> f64 {
        let r = PathFinder::new().find_path(mesh, mesh.vertex(from), mesh.vertex(to), &exact());
        match r {
            Ok(p) => p.length,
            Err(PathError::NoPath) => f64::INFINITY,
            Err(e) => panic!("{e}"),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// The one-to-all search gives every vertex the length of the point-to-point exact
        /// search, on both decompositions (the CDT's vertices and walls differ).
        #[test]
        fn one_to_all_distances_equal_point_queries(scene in random_scene(), pick in 0usize..10_000) {
            let cdt = build(&scene, &BuildOptions::default()).unwrap();
            for mesh in [mesh_of(&scene), cdt] {
                let used: Vec<VertexId> = (0..mesh.vertex_count() as u32)
                    .map(VertexId)
                    .filter(|&v| !mesh.vertex_polygons(v).is_empty())
                    .collect();
                let source = used[pick % used.len()];
                let d = ExactSearch::new().distances_from(&mesh, source);
                for v in (0..mesh.vertex_count() as u32).map(VertexId) {
                    let want = point_to_point(&mesh, source, v);
                    let got = d[v.index()];
                    prop_assert!(
                        got == want || (got - want).abs() <= 1e-12 * want,
                        "{source:?} → {v:?}: one-to-all {got}, point query {want}"
                    );
                }
            }
        }

        /// Landmarks change how fast the exact search is, never what it answers.
        #[test]
        fn landmarks_do_not_change_answers(
            scene in random_scene(),
            count in 0usize..6,
            queries in prop::collection::vec((grid_point(), grid_point()), 12),
        ) {
            let mesh = mesh_of(&scene);
            let lm = with(Landmarks::build(&mesh, count));
            let mut finder = PathFinder::new();
            for (s, g) in queries {
                let plain = finder.find_path(&mesh, s, g, &exact());
                let fast = finder.find_path(&mesh, s, g, &lm);
                match (&plain, &fast) {
                    (Ok(a), Ok(b)) => prop_assert!(
                        (a.length - b.length).abs() <= 1e-12 * a.length.max(1.0),
                        "{s} → {g}: {} plain, {} with landmarks", a.length, b.length
                    ),
                    _ => prop_assert_eq!(&plain, &fast, "{} → {}", s, g),
                }
            }
        }
    }

    #[test]
    fn pinch_vertices_have_no_landmark_distance_and_islands_share() {
        let mesh = pinched();
        // Three parts of one polygon each: 4 landmarks go 2/1/1, the leftover to the first.
        let lm = Landmarks::build(&mesh, 4);
        assert_eq!(lm.count(), 4);
        assert!(
            lm.sites().iter().all(|&v| v != VertexId(2)),
            "the pinch vertex is no landmark"
        );
        for l in 0..lm.count() {
            assert!(lm.distance(l, VertexId(2)).unwrap().is_nan());
            // Every landmark reaches its own part only.
            let site = lm.sites()[l];
            let part = |v: u32| match v {
                0..=3 => 0,
                4..=6 => 1,
                _ => 2,
            };
            for v in (0..mesh.vertex_count() as u32).filter(|&v| v != 2) {
                let d = lm.distance(l, VertexId(v)).unwrap();
                assert_eq!(
                    d.is_finite(),
                    part(v) == part(site.0),
                    "{site:?} → {v}: {d}"
                );
            }
        }
        // Across the pinch the answer is still "no path", from either side.
        assert_eq!(lm, lm.clone(), "NaN rows compare equal to themselves");
        let opts = with(lm);
        let mut finder = PathFinder::new();
        for (s, g) in [((0.5, 0.5), (1.5, 1.5)), ((1.5, 1.5), (0.2, 0.9))] {
            let r = finder.find_path(&mesh, Vec2::from(s), Vec2::from(g), &opts);
            assert_eq!(r, Err(PathError::NoPath));
        }
        let p = finder
            .find_path(&mesh, Vec2::new(0.1, 0.1), Vec2::new(0.9, 0.8), &opts)
            .unwrap();
        assert_eq!(p.points.len(), 2);
    }

    #[test]
    fn distances_out_of_range_are_none() {
        let mesh = pinched();
        let lm = Landmarks::build(&mesh, 2);
        assert!(lm.distance(0, VertexId(0)).is_some());
        assert_eq!(lm.distance(2, VertexId(0)), None);
        assert_eq!(lm.distance(0, VertexId(mesh.vertex_count() as u32)), None);
    }

    #[test]
    fn no_landmarks_is_allowed_and_changes_nothing() {
        let mesh = split_map();
        let lm = Landmarks::build(&mesh, 0);
        assert_eq!((lm.count(), lm.memory_bytes()), (0, 0));
        let (s, g) = (Vec2::new(1.0, 1.0), Vec2::new(3.0, 9.0));
        let a = PathFinder::new().find_path(&mesh, s, g, &exact()).unwrap();
        let b = PathFinder::new().find_path(&mesh, s, g, &with(lm)).unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn landmarks_of_another_mesh_are_refused() {
        let mesh = split_map();
        let other = split_map(); // the same geometry, but another mesh
        let opts = with(Landmarks::build(&other, 2));
        let (s, g) = (Vec2::new(1.0, 1.0), Vec2::new(3.0, 9.0));
        assert_eq!(
            PathFinder::new().find_path(&mesh, s, g, &opts),
            Err(PathError::ForeignData {
                option: "landmarks"
            })
        );
        // A clone is the same mesh.
        let ok = PathFinder::new().find_path(&other.clone(), s, g, &opts);
        assert!(ok.is_ok());
        // The message names the option.
        assert_eq!(
            PathError::ForeignData {
                option: "landmarks"
            }
            .to_string(),
            "the landmarks were built for another mesh"
        );
    }

    #[test]
    fn landmarks_cut_expansions_around_a_long_wall() {
        // A comb: walls from the bottom with gaps at the top, a path zig-zagging... simpler:
        // one long wall the path must go around, start and goal close on either side.
        let scene =
            crate::scene::Scene::new(crate::geom::Aabb::new(Vec2::ZERO, Vec2::new(100.0, 100.0)))
                .with_obstacle([(49.0, 0.0), (51.0, 0.0), (51.0, 90.0), (49.0, 90.0)])
                .with_obstacle([(20.0, 20.0), (30.0, 20.0), (30.0, 30.0), (20.0, 30.0)])
                .with_obstacle([(70.0, 40.0), (80.0, 40.0), (80.0, 50.0), (70.0, 50.0)]);
        let mesh = build(&scene, &BuildOptions::default()).unwrap();
        let (s, g) = (Vec2::new(45.0, 5.0), Vec2::new(55.0, 5.0));
        let a = PathFinder::new().find_path(&mesh, s, g, &exact()).unwrap();
        let b = PathFinder::new()
            .find_path(&mesh, s, g, &with(Landmarks::build(&mesh, 4)))
            .unwrap();
        assert!((a.length - b.length).abs() < 1e-9);
        assert!(b.expanded < a.expanded, "{} vs {}", b.expanded, a.expanded);
    }
}
