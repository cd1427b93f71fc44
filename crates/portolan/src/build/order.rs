//! Spatial order: the merged polygons renumbered along a Hilbert curve through their vertex
//! averages, and the vertices in the order the renumbered polygons first use them.
//!
//! A search reads the polygons around the one it expands, and their vertices; numbered so that
//! polygons near each other in the plane are near each other in memory, those reads share cache
//! lines and pages. The triangulation's own order is not like that (spade's bulk load inserts
//! points in its own order, and the merge keeps it), and on large meshes the searches wait on
//! memory. It pays on meshes that do not fit the caches (tens of thousands of polygons), not on
//! those of a few thousand; BENCHMARKS.md (session 13) has the figures. The polygons themselves, their vertex rings (each still starting at the same vertex) and
//! their adjacency are unchanged: only ids move.
//!
//! The curve: D. Hilbert, *Über die stetige Abbildung einer Linie auf ein Flächenstück*
//! (Math. Ann. 38, 1891), at 2^16 cells a side over the mesh's bounding box, computed with the
//! usual quadrant rotation. Cost: O(n log n) for n polygons (the sort), O(n) for the rest.

use super::merge::Merged;
use crate::geom::Vec2;
use crate::mesh::{PolyId, VertexId};

/// The cells a side of the curve's grid: 2^16.
const ORDER: u32 = 16;

/// `merged` and `vertices` renumbered in spatial order (see the [module docs](self)). Vertices
/// no polygon uses keep their relative order after the used ones.
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
    let (mut lo, mut hi) = (centres[0], centres[0]);
    for c in &centres {
        (lo.x, lo.y, hi.x, hi.y) = (lo.x.min(c.x), lo.y.min(c.y), hi.x.max(c.x), hi.y.max(c.y));
    }
    let side = f64::from((1u32 << ORDER) - 1);
    let cell = |v: f64, lo: f64, hi: f64| {
        if hi > lo {
            ((v - lo) / (hi - lo) * side).clamp(0.0, side) as u32
        } else {
            0
        }
    };
    let key: Vec<u64> = centres
        .iter()
        .map(|c| hilbert(cell(c.x, lo.x, hi.x), cell(c.y, lo.y, hi.y)))
        .collect();
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

    /// The curve visits every cell of a small grid once, each step to a cell next to the last.
    #[test]
    fn the_curve_is_a_path_through_every_cell() {
        // The top 2^3 × 2^3 corner of the grid, scaled: cells (x << 13, y << 13).
        let mut cells: Vec<(u64, u32, u32)> = (0..8)
            .flat_map(|x| (0..8).map(move |y| (hilbert(x << 13, y << 13), x, y)))
            .collect();
        cells.sort();
        cells.dedup_by_key(|c| c.0);
        assert_eq!(cells.len(), 64);
        for w in cells.windows(2) {
            let (dx, dy) = (w[0].1.abs_diff(w[1].1), w[0].2.abs_diff(w[1].2));
            assert_eq!(dx + dy, 1, "{:?} then {:?}", w[0], w[1]);
        }
    }

    /// The order depends on the geometry alone: the default map's merged polygons, given in
    /// their order and reversed, come out the same; every polygon and every adjacency is kept
    /// (checked by position); and the mesh assembles.
    #[test]
    fn renumbering_keeps_polygons_and_depends_on_geometry_only() {
        use crate::build::{build, BuildOptions};
        use crate::{NavMesh, Scene};
        let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
        let merged_in = |order: &[PolyId]| {
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
                m.ring.extend_from_slice(mesh.polygon_vertices(p));
                m.neighbours.extend(
                    mesh.neighbours(p)
                        .iter()
                        .map(|q| q.map(|q| PolyId(at[q.index()]))),
                );
                m.offsets.push(m.ring.len() as u32);
            }
            m
        };
        let forward: Vec<PolyId> = mesh.polygons().collect();
        let backward: Vec<PolyId> = forward.iter().rev().copied().collect();
        let assemble = |order: &[PolyId]| {
            let (m, vs) = spatial_order(merged_in(order), mesh.vertices().to_vec());
            NavMesh::from_known_adjacency(vs, m.offsets, m.ring, m.neighbours).unwrap()
        };
        let (a, b) = (assemble(&forward), assemble(&backward));
        let points = |m: &NavMesh| -> Vec<Vec<Vec2>> {
            m.polygons()
                .map(|p| m.polygon_points(p).collect())
                .collect()
        };
        assert_eq!(points(&a), points(&b));
        let sorted = |mut x: Vec<Vec<Vec2>>| {
            x.sort_by(|p, q| {
                let key = |r: &Vec<Vec2>| r.iter().map(|v| (v.x, v.y)).collect::<Vec<_>>();
                key(p).partial_cmp(&key(q)).unwrap()
            });
            x
        };
        assert_eq!(sorted(points(&a)), sorted(points(&mesh)));
        // Each neighbour across edge i is the polygon whose edge runs the other way.
        for p in a.polygons() {
            for (i, q) in a.neighbours(p).iter().enumerate() {
                let Some(q) = *q else { continue };
                let (x, y) = a.edge(p, i);
                let back = a.shared_edge(q, p).expect("adjacency is symmetric");
                assert_eq!(a.edge(q, back), (y, x));
            }
        }
        assert_eq!(a.area().to_bits(), a.area().to_bits());
        assert!((a.area() - mesh.area()).abs() <= 1e-9 * mesh.area());
    }
}
