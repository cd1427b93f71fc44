//! Merging triangles into convex polygons (Hertel–Mehlhorn).
//!
//! Start from the triangles; visit the diagonals (edges between two free triangles) and delete
//! each one whose removal leaves a convex polygon, that is, when both its endpoints keep an angle
//! of at most 180° in the merged polygon:
//!
//! ```text
//!        c                      c
//!       ╱│╲                    ╱ ╲
//!      ╱ │ ╲       remove     ╱   ╲      the angles at a and b
//!     a  │  d      a─b ──►   a     d     (between the outer edges
//!      ╲ │ ╱                  ╲   ╱       of both sides) stay ≤ 180°
//!       ╲│╱                    ╲ ╱
//!        b                      b
//! ```
//!
//! Hertel and Mehlhorn ("Fast triangulation of simple polygons", FCT 1983) showed that when no
//! further diagonal can be removed, the number of polygons is at most four times the minimum
//! convex partition. The order of visits is free, and it matters: measured on the default map,
//! random scenes and the shared grid maps, no single order won everywhere (longest diagonal first,
//! shortest first, largest or smallest pair of triangles first, triangulation order and its
//! reverse, a sweep in x). Three orders that win on different maps are run here and the one that
//! removes the most diagonals is kept (on a tie, the first): the triangulation's own order (good
//! on scattered convex obstacles), smallest pair of triangles first (good on grid maps, whose many
//! small triangles along stair-stepped walls merge first), and the triangulation's order reversed
//! (the best single order over the quad scenes, the default map and two grid maps, with and
//! without an agent radius, when it was added). Each pass is O(d) after an O(d log d) sort, for d
//! diagonals.
//!
//! Angles of exactly 180° are allowed: a polygon may keep a straight-through vertex where a
//! neighbour's corner meets its side, which is what keeps every contact a shared edge (no
//! T-junctions).
//!
//! The polygons live in a half-edge list: half-edge `3t + k` is edge `k` of triangle `t`, and
//! removing a diagonal splices the two boundary cycles in O(1). Every turn is decided by
//! [`orient`]. Cost: O(d log d) for d diagonals (the sort), O(n) for the rest.

use super::cancel::CHECK_EVERY;
use super::cdt::Triangles;
use super::{BuildError, CancelToken};
use crate::geom::{orient, Orientation, Vec2};
use crate::mesh::{PolyId, VertexId};

const NONE: u32 = u32::MAX;

/// Merged polygons in the flat layout of [`NavMesh`](crate::mesh::NavMesh), with the adjacency
/// the merge already knows (so the mesh need not re-derive it by matching edges).
#[derive(Clone, Debug, Default)]
pub struct Merged {
    /// Polygon `p` owns `ring[offsets[p]..offsets[p + 1]]` and the same range of `neighbours`;
    /// one entry per polygon plus a final one.
    pub offsets: Vec<u32>,
    /// Each polygon's vertices, counter-clockwise, as indices into the triangles' vertices.
    pub ring: Vec<VertexId>,
    /// Slot `i` of a polygon: the polygon across its edge from vertex `i` to vertex `i + 1`, or
    /// `None` where that edge is a wall.
    pub neighbours: Vec<Option<PolyId>>,
}

impl Merged {
    /// Number of polygons.
    pub fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }
    /// Polygon `p`'s vertex indices.
    pub fn polygon(&self, p: usize) -> &[VertexId] {
        &self.ring[self.offsets[p] as usize..self.offsets[p + 1] as usize]
    }
}

/// The state of one greedy pass: the merged polygons' boundary cycles over the half-edges, which
/// half-edges were removed (both sides of each deleted diagonal), and how many diagonals.
struct Pass {
    next: Vec<u32>,
    prev: Vec<u32>,
    removed: Vec<bool>,
    count: usize,
}

impl Pass {
    fn new(nh: usize) -> Pass {
        Pass {
            next: vec![0; nh],
            prev: vec![0; nh],
            removed: vec![false; nh],
            count: 0,
        }
    }
}

/// Merges free-space triangles into convex polygons (counter-clockwise vertex index lists, into
/// `triangles.vertices`); the tests' view of [`merge_with_adjacency`].
#[cfg(test)]
pub fn merge(t: &Triangles) -> Vec<Vec<u32>> {
    let m = merge_with_adjacency(t, &super::CancelToken::new()).unwrap();
    (0..m.len())
        .map(|p| m.polygon(p).iter().map(|v| v.0).collect())
        .collect()
}

/// Merges free-space triangles into convex polygons, in flat form with their neighbours.
pub fn merge_with_adjacency(t: &Triangles, cancel: &CancelToken) -> Result<Merged, BuildError> {
    let nh = t.triangles.len() * 3;
    let from = |h: usize| t.triangles[h / 3][h % 3];
    let to = |h: usize| t.triangles[h / 3][(h % 3 + 1) % 3];
    let pos = |v: u32| t.vertices[v as usize];
    // The twin of each half-edge across a diagonal.
    let mut twin: Vec<u32> = vec![NONE; nh];
    for (ti, nbs) in t.neighbours.iter().enumerate() {
        for (k, nb) in nbs.iter().enumerate() {
            if let Some(o) = *nb {
                let h = 3 * ti + k;
                let (a, b) = (from(h), to(h));
                let other = t.triangles[o as usize];
                if let Some(m) = (0..3).find(|&m| other[m] == b && other[(m + 1) % 3] == a) {
                    twin[h] = (3 * o as usize + m) as u32;
                }
            }
        }
    }
    // Three visiting orders; the one that removes the most diagonals wins (see the module docs).
    let in_order: Vec<u32> = (0..nh as u32)
        .filter(|&h| twin[h as usize] != NONE && h < twin[h as usize])
        .collect();
    let twice_area = |ti: usize| {
        let [a, b, c] = t.triangles[ti].map(pos);
        (b - a).cross(c - a).abs()
    };
    let mut by_area: Vec<(f64, u32)> = in_order
        .iter()
        .map(|&h| {
            let h = h as usize;
            (
                twice_area(h / 3) + twice_area(twin[h] as usize / 3),
                h as u32,
            )
        })
        .collect();
    by_area.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let by_area: Vec<u32> = by_area.into_iter().map(|(_, h)| h).collect();

    // A corner p → v → q of a merged polygon is fine when it turns left or goes straight on.
    let convex = |p: Vec2, v: Vec2, q: Vec2| match orient(p, v, q) {
        Orientation::CounterClockwise => true,
        Orientation::Collinear => (v - p).dot(q - v) > 0.0,
        Orientation::Clockwise => false,
    };
    // The start of each half-edge; the end of `h` is the start of the next one in its triangle.
    let start: Vec<Vec2> = t.triangles.iter().flat_map(|tri| tri.map(pos)).collect();
    let in_triangle_next = |h: usize| if h % 3 == 2 { h - 2 } else { h + 1 };
    // One greedy pass over `order` from the plain triangles, into reused buffers.
    let greedy = |pass: &mut Pass, order: &mut dyn Iterator<Item = u32>| {
        for h in 0..nh {
            pass.next[h] = in_triangle_next(h) as u32;
            pass.prev[h] = if h % 3 == 0 { h + 2 } else { h - 1 } as u32;
        }
        pass.removed.fill(false);
        pass.count = 0;
        let (next, prev) = (&mut pass.next, &mut pass.prev);
        for h in order {
            let h = h as usize;
            let tw = twin[h] as usize;
            // At b = end of h the merged polygon comes in along prev(tw) and leaves along
            // next(h); at a = start of h it comes in along prev(h) and leaves along next(tw).
            let (pt, nh_, ph, nt) = (
                prev[tw] as usize,
                next[h] as usize,
                prev[h] as usize,
                next[tw] as usize,
            );
            let (a, b) = (start[h], start[tw]);
            if !convex(start[pt], b, start[in_triangle_next(nh_)])
                || !convex(start[ph], a, start[in_triangle_next(nt)])
            {
                continue;
            }
            next[pt] = nh_ as u32;
            prev[nh_] = pt as u32;
            next[ph] = nt as u32;
            prev[nt] = ph as u32;
            pass.removed[h] = true;
            pass.removed[tw] = true;
            pass.count += 1;
        }
    };
    cancel.check()?;
    let mut best = Pass::new(nh);
    greedy(&mut best, &mut in_order.iter().copied());
    let mut other = Pass::new(nh);
    for order in [
        &mut by_area.iter().copied() as &mut dyn Iterator<Item = u32>,
        &mut in_order.iter().rev().copied(),
    ] {
        cancel.check()?;
        greedy(&mut other, order);
        if other.count > best.count {
            std::mem::swap(&mut best, &mut other);
        }
    }
    let Pass {
        next,
        removed,
        count,
        ..
    } = best;

    // Walk each boundary cycle once; remember which polygon owns each kept half-edge.
    let mut owner = vec![NONE; nh];
    let mut out = Merged {
        offsets: vec![0],
        ring: Vec::with_capacity(nh - 2 * count),
        neighbours: Vec::new(),
    };
    let mut edges: Vec<u32> = Vec::with_capacity(out.ring.capacity());
    cancel.check()?;
    for start in 0..nh {
        if start % (64 * CHECK_EVERY) == 0 {
            cancel.check()?;
        }
        if removed[start] || owner[start] != NONE {
            continue;
        }
        let p = (out.offsets.len() - 1) as u32;
        let mut h = start;
        loop {
            owner[h] = p;
            out.ring.push(VertexId(from(h)));
            edges.push(h as u32);
            h = next[h] as usize;
            if h == start {
                break;
            }
        }
        out.offsets.push(out.ring.len() as u32);
    }
    // A kept half-edge's twin is kept too (diagonals are removed in pairs): its owner is the
    // polygon across.
    out.neighbours = edges
        .iter()
        .map(|&h| {
            let tw = twin[h as usize];
            (tw != NONE).then(|| PolyId(owner[tw as usize]))
        })
        .collect();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tris(vertices: Vec<Vec2>, triangles: Vec<[u32; 3]>) -> Triangles {
        // Neighbours from shared edges.
        let mut neighbours = vec![[None; 3]; triangles.len()];
        for (i, a) in triangles.iter().enumerate() {
            for (j, b) in triangles.iter().enumerate() {
                for k in 0..3 {
                    for m in 0..3 {
                        if a[k] == b[(m + 1) % 3] && a[(k + 1) % 3] == b[m] && i != j {
                            neighbours[i][k] = Some(j as u32);
                        }
                    }
                }
            }
        }
        Triangles {
            vertices,
            triangles,
            neighbours,
        }
    }

    #[test]
    fn square_becomes_one_polygon() {
        let t = tris(
            vec![
                Vec2::new(0.0, 0.0),
                Vec2::new(1.0, 0.0),
                Vec2::new(1.0, 1.0),
                Vec2::new(0.0, 1.0),
            ],
            vec![[0, 1, 2], [0, 2, 3]],
        );
        let p = merge(&t);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].len(), 4);
    }

    #[test]
    fn reflex_vertex_keeps_a_diagonal() {
        // An arrowhead: (0,0) (2,1) (0,2) (1,1) — reflex at (1,1).
        let t = tris(
            vec![
                Vec2::new(0.0, 0.0),
                Vec2::new(2.0, 1.0),
                Vec2::new(0.0, 2.0),
                Vec2::new(1.0, 1.0),
            ],
            vec![[0, 1, 3], [3, 1, 2]],
        );
        assert_eq!(merge(&t).len(), 2);
    }

    #[test]
    fn straight_angles_are_allowed() {
        // Three triangles fanning from (1,0) over the top side of a 2 × 1 rectangle whose top
        // carries a vertex at (1,1): one polygon with a straight-through vertex.
        let t = tris(
            vec![
                Vec2::new(0.0, 0.0),
                Vec2::new(2.0, 0.0),
                Vec2::new(2.0, 1.0),
                Vec2::new(1.0, 1.0),
                Vec2::new(0.0, 1.0),
            ],
            vec![[0, 1, 3], [1, 2, 3], [0, 3, 4]],
        );
        let p = merge(&t);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].len(), 5);
    }
}
