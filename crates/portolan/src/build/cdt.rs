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
//! Cost: O(n log n) expected for n ring vertices (spade's bulk loading), O(n) for the flood.
//! Reference: L. P. Chew, "Constrained Delaunay triangulations", Algorithmica 4 (1989).

use super::free_space::Shapes;
use super::BuildError;
use crate::geom::Vec2;
use spade::handles::{FixedFaceHandle, FixedVertexHandle, InnerTag};
use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation as _};
use std::collections::HashMap;

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
pub fn triangulate(shapes: &Shapes) -> Result<Triangles, BuildError> {
    // Shared vertices (rings may touch at a point), and constraint edges between them.
    let mut index: HashMap<(u64, u64), usize> = HashMap::new();
    let mut points: Vec<Point2<f64>> = Vec::new();
    let mut edges: Vec<[usize; 2]> = Vec::new();
    for ring in shapes.iter().flatten() {
        let ids: Vec<usize> = ring
            .iter()
            .map(|p| {
                *index
                    .entry((p.x.to_bits(), (p.y + 0.0).to_bits()))
                    .or_insert_with(|| {
                        points.push(Point2::new(p.x, p.y));
                        points.len() - 1
                    })
            })
            .collect();
        for i in 0..ids.len() {
            let (a, b) = (ids[i], ids[(i + 1) % ids.len()]);
            if a != b {
                edges.push([a, b]);
            }
        }
    }
    let mut conflicts: Vec<[usize; 2]> = Vec::new();
    let mut cdt = ConstrainedDelaunayTriangulation::<Point2<f64>>::try_bulk_load_cdt(
        points.clone(),
        edges,
        |e| conflicts.push(e),
    )
    // Spade refuses coordinates beyond its range (|x| > 2²⁰¹, or non-zero below 2⁻¹⁴²).
    .map_err(|_| {
        let bbox = crate::geom::Aabb::from_points(points.iter().map(|p| Vec2::new(p.x, p.y)));
        let (min, max) = bbox.map_or((Vec2::ZERO, Vec2::ZERO), |b| (b.min, b.max));
        BuildError::CoordinateRange { min, max }
    })?;
    // The points are distinct, so spade keeps their order: input index = vertex handle index.
    // A conflict (two constraints crossing or overlapping) cannot come from clean overlay output;
    // should rounding ever produce one, the constraint is still added, split where it crosses.
    for [a, b] in conflicts {
        let (a, b) = (
            FixedVertexHandle::from_index(a),
            FixedVertexHandle::from_index(b),
        );
        cdt.add_constraint_and_split(a, b, |p| p);
    }

    // Flood from the outer face: parity flips across constraint edges.
    let nf = cdt.num_all_faces();
    let mut parity: Vec<Option<bool>> = vec![None; nf];
    let mut stack: Vec<FixedFaceHandle<InnerTag>> = Vec::new();
    for e in cdt.convex_hull() {
        // Convex hull edges have the outer face on their left; the inner face is across.
        let inner = e.rev().face();
        if let Some(f) = inner.as_inner() {
            let idx = f.fix().index();
            if parity[idx].is_none() {
                parity[idx] = Some(e.is_constraint_edge());
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
                    parity[ni] = Some(here ^ e.is_constraint_edge());
                    stack.push(nb.fix());
                }
            }
        }
    }

    // Keep the free faces; number them densely.
    let mut tri_id: Vec<Option<u32>> = vec![None; nf];
    let mut out = Triangles::default();
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
            if e.is_constraint_edge() {
                continue;
            }
            if let Some(nb) = e.rev().face().as_inner() {
                out.neighbours[t as usize][k] = tri_id[nb.fix().index()];
            }
        }
    }
    Ok(out)
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
        let t = triangulate(&square_with_hole()).unwrap();
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
        let t = triangulate(&shapes).unwrap();
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
}
