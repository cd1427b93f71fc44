//! Fans: per corner, the polygons around it across its reflex wedge, in order from one wall to
//! the other.
//!
//! # Why
//! A view path bends at corners, and its channel (the polygons it crosses) runs at each bend
//! from the polygon where the leg into the corner ends to the one where the leg out of it
//! starts, through the polygons between them around the corner. Walking around the vertex for
//! them (finding the vertex the two polygons share, then both ways around it, polygon by
//! polygon, to see which reaches the other) was 7–13% of a view query on the dao maps, at
//! about six bends a query (BENCHMARKS.md, "Session 28"). A corner's polygons all lie in its
//! reflex wedge (a pinch vertex's other wedges aside), one after another from the wall before
//! it to the wall after it: the polygons between two of them are the run of the fan between
//! their places.
//!
//! # Cost
//! Built with the views and with a loaded index (not saved: the mesh and the corners' walls
//! give it), in one walk around each corner. Memory: 4 bytes per vertex and 4 per polygon of
//! each corner's fan (about 4.4 a corner on the dao maps).

use super::NONE;
use crate::mesh::{NavMesh, PolyId, VertexId};

/// Per corner, its fan (see the [module docs](self)).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Fans {
    /// The fan of vertex `v` is `polys[at[v]..at[v + 1]]`, empty where `v` is not a corner.
    at: Vec<u32>,
    polys: Vec<PolyId>,
}

impl Fans {
    /// The fans of `mesh`'s corners: per vertex, `turns` (its reflex wedge's walls, `[NONE,
    /// NONE]` where it is not a corner) and `wedge_poly` (the wedge's polygon on the wall that
    /// ends at the vertex, where a walk around it across the edges leaving it starts). A fan
    /// whose walk does not reach a wall within the polygons around the vertex (a malformed
    /// mesh) is left empty: paths then walk around the vertex as before.
    pub(crate) fn of(mesh: &NavMesh, turns: &[[u32; 2]], wedge_poly: &[u32]) -> Fans {
        let mut fans = Fans {
            at: Vec::with_capacity(turns.len() + 1),
            polys: Vec::new(),
        };
        fans.at.push(0);
        for (v, (t, &p)) in turns.iter().zip(wedge_poly).enumerate() {
            if t[0] != NONE && p != NONE {
                let start = fans.polys.len();
                if !walk_fan(mesh, VertexId(v as u32), PolyId(p), &mut fans.polys) {
                    fans.polys.truncate(start);
                }
            }
            fans.at.push(fans.polys.len() as u32);
        }
        fans.polys.shrink_to_fit();
        fans
    }

    /// Corner `v`'s fan (empty where there is none, or `v` is out of range).
    #[inline]
    pub(crate) fn fan(&self, v: u32) -> &[PolyId] {
        match self.at.get(v as usize..v as usize + 2) {
            Some(&[a, b]) => &self.polys[a as usize..b as usize],
            _ => &[],
        }
    }

    /// Heap memory held, in bytes.
    pub(crate) fn memory_bytes(&self) -> usize {
        (self.at.len() + self.polys.len()) * 4
    }
}

/// Appends to `out` the polygons around `v` from `p` (whose edge into `v` is a wall) across
/// the edges leaving `v` to the polygon whose edge leaving `v` is a wall; `false` when `p` is
/// not such a polygon or the walk fails ([`walk_wedge`]).
fn walk_fan(mesh: &NavMesh, v: VertexId, p: PolyId, out: &mut Vec<PolyId>) -> bool {
    // (`p` from a loaded file is checked to be a polygon, not to be this one: its edge into
    // `v` must be a wall, so that the fan is a wedge of the mesh's own, wall to wall.)
    let ring = mesh.polygon_vertices(p);
    match ring.iter().position(|&x| x == v) {
        Some(i) if mesh.neighbours(p)[(i + ring.len() - 1) % ring.len()].is_none() => {}
        _ => return false,
    }
    walk_wedge(mesh, v, p, |q| out.push(q)).is_some()
}

/// The walk around vertex `v` from polygon `p` across the edges leaving `v` (in each polygon,
/// its edge that starts at `v`), polygon by polygon, `visit` seeing each (`p` first), to the
/// polygon whose edge leaving `v` is a wall: that polygon and `v`'s slot in it. `None` when
/// the walk takes more steps than there are polygons around `v`, or meets one without `v`
/// (a malformed mesh). The corners' walls (`turning_corners`) and their fans both walk so.
pub(super) fn walk_wedge(
    mesh: &NavMesh,
    v: VertexId,
    p: PolyId,
    mut visit: impl FnMut(PolyId),
) -> Option<(PolyId, usize)> {
    let mut cur = p;
    for _ in 0..=mesh.vertex_polygons(v).len() {
        visit(cur);
        let slot = mesh.polygon_vertices(cur).iter().position(|&x| x == v)?;
        match mesh.neighbours(cur)[slot] {
            None => return Some((cur, slot)),
            Some(next) => cur = next,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::corner_graph::CornerGraph;
    use crate::search::polyanya::between_on_fan;
    use crate::{build, BuildOptions, Scene};

    /// Every corner's fan is every polygon around it (a corner that is no pinch has one wedge),
    /// each sharing with the next the edge that leaves the corner, from a wall to a wall; and
    /// the run between two of its polygons is what a walk around the vertex finds.
    #[test]
    fn a_fan_is_the_walk_around_its_corner() {
        let den = crate::testkit::data_map("movingai/dao/den011d.map").to_scene();
        let mut checked = 0;
        for scene in [Scene::default_map(), den] {
            checked += check_fans(&build(&scene, &BuildOptions::cdt()).unwrap());
        }
        assert!(checked > 500, "{checked} runs checked");
    }

    /// The checks of [`a_fan_is_the_walk_around_its_corner`] on `mesh`; the runs compared.
    fn check_fans(mesh: &NavMesh) -> usize {
        let graph = CornerGraph::build_with_views(mesh);
        let fans = Fans::of(mesh, &graph.turns, &graph.wedge_poly);
        let mut checked = 0;
        for v in 0..mesh.vertex_count() as u32 {
            let fan = fans.fan(v);
            if !graph.is_corner(VertexId(v)) {
                assert!(fan.is_empty());
                continue;
            }
            assert!(!fan.is_empty(), "corner {v} has a fan");
            if !mesh.is_pinch(VertexId(v)) {
                let mut around = mesh.vertex_polygons(VertexId(v)).to_vec();
                let mut sorted = fan.to_vec();
                around.sort();
                sorted.sort();
                assert_eq!(
                    sorted, around,
                    "corner {v}: its fan is every polygon around it"
                );
            }
            for w in fan.windows(2) {
                assert!(mesh.shared_edge(w[0], w[1]).is_some());
            }
            for (i, &a) in fan.iter().enumerate() {
                for (j, &b) in fan.iter().enumerate() {
                    if i.abs_diff(j) < 2 {
                        continue;
                    }
                    let (mut on_fan, mut walked) = (Vec::new(), Vec::new());
                    assert!(between_on_fan(fan, a, b, &mut on_fan));
                    let ring = mesh.polygon_vertices(a);
                    let k = ring.iter().position(|&x| x == VertexId(v)).unwrap();
                    let n = ring.len();
                    let reached = [k, (k + n - 1) % n].into_iter().any(|first| {
                        walked.clear();
                        mesh.walk_around(VertexId(v), a, b, first, &mut |p| walked.push(p))
                            .is_some()
                    });
                    assert!(reached);
                    assert_eq!(on_fan, walked, "corner {v}, from {a:?} to {b:?}");
                    checked += 1;
                }
            }
        }
        let (mut out, elsewhere) = (Vec::new(), PolyId(u32::MAX));
        let fan = (0..mesh.vertex_count() as u32)
            .map(|v| fans.fan(v))
            .find(|f| f.len() > 1)
            .unwrap();
        assert!(!between_on_fan(fan, fan[0], elsewhere, &mut out) && out.is_empty());
        assert!(fans.fan(u32::MAX).is_empty());
        // A wedge polygon that is not the one on the wall into the corner (as a damaged file
        // could name) gives no fan, not a wrong one.
        let c = (0..mesh.vertex_count())
            .find(|&v| fans.fan(v as u32).len() > 1)
            .unwrap();
        let mut wrong = graph.wedge_poly.clone();
        wrong[c] = fans.fan(c as u32)[1].0;
        assert!(Fans::of(mesh, &graph.turns, &wrong)
            .fan(c as u32)
            .is_empty());
        checked
    }
}
