//! [`NavMesh::check_invariants`]: structure, symmetric adjacency, no overlaps, no T-junctions.

use super::*;

impl NavMesh {
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
            let around = self.neighbours(p);
            for (i, n) in around.iter().enumerate() {
                if let Some(j) = n.and_then(|q| around[i + 1..].iter().position(|&m| m == Some(q)))
                {
                    return Err(InvariantError::SharedEdges {
                        polygon: p,
                        neighbour: n.expect("matched above"),
                        first_edge: i,
                        second_edge: i + 1 + j,
                    });
                }
            }
            for (i, n) in around.iter().enumerate() {
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
    pub(super) fn interiors_overlap(&self, p: PolyId, q: PolyId) -> bool {
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
pub(super) fn boxes_meet(a: Aabb, b: Aabb) -> bool {
    a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y
}
