//! Spatial order: the merged polygons renumbered along a Hilbert curve through their vertex
//! averages, and the vertices in the order the renumbered polygons first use them.
//!
//! A search reads the polygons around the one it expands, and their vertices; numbered so that
//! polygons near each other in the plane are near each other in memory, those reads share cache
//! lines and pages. The triangulation's own order is not like that (spade's bulk load inserts
//! points in its own order, and the merge keeps it), and on large meshes the searches wait on
//! memory. It pays on meshes that do not fit the caches (tens of thousands of polygons), not on
//! those of a few thousand; BENCHMARKS.md (session 13) has the figures. The polygons themselves,
//! their vertex rings (each still starting at the same vertex) and their adjacency are
//! unchanged: only ids move. Meshes built by an earlier version number their polygons
//! differently, so an index saved for one (its fingerprint) does not load for the other.
//!
//! The curve: D. Hilbert, *Über die stetige Abbildung einer Linie auf ein Flächenstück*
//! (Math. Ann. 38, 1891), on a grid of 2^16 × 2^16 cells over the bounding box of the polygons'
//! vertex averages (each axis scaled to it on its own), computed with the usual quadrant
//! rotation. Cost: O(n log n) for n polygons (the sort), O(n) for the rest.

use super::merge::Merged;
use crate::geom::{Aabb, Vec2};
use crate::mesh::{PolyId, VertexId};

/// The curve's grid has 2^`ORDER` cells a side.
const ORDER: u32 = 16;

/// `merged` and `vertices` renumbered in spatial order (see the [module docs](self)). Vertices
/// no polygon uses keep their relative order after the used ones. A single polygon is left as
/// it is.
pub(crate) fn spatial_order(merged: Merged, vertices: Vec<Vec2>) -> (Merged, Vec<Vec2>) {
    let n = merged.len();
    if n < 2 {
        return (merged, vertices);
    }
    let centre = |p: usize| {
        let ring = merged.polygon(p);
        let sum = ring.iter().fold(Vec2::ZERO, |s, v| s + vertices[v.index()]);
        sum / ring.len() as f64
    };
    let centres: Vec<Vec2> = (0..n).map(centre).collect();
    let key = curve_keys(&centres);
    // New polygon k is old polygon order[k]; ties keep the old order (a stable sort).
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.sort_by_key(|&p| key[p as usize]);
    let mut new_id = vec![0u32; n];
    for (k, &p) in order.iter().enumerate() {
        new_id[p as usize] = k as u32;
    }
    // Vertices in order of first use.
    let mut new_vertex = vec![u32::MAX; vertices.len()];
    let mut next = 0u32;
    for &p in &order {
        for v in merged.polygon(p as usize) {
            if new_vertex[v.index()] == u32::MAX {
                new_vertex[v.index()] = next;
                next += 1;
            }
        }
    }
    for v in new_vertex.iter_mut().filter(|v| **v == u32::MAX) {
        *v = next;
        next += 1;
    }
    let mut new_vertices = vec![Vec2::ZERO; vertices.len()];
    for (old, &new) in new_vertex.iter().enumerate() {
        new_vertices[new as usize] = vertices[old];
    }
    let mut out = Merged {
        offsets: Vec::with_capacity(n + 1),
        ring: Vec::with_capacity(merged.ring.len()),
        neighbours: Vec::with_capacity(merged.neighbours.len()),
    };
    out.offsets.push(0);
    for &p in &order {
        let range = merged.offsets[p as usize] as usize..merged.offsets[p as usize + 1] as usize;
        out.ring.extend(
            merged.ring[range.clone()]
                .iter()
                .map(|v| VertexId(new_vertex[v.index()])),
        );
        out.neighbours.extend(
            merged.neighbours[range]
                .iter()
                .map(|q| q.map(|q| PolyId(new_id[q.index()]))),
        );
        out.offsets.push(out.ring.len() as u32);
    }
    (out, new_vertices)
}

/// Each point's position along the Hilbert curve over the points' bounding box (each axis
/// scaled to it on its own; an axis of zero extent is cell 0).
fn curve_keys(points: &[Vec2]) -> Vec<u64> {
    let Some(Aabb { min: lo, max: hi }) = Aabb::from_points(points.iter().copied()) else {
        return Vec::new();
    };
    let side = f64::from((1u32 << ORDER) - 1);
    let cell = |v: f64, lo: f64, hi: f64| {
        if hi > lo {
            ((v - lo) / (hi - lo) * side).clamp(0.0, side) as u32
        } else {
            0
        }
    };
    points
        .iter()
        .map(|c| hilbert(cell(c.x, lo.x, hi.x), cell(c.y, lo.y, hi.y)))
        .collect()
}

/// The position of cell `(x, y)` along the Hilbert curve over a 2^[`ORDER`] grid.
fn hilbert(mut x: u32, mut y: u32) -> u64 {
    let mut d = 0u64;
    let mut s = 1u32 << (ORDER - 1);
    while s > 0 {
        let rx = u32::from(x & s > 0);
        let ry = u32::from(y & s > 0);
        d += u64::from(s) * u64::from(s) * u64::from((3 * rx) ^ ry);
        // Rotate the quadrant so that the curve's pieces join.
        if ry == 0 {
            if rx == 1 {
                let last = (1u32 << ORDER) - 1;
                (x, y) = (last - x, last - y);
            }
            std::mem::swap(&mut x, &mut y);
        }
        s /= 2;
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{build, BuildOptions};
    use crate::{NavMesh, Scene};

    /// The cells have distinct indices, and each step between consecutive indices goes to a
    /// cell next to the last one.
    fn assert_path(cells: impl Iterator<Item = (u32, u32)>, count: usize) {
        let mut cells: Vec<(u64, u32, u32)> = cells.map(|(x, y)| (hilbert(x, y), x, y)).collect();
        cells.sort();
        cells.dedup_by_key(|c| c.0);
        assert_eq!(cells.len(), count, "one index per cell");
        for w in cells.windows(2) {
            let (dx, dy) = (w[0].1.abs_diff(w[1].1), w[0].2.abs_diff(w[1].2));
            if w[1].0 == w[0].0 + 1 {
                assert_eq!(dx + dy, 1, "{:?} then {:?}", w[0], w[1]);
            }
        }
    }

    /// The curve is a path of unit steps: at the coarsest levels (one cell every 2^13 of the
    /// whole grid), and through every cell of fine blocks (an aligned one, where consecutive
    /// indices must all be neighbours, and one at an odd offset); its ends are where they belong.
    #[test]
    fn the_curve_is_a_path_of_unit_steps() {
        let coarse = (0..8).flat_map(|x| (0..8).map(move |y| (x << 13, y << 13)));
        let mut cells: Vec<(u64, u32, u32)> = coarse.map(|(x, y)| (hilbert(x, y), x, y)).collect();
        cells.sort();
        for w in cells.windows(2) {
            let (dx, dy) = (w[0].1.abs_diff(w[1].1), w[0].2.abs_diff(w[1].2));
            assert_eq!(dx + dy, 1 << 13, "{:?} then {:?}", w[0], w[1]);
        }
        // An aligned 16 × 16 block holds 256 consecutive indices.
        let fine: Vec<(u32, u32)> = (0..16).flat_map(|x| (0..16).map(move |y| (x, y))).collect();
        let first = fine.iter().map(|&(x, y)| hilbert(x, y)).min().unwrap();
        let last_in_block = fine.iter().map(|&(x, y)| hilbert(x, y)).max().unwrap();
        assert_eq!((first, last_in_block), (0, 255));
        assert_path(fine.into_iter(), 256);
        let (ox, oy) = (40_001, 12_345);
        assert_path(
            (0..16).flat_map(|x| (0..16).map(move |y| (ox + x, oy + y))),
            256,
        );
        assert_eq!(hilbert(0, 0), 0);
        let last = (1u32 << ORDER) - 1;
        assert_eq!(hilbert(last, 0), (1u64 << (2 * ORDER)) - 1);
    }

    /// The merged polygons of `mesh`, given in `order`, with the vertices reversed when
    /// `scramble` (their positions, and the ids in the rings).
    fn merged_in(mesh: &NavMesh, order: &[PolyId], scramble: bool) -> (Merged, Vec<Vec2>) {
        let n = mesh.vertex_count() as u32;
        let vid = |v: VertexId| if scramble { VertexId(n - 1 - v.0) } else { v };
        let mut vertices = mesh.vertices().to_vec();
        if scramble {
            vertices.reverse();
        }
        let mut m = Merged {
            offsets: vec![0],
            ring: Vec::new(),
            neighbours: Vec::new(),
        };
        let mut at = vec![0u32; mesh.polygon_count()];
        for (k, p) in order.iter().enumerate() {
            at[p.index()] = k as u32;
        }
        for &p in order {
            m.ring
                .extend(mesh.polygon_vertices(p).iter().map(|&v| vid(v)));
            m.neighbours.extend(
                mesh.neighbours(p)
                    .iter()
                    .map(|q| q.map(|q| PolyId(at[q.index()]))),
            );
            m.offsets.push(m.ring.len() as u32);
        }
        (m, vertices)
    }

    fn points(m: &NavMesh, p: PolyId) -> Vec<(u64, u64)> {
        m.polygon_points(p)
            .map(|v| (v.x.to_bits(), v.y.to_bits()))
            .collect()
    }

    /// The order depends on the geometry alone, and renumbering is all it does. The reference
    /// is the default map's merged polygons assembled in the merge's own order (no
    /// `spatial_order`). Given in that order, and reversed with their vertices reversed too,
    /// they come out as the same mesh, which is what `build` returns; the centres' curve
    /// indices never decrease; vertices are numbered by first use; and every polygon keeps its
    /// ring (from the same vertex) and its neighbour across every edge, matched by position
    /// against the reference.
    #[test]
    fn renumbering_keeps_polygons_and_depends_on_geometry_only() {
        use crate::build::{cdt, free_space, inflate, merge, CancelToken};
        let scene = Scene::default_map();
        let options = BuildOptions::default();
        let cancel = CancelToken::new();
        let free = free_space::free_space(
            &scene,
            options.agent_radius,
            inflate::chord_angle(options.arc_error),
            &cancel,
        )
        .unwrap();
        let triangles = cdt::triangulate(&free, &cancel).unwrap();
        let merged = merge::merge_with_adjacency(&triangles, &cancel).unwrap();
        let reference = NavMesh::from_known_adjacency(
            triangles.vertices.clone(),
            merged.offsets,
            merged.ring,
            merged.neighbours,
        )
        .unwrap();
        let forward: Vec<PolyId> = reference.polygons().collect();
        let backward: Vec<PolyId> = forward.iter().rev().copied().collect();
        let assemble = |order: &[PolyId], scramble: bool| {
            let (m, vs) = merged_in(&reference, order, scramble);
            let (m, vs) = spatial_order(m, vs);
            NavMesh::from_known_adjacency(vs, m.offsets, m.ring, m.neighbours).unwrap()
        };
        let (a, b) = (assemble(&forward, false), assemble(&backward, true));
        let built = build(&scene, &options).unwrap();
        for m in [&b, &built] {
            assert_eq!(m.vertices(), a.vertices());
            for p in a.polygons() {
                assert_eq!(m.polygon_vertices(p), a.polygon_vertices(p));
                assert_eq!(m.neighbours(p), a.neighbours(p));
            }
            assert_eq!(m.fingerprint(), a.fingerprint());
        }
        assert_ne!(
            a.fingerprint(),
            reference.fingerprint(),
            "the order changed nothing"
        );
        assert_eq!(a.area().to_bits(), reference.area().to_bits());
        // Curve order of the centres, as `spatial_order` computes them.
        let centres: Vec<Vec2> = a
            .polygons()
            .map(|p| {
                let ring: Vec<Vec2> = a.polygon_points(p).collect();
                ring.iter().fold(Vec2::ZERO, |s, &v| s + v) / ring.len() as f64
            })
            .collect();
        let keys = curve_keys(&centres);
        assert!(keys.windows(2).all(|w| w[0] <= w[1]), "not in curve order");
        // Vertices by first use.
        let mut next = 0;
        for p in a.polygons() {
            for v in a.polygon_vertices(p) {
                if v.0 == next {
                    next += 1;
                }
                assert!(v.0 < next, "vertex {} before {}", v.0, next);
            }
        }
        // Against the reference, by position.
        let by_points: std::collections::HashMap<Vec<(u64, u64)>, PolyId> = reference
            .polygons()
            .map(|p| (points(&reference, p), p))
            .collect();
        assert_eq!(by_points.len(), a.polygon_count());
        let across = |m: &NavMesh, p: PolyId| -> Vec<Option<Vec<(u64, u64)>>> {
            m.neighbours(p)
                .iter()
                .map(|q| q.map(|q| points(m, q)))
                .collect()
        };
        for p in a.polygons() {
            let old = by_points[&points(&a, p)];
            assert_eq!(across(&a, p), across(&reference, old));
        }
    }
}
