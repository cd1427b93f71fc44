//! Assembly: polygons given as vertex indices become a [`NavMesh`], with adjacency derived
//! from shared edges (or, from the CDT merge, taken as known) and every polygon checked.

use super::*;
use crate::geom::point_in_range;

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
        if let Some(v) = vertices.iter().position(|&p| !point_in_range(p)) {
            return Err(MeshError::CoordinateRange {
                vertex: v,
                point: vertices[v],
            });
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
        let mut area = 0.0;
        for p in 0..n {
            let ids = &poly_vertices[offsets[p] as usize..offsets[p + 1] as usize];
            let (bb, centroid, twice) = polygon_measures(&vertices, ids);
            poly_bounds.push(bb);
            centroids.push(centroid);
            area += twice * 0.5;
        }
        Self::finish(
            vertices,
            offsets,
            poly_vertices,
            poly_neighbours,
            poly_bounds,
            centroids,
            area,
            Locator::new,
        )
    }

    /// A mesh from a tiled stitch that keeps each polygon's bounds and centroid between
    /// snapshots ([`dynamic`](crate::dynamic)): as [`NavMesh::from_known_adjacency`], with
    /// `poly_bounds`, `centroids` and `area` as [`polygon_measures`] gives them (the area summed
    /// in polygon order, so it is the one a fresh assembly computes), and the point-location
    /// grid laid out by `plan` (which must cover every polygon) with polygon `p` in the cells
    /// `cells[p]`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn from_stitched_parts(
        vertices: Vec<Vec2>,
        offsets: Vec<u32>,
        poly_vertices: Vec<VertexId>,
        poly_neighbours: Vec<Option<PolyId>>,
        poly_bounds: Vec<Aabb>,
        centroids: Vec<Vec2>,
        area: f64,
        plan: LocatorPlan,
        cells: &[CellRange],
    ) -> Result<NavMesh, InvariantError> {
        if offsets.len() < 2 {
            return Err(MeshError::Empty.into());
        }
        to_u32(vertices.len())?;
        to_u32(offsets.len() - 1)?;
        to_u32(poly_vertices.len())?;
        debug_assert_eq!(poly_vertices.len(), poly_neighbours.len());
        debug_assert_eq!(poly_bounds.len(), offsets.len() - 1);
        debug_assert_eq!(centroids.len(), offsets.len() - 1);
        debug_assert_eq!(cells.len(), offsets.len() - 1);
        let mesh = Self::finish(
            vertices,
            offsets,
            poly_vertices,
            poly_neighbours,
            poly_bounds,
            centroids,
            area,
            |_, _| Locator::fill(plan, cells.len(), |p| cells[p]),
        );
        #[cfg(debug_assertions)]
        mesh.check_invariants()?;
        Ok(mesh)
    }

    /// What is derived from the polygons as a whole: the polygons around each vertex, walls,
    /// corners and pinches, the bounds, and the point-location grid `locator` makes from the
    /// bounds and the polygons' boxes.
    #[allow(clippy::too_many_arguments)]
    fn finish(
        vertices: Vec<Vec2>,
        offsets: Vec<u32>,
        poly_vertices: Vec<VertexId>,
        poly_neighbours: Vec<Option<PolyId>>,
        poly_bounds: Vec<Aabb>,
        centroids: Vec<Vec2>,
        area: f64,
        locator: impl FnOnce(Aabb, &[Aabb]) -> Locator,
    ) -> NavMesh {
        let n = offsets.len() - 1;
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
        for p in 0..n {
            let range = offsets[p] as usize..offsets[p + 1] as usize;
            let ids = &poly_vertices[range.clone()];
            let nbs = &poly_neighbours[range];
            for (i, v) in ids.iter().enumerate() {
                let slot = &mut fill[v.index()];
                vertex_polygons[*slot as usize] = PolyId(p as u32);
                *slot += 1;
                if nbs[i].is_none() {
                    walls[v.index()] += 1;
                    walls[ids[(i + 1) % ids.len()].index()] += 1;
                }
            }
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
        let locator = locator(bounds, &poly_bounds);
        let vertex_is_corner = walls.iter().map(|&w| w > 0).collect();
        let vertex_is_pinch = walls.iter().map(|&w| w > 2).collect();
        NavMesh {
            vertices,
            rows: Rows::from_offsets(&offsets),
            poly_vertices,
            poly_neighbours,
            poly_bounds,
            centroids,
            vertex_rows: Rows::from_offsets(&vertex_poly_offsets),
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
}

/// A polygon's bounding box, vertex average and twice its signed area (the shoelace sum of
/// `geom::signed_area`, around the first vertex, in its order).
pub(crate) fn polygon_measures(vertices: &[Vec2], ids: &[VertexId]) -> (Aabb, Vec2, f64) {
    let o = vertices[ids[0].index()];
    let mut bb = Aabb::new(o, o);
    let mut sum = Vec2::ZERO;
    let mut twice = 0.0;
    for (i, v) in ids.iter().enumerate() {
        let x = vertices[v.index()];
        bb.include(x);
        sum += x;
        if i >= 1 && i + 1 < ids.len() {
            twice += (x - o).cross(vertices[ids[i + 1].index()] - o);
        }
    }
    (bb, sum / ids.len() as f64, twice)
}

pub(super) fn to_u32(n: usize) -> Result<u32, MeshError> {
    u32::try_from(n).map_err(|_| MeshError::TooLarge(n))
}

/// Structural checks of one polygon: vertex range, no zero-length edges, convex and CCW.
pub(super) fn check_polygon(vertices: &[Vec2], pi: usize, poly: &[u32]) -> Result<(), MeshError> {
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
