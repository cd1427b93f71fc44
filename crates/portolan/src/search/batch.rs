//! Batch queries: many paths on one shared mesh, in parallel (cargo feature `parallel`, on by
//! default).
//!
//! A [`NavMesh`] is immutable and `Sync`, so any number of threads can search it at once; what
//! each thread needs is its own [`PathFinder`] (the search arrays). [`find_paths`] splits the
//! queries over rayon's thread pool with `map_init`, which creates one finder per worker job
//! split and reuses it for every query of that split, and collects the results **in input
//! order**. Each result is exactly what [`PathFinder::find_path`] returns for that query alone:
//! the search is deterministic and a finder carries no state from one query to the next that
//! could change an answer.
//!
//! [`find_paths_sequential`] does the same on the calling thread with one finder; it is the
//! reference for tests and benchmarks (`benches/agent.rs`). Without the `parallel` feature
//! (`default-features = false`, no rayon dependency) only the library's single-query API exists.
//!
//! ```
//! use portolan::{build, BuildOptions, Scene, SearchOptions, Vec2};
//! use portolan::search::batch::{find_paths, find_paths_sequential};
//!
//! let mesh = build(&Scene::default_map(), &BuildOptions::trapezoid()).unwrap();
//! let queries: Vec<(Vec2, Vec2)> = (0..50)
//!     .map(|i| (Vec2::new(20.0, 10.0 + 8.0 * i as f64), Vec2::new(780.0, 440.0 - 8.0 * i as f64)))
//!     .collect();
//! let options = SearchOptions::default();
//! let parallel = find_paths(&mesh, &queries, &options);
//! assert_eq!(parallel, find_paths_sequential(&mesh, &queries, &options));
//! assert!(parallel.iter().filter(|r| r.is_ok()).count() > 40);
//! ```

use super::{Path, PathError, PathFinder, SearchOptions};
use crate::geom::Vec2;
use crate::mesh::NavMesh;
use rayon::prelude::*;

/// Finds a path for every `(start, goal)` pair, in parallel; results in input order.
pub fn find_paths(
    mesh: &NavMesh,
    queries: &[(Vec2, Vec2)],
    options: &SearchOptions,
) -> Vec<Result<Path, PathError>> {
    queries
        .par_iter()
        .map_init(PathFinder::new, |finder, &(start, goal)| {
            finder.find_path(mesh, start, goal, options)
        })
        .collect()
}

/// [`find_paths`] on the calling thread, with one reused [`PathFinder`].
pub fn find_paths_sequential(
    mesh: &NavMesh,
    queries: &[(Vec2, Vec2)],
    options: &SearchOptions,
) -> Vec<Result<Path, PathError>> {
    let mut finder = PathFinder::new();
    queries
        .iter()
        .map(|&(start, goal)| finder.find_path(mesh, start, goal, options))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{build, BuildOptions};
    use crate::scene::Scene;
    use crate::search::{PathStatus, Snap};
    use crate::testkit::scenes::{grid_point, mesh_of, random_scene};
    use proptest::prelude::*;

    #[test]
    fn parallel_equals_sequential_on_the_default_map_with_bad_input_mixed_in() {
        let mesh = build(&Scene::default_map(), &BuildOptions::trapezoid()).unwrap();
        let mut queries = Vec::new();
        for i in 0..400 {
            let t = i as f64;
            queries.push((
                Vec2::new((t * 37.0) % 800.0, (t * 11.0) % 450.0),
                Vec2::new((t * 53.0 + 400.0) % 800.0, (t * 29.0 + 100.0) % 450.0),
            ));
        }
        queries.push((Vec2::new(f64::NAN, 0.0), Vec2::new(10.0, 10.0)));
        queries.push((Vec2::new(360.0, 100.0), Vec2::new(10.0, 10.0))); // in an obstacle
        let options = SearchOptions::default().with_corner_offset(3.0);
        let par = find_paths(&mesh, &queries, &options);
        let seq = find_paths_sequential(&mesh, &queries, &options);
        assert_eq!(par.len(), queries.len());
        // Debug text, because the NaN in the bad query's error is not equal to itself.
        assert!(format!("{par:?}") == format!("{seq:?}"));
        // In input order: each result starts at its own query's start.
        for ((s, _), r) in queries.iter().zip(&par) {
            if let Ok(p) = r {
                assert_eq!(p.points[0], *s);
            }
        }
        assert!(matches!(
            par[400],
            Err(PathError::NonFinite {
                role: crate::search::EndpointRole::Start,
                ..
            })
        ));
        assert!(matches!(par[401], Err(PathError::StartOffMesh(_))));
        let ok = par.iter().filter(|r| r.is_ok()).count();
        assert!(ok > 100, "{ok} of 402 queries found a path");
        assert!(find_paths(&mesh, &[], &options).is_empty());
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]
        #[test]
        fn parallel_equals_sequential_on_random_meshes(
            scene in random_scene(),
            queries in prop::collection::vec((grid_point(), grid_point()), 0..60),
        ) {
            let mesh = mesh_of(&scene);
            let options = SearchOptions::default().with_allow_partial(true).with_snap(Snap::Within(2.0));
            let par = find_paths(&mesh, &queries, &options);
            prop_assert_eq!(&par, &find_paths_sequential(&mesh, &queries, &options));
            for ((s, g), r) in queries.iter().zip(&par) {
                let Ok(p) = r else { continue };
                let (first, last) = (p.points[0], *p.points.last().unwrap());
                prop_assert!(first.distance(*s) <= 2.0 + 1e-9); // snapped points are nudged onto the mesh
                for q in &p.points {
                    prop_assert!(mesh.locate(*q) != crate::mesh::Location::Outside);
                }
                // The goal the search aimed at: the query's goal snapped onto the mesh.
                let (_, goal) = mesh.nearest_point(*g, 2.0).expect("a path was found, so it snaps");
                match p.status {
                    PathStatus::Complete => prop_assert_eq!(last, goal),
                    // The start polygon is always expanded, so the end is no further from the
                    // snapped goal than the start (the raw goal may be closer to another wall).
                    PathStatus::Partial(_) => {
                        prop_assert!(last.distance(goal) <= first.distance(goal) + 1e-9)
                    }
                }
            }
        }
    }
}
