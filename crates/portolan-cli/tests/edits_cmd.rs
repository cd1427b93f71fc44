//! `portolan edits`: random edits on a tiled dynamic mesh, checked against builds from scratch.

mod common;

use common::{assert_clean_failure, data, portolan, stderr};

#[test]
fn edits_on_a_grid_map_report_json_and_no_mismatches() {
    let map = data("movingai/dao/den011d.map");
    let o = portolan(&[
        "edits",
        "--map",
        &map,
        "--tile-size",
        "32",
        "--edits",
        "30",
        "--seed",
        "3",
        "--queries",
        "20",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    assert_eq!(v["edits"], 30);
    assert_eq!(v["mismatches"], 0);
    // 3 comparisons of 20 queries (points drawn on the mesh, so every pair is compared).
    assert_eq!(v["queries_compared"], 60);
    for key in [
        "mean_update_ms",
        "p99_update_ms",
        "full_rebuild_ms",
        "tiles_rebuilt_mean",
    ] {
        let x = v[key].as_f64().unwrap_or_else(|| panic!("{key} in {v}"));
        assert!(x.is_finite() && x >= 0.0, "{key} = {x}");
    }
    // A small obstacle touches one to four tiles of 32 (more with the border pieces).
    let tiles = v["tiles_rebuilt_mean"].as_f64().unwrap();
    assert!(tiles > 0.0 && tiles <= 4.0, "{tiles}");
}

/// `portolan edits` on the default map, tiles of 100, an agent of radius 3 rounded to within
/// `arc_error`, then `extra`.
fn edits_with_radius(arc_error: &str, extra: &[&str]) -> std::process::Output {
    let args = [
        "edits",
        "--tile-size",
        "100",
        "--radius",
        "3",
        "--arc-error",
        arc_error,
    ];
    portolan(&[&args[..], extra].concat())
}

/// With the default rounding and a coarse one (`--arc-error 0.3`): no mismatch against builds
/// from scratch.
#[test]
fn edits_with_a_radius_on_the_default_map_print_a_summary() {
    for arc_error in ["0.01", "0.3"] {
        let o = edits_with_radius(arc_error, &["--edits", "10", "--queries", "10"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            out.contains("10 edits") && out.contains("0 mismatches"),
            "{arc_error}: {out}"
        );
    }
}

#[test]
fn edits_refuse_meshes_and_bad_tile_sizes() {
    let mesh = data("polyanya/meshes/arena-merged.mesh");
    let o = portolan(&["edits", "--mesh", &mesh, "--tile-size", "10"]);
    assert_clean_failure(&o, "needs obstacles");
    let o = portolan(&["edits", "--tile-size", "0"]);
    assert_clean_failure(&o, "tile_size");
    for bad in ["0", "2", "NaN"] {
        assert_clean_failure(&edits_with_radius(bad, &[]), "arc_error");
    }
}

/// Tile sizes off the overlay's grid (7.3, 13.3 cells on arena): `portolan edits` panicked in
/// the mesh patch on every one before tile borders were put on the grid; now every update
/// matches a build from scratch.
#[test]
fn edits_with_a_tile_size_off_the_grid_match_builds_from_scratch() {
    let map = data("movingai/dao/arena.map");
    for size in ["7.3", "13.3"] {
        let o = portolan(&[
            "edits",
            "--map",
            &map,
            "--tile-size",
            size,
            "--edits",
            "30",
            "--seed",
            "1",
            "--json",
        ]);
        assert!(o.status.success(), "tile {size}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
        assert_eq!(v["mismatches"], 0, "tile {size}: {v}");
        assert!(
            v["queries_compared"].as_u64().unwrap() > 0,
            "tile {size}: {v}"
        );
    }
}
