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

pub mod dead_ends;
pub mod links;
mod locate;

pub use links::{LinkEdge, LinkEnd, LinkError, LinkId, OffMeshLink};
pub use locate::Location;

use crate::geom::{convexity, orient, Aabb, ConvexFault, Orientation, Vec2};
use locate::Locator;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Index of a polygon in a [`NavMesh`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PolyId(pub u32);

/// Index of a vertex in a [`NavMesh`].
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

/// Why a set of polygons does not make a navigation mesh.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum MeshError {
    /// A vertex coordinate is NaN or infinite.
    #[error("vertex {vertex} has a non-finite coordinate")]
    NonFiniteVertex {
        /// The vertex index.
        vertex: usize,
    },
    /// A polygon has fewer than three vertices.
    #[error("polygon {polygon} has {count} vertices; at least 3 are needed")]
    TooFewVertices {
        /// The polygon index.
        polygon: usize,
        /// How many it has.
        count: usize,
    },
    /// A polygon refers to a vertex that does not exist.
    #[error("polygon {polygon} refers to vertex {vertex}, but there are only {vertex_count}")]
    VertexOutOfRange {
        /// The polygon index.
        polygon: usize,
        /// The bad vertex index.
        vertex: usize,
        /// How many vertices there are.
        vertex_count: usize,
    },
    /// A polygon lists the same vertex twice in a row (a zero-length edge).
    #[error("polygon {polygon} has a zero-length edge {edge}")]
    DegenerateEdge {
        /// The polygon index.
        polygon: usize,
        /// The edge index (from vertex `edge` to the next).
        edge: usize,
    },
    /// A polygon is not convex and counter-clockwise at one of its vertices.
    #[error("polygon {polygon} is not convex and counter-clockwise at its vertex {corner}")]
    NotConvex {
        /// The polygon index.
        polygon: usize,
        /// The position of the offending vertex in the polygon.
        corner: usize,
    },
    /// A polygon has zero area.
    #[error("polygon {polygon} has zero area")]
    ZeroArea {
        /// The polygon index.
        polygon: usize,
    },
    /// More than two polygons share one edge, or two polygons share it in the same direction
    /// (one of them is clockwise or they overlap).
    #[error("edge between vertices {a} and {b} is used by polygons {first} and {second} in a way a manifold mesh cannot have")]
    NonManifoldEdge {
        /// One endpoint.
        a: usize,
        /// The other endpoint.
        b: usize,
        /// The polygon that had the edge first.
        first: usize,
        /// The polygon that could not share it.
        second: usize,
    },
    /// The mesh has no polygons.
    #[error("the mesh has no polygons")]
    Empty,
    /// A mesh larger than `u32` indices can hold.
    #[error("the mesh is too large: {0} elements do not fit in 32-bit ids")]
    TooLarge(usize),
}

/// A broken invariant found by [`NavMesh::check_invariants`]; each names the polygon at fault.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum InvariantError {
    /// The structural checks that [`NavMesh::from_polygons`] makes failed.
    #[error(transparent)]
    Structure(#[from] MeshError),
    /// Polygon `polygon` names `neighbour` across edge `edge`, but not the other way round.
    #[error("polygon {polygon} names polygon {neighbour} across edge {edge}, but {neighbour} does not name it back")]
    AsymmetricAdjacency {
        /// The polygon.
        polygon: PolyId,
        /// Its edge.
        edge: usize,
        /// The neighbour that does not agree.
        neighbour: PolyId,
    },
    /// Two polygons overlap (their interiors share area).
    #[error("polygons {first} and {second} overlap")]
    Overlap {
        /// One polygon.
        first: PolyId,
        /// The other.
        second: PolyId,
    },
    /// A vertex of one polygon lies inside an edge of another: the two touch along a segment that
    /// is not a portal.
    #[error("vertex {vertex} lies inside edge {edge} of polygon {polygon} (a T-junction: a contact that is not a portal)")]
    TJunction {
        /// The polygon whose edge holds the vertex.
        polygon: PolyId,
        /// The edge.
        edge: usize,
        /// The vertex.
        vertex: VertexId,
    },
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
    /// Polygon `p` owns `poly_vertices[offsets[p]..offsets[p + 1]]` and the same range of
    /// `poly_neighbours`.
    offsets: Vec<u32>,
    poly_vertices: Vec<VertexId>,
    poly_neighbours: Vec<Option<PolyId>>,
    poly_bounds: Vec<Aabb>,
    centroids: Vec<Vec2>,
    /// Polygons around vertex `v`: `vertex_polygons[vertex_poly_offsets[v]..vertex_poly_offsets[v + 1]]`,
    /// in increasing id order (compressed rows: one allocation instead of one per vertex).
    vertex_poly_offsets: Vec<u32>,
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

/// Source of [`NavMesh::instance_id`]s.
static NEXT_INSTANCE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

fn to_u32(n: usize) -> Result<u32, MeshError> {
    u32::try_from(n).map_err(|_| MeshError::TooLarge(n))
}

impl NavMesh {
    /// Builds a mesh from shared vertices and polygons given as vertex indices.
    ///
    /// Each polygon must be convex and counter-clockwise (y up); collinear vertices are allowed.
    /// Neighbours are found from shared edges: two polygons are adjacent exactly when one has the
    /// edge `a → b` and the other `b → a`.
    pub fn from_polygons(
        vertices: Vec<Vec2>,
        polygons: Vec<Vec<u32>>,
    ) -> Result<NavMesh, MeshError> {
        if polygons.is_empty() {
            return Err(MeshError::Empty);
        }
        to_u32(vertices.len())?;
        to_u32(polygons.len())?;
        if let Some(v) = vertices.iter().position(|v| !v.is_finite()) {
            return Err(MeshError::NonFiniteVertex { vertex: v });
        }
        let mut offsets = Vec::with_capacity(polygons.len() + 1);
        offsets.push(0u32);
        let mut poly_vertices = Vec::new();
        for (pi, poly) in polygons.iter().enumerate() {
            check_polygon(&vertices, pi, poly)?;
            poly_vertices.extend(poly.iter().map(|&v| VertexId(v)));
            offsets.push(to_u32(poly_vertices.len())?);
        }
        // Match directed edges a→b with b→a.
        let mut poly_neighbours = vec![None; poly_vertices.len()];
        let mut edges: HashMap<(u32, u32), (u32, usize)> =
            HashMap::with_capacity(poly_vertices.len());
        for (pi, poly) in polygons.iter().enumerate() {
            let base = offsets[pi] as usize;
            for i in 0..poly.len() {
                let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
                if let Some(&(other, _)) = edges.get(&(a, b)) {
                    return Err(MeshError::NonManifoldEdge {
                        a: a as usize,
                        b: b as usize,
                        first: other as usize,
                        second: pi,
                    });
                }
                match edges.get(&(b, a)).copied() {
                    Some((other, slot)) if poly_neighbours[slot].is_none() => {
                        poly_neighbours[slot] = Some(PolyId(pi as u32));
                        poly_neighbours[base + i] = Some(PolyId(other));
                    }
                    Some((other, _)) => {
                        return Err(MeshError::NonManifoldEdge {
                            a: a as usize,
                            b: b as usize,
                            first: other as usize,
                            second: pi,
                        })
                    }
                    None => {}
                }
                edges.insert((a, b), (pi as u32, base + i));
            }
        }
        Ok(Self::assemble(
            vertices,
            offsets,
            poly_vertices,
            poly_neighbours,
        ))
    }

    /// A mesh from polygons whose structure and adjacency a builder already knows (the CDT merge):
    /// skips the edge matching of [`NavMesh::from_polygons`]. `offsets` has one entry per polygon
    /// plus a final one; polygon `p` owns `poly_vertices[offsets[p]..offsets[p + 1]]` and the same
    /// range of `poly_neighbours`. The caller guarantees what `from_polygons` would check: at least
    /// one polygon, finite vertices, every polygon convex and counter-clockwise, and `poly_neighbours`
    /// naming, for each edge `a → b`, the polygon with the edge `b → a`. Debug builds verify it all
    /// with [`NavMesh::check_invariants`] and return what is broken (the builder's bug) as an error;
    /// release builds trust the caller.
    pub(crate) fn from_known_adjacency(
        vertices: Vec<Vec2>,
        offsets: Vec<u32>,
        poly_vertices: Vec<VertexId>,
        poly_neighbours: Vec<Option<PolyId>>,
    ) -> Result<NavMesh, InvariantError> {
        if offsets.len() < 2 {
            return Err(MeshError::Empty.into());
        }
        to_u32(vertices.len())?;
        to_u32(offsets.len() - 1)?;
        to_u32(poly_vertices.len())?;
        debug_assert_eq!(poly_vertices.len(), poly_neighbours.len());
        debug_assert_eq!(offsets.last().copied(), Some(poly_vertices.len() as u32));
        let mesh = Self::assemble(vertices, offsets, poly_vertices, poly_neighbours);
        #[cfg(debug_assertions)]
        mesh.check_invariants()?;
        Ok(mesh)
    }

    fn assemble(
        vertices: Vec<Vec2>,
        offsets: Vec<u32>,
        poly_vertices: Vec<VertexId>,
        poly_neighbours: Vec<Option<PolyId>>,
    ) -> NavMesh {
        let n = offsets.len() - 1;
        let mut poly_bounds = Vec::with_capacity(n);
        let mut centroids = Vec::with_capacity(n);
        // Walls (edges with no neighbour) ending at each vertex: 2 per wedge of free space.
        let mut walls = vec![0u32; vertices.len()];
        // Compressed rows for the polygons around each vertex: count, prefix sums, fill.
        let mut vertex_poly_offsets = vec![0u32; vertices.len() + 1];
        for v in &poly_vertices {
            vertex_poly_offsets[v.index() + 1] += 1;
        }
        for i in 0..vertices.len() {
            vertex_poly_offsets[i + 1] += vertex_poly_offsets[i];
        }
        let mut fill: Vec<u32> = vertex_poly_offsets[..vertices.len()].to_vec();
        let mut vertex_polygons = vec![PolyId(0); poly_vertices.len()];
        let mut area = 0.0;
        for p in 0..n {
            let range = offsets[p] as usize..offsets[p + 1] as usize;
            let ids = &poly_vertices[range.clone()];
            let nbs = &poly_neighbours[range];
            let o = vertices[ids[0].index()];
            let mut bb = Aabb::new(o, o);
            let mut sum = Vec2::ZERO;
            // The shoelace sum of `geom::signed_area`, around the first vertex, in its order.
            let mut twice = 0.0;
            for (i, v) in ids.iter().enumerate() {
                let x = vertices[v.index()];
                bb.include(x);
                sum += x;
                if i >= 1 && i + 1 < ids.len() {
                    twice += (x - o).cross(vertices[ids[i + 1].index()] - o);
                }
                let slot = &mut fill[v.index()];
                vertex_polygons[*slot as usize] = PolyId(p as u32);
                *slot += 1;
                if nbs[i].is_none() {
                    walls[v.index()] += 1;
                    walls[ids[(i + 1) % ids.len()].index()] += 1;
                }
            }
            poly_bounds.push(bb);
            centroids.push(sum / ids.len() as f64);
            area += twice * 0.5;
        }
        let bounds = poly_bounds
            .iter()
            .copied()
            .reduce(|mut a, b| {
                a.include(b.min);
                a.include(b.max);
                a
            })
            .expect("at least one polygon (checked)");
        let locator = Locator::new(bounds, &poly_bounds);
        let vertex_is_corner = walls.iter().map(|&w| w > 0).collect();
        let vertex_is_pinch = walls.iter().map(|&w| w > 2).collect();
        NavMesh {
            vertices,
            offsets,
            poly_vertices,
            poly_neighbours,
            poly_bounds,
            centroids,
            vertex_poly_offsets,
            vertex_polygons,
            vertex_is_corner,
            vertex_is_pinch,
            bounds,
            area,
            locator,
            links: links::LinkTable::default(),
            instance: NEXT_INSTANCE.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            dead_ends: std::sync::OnceLock::new(),
        }
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
    /// Number of polygons.
    #[inline]
    pub fn polygon_count(&self) -> usize {
        self.offsets.len() - 1
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
    /// The vertex ids of a polygon, counter-clockwise.
    #[inline]
    pub fn polygon_vertices(&self, p: PolyId) -> &[VertexId] {
        &self.poly_vertices[self.offsets[p.index()] as usize..self.offsets[p.index() + 1] as usize]
    }
    /// The neighbours of a polygon: slot `i` is across the edge from vertex `i` to vertex `i + 1`.
    #[inline]
    pub fn neighbours(&self, p: PolyId) -> &[Option<PolyId>] {
        &self.poly_neighbours
            [self.offsets[p.index()] as usize..self.offsets[p.index() + 1] as usize]
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
        (self.vertex(vs[i]), self.vertex(vs[(i + 1) % vs.len()]))
    }
    /// The edge index of `p` whose neighbour is `q`, if they are adjacent.
    pub fn shared_edge(&self, p: PolyId, q: PolyId) -> Option<usize> {
        self.neighbours(p).iter().position(|&n| n == Some(q))
    }
    /// The bounding box of a polygon.
    #[inline]
    pub fn polygon_bounds(&self, p: PolyId) -> Aabb {
        self.poly_bounds[p.index()]
    }
    /// The vertex average of a polygon (the chapter's `center`).
    #[inline]
    pub fn centroid(&self, p: PolyId) -> Vec2 {
        self.centroids[p.index()]
    }
    /// The polygons that have `v` as a vertex, in no particular order.
    #[inline]
    pub fn vertex_polygons(&self, v: VertexId) -> &[PolyId] {
        &self.vertex_polygons[self.vertex_poly_offsets[v.index()] as usize
            ..self.vertex_poly_offsets[v.index() + 1] as usize]
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
        for first in [k, (k + n - 1) % n] {
            let (mut cur, mut slot) = (p, first);
            for _ in 0..self.vertex_polygons(v).len() {
                let Some(next) = self.neighbours(cur)[slot] else {
                    break;
                };
                if next == q {
                    return true;
                }
                if next == p {
                    break;
                }
                // In `next`, the edge shared with `cur` is one of its two edges at `v`: go on
                // through the other.
                let vs = self.polygon_vertices(next);
                let m = vs.len();
                let Some(j) = vs.iter().position(|&x| x == v) else {
                    break;
                };
                let (out, back) = (j, (j + m - 1) % m);
                slot = if self.neighbours(next)[out] == Some(cur) {
                    back
                } else {
                    out
                };
                cur = next;
            }
        }
        false
    }
    /// The bounding box of the whole mesh.
    #[inline]
    pub fn bounds(&self) -> Aabb {
        self.bounds
    }
    /// The total walkable area.
    #[inline]
    pub fn area(&self) -> f64 {
        self.area
    }

    /// Which polygon holds `p`: strictly inside one, on an edge, on a vertex, or outside the mesh
    /// (in an obstacle or off the map). Uses a uniform grid over polygon bounding boxes, so the
    /// cost does not grow with the mesh size for meshes of evenly sized polygons.
    pub fn locate(&self, p: Vec2) -> Location {
        if !p.is_finite() || !self.bounds.contains(p) {
            return Location::Outside;
        }
        for &poly in self.locator.candidates(p) {
            if !self.poly_bounds[poly.index()].contains(p) {
                continue;
            }
            if let Some(loc) = self.locate_in(poly, p) {
                return loc;
            }
        }
        Location::Outside
    }

    /// Locates `p` by testing every polygon in turn (the chapter's `findPoly`): O(n), kept as the
    /// reference for tests and benchmarks of [`NavMesh::locate`].
    pub fn locate_linear(&self, p: Vec2) -> Location {
        if !p.is_finite() {
            return Location::Outside;
        }
        self.polygons()
            .find_map(|poly| self.locate_in(poly, p))
            .unwrap_or(Location::Outside)
    }

    /// Classifies `p` against one polygon: `None` when outside it.
    pub fn locate_in(&self, poly: PolyId, p: Vec2) -> Option<Location> {
        let vs = self.polygon_vertices(poly);
        let n = vs.len();
        let mut on_edge = None;
        for i in 0..n {
            let a = self.vertices[vs[i].index()];
            let b = self.vertices[vs[(i + 1) % n].index()];
            match orient(a, b, p) {
                Orientation::Clockwise => return None,
                Orientation::Collinear => {
                    if p == a {
                        return Some(Location::OnVertex {
                            vertex: vs[i],
                            polygon: poly,
                        });
                    }
                    if p == b {
                        return Some(Location::OnVertex {
                            vertex: vs[(i + 1) % n],
                            polygon: poly,
                        });
                    }
                    // In a convex polygon, "left of or on every edge line" means inside or on
                    // the boundary; on the line of edge i and inside means on edge i — unless
                    // collinear neighbours share that line: then only the edge whose range holds
                    // p (exact coordinate comparisons, p being on the line).
                    if crate::geom::on_segment(p, a, b) {
                        on_edge = Some(i);
                    }
                }
                Orientation::CounterClockwise => {}
            }
        }
        Some(match on_edge {
            Some(edge) => Location::OnEdge {
                polygon: poly,
                edge,
                neighbour: self.neighbours(poly)[edge],
            },
            None => Location::InPolygon(poly),
        })
    }

    /// The point of the mesh nearest to `p` within `max_distance`, with its polygon.
    ///
    /// A point already on the mesh is returned unchanged. This is how a start or goal clicked in an
    /// obstacle or off the map is snapped onto the mesh (the chapter's fourth pitfall). The point
    /// returned is always located in the polygon returned ([`NavMesh::locate_in`] accepts it), even
    /// where the exact projection onto a slanted edge is not representable in `f64`.
    pub fn nearest_point(&self, p: Vec2, max_distance: f64) -> Option<(PolyId, Vec2)> {
        if !p.is_finite() || max_distance.is_nan() {
            return None;
        }
        if let Some(poly) = self.locate(p).polygon() {
            return Some((poly, p));
        }
        let mut best: Option<(f64, PolyId, Vec2)> = None;
        self.locator
            .visit_rings(p, max_distance, |poly, ring_distance| {
                if let Some((d, _, _)) = best {
                    if ring_distance > d {
                        return false;
                    }
                }
                let bb = self.poly_bounds[poly.index()];
                let dx = (bb.min.x - p.x).max(p.x - bb.max.x).max(0.0);
                let dy = (bb.min.y - p.y).max(p.y - bb.max.y).max(0.0);
                if dx.hypot(dy) > max_distance || best.is_some_and(|(d, _, _)| dx.hypot(dy) >= d) {
                    return true;
                }
                let (d, q) = self.project_onto_boundary(poly, p);
                if d <= max_distance && best.is_none_or(|(bd, _, _)| d < bd) {
                    best = Some((d, poly, q));
                }
                true
            });
        best.map(|(_, poly, q)| (poly, self.pull_inside(poly, q)))
    }

    /// The point of polygon `poly` closest to `x`: `x` itself when the polygon holds it, otherwise
    /// its projection onto the polygon's boundary, nudged inside where rounding left it a hair out
    /// (so [`NavMesh::locate_in`] always accepts the result).
    pub fn closest_point_in(&self, poly: PolyId, x: Vec2) -> Vec2 {
        let (_, q) = self.nearest_in(poly, x);
        self.pull_inside(poly, q)
    }

    /// The closest point of `poly` to `x` and its distance, not yet pulled inside: for searches
    /// that compare many polygons and nudge only the winner ([`NavMesh::pull_inside`]).
    pub(crate) fn nearest_in(&self, poly: PolyId, x: Vec2) -> (f64, Vec2) {
        if self.locate_in(poly, x).is_some() {
            return (0.0, x);
        }
        self.project_onto_boundary(poly, x)
    }

    /// The closest point of the boundary of `poly` to `x`, and its distance (not nudged).
    fn project_onto_boundary(&self, poly: PolyId, x: Vec2) -> (f64, Vec2) {
        let vs = self.polygon_vertices(poly);
        let mut best = (f64::INFINITY, self.vertex(vs[0]));
        for i in 0..vs.len() {
            let (a, b) = self.edge(poly, i);
            let q = crate::geom::closest_point_on_segment(x, a, b);
            let d = x.distance(q);
            if d < best.0 {
                best = (d, q);
            }
        }
        best
    }

    /// `q` lies on the boundary of `poly` in exact arithmetic, but a point projected onto a slanted
    /// edge is rounded and can land a hair outside. Moves it toward the polygon's centroid (strictly
    /// inside, the polygon being convex) by the smallest step that [`NavMesh::locate_in`] accepts,
    /// so that a snapped point is always on the mesh.
    pub(crate) fn pull_inside(&self, poly: PolyId, q: Vec2) -> Vec2 {
        crate::geom::nudge_toward(q, self.centroid(poly), |r| {
            self.locate_in(poly, r).is_some()
        })
    }

    /// Checks every invariant a navigation mesh must keep: the structural ones of
    /// [`NavMesh::from_polygons`] (convex, counter-clockwise, manifold edges), symmetric
    /// adjacency, no two polygons overlapping, and no T-junctions. The error names the polygon.
    ///
    /// Cost: O(n · k) for n polygons and k polygons per grid cell; meant for tests and for meshes
    /// read from untrusted files.
    pub fn check_invariants(&self) -> Result<(), InvariantError> {
        for p in self.polygons() {
            let ids: Vec<u32> = self.polygon_vertices(p).iter().map(|v| v.0).collect();
            check_polygon(&self.vertices, p.index(), &ids)?;
            for (i, n) in self.neighbours(p).iter().enumerate() {
                if let Some(q) = *n {
                    let back = self.shared_edge(q, p);
                    let ok = back.is_some_and(|j| {
                        let (a, b) = (
                            self.polygon_vertices(p)[i],
                            self.polygon_vertices(p)[(i + 1) % ids.len()],
                        );
                        let qv = self.polygon_vertices(q);
                        qv[j] == b && qv[(j + 1) % qv.len()] == a
                    });
                    if !ok {
                        return Err(InvariantError::AsymmetricAdjacency {
                            polygon: p,
                            edge: i,
                            neighbour: q,
                        });
                    }
                }
            }
        }
        for p in self.polygons() {
            let bp = self.poly_bounds[p.index()];
            // Polygons whose boxes meet p's: the only ones that can overlap it or touch its edges.
            let mut seen: Vec<PolyId> = self
                .locator
                .overlapping(bp)
                .filter(|&q| q != p && boxes_meet(bp, self.poly_bounds[q.index()]))
                .collect();
            seen.sort_unstable();
            seen.dedup();
            for &q in &seen {
                if q > p && self.interiors_overlap(p, q) {
                    return Err(InvariantError::Overlap {
                        first: p,
                        second: q,
                    });
                }
            }
            // T-junctions: a vertex of a nearby polygon strictly inside one of p's edges.
            let vs = self.polygon_vertices(p);
            for &q in &seen {
                for &v in self.polygon_vertices(q) {
                    let x = self.vertex(v);
                    for i in 0..vs.len() {
                        let (a, b) = self.edge(p, i);
                        if x != a && x != b && crate::geom::on_segment(x, a, b) && !vs.contains(&v)
                        {
                            return Err(InvariantError::TJunction {
                                polygon: p,
                                edge: i,
                                vertex: v,
                            });
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Separating-axis test for two convex CCW polygons, exact: their interiors are disjoint iff
    /// some edge of one has every vertex of the other on or to the right of its line.
    fn interiors_overlap(&self, p: PolyId, q: PolyId) -> bool {
        let separated_by_edge_of = |a: PolyId, b: PolyId| {
            let n = self.polygon_vertices(a).len();
            (0..n).any(|i| {
                let (e0, e1) = self.edge(a, i);
                self.polygon_points(b).all(|x| !orient(e0, e1, x).is_ccw())
            })
        };
        !(separated_by_edge_of(p, q) || separated_by_edge_of(q, p))
    }
}

/// `true` when two closed boxes share at least a point.
fn boxes_meet(a: Aabb, b: Aabb) -> bool {
    a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y
}

/// Structural checks of one polygon: vertex range, no zero-length edges, convex and CCW.
fn check_polygon(vertices: &[Vec2], pi: usize, poly: &[u32]) -> Result<(), MeshError> {
    if poly.len() < 3 {
        return Err(MeshError::TooFewVertices {
            polygon: pi,
            count: poly.len(),
        });
    }
    for &v in poly {
        if v as usize >= vertices.len() {
            return Err(MeshError::VertexOutOfRange {
                polygon: pi,
                vertex: v as usize,
                vertex_count: vertices.len(),
            });
        }
    }
    let n = poly.len();
    let pt = |i: usize| vertices[poly[i % n] as usize];
    for i in 0..n {
        if pt(i) == pt(i + 1) {
            return Err(MeshError::DegenerateEdge {
                polygon: pi,
                edge: i,
            });
        }
    }
    convexity(n, pt).map_err(|fault| match fault {
        ConvexFault::Reflex(corner) | ConvexFault::FoldBack(corner) => MeshError::NotConvex {
            polygon: pi,
            corner,
        },
        ConvexFault::ZeroArea => MeshError::ZeroArea { polygon: pi },
        ConvexFault::WindsTwice => MeshError::NotConvex {
            polygon: pi,
            corner: 0,
        },
    })
}

/// The plain serialisable form of a mesh: `{"vertices": [[x, y], ...], "polygons": [[i, j, k, ...], ...]}`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NavMeshData {
    /// Vertex positions.
    pub vertices: Vec<Vec2>,
    /// Polygons as counter-clockwise vertex indices.
    pub polygons: Vec<Vec<u32>>,
}

impl From<&NavMesh> for NavMeshData {
    fn from(m: &NavMesh) -> NavMeshData {
        NavMeshData {
            vertices: m.vertices.clone(),
            polygons: m
                .polygons()
                .map(|p| m.polygon_vertices(p).iter().map(|v| v.0).collect())
                .collect(),
        }
    }
}

impl TryFrom<NavMeshData> for NavMesh {
    type Error = MeshError;
    fn try_from(d: NavMeshData) -> Result<NavMesh, MeshError> {
        NavMesh::from_polygons(d.vertices, d.polygons)
    }
}

impl Serialize for NavMesh {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        NavMeshData::from(self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for NavMesh {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<NavMesh, D::Error> {
        let data = NavMeshData::deserialize(d)?;
        NavMesh::try_from(data).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests;
