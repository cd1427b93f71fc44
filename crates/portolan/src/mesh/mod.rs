//! The navigation mesh: convex polygons that share vertices, and portals between them.
//!
//! A [`NavMesh`] is immutable once built and `Send + Sync`: build it once, share it between
//! threads, and run queries with a reusable [`PathFinder`](crate::search::PathFinder).
//!
//! # Layout
//! ```text
//!   vertices: [v0, v1, v2, ...]              shared by every polygon that touches them
//!   polygon p: vertex ids   [a, b, c, d]     counter-clockwise (y up), convex
//!              neighbours   [n0, n1, n2, n3]  slot i = the polygon across edge (v[i], v[i+1]),
//!                                             None where the edge is a wall
//!
//!        d ─────── c
//!        │    p    │  n1 = the polygon right of edge b→c (its portal is b c)
//!        a ─────── b
//! ```
//! A portal is exactly the edge two polygons share: both endpoints are vertices of both. A mesh
//! with "T-junctions" (a vertex in the middle of a neighbour's edge) is rejected by
//! [`NavMesh::check_invariants`]: builders split such edges so that every contact is a portal.
//! Polygons may have collinear vertices (that is how a long side meets several neighbours).

mod assemble;
mod data;
pub mod dead_ends;
mod error;
mod invariants;
pub mod links;
mod locate;
mod nearest;
mod patch;
pub(crate) mod rows;
#[cfg(test)]
pub(crate) use rows::MIN_SLACK;

pub(crate) use assemble::polygon_measures;
use assemble::*;
pub use data::NavMeshData;
pub use error::{InvariantError, MeshError};
pub use links::{LinkEdge, LinkEnd, LinkError, LinkId, OffMeshLink};
pub use locate::Location;

use crate::geom::{convexity, orient, Aabb, ConvexFault, Vec2};
use locate::Locator;
pub(crate) use locate::{CellRange, LocatorPlan};
pub(crate) use patch::{MeshEdit, MeshPatch, PatchScratch, PolygonWrite};
use rows::Rows;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Index of a polygon in a [`NavMesh`].
///
/// An id is a plain index, valid for the mesh that handed it out (from
/// [`NavMesh::polygons`], [`NavMesh::locate`], [`NavMesh::neighbours`], a path's channel). The
/// accessors that take one index by it like a slice:
///
/// - an id at or past [`NavMesh::polygon_count`] **panics**, as `slice[i]` does;
/// - an id from another mesh within the count reads whatever polygon has that index here, and
///   so does the id of a polygon a [dynamic](crate::dynamic) edit replaced (a rebuilt tile
///   reuses its ids for its new polygons).
///
/// An id that comes from outside (a file, a request) is checked against the count first:
///
/// ```
/// use portolan::geom::Vec2;
/// use portolan::mesh::{NavMesh, PolyId};
/// let square = vec![
///     Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(1.0, 1.0), Vec2::new(0.0, 1.0),
/// ];
/// let mesh = NavMesh::from_polygons(square, vec![vec![0, 1, 2, 3]]).unwrap();
/// let from_a_request = PolyId(7);
/// assert!(from_a_request.index() >= mesh.polygon_count()); // refuse it: unknown polygon
/// assert_eq!(mesh.polygon_vertices(PolyId(0)).len(), 4);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PolyId(pub u32);

/// Index of a vertex in a [`NavMesh`].
///
/// Like [`PolyId`], a plain index valid for the mesh that handed it out: an id at or past
/// [`NavMesh::vertex_count`] makes the accessors panic, as slice indexing does, so an id from
/// outside is checked against the count first.
///
/// ```
/// use portolan::geom::Vec2;
/// use portolan::mesh::{NavMesh, PolyId, VertexId};
/// let triangle = vec![Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0), Vec2::new(0.0, 2.0)];
/// let mesh = NavMesh::from_polygons(triangle, vec![vec![0, 1, 2]]).unwrap();
/// assert_eq!(mesh.polygon_vertices(PolyId(0)), &[VertexId(0), VertexId(1), VertexId(2)]);
/// assert_eq!(mesh.vertex(VertexId(1)), Vec2::new(2.0, 0.0));
/// assert!(VertexId(3).index() >= mesh.vertex_count());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct VertexId(pub u32);

impl PolyId {
    /// The id as a `usize` index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
impl VertexId {
    /// The id as a `usize` index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
impl std::fmt::Display for PolyId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "polygon {}", self.0)
    }
}
impl std::fmt::Display for VertexId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "vertex {}", self.0)
    }
}

/// An immutable navigation mesh of convex polygons.
///
/// ```
/// use portolan::geom::Vec2;
/// use portolan::mesh::{NavMesh, Location, PolyId};
///
/// // Two triangles sharing the diagonal of the unit square.
/// let vertices = vec![
///     Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(1.0, 1.0), Vec2::new(0.0, 1.0),
/// ];
/// let mesh = NavMesh::from_polygons(vertices, vec![vec![0, 1, 2], vec![0, 2, 3]]).unwrap();
/// mesh.check_invariants().unwrap();
/// // Edge 2 of the first triangle runs from vertex 2 to vertex 0: the shared diagonal.
/// assert_eq!(mesh.neighbours(PolyId(0))[2], Some(PolyId(1)));
/// assert_eq!(mesh.locate(Vec2::new(0.9, 0.1)), Location::InPolygon(PolyId(0)));
/// assert_eq!(mesh.locate(Vec2::new(2.0, 0.5)), Location::Outside);
/// ```
#[derive(Clone, Debug)]
pub struct NavMesh {
    vertices: Vec<Vec2>,
    /// Polygon `p` owns `poly_vertices[rows.get(p)]` and the same range of `poly_neighbours`
    /// (end to end when built at once; see [`rows`] for patched meshes).
    rows: Rows,
    poly_vertices: Vec<VertexId>,
    poly_neighbours: Vec<Option<PolyId>>,
    poly_bounds: Vec<Aabb>,
    centroids: Vec<Vec2>,
    /// Polygons around vertex `v`: `vertex_polygons[vertex_rows.get(v)]`, in increasing id
    /// order when built at once (one allocation instead of one per vertex).
    vertex_rows: Rows,
    vertex_polygons: Vec<PolyId>,
    /// `true` where the vertex touches a wall (an edge with no neighbour): a possible turning point.
    vertex_is_corner: Vec<bool>,
    /// `true` where more than two walls end at the vertex: a pinch ([`NavMesh::is_pinch`]).
    vertex_is_pinch: Vec<bool>,
    bounds: Aabb,
    area: f64,
    locator: Locator,
    /// Off-mesh links ([`NavMesh::with_links`]); empty by default.
    links: links::LinkTable,
    /// [`NavMesh::instance_id`].
    instance: u64,
    /// [`NavMesh::dead_ends`], derived on first use.
    dead_ends: std::sync::OnceLock<dead_ends::DeadEnds>,
}

/// The 64-bit FNV-1a hash (Fowler, Noll, Vo): a fast, stable, non-cryptographic hash of a byte
/// stream, for fingerprints and checksums that must agree across processes and machines.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fnv64(u64);

impl Fnv64 {
    /// The hash of nothing (FNV's offset basis).
    pub(crate) fn new() -> Fnv64 {
        Fnv64(0xcbf2_9ce4_8422_2325)
    }

    /// Hashes `bytes` in.
    pub(crate) fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// The hash so far.
    pub(crate) fn finish(self) -> u64 {
        self.0
    }
}

/// Source of [`NavMesh::instance_id`]s.
static NEXT_INSTANCE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl NavMesh {
    /// A 64-bit hash of the mesh's geometry: its vertices (bit for bit) and its polygons'
    /// vertex lists, in order. Equal meshes have equal fingerprints in every process and on
    /// every machine, so data saved for a mesh, such as a
    /// [corner graph index](crate::search::corner_graph::CornerGraph::to_bytes), can be checked
    /// against the mesh it is loaded with (unlike [`NavMesh::instance_id`], which is per
    /// process). Off-mesh links are not part of it. FNV-1a; O(size of the mesh).
    ///
    /// ```
    /// # use portolan::{build, BuildOptions, Scene};
    /// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
    /// let again = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
    /// assert_eq!(mesh.fingerprint(), again.fingerprint());
    /// assert_ne!(mesh.instance_id(), again.instance_id());
    /// ```
    pub fn fingerprint(&self) -> u64 {
        let mut h = Fnv64::new();
        h.write(&(self.vertices.len() as u64).to_le_bytes());
        for v in &self.vertices {
            h.write(&v.x.to_bits().to_le_bytes());
            h.write(&v.y.to_bits().to_le_bytes());
        }
        // The compressed-row offsets and the rings in polygon order, whatever the layout.
        h.write(&(self.rows.len() as u64 + 1).to_le_bytes());
        let mut offset = 0u32;
        h.write(&offset.to_le_bytes());
        for p in self.polygons() {
            offset += self.polygon_vertices(p).len() as u32;
            h.write(&offset.to_le_bytes());
        }
        for p in self.polygons() {
            for v in self.polygon_vertices(p) {
                h.write(&v.0.to_le_bytes());
            }
        }
        h.finish()
    }

    /// A number distinct for every mesh built in this process (clones share it, as they share
    /// the geometry). Data prepared for one mesh, such as
    /// [`Landmarks`](crate::search::landmarks::Landmarks), records it, so a search can refuse
    /// it on another mesh. Off-mesh links ([`NavMesh::with_links`]) keep the id: they do not
    /// change the polygons.
    #[inline]
    pub fn instance_id(&self) -> u64 {
        self.instance
    }
    /// The mesh's bridges: portals that are the only way into a part of it, which a shortest path
    /// crosses only toward its goal (see [`dead_ends`]). Computed in O(n) on the first call and
    /// kept (thread-safe); the exact search uses it.
    pub fn dead_ends(&self) -> &dead_ends::DeadEnds {
        self.dead_ends
            .get_or_init(|| dead_ends::DeadEnds::new(self))
    }
    /// [`NavMesh::dead_ends`] if something derived it already, without deriving it: for the
    /// funnel search, which must not charge an O(n) table to the first query on each new
    /// snapshot of a dynamic mesh.
    #[inline]
    pub(crate) fn dead_ends_if_derived(&self) -> Option<&dead_ends::DeadEnds> {
        self.dead_ends.get()
    }
    /// The connected parts of the mesh: a label per polygon (indexed by [`PolyId::index`]), the
    /// same for two polygons exactly when a walk across shared edges leads from one to the other.
    /// Labels run from 0 to the number of parts − 1, numbered in the order of each part's lowest
    /// polygon id. Off-mesh links do not join parts. O(n), by depth-first flood fill.
    ///
    /// ```
    /// use portolan::{build, BuildOptions, Scene, Vec2};
    /// use portolan::geom::Aabb;
    ///
    /// // A wall over the whole height cuts the map in two.
    /// let scene = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(10.0, 10.0)))
    ///     .with_obstacle([(4.0, 0.0), (6.0, 0.0), (6.0, 10.0), (4.0, 10.0)]);
    /// let mesh = build(&scene, &BuildOptions::trapezoid()).unwrap();
    /// let part = mesh.connected_components();
    /// let of = |x: f64| part[mesh.locate(Vec2::new(x, 5.0)).polygon().unwrap().index()];
    /// assert_ne!(of(1.0), of(9.0));
    /// assert_eq!(part.iter().max(), Some(&1));
    /// ```
    pub fn connected_components(&self) -> Vec<u32> {
        let mut part = vec![u32::MAX; self.polygon_count()];
        let mut parts = 0;
        let mut stack = Vec::new();
        for seed in self.polygons() {
            if part[seed.index()] != u32::MAX {
                continue;
            }
            part[seed.index()] = parts;
            stack.push(seed);
            while let Some(p) = stack.pop() {
                for &q in self.neighbours(p).iter().flatten() {
                    if part[q.index()] == u32::MAX {
                        part[q.index()] = parts;
                        stack.push(q);
                    }
                }
            }
            parts += 1;
        }
        part
    }
    /// Per polygon (indexed by [`PolyId::index`]), whether it lies in the connected part of the
    /// mesh ([`connected_components`](Self::connected_components)) of greatest area; of parts
    /// of equal area, the one numbered first. Every two points of that part are joined by a
    /// path: where to place agents, or draw the ends of test queries. O(n).
    ///
    /// ```
    /// use portolan::{build, BuildOptions, Scene, Vec2};
    /// use portolan::geom::Aabb;
    ///
    /// // A wall cuts a 3-wide strip off the right of the map.
    /// let scene = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(10.0, 10.0)))
    ///     .with_obstacle([(6.0, 0.0), (7.0, 0.0), (7.0, 10.0), (6.0, 10.0)]);
    /// let mesh = build(&scene, &BuildOptions::trapezoid()).unwrap();
    /// let keep = mesh.largest_component();
    /// let kept = |x: f64| keep[mesh.locate(Vec2::new(x, 5.0)).polygon().unwrap().index()];
    /// assert!(kept(1.0) && !kept(9.0));
    /// ```
    pub fn largest_component(&self) -> Vec<bool> {
        let part = self.connected_components();
        let parts = part.iter().map(|&c| c as usize + 1).max().unwrap_or(0);
        let mut area = vec![0.0; parts];
        for p in self.polygons() {
            area[part[p.index()] as usize] += self.polygon_area(p);
        }
        let best = (0..parts)
            .max_by(|&a, &b| area[a].total_cmp(&area[b]).then(b.cmp(&a)))
            .unwrap_or(0);
        part.iter().map(|&c| c as usize == best).collect()
    }
    /// Number of polygons.
    #[inline]
    pub fn polygon_count(&self) -> usize {
        self.rows.len()
    }
    /// Number of vertices.
    #[inline]
    pub fn vertex_count(&self) -> usize {
        self.vertices.len()
    }
    /// All polygon ids.
    pub fn polygons(&self) -> impl ExactSizeIterator<Item = PolyId> + '_ {
        (0..self.polygon_count() as u32).map(PolyId)
    }
    /// All vertex positions, indexed by [`VertexId`].
    #[inline]
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices
    }
    /// Position of a vertex.
    #[inline]
    pub fn vertex(&self, v: VertexId) -> Vec2 {
        self.vertices[v.index()]
    }
    /// The global corner slots of polygon `p`: its range of `poly_vertices` and
    /// `poly_neighbours` (per-corner data such as [`dead_ends`] is indexed by them).
    #[inline]
    pub(crate) fn slots(&self, p: PolyId) -> std::ops::Range<usize> {
        self.rows.get(p.index())
    }
    /// How many corner slots per-corner arrays need ([`NavMesh::slots`]).
    #[inline]
    pub(crate) fn slot_count(&self) -> usize {
        self.poly_neighbours.len()
    }
    /// The vertex ids of a polygon, counter-clockwise.
    #[inline]
    pub fn polygon_vertices(&self, p: PolyId) -> &[VertexId] {
        &self.poly_vertices[self.rows.get(p.index())]
    }
    /// The neighbours of a polygon: slot `i` is across the edge from vertex `i` to vertex `i + 1`.
    #[inline]
    pub fn neighbours(&self, p: PolyId) -> &[Option<PolyId>] {
        &self.poly_neighbours[self.rows.get(p.index())]
    }
    /// The positions of a polygon's vertices, counter-clockwise.
    pub fn polygon_points(&self, p: PolyId) -> impl ExactSizeIterator<Item = Vec2> + Clone + '_ {
        self.polygon_vertices(p)
            .iter()
            .map(|v| self.vertices[v.index()])
    }
    /// Edge `i` of polygon `p` as its two endpoints (counter-clockwise order).
    #[inline]
    pub fn edge(&self, p: PolyId, i: usize) -> (Vec2, Vec2) {
        let vs = self.polygon_vertices(p);
        // A compare, not `%`: an integer division in the crowd's and searches' inner loops.
        let j = if i + 1 == vs.len() { 0 } else { i + 1 };
        (self.vertex(vs[i]), self.vertex(vs[j]))
    }
    /// The edge index of `p` whose neighbour is `q`, if they are adjacent.
    #[inline]
    pub fn shared_edge(&self, p: PolyId, q: PolyId) -> Option<usize> {
        self.neighbours(p).iter().position(|&n| n == Some(q))
    }
    /// The bounding box of a polygon.
    #[inline]
    pub fn polygon_bounds(&self, p: PolyId) -> Aabb {
        self.poly_bounds[p.index()]
    }
    /// The area of a polygon (its share of [`NavMesh::area`], measured the same way).
    pub(crate) fn polygon_area(&self, p: PolyId) -> f64 {
        (polygon_measures(&self.vertices, self.polygon_vertices(p)).2 * 0.5).abs()
    }
    /// The vertex average of a polygon (the chapter's `center`).
    #[inline]
    pub fn centroid(&self, p: PolyId) -> Vec2 {
        self.centroids[p.index()]
    }
    /// The polygons that have `v` as a vertex, in no particular order.
    #[inline]
    pub fn vertex_polygons(&self, v: VertexId) -> &[PolyId] {
        &self.vertex_polygons[self.vertex_rows.get(v.index())]
    }
    /// `true` when `v` touches a wall, i.e. an edge with no neighbour: only such vertices can be
    /// turning points of a shortest path.
    #[inline]
    pub fn is_corner(&self, v: VertexId) -> bool {
        self.vertex_is_corner[v.index()]
    }
    /// `true` when `v` is a *pinch*: more than two walls end there, so the free space around it
    /// is two or more wedges that touch only at this point (two obstacles meeting at a corner,
    /// the "double corner" of a grid map where two blocked cells touch diagonally, an obstacle
    /// touching the map border at one vertex).
    ///
    /// Every search follows one rule there, the rule of the free space itself: a path may
    /// **start or end** on a pinch vertex and leave or arrive through **any** of its wedges (the
    /// point belongs to every polygon around it), but it never **passes through** one from a
    /// wedge into another, which would squeeze through a gap of width zero. Rays
    /// ([`raycast`](crate::search::raycast)) and the visibility-graph oracle
    /// ([`visibility`](crate::search::visibility)) follow the same rule.
    ///
    /// ```
    /// use portolan::geom::Vec2;
    /// use portolan::mesh::{NavMesh, VertexId};
    /// // Two unit squares touching only at (1, 1).
    /// let v = vec![
    ///     Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(1.0, 1.0), Vec2::new(0.0, 1.0),
    ///     Vec2::new(2.0, 1.0), Vec2::new(2.0, 2.0), Vec2::new(1.0, 2.0),
    /// ];
    /// let mesh = NavMesh::from_polygons(v, vec![vec![0, 1, 2, 3], vec![2, 4, 5, 6]]).unwrap();
    /// assert!(mesh.is_pinch(VertexId(2)));
    /// assert!(!mesh.is_pinch(VertexId(0)) && mesh.is_corner(VertexId(0)));
    /// ```
    #[inline]
    pub fn is_pinch(&self, v: VertexId) -> bool {
        self.vertex_is_pinch[v.index()]
    }

    /// `true` when polygons `p` and `q`, both around vertex `v`, lie in the same wedge of free
    /// space at `v`: one can walk around `v` from `p` to `q` across edges that end at `v`
    /// (always, unless `v` is a [pinch](NavMesh::is_pinch)). Cost: the polygons around `v`.
    pub(crate) fn same_wedge(&self, v: VertexId, p: PolyId, q: PolyId) -> bool {
        if p == q {
            return true;
        }
        // The two edges of `p` at `v`, then around `v` in each direction until a wall or `p`.
        let Some(k) = self.polygon_vertices(p).iter().position(|&x| x == v) else {
            return false;
        };
        let n = self.polygon_vertices(p).len();
        [k, (k + n - 1) % n]
            .into_iter()
            .any(|first| self.walk_around(v, p, q, first, &mut |_| {}).is_some())
    }

    /// The walk around vertex `v` from polygon `from` (one of the polygons around it), leaving
    /// it across the edge in slot `first` (one of its two edges at `v`), across edges that end
    /// at `v`, until polygon `to`: `visit` sees each polygon strictly between them. The number
    /// of them when the walk reaches `to`; `None` when it meets a wall or comes back to `from`
    /// first. Cost: the polygons around `v`.
    pub(crate) fn walk_around(
        &self,
        v: VertexId,
        from: PolyId,
        to: PolyId,
        first: usize,
        visit: &mut impl FnMut(PolyId),
    ) -> Option<usize> {
        let (mut cur, mut slot) = (from, first);
        for steps in 0..self.vertex_polygons(v).len() {
            let next = self.neighbours(cur)[slot]?;
            if next == to {
                return Some(steps);
            }
            if next == from {
                return None;
            }
            visit(next);
            // In `next`, the edge shared with `cur` is one of its two edges at `v`: go on
            // through the other.
            let vs = self.polygon_vertices(next);
            let m = vs.len();
            let j = vs.iter().position(|&x| x == v)?;
            let (out, back) = (j, (j + m - 1) % m);
            slot = if self.neighbours(next)[out] == Some(cur) {
                back
            } else {
                out
            };
            cur = next;
        }
        None
    }
    /// The bounding box of the whole mesh.
    #[inline]
    pub fn bounds(&self) -> Aabb {
        self.bounds
    }
    /// Bytes held by the mesh's arrays (their lengths, slack included), with the point-location
    /// grid and the off-mesh links; not the dead-end data derived on first use. An estimate for
    /// budgets and reports, not an allocator count.
    ///
    /// ```
    /// use portolan::{build, BuildOptions, Scene};
    /// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
    /// // At least the vertices and the corners' vertex ids and neighbours.
    /// let corners: usize = mesh.polygons().map(|p| mesh.polygon_vertices(p).len()).sum();
    /// assert!(mesh.memory_bytes() > mesh.vertex_count() * 16 + corners * 12);
    /// ```
    pub fn memory_bytes(&self) -> usize {
        use std::mem::size_of_val;
        size_of::<NavMesh>()
            + size_of_val(&self.vertices[..])
            + self.rows.memory_bytes()
            + size_of_val(&self.poly_vertices[..])
            + size_of_val(&self.poly_neighbours[..])
            + size_of_val(&self.poly_bounds[..])
            + size_of_val(&self.centroids[..])
            + self.vertex_rows.memory_bytes()
            + size_of_val(&self.vertex_polygons[..])
            + size_of_val(&self.vertex_is_corner[..])
            + size_of_val(&self.vertex_is_pinch[..])
            + self.locator.memory_bytes()
            + self.links.memory_bytes()
    }
    /// The total walkable area.
    #[inline]
    pub fn area(&self) -> f64 {
        self.area
    }
}

#[cfg(test)]
mod tests;
