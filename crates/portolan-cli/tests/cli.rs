//! The `portolan` binary as a user meets it: output formats, files, and one-line errors.

mod common;

use common::{assert_clean_failure, data, portolan, stderr, temp, temp_file};

#[test]
fn path_prints_json_with_points_length_expanded_channel() {
    let o = portolan(&["path", "--from", "40,60", "--to", "760,390", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let pts = v["points"].as_array().unwrap();
    assert_eq!(pts[0], serde_json::json!([40.0, 60.0]));
    assert_eq!(pts[pts.len() - 1], serde_json::json!([760.0, 390.0]));
    let len = v["length"].as_f64().unwrap();
    assert!(len >= (720.0f64.powi(2) + 330.0f64.powi(2)).sqrt());
    assert!(v["expanded"].as_u64().unwrap() >= 1);
    assert!(!v["channel"].as_array().unwrap().is_empty());
}

#[test]
fn midpoint_is_never_shorter_on_the_default_query() {
    let get = |portal: &str| {
        let o = portolan(&[
            "path", "--from", "40,60", "--to", "760,390", "--json", "--portal", portal,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["length"].as_f64().unwrap()
    };
    assert!(get("toward-goal") <= get("midpoint") + 1e-9);
}

#[test]
fn path_text_output() {
    let o = portolan(&["path", "--from", "40,60", "--to", "760,390"]);
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("length:") && out.contains("expanded:"),
        "{out}"
    );
}

#[test]
fn render_writes_an_svg() {
    let out = temp("d.svg");
    let o = portolan(&[
        "render",
        "--from",
        "40,60",
        "--to",
        "760,390",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("<polyline"));
}

#[test]
fn bad_arguments_and_files_fail_in_one_line() {
    assert_clean_failure(&portolan(&["path", "--from", "1", "--to", "2,2"]), "X,Y");
    assert_clean_failure(
        &portolan(&["path", "--from", "nan,1", "--to", "2,2"]),
        "finite",
    );
    assert_clean_failure(
        &portolan(&["path", "--from", "-50,60", "--to", "760,390"]),
        "not on the navigation mesh",
    );
    assert_clean_failure(
        &portolan(&[
            "path",
            "--scene",
            "/nonexistent/scene.json",
            "--from",
            "1,1",
            "--to",
            "2,2",
        ]),
        "cannot open scene",
    );
    let bad = temp("bad.json");
    // An invalid scene, then one that is not JSON: each error names the place.
    for (text, expected) in [
        (
            "{\"bounds\": {\"min\": [0, 0], \"max\": [10, 10]},\n \"obstacles\": [[[1, 1], [2, 1]]]}",
            "obstacle 0",
        ),
        (
            "{\"bounds\": {\"min\": [0, 0], \"max\": [10, 10]},\n \"obstacles\": [[[1, 1], [2, 1]]",
            "line 2",
        ),
    ] {
        std::fs::write(&bad, text).unwrap();
        assert_clean_failure(
            &portolan(&[
                "path",
                "--scene",
                bad.to_str().unwrap(),
                "--from",
                "5,5",
                "--to",
                "6,6",
            ]),
            expected,
        );
    }
}

#[test]
fn path_takes_off_mesh_links_from_a_file() {
    // A cheap jump from near the start to near the goal, and a bidirectional one across the map.
    let links = temp_file(
        "links.json",
        r#"[{"from": [60, 80], "to": [700, 380], "cost": 5},
            {"from": [100, 400], "to": [740, 20], "cost": 50, "bidirectional": true}]"#,
    );
    for search in ["funnel", "exact"] {
        let o = portolan(&[
            "path", "--from", "40,60", "--to", "760,390", "--links", &links, "--search", search,
            "--json",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(
            v["links"],
            serde_json::json!([{"link": 0, "segment": 1, "reversed": false}]),
            "{search}"
        );
        let pts = v["points"].as_array().unwrap();
        assert_eq!(pts[1], serde_json::json!([60.0, 80.0]));
        assert_eq!(pts[2], serde_json::json!([700.0, 380.0]));
        // The cost counts the jump at 5, not at its ~707 straight length.
        let (len, cost) = (v["length"].as_f64().unwrap(), v["cost"].as_f64().unwrap());
        let jump = (640.0f64.powi(2) + 300.0f64.powi(2)).sqrt();
        assert!((len - jump + 5.0 - cost).abs() < 1e-9, "{len} {cost}");
    }
    // Backwards over the bidirectional link, in text.
    let o = portolan(&[
        "path", "--from", "760,10", "--to", "90,420", "--links", &links, "--search", "exact",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("link:     1 from point 1 to point 2 (cost 50.000, backwards)"),
        "{text}"
    );
    // Bad files: named, one line, no panic; the message says what is wrong.
    for (name, text, why) in [
        (
            "off.json",
            r#"[{"from": [60, 80], "to": [7000, 380], "cost": 5}]"#,
            "link 0: its end point (7000, 380) is not on the navigation mesh",
        ),
        (
            "broken.json",
            r#"[{"from": [60, 80], "to": [70 380], "cost": 5}]"#,
            "is not a links file",
        ),
        (
            "negative.json",
            r#"[{"from": [60, 80], "to": [70, 380], "cost": -1}]"#,
            "link 0: cost -1 must be finite and not negative",
        ),
    ] {
        let links = temp_file(name, text);
        let o = portolan(&[
            "path", "--from", "40,60", "--to", "760,390", "--links", &links,
        ]);
        assert_clean_failure(&o, why);
        assert_clean_failure(&o, name);
        assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    }
    let missing = "/nonexistent/links.json";
    let o = portolan(&[
        "path", "--from", "40,60", "--to", "760,390", "--links", missing,
    ]);
    assert_clean_failure(&o, "cannot read the links file /nonexistent/links.json");
}

/// Every subcommand that reads a map takes the same four input flags as one clap group: two of
/// them are refused by clap (exit code 2, usage shown), whichever two.
#[test]
fn two_input_flags_are_one_clap_conflict_in_every_subcommand() {
    let pairs = [
        ["--scene", "--map"],
        ["--map", "--poly"],
        ["--poly", "--mesh"],
        ["--mesh", "--scene"],
    ];
    for [a, b] in pairs {
        for cmd in [
            &["path", "--from", "1,1", "--to", "2,2"][..],
            &["render", "-o", "never.svg"],
            &["build", "-o", "never.json"],
            &["scen", "--scen", "never.scen"],
            &["serve", "--port", "0"],
        ] {
            let o = portolan(&[cmd, &[a, "x", b, "y"]].concat());
            assert_eq!(o.status.code(), Some(2), "{cmd:?} {a} {b}: {}", stderr(&o));
            let err = stderr(&o);
            assert!(
                err.contains("cannot be used with"),
                "{cmd:?} {a} {b}: {err}"
            );
            assert!(err.contains(a) && err.contains(b), "{err}");
        }
    }
    // `build` and `scen` have no default map: one input is required, and the error lists them.
    for cmd in [
        &["build", "-o", "never.json"][..],
        &["scen", "--scen", "never.scen"],
    ] {
        let o = portolan(cmd);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("<--scene <FILE>|--map <FILE>|--poly <FILE>|--mesh <FILE>>"),
            "{}",
            stderr(&o)
        );
    }
    // A mesh file is searched as it is: build flags with it are a conflict too.
    for flag in [&["--radius", "1"][..], &["--decomposition", "trapezoid"]] {
        let o = portolan(
            &[
                &["path", "--mesh", "m.mesh", "--from", "1,1", "--to", "2,2"],
                flag,
            ]
            .concat(),
        );
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
    }
}

/// `--search midpoint` was the funnel search with `--portal midpoint`; it is gone, and clap says
/// what to write instead. `--portal` with the exact search is refused.
#[test]
fn search_midpoint_points_to_portal_midpoint() {
    for cmd in ["path", "render", "scen"] {
        let o = portolan(&[cmd, "--search", "midpoint"]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("`--search midpoint` is now `--portal midpoint`"),
            "{cmd}: {}",
            stderr(&o)
        );
    }
    let o = portolan(&[
        "path", "--search", "exact", "--portal", "midpoint", "--from", "40,60", "--to", "760,390",
    ]);
    assert_clean_failure(&o, "--portal applies to the funnel search only");
    let o = portolan(&[
        "render",
        "--portal",
        "midpoint",
        "--from",
        "40,60",
        "--to",
        "760,390",
        "-o",
        "/nonexistent/x.svg",
    ]);
    assert_clean_failure(&o, "cannot write /nonexistent/x.svg");
}

/// `path --map`: points are cell corners, y down. On tiny/1.map
///
/// ```text
///   0 1 2 3 → x
/// 0 . . .
/// 1 . @ .
/// 2 @ . .
/// 3
/// ```
///
/// (1, 2) is a double corner (blocked cells (1, 1) and (0, 2) touch there): a pinch vertex of the
/// mesh. Both searches answer queries that end on it, and never cut between the two cells.
#[test]
fn path_on_a_grid_map_reaches_a_double_corner() {
    let map = data("movingai/tiny/1.map");
    let length = |from: &str, to: &str, search: &str| {
        let o = portolan(&[
            "path", "--map", &map, "--from", from, "--to", to, "--search", search, "--json",
        ]);
        assert!(
            o.status.success(),
            "{from} -> {to} ({search}): {}",
            stderr(&o)
        );
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["length"].as_f64().unwrap()
    };
    let root5 = 5f64.sqrt();
    for search in ["funnel", "exact"] {
        // Straight in, from the north-west side and from the south-east side.
        assert!(
            (length("0,0", "1,2", search) - root5).abs() < 1e-12,
            "{search}"
        );
        assert!(
            (length("3,3", "1,2", search) - root5).abs() < 1e-12,
            "{search}"
        );
        // Out of the pinch to the north-east corner: round a corner of a blocked cell, 1 + √5.
        assert!(
            (length("1,2", "3,0", search) - (1.0 + root5)).abs() < 1e-12,
            "{search}"
        );
    }
    // Outside the map is blocked: the bottom-left corner of the map is inside blocked cell (0, 2).
    let o = portolan(&["path", "--map", &map, "--from", "0,3", "--to", "1,2"]);
    assert_clean_failure(&o, "not on the navigation mesh");
}

/// `render` and `path` read grid maps and `.poly` files too, with the agent radius.
#[test]
fn render_and_path_read_every_input_kind() {
    let svg = temp("arena.svg");
    let o = portolan(&[
        "render",
        "--map",
        &data("movingai/dao/arena.map"),
        "--radius",
        "0.5",
        "--from",
        "5,5",
        "--to",
        "40,40",
        "--search",
        "exact",
        "-o",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<polyline"));
    let poly = temp("level.poly");
    std::fs::write(
        &poly,
        "poly\n1\n2\n4 0 0 10 0 10 10 0 10\n4 4 0 6 0 6 8 4 8\n",
    )
    .unwrap();
    let o = portolan(&[
        "path",
        "--poly",
        poly.to_str().unwrap(),
        "--from",
        "1,5",
        "--to",
        "9,5",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // Round the wall's free end at (4, 8)-(6, 8): two legs of √18 and the 2 across.
    let expected = 2.0 * 18f64.sqrt() + 2.0;
    assert!(
        (v["length"].as_f64().unwrap() - expected).abs() < 1e-9,
        "{v}"
    );
}
