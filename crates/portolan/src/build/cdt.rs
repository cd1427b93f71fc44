//! Constrained Delaunay triangulation (CDT) of free space, with `spade`.
//!
//! Every ring edge of the free-space polygons becomes a constraint edge; spade triangulates the
//! convex hull of all ring vertices so that each constraint is a triangle edge, and otherwise
//! keeps the Delaunay property (no triangle's circumcircle holds a vertex it can see), which
//! avoids needle triangles where it can. Which triangles are free is found by a flood over the
//! triangle adjacency starting from the hull's outside: crossing a constraint edge toggles
//! inside/outside (the even-odd rule, which for clean polygons with holes is the polygons
//! themselves).
//!
//! ```text
//!   ┌───────────────┐   constraint edges (═) are ring edges; a flood from
//!   │ ╲   free   ╱  │   the hull's outside flips parity at each ═ it crosses
//!   │   ╔═════╗     │
//!   │ ╱ ║solid║  ╲  │
//!   │   ╚═════╝     │
//!   └───────────────┘
//! ```
//!
//! Spade decides every orientation and in-circle test exactly, and the input vertices are used
//! as given (no Steiner points), so two triangles that meet share both endpoints of their common
//! edge: the output has no T-junctions by construction. A vertex lying exactly on another
//! ring's edge (two contours touching) splits that constraint in two.
//!
//! How: spade's bulk load of the plain Delaunay triangulation of the ring vertices, then a
//! constraint inserted only for each ring edge that triangulation lacks (on clean free space most
//! ring edges are Delaunay edges already: all of them on the random quad scenes). This is about
//! 40% faster than spade's constrained bulk load, which runs every ring edge through constraint
//! insertion. Where the CDT is unique (no four co-circular vertices) the result is the same
//! triangulation; with co-circular vertices (grid maps) it may be another, equally constrained
//! Delaunay one. Should anything be off (a constraint crossing another, an edge found in place
//! that a later insertion flipped away), spade's constrained bulk load does it all again.
//!
//! Cost: O(n log n) expected for n ring vertices (spade's bulk loading), O(n) for the flood.
//! Reference: L. P. Chew, "Constrained Delaunay triangulations", Algorithmica 4 (1989).

use super::cancel::CHECK_EVERY;
use super::free_space::Shapes;
use super::{BuildError, CancelToken};
use crate::geom::Vec2;
use spade::handles::{
    DirectedEdgeHandle, FixedFaceHandle, FixedUndirectedEdgeHandle, FixedVertexHandle, InnerTag,
};
use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation as _};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A fast hasher for coordinate bit patterns (the FxHash mixing step: rotate, xor, multiply).
/// Keys are the two `f64` bit patterns of a point, not attacker-chosen strings, so a keyed
/// hasher's collision resistance buys nothing here.
#[derive(Default)]
struct PointHasher(u64);

impl Hasher for PointHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    #[inline]
    fn finish(&self) -> u64 {
        // Fold the high bits down: the table indexes with the low ones.
        self.0 ^ (self.0 >> 29)
    }
}

/// Free-space triangles with shared vertices.
#[derive(Clone, Debug, Default)]
pub struct Triangles {
    /// Vertex positions.
    pub vertices: Vec<Vec2>,
    /// Triangles as counter-clockwise vertex indices.
    pub triangles: Vec<[u32; 3]>,
    /// Slot `i` of a triangle: the free triangle across its edge from vertex `i` to vertex
    /// `i + 1`, or `None` where that edge is a wall.
    pub neighbours: Vec<[Option<u32>; 3]>,
}

/// Triangulates free space given as polygons with holes.
pub fn triangulate(shapes: &Shapes, cancel: &CancelToken) -> Result<Triangles, BuildError> {
    // Shared vertices (rings may touch at a point), and constraint edges between them.
    let capacity: usize = shapes.iter().flatten().map(Vec::len).sum();
    let mut index: HashMap<(u64, u64), usize, BuildHasherDefault<PointHasher>> =
        HashMap::with_capacity_and_hasher(capacity, Default::default());
    let mut points: Vec<Point2<f64>> = Vec::with_capacity(capacity);
    let mut edges: Vec<[usize; 2]> = Vec::with_capacity(capacity);
    let mut ids: Vec<usize> = Vec::new();
    for ring in shapes.iter().flatten() {
        ids.clear();
        ids.extend(ring.iter().map(|p| {
            *index
                .entry(((p.x + 0.0).to_bits(), (p.y + 0.0).to_bits()))
                .or_insert_with(|| {
                    points.push(Point2::new(p.x, p.y));
                    points.len() - 1
                })
        }));
        for i in 0..ids.len() {
            let (a, b) = (ids[i], ids[(i + 1) % ids.len()]);
            if a != b {
                edges.push([a, b]);
            }
        }
    }
    let range_error = |points: &[Point2<f64>]| {
        let bbox = crate::geom::Aabb::from_points(points.iter().map(|p| Vec2::new(p.x, p.y)));
        let (min, max) = bbox.map_or((Vec2::ZERO, Vec2::ZERO), |b| (b.min, b.max));
        BuildError::CoordinateRange {
            at: super::CoordinateSite::Triangulation,
            min,
            max,
        }
    };
    // Spade refuses coordinates beyond its range (|x| > 2²⁰¹, or non-zero below 2⁻¹⁴²).
    let (cdt, ring_edge) = match delaunay_then_constraints(points.clone(), &edges, cancel) {
        Ok(Some(done)) => done,
        Ok(None) => {
            cancel.check()?;
            (
                constrained_bulk_load(points.clone(), edges).map_err(|_| range_error(&points))?,
                Vec::new(),
            )
        }
        Err(Halt::Cancelled) => return Err(BuildError::Cancelled),
        Err(Halt::Spade) => return Err(range_error(&points)),
    };
    cancel.check()?;
    // A ring edge: one spade knows as a constraint, or one the Delaunay triangulation already had.
    let is_ring_edge = |e: DirectedEdgeHandle<'_, _, _, _, _>| {
        e.is_constraint_edge() || ring_edge.get(e.fix().as_undirected().index()) == Some(&true)
    };

    // Flood from the outer face: parity flips across constraint edges.
    let nf = cdt.num_all_faces();
    let mut parity: Vec<Option<bool>> = vec![None; nf];
    let mut stack: Vec<FixedFaceHandle<InnerTag>> = Vec::with_capacity(64);
    for e in cdt.convex_hull() {
        // Convex hull edges have the outer face on their left; the inner face is across.
        let inner = e.rev().face();
        if let Some(f) = inner.as_inner() {
            let idx = f.fix().index();
            if parity[idx].is_none() {
                parity[idx] = Some(is_ring_edge(e));
                stack.push(f.fix());
            }
        }
    }
    while let Some(f) = stack.pop() {
        let face = cdt.face(f);
        let here = parity[f.index()].unwrap_or(false);
        for e in face.adjacent_edges() {
            if let Some(nb) = e.rev().face().as_inner() {
                let ni = nb.fix().index();
                if parity[ni].is_none() {
                    parity[ni] = Some(here ^ is_ring_edge(e));
                    stack.push(nb.fix());
                }
            }
        }
    }

    // Keep the free faces; number them densely.
    let mut tri_id: Vec<Option<u32>> = vec![None; nf];
    let mut out = Triangles {
        vertices: Vec::with_capacity(cdt.num_vertices()),
        triangles: Vec::with_capacity(cdt.num_inner_faces()),
        neighbours: Vec::new(),
    };
    let mut vert_id: Vec<Option<u32>> = vec![None; cdt.num_vertices()];
    for face in cdt.inner_faces() {
        let fi = face.fix().index();
        if parity[fi] != Some(true) {
            continue;
        }
        tri_id[fi] = Some(out.triangles.len() as u32);
        let mut tri = [0u32; 3];
        // Vertex k is the start of edge k, so edge k runs from vertex k to vertex k + 1.
        for (k, e) in face.adjacent_edges().iter().enumerate() {
            let v = e.from();
            let vi = v.fix().index();
            tri[k] = *vert_id[vi].get_or_insert_with(|| {
                let p = v.position();
                out.vertices.push(Vec2::new(p.x, p.y));
                (out.vertices.len() - 1) as u32
            });
        }
        out.triangles.push(tri);
    }
    if u32::try_from(out.triangles.len()).is_err() {
        return Err(BuildError::Triangulation(format!(
            "{} triangles do not fit in 32-bit ids",
            out.triangles.len()
        )));
    }
    out.neighbours = vec![[None; 3]; out.triangles.len()];
    for face in cdt.inner_faces() {
        let Some(t) = tri_id[face.fix().index()] else {
            continue;
        };
        for (k, e) in face.adjacent_edges().iter().enumerate() {
            if is_ring_edge(*e) {
                continue;
            }
            if let Some(nb) = e.rev().face().as_inner() {
                out.neighbours[t as usize][k] = tri_id[nb.fix().index()];
            }
        }
    }
    Ok(out)
}

type Cdt = ConstrainedDelaunayTriangulation<Point2<f64>>;

/// Why [`delaunay_then_constraints`] stopped without a triangulation.
#[derive(Debug)]
enum Halt {
    /// Spade refused the points (out of its coordinate range).
    Spade,
    /// The build was cancelled.
    Cancelled,
}

/// The fast way to the CDT: the plain Delaunay triangulation of the points (spade's bulk load
/// without constraints), then a constraint only for each ring edge it lacks. On clean free space
/// most ring edges are already Delaunay edges (every one, on the random quad scenes), and this is
/// about 40% faster than spade's constrained bulk load, which inserts every edge as a constraint.
///
/// The result is the same triangulation: one that has every ring edge, and is constrained
/// Delaunay for the edges spade knows as constraints, is constrained Delaunay for all of them
/// (more constraints only block more visibility). Returns also, per undirected edge, whether it
/// is a ring edge spade does not know as a constraint (those found already in place; checked again
/// once all constraints are in, since inserting one may flip edges). `Ok(None)` where that
/// check fails, a constraint conflicts, or the points are not distinct: the caller then takes
/// [`constrained_bulk_load`], which handles all of that.
#[allow(clippy::type_complexity)]
fn delaunay_then_constraints(
    points: Vec<Point2<f64>>,
    edges: &[[usize; 2]],
    cancel: &CancelToken,
) -> Result<Option<(Cdt, Vec<bool>)>, Halt> {
    let n = points.len();
    // With no constraints, spade's bulk load keeps the vertex order (and drops duplicates).
    let mut cdt = Cdt::bulk_load_cdt(points, Vec::new()).map_err(|_| Halt::Spade)?;
    if cdt.num_vertices() != n {
        return Ok(None);
    }
    let v = FixedVertexHandle::from_index;
    // Ring edges found in place: their index and undirected edge handle.
    let mut in_place: Vec<(usize, FixedUndirectedEdgeHandle)> = Vec::with_capacity(edges.len());
    let mut inserted = false;
    for (i, &[a, b]) in edges.iter().enumerate() {
        if i % CHECK_EVERY == 0 && cancel.check().is_err() {
            return Err(Halt::Cancelled);
        }
        if let Some(e) = cdt.get_edge_from_neighbors(v(a), v(b)) {
            in_place.push((i, e.fix().as_undirected()));
        } else if cdt.try_add_constraint(v(a), v(b)).is_empty() {
            return Ok(None);
        } else {
            inserted = true;
        }
    }
    let mut ring_edge = vec![false; cdt.num_undirected_edges()];
    for (i, mut e) in in_place {
        // Without an insertion nothing has changed since the lookup. After one, an edge found
        // earlier may have been flipped away: look it up again.
        if inserted {
            let [a, b] = edges[i];
            let Some(now) = cdt.get_edge_from_neighbors(v(a), v(b)) else {
                return Ok(None);
            };
            e = now.fix().as_undirected();
        }
        ring_edge[e.index()] = true;
    }
    Ok(Some((cdt, ring_edge)))
}

/// Spade's constrained bulk load, every ring edge a constraint; a conflict (two constraints
/// crossing or overlapping) cannot come from clean overlay output, but should rounding ever
/// produce one, the constraint is still added, split where it crosses.
fn constrained_bulk_load(
    points: Vec<Point2<f64>>,
    edges: Vec<[usize; 2]>,
) -> Result<Cdt, spade::InsertionError> {
    let mut conflicts: Vec<[usize; 2]> = Vec::new();
    let mut cdt = Cdt::try_bulk_load_cdt(points, edges, |e| conflicts.push(e))?;
    // The points are distinct, so spade keeps their order: input index = vertex handle index.
    for [a, b] in conflicts {
        let (a, b) = (
            FixedVertexHandle::from_index(a),
            FixedVertexHandle::from_index(b),
        );
        cdt.add_constraint_and_split(a, b, |p| p);
    }
    Ok(cdt)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square_with_hole() -> Shapes {
        vec![vec![
            vec![
                Vec2::new(0.0, 0.0),
                Vec2::new(4.0, 0.0),
                Vec2::new(4.0, 4.0),
                Vec2::new(0.0, 4.0),
            ],
            vec![
                Vec2::new(1.0, 1.0),
                Vec2::new(1.0, 3.0),
                Vec2::new(3.0, 3.0),
                Vec2::new(3.0, 1.0),
            ],
        ]]
    }

    fn area(t: &Triangles) -> f64 {
        t.triangles
            .iter()
            .map(|tri| {
                let [a, b, c] = tri.map(|i| t.vertices[i as usize]);
                0.5 * (b - a).cross(c - a)
            })
            .sum()
    }

    #[test]
    fn hole_is_not_triangulated() {
        let t = triangulate(&square_with_hole(), &CancelToken::new()).unwrap();
        assert_eq!(t.vertices.len(), 8);
        // A square annulus: 8 vertices, 8 triangles.
        assert_eq!(t.triangles.len(), 8);
        assert_eq!(area(&t), 12.0);
        // Adjacency is symmetric and every triangle is counter-clockwise.
        for (i, tri) in t.triangles.iter().enumerate() {
            let [a, b, c] = tri.map(|k| t.vertices[k as usize]);
            assert!((b - a).cross(c - a) > 0.0);
            for (k, nb) in t.neighbours[i].iter().enumerate() {
                if let Some(j) = nb {
                    let (p, q) = (tri[k], tri[(k + 1) % 3]);
                    let other = t.triangles[*j as usize];
                    let back = (0..3).find(|&m| other[m] == q && other[(m + 1) % 3] == p);
                    assert!(back.is_some());
                    assert_eq!(t.neighbours[*j as usize][back.unwrap()], Some(i as u32));
                }
            }
        }
    }

    #[test]
    fn rings_touching_at_a_point_and_on_an_edge() {
        // Two squares of free space touching at (2, 2), and a third whose corner touches the
        // middle of the first one's top edge.
        let sq = |x: f64, y: f64, s: f64| {
            vec![vec![
                Vec2::new(x, y),
                Vec2::new(x + s, y),
                Vec2::new(x + s, y + s),
                Vec2::new(x, y + s),
            ]]
        };
        let mut shapes = vec![sq(0.0, 0.0, 2.0), sq(2.0, 2.0, 2.0)];
        shapes.push(vec![vec![
            Vec2::new(1.0, 2.0),
            Vec2::new(1.5, 3.0),
            Vec2::new(0.5, 3.0),
        ]]);
        let t = triangulate(&shapes, &CancelToken::new()).unwrap();
        assert_eq!(area(&t), 4.0 + 4.0 + 0.5);
        // No triangle links across the pinch at (2, 2).
        let side = |i: usize| {
            t.triangles[i]
                .iter()
                .any(|&v| t.vertices[v as usize].y > 2.0)
        };
        for (i, nbs) in t.neighbours.iter().enumerate() {
            for j in nbs.iter().flatten() {
                assert_eq!(side(i), side(*j as usize));
            }
        }
    }

    /// Points and ring edges of free space, as `triangulate` numbers them.
    fn points_and_edges(shapes: &Shapes) -> (Vec<Point2<f64>>, Vec<[usize; 2]>) {
        let (mut points, mut edges) = (Vec::new(), Vec::new());
        for ring in shapes.iter().flatten() {
            let base = points.len();
            points.extend(ring.iter().map(|p| Point2::new(p.x, p.y)));
            edges.extend((0..ring.len()).map(|i| [base + i, base + (i + 1) % ring.len()]));
        }
        (points, edges)
    }

    fn sorted_faces(cdt: &Cdt) -> Vec<[usize; 3]> {
        let mut faces: Vec<[usize; 3]> = cdt
            .inner_faces()
            .map(|f| {
                let mut v = f.vertices().map(|v| v.fix().index());
                v.sort_unstable();
                v
            })
            .collect();
        faces.sort_unstable();
        faces
    }

    #[test]
    fn delaunay_then_constraints_is_the_constrained_bulk_load() {
        // Both ways must give the same faces where the CDT is unique (no four co-circular
        // vertices): on random quads, where every ring edge is a Delaunay edge, and on the
        // default map with an agent radius, where some are not (constraints are inserted).
        for (scene, radius) in [
            (crate::random::quad_grid_scene(100, 5), 0.0),
            (crate::Scene::default_map(), 5.0),
        ] {
            let shapes =
                super::super::free_space::free_space(&scene, radius, 0.1, &CancelToken::new())
                    .unwrap();
            same_faces_both_ways(&shapes, radius > 0.0);
        }
    }

    fn same_faces_both_ways(shapes: &Shapes, expect_insertions: bool) {
        let (points, edges) = points_and_edges(shapes);
        let (fast, ring_edge) =
            delaunay_then_constraints(points.clone(), &edges, &CancelToken::new())
                .unwrap()
                .expect("clean free space needs no fallback");
        assert_eq!(fast.num_constraints() > 0, expect_insertions);
        let slow = constrained_bulk_load(points, edges.clone()).unwrap();
        assert_eq!(sorted_faces(&fast), sorted_faces(&slow));
        // Every ring edge is in place and known as one, either way.
        for [a, b] in edges {
            let e = fast
                .get_edge_from_neighbors(
                    FixedVertexHandle::from_index(a),
                    FixedVertexHandle::from_index(b),
                )
                .unwrap();
            assert!(e.is_constraint_edge() || ring_edge[e.fix().as_undirected().index()]);
        }
    }

    #[test]
    fn non_delaunay_ring_edges_become_constraints() {
        // A thin diamond between two far points: its long sides are not Delaunay edges of the
        // four points plus a point close to the middle of one side, outside the diamond.
        let shapes = vec![vec![
            vec![
                Vec2::new(-10.0, -10.0),
                Vec2::new(10.0, -10.0),
                Vec2::new(10.0, 10.0),
                Vec2::new(-10.0, 10.0),
            ],
            vec![
                Vec2::new(-5.0, 0.0),
                Vec2::new(0.0, 0.3),
                Vec2::new(5.0, 0.0),
                Vec2::new(0.0, -0.3),
            ],
            vec![
                Vec2::new(-2.5, 0.4),
                Vec2::new(-2.4, 0.5),
                Vec2::new(-2.6, 0.5),
            ],
        ]];
        let (points, edges) = points_and_edges(&shapes);
        let (fast, _) = delaunay_then_constraints(points.clone(), &edges, &CancelToken::new())
            .unwrap()
            .unwrap();
        assert!(fast.num_constraints() > 0, "some edge had to be inserted");
        assert_eq!(
            sorted_faces(&fast),
            sorted_faces(&constrained_bulk_load(points, edges).unwrap())
        );
        let t = triangulate(&shapes, &CancelToken::new()).unwrap();
        assert_eq!(area(&t), 400.0 - 3.0 - 0.01);
    }

    #[test]
    fn crossing_rings_take_the_fallback() {
        // Two overlapping squares as separate shapes: not clean free space (their edges cross),
        // which the fast way refuses; the constrained bulk load splits the crossing constraints,
        // and the even-odd flood keeps the symmetric difference.
        let sq = |x: f64, y: f64| {
            vec![vec![
                Vec2::new(x, y),
                Vec2::new(x + 2.0, y),
                Vec2::new(x + 2.0, y + 2.0),
                Vec2::new(x, y + 2.0),
            ]]
        };
        let shapes = vec![sq(0.0, 0.0), sq(1.0, 1.0)];
        let (points, edges) = points_and_edges(&shapes);
        assert!(
            delaunay_then_constraints(points, &edges, &CancelToken::new())
                .ok()
                .unwrap()
                .is_none()
        );
        let t = triangulate(&shapes, &CancelToken::new()).unwrap();
        assert_eq!(area(&t), 4.0 + 4.0 - 2.0);
    }
}
