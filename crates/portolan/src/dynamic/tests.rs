//! Publishing by patches: both paths (the spare brought up to date, the current snapshot copied)
//! give the same mesh, and the row layouts compact so memory stays linear in the mesh.

use super::DynamicNavMesh;
use crate::random::Rng;
use crate::{BuildOptions, NavMesh, PolyId, Scene, Vec2};

/// Polygon for polygon, the same mesh under the same ids (rows may sit in different spans).
fn assert_same(a: &NavMesh, b: &NavMesh) {
    assert_eq!(a.polygon_count(), b.polygon_count());
    assert_eq!(a.vertex_count(), b.vertex_count());
    assert_eq!(a.bounds(), b.bounds());
    assert_eq!(a.area(), b.area());
    for p in a.polygons() {
        assert!(a.polygon_points(p).eq(b.polygon_points(p)), "{p}");
        assert_eq!(a.neighbours(p), b.neighbours(p), "{p}");
        assert_eq!(a.polygon_vertices(p), b.polygon_vertices(p), "{p}");
    }
    for v in 0..a.vertex_count() {
        let v = crate::VertexId(v as u32);
        let mut x: Vec<PolyId> = a.vertex_polygons(v).to_vec();
        let mut y: Vec<PolyId> = b.vertex_polygons(v).to_vec();
        x.sort_unstable();
        y.sort_unstable();
        assert_eq!(x, y, "{v:?}");
    }
}

#[test]
fn both_publishing_paths_give_the_same_mesh_and_the_rows_compact() {
    let options = BuildOptions::cdt();
    let make = || DynamicNavMesh::new(Scene::default_map(), &options, 100.0).unwrap();
    // `held` keeps every snapshot, so the writer never gets its spare back and copies the
    // current snapshot each update; `free` holds none, so it patches the spare.
    let (mut held, mut free) = (make(), make());
    let mut kept = Vec::new();
    let mut rng = Rng::new(7);
    let mut ids = Vec::new();
    let mut compactions = [0usize; 3];
    let mut last = free.snapshot().mesh().row_layouts();
    for k in 0..400 {
        let (x, y) = (rng.range_f64(20.0, 740.0), rng.range_f64(20.0, 400.0));
        let (w, h) = (rng.range_f64(5.0, 50.0), rng.range_f64(5.0, 30.0));
        // Waves: 40 updates that mostly add, 40 that mostly move and remove, so the mesh grows
        // and shrinks and the freed rows' slack outgrows the rows in use.
        let growing = k % 80 < 40;
        if !ids.is_empty() && (!growing || k % 4 == 0) {
            let i = rng.range_usize(0, ids.len() - 1);
            let by = Vec2::new(rng.range_f64(-40.0, 40.0), rng.range_f64(-40.0, 40.0));
            let id = ids[i];
            let a = held.move_obstacle(id, by);
            assert_eq!(a, free.move_obstacle(id, by));
            if !growing || k % 8 == 0 {
                held.remove_obstacle(id).unwrap();
                free.remove_obstacle(id).unwrap();
                ids.swap_remove(i);
            }
        } else {
            let shape = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)];
            let a = held.add_obstacle(shape).unwrap();
            assert_eq!(a, free.add_obstacle(shape).unwrap());
            ids.push(a);
        }
        held.update().unwrap();
        free.update().unwrap();
        kept.push(held.snapshot());
        let (a, b) = (held.snapshot(), free.snapshot());
        assert_same(a.mesh(), b.mesh());
        for p in a.mesh().polygons() {
            assert_eq!(a.poly_ref(p), b.poly_ref(p));
        }
        let now = b.mesh().row_layouts();
        for (i, ((end, slack), (was, _))) in now.iter().zip(last).enumerate() {
            // Slack never outgrows the rows in use by more than the floor.
            assert!(
                *slack <= (end - slack).max(crate::mesh::MIN_SLACK),
                "{i}: {end} {slack}"
            );
            compactions[i] += usize::from(*end < was);
        }
        last = now;
    }
    assert!(
        compactions.iter().all(|&c| c > 0),
        "every layout compacted at least once: {compactions:?}"
    );
    let scratch = free.build_from_scratch().unwrap();
    assert_eq!(
        scratch.polygon_count(),
        free.snapshot().mesh().polygon_count()
    );
}
