//! The corner graph saved as an index ([`CornerGraph::to_bytes`], [`CornerGraph::from_bytes`]):
//! a loaded index is the graph that was saved and answers every query with the plain exact
//! search's length; a damaged, truncated, foreign or malformed file gets a typed error, never a
//! panic.

use portolan::io::movingai::read_map;
use portolan::io::scenario;
use portolan::mesh::NavMesh;
use portolan::search::corner_graph::file::{MAGIC, VERSION};
use portolan::search::corner_graph::{CornerGraph, IndexError};
use portolan::testkit::{check_counted, data_dir, scenes};
use portolan::{build, BuildOptions, PathFinder, SearchOptions};
use proptest::prelude::*;
use std::sync::Arc;

fn grid_mesh(path: &str) -> NavMesh {
    let f = std::fs::File::open(data_dir().join(path)).unwrap();
    let map = read_map(std::io::BufReader::new(f)).unwrap();
    build(&map.to_scene(), &BuildOptions::cdt()).unwrap()
}

/// The bytes with their checksum (the last 8 bytes) made right again after an edit.
fn reseal(bytes: &mut [u8]) {
    let n = bytes.len() - 8;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in &bytes[..n] {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    bytes[n..].copy_from_slice(&h.to_le_bytes());
}

#[test]
fn a_loaded_index_is_the_saved_graph_and_answers_every_published_query_exactly() {
    // den011d: labels and views (kept whatever the fit would say, so that they are what is
    // saved and loaded); the mesh is built again, as another process would.
    let path = "movingai/dao/den011d.map";
    let graph = CornerGraph::build_with_views(&grid_mesh(path));
    assert!(graph.answers_from_views());
    let bytes = graph.to_bytes();
    let mesh = grid_mesh(path);
    let loaded = CornerGraph::from_bytes(&bytes, &mesh).unwrap();
    assert_eq!(loaded.mesh_id(), mesh.instance_id());
    assert_eq!(
        loaded.to_bytes(),
        bytes,
        "a loaded graph saves the same bytes"
    );
    assert_eq!(loaded.edge_count(), graph.edge_count());
    assert_eq!(loaded.answers_from_views(), graph.answers_from_views());
    assert_eq!(loaded.plain_first_below(), graph.plain_first_below());
    let corner = SearchOptions::corner(Arc::new(loaded));
    let f = std::fs::File::open(data_dir().join(format!("{path}.scen"))).unwrap();
    let queries = scenario::read(std::io::BufReader::new(f)).unwrap();
    let mut finder = PathFinder::new();
    let mut checked = 0;
    for q in &queries {
        let (s, g) = (q.start, q.goal);
        let e = finder
            .find_path(&mesh, s, g, &SearchOptions::exact())
            .unwrap();
        let c = finder.find_path(&mesh, s, g, &corner).unwrap();
        assert!(
            (c.length - e.length).abs() <= 1e-9 * e.length.max(1.0),
            "{s} -> {g}: loaded index {} vs exact {}",
            c.length,
            e.length
        );
        checked += 1;
    }
    assert!(checked >= 700, "{checked}");
}

#[test]
fn loaded_indexes_give_the_plain_search_lengths_on_random_scenes() {
    let pairs = prop::collection::vec((scenes::grid_point(), scenes::grid_point()), 8);
    let checked = check_counted(
        file!(),
        32,
        (scenes::random_scene(), pairs),
        |(scene, pairs)| {
            // Views kept for every query, so the loaded views are what answers.
            let bytes = CornerGraph::build_with_views(&scenes::mesh_of(&scene)).to_bytes();
            let mesh = scenes::mesh_of(&scene);
            let graph = CornerGraph::from_bytes(&bytes, &mesh)
                .map_err(|e| proptest::test_runner::TestCaseError::fail(format!("refused: {e}")))?;
            let corner = SearchOptions::corner(Arc::new(graph));
            let mut finder = PathFinder::new();
            let mut n = 0;
            for (s, g) in pairs {
                let exact = finder.find_path(&mesh, s, g, &SearchOptions::exact());
                let fast = finder.find_path(&mesh, s, g, &corner);
                match (exact, fast) {
                    (Ok(e), Ok(c)) => {
                        prop_assert!(
                            (c.length - e.length).abs() <= 1e-9 * e.length.max(1.0),
                            "{s} -> {g}: loaded {} vs exact {}",
                            c.length,
                            e.length
                        );
                        n += 1;
                    }
                    (Err(a), Err(b)) => prop_assert_eq!(a, b),
                    (e, c) => prop_assert!(false, "{s} -> {g}: exact {e:?}, loaded {c:?}"),
                }
            }
            Ok(n)
        },
    );
    assert!(checked >= 60, "only {checked} queries had a path");
}

#[test]
fn another_mesh_is_refused_with_both_fingerprints() {
    let a = scenes::split_map();
    let b = scenes::square_map();
    let bytes = CornerGraph::build(&a).to_bytes();
    match CornerGraph::from_bytes(&bytes, &b) {
        Err(IndexError::OtherMesh { index, mesh, .. }) => {
            assert_eq!(index, a.fingerprint());
            assert_eq!(mesh, b.fingerprint());
        }
        other => panic!("{other:?}"),
    }
    // The message names both.
    let msg = CornerGraph::from_bytes(&bytes, &b).unwrap_err().to_string();
    assert!(msg.contains("another mesh"), "{msg}");
}

#[test]
fn not_an_index_another_version_and_trailing_bytes_are_refused() {
    let mesh = scenes::split_map();
    let bytes = CornerGraph::build(&mesh).to_bytes();
    assert_eq!(&bytes[..8], &MAGIC);
    assert_eq!(
        CornerGraph::from_bytes(b"", &mesh).unwrap_err(),
        IndexError::NotAnIndex
    );
    assert_eq!(
        CornerGraph::from_bytes(b"{\"vertices\": []}", &mesh).unwrap_err(),
        IndexError::NotAnIndex
    );
    let mut v2 = bytes.clone();
    v2[8..12].copy_from_slice(&(VERSION + 1).to_le_bytes());
    assert_eq!(
        CornerGraph::from_bytes(&v2, &mesh).unwrap_err(),
        IndexError::Version {
            found: VERSION + 1,
            supported: VERSION
        }
    );
    // Bytes after the graph, sealed with a right checksum: corrupt.
    let mut longer = bytes[..bytes.len() - 8].to_vec();
    longer.extend_from_slice(&[0; 12]);
    reseal(&mut longer);
    assert!(matches!(
        CornerGraph::from_bytes(&longer, &mesh),
        Err(IndexError::Corrupt { .. })
    ));
}

#[test]
fn every_truncation_and_every_flipped_byte_is_refused() {
    let mesh = build(&portolan::Scene::default_map(), &BuildOptions::default()).unwrap();
    let bytes = CornerGraph::build_with_views(&mesh).to_bytes();
    assert!(bytes.len() > 1_000);
    for n in 0..bytes.len() {
        assert!(
            CornerGraph::from_bytes(&bytes[..n], &mesh).is_err(),
            "a prefix of {n} bytes loaded"
        );
    }
    for i in 0..bytes.len() {
        let mut b = bytes.clone();
        b[i] ^= 0x10;
        let e = CornerGraph::from_bytes(&b, &mesh).unwrap_err();
        assert!(
            matches!(
                e,
                IndexError::NotAnIndex | IndexError::Version { .. } | IndexError::Checksum { .. }
            ),
            "byte {i}: {e}"
        );
    }
}

#[test]
fn out_of_bounds_ids_under_a_right_checksum_are_corrupt_not_a_panic() {
    let mesh = build(&portolan::Scene::default_map(), &BuildOptions::default()).unwrap();
    let bytes = CornerGraph::build_with_views(&mesh).to_bytes();
    // The header is 36 bytes (magic, version, fingerprint, vertices, polygons); the
    // corners' walls follow: a length, then two vertex ids per vertex.
    let first_wall = 36 + 8;
    let mut b = bytes.clone();
    // Find a corner (a wall id that is not NONE) and point it past the vertices.
    let k = (0..mesh.vertex_count() * 2)
        .find(|k| {
            let at = first_wall + 4 * k;
            u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) != u32::MAX
        })
        .unwrap();
    let at = first_wall + 4 * k;
    b[at..at + 4].copy_from_slice(&(mesh.vertex_count() as u32 + 7).to_le_bytes());
    reseal(&mut b);
    match CornerGraph::from_bytes(&b, &mesh) {
        Err(IndexError::Corrupt { what }) => assert!(what.contains("walls"), "{what}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn random_edits_under_a_right_checksum_never_panic() {
    let mesh = build(&portolan::Scene::default_map(), &BuildOptions::default()).unwrap();
    let bytes = CornerGraph::build_with_views(&mesh).to_bytes();
    let len = bytes.len();
    let edits = prop::collection::vec((0..len - 8, any::<u8>()), 1..4);
    check_counted(file!(), 400, edits, |edits| {
        let mut b = bytes.clone();
        for (i, x) in edits {
            b[i] = x;
        }
        reseal(&mut b);
        // Loads or is refused; either way, no panic. What loads has every id in bounds, so a
        // query on it does not panic either.
        if let Ok(graph) = CornerGraph::from_bytes(&b, &mesh) {
            let corner = SearchOptions::corner(Arc::new(graph));
            let _ = PathFinder::new().find_path(
                &mesh,
                portolan::Scene::DEFAULT_START,
                portolan::Scene::DEFAULT_GOAL,
                &corner,
            );
        }
        Ok(1)
    });
}
