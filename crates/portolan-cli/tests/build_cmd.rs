//! `portolan build` as a user meets it: every input kind, both output formats, one-line errors.

use portolan::NavMesh;
use std::process::{Command, Output};

mod common;

use common::{assert_clean_failure, build, csv_column, data, portolan, stderr, temp, temp_file};

#[test]
fn map_to_json_and_to_polyanya_mesh_agree() {
    let json = temp("arena.json");
    let o = build(["--map", &data("movingai/dao/arena.map")], &json, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("polygons"));
    let from_json: NavMesh = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    from_json.check_invariants().unwrap();

    let mesh = temp("arena.mesh");
    let o = build(["--map", &data("movingai/dao/arena.map")], &mesh, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let from_mesh = portolan::io::polyanya_mesh::read(std::fs::File::open(&mesh).unwrap()).unwrap();
    assert_eq!(from_mesh.polygon_count(), from_json.polygon_count());
    assert_eq!(from_mesh.area(), from_json.area());
}

#[test]
fn scene_and_poly_inputs_with_radius_and_decomposition() {
    let scene = temp("scene.json");
    std::fs::write(
        &scene,
        r#"{"bounds": {"min": [0, 0], "max": [20, 10]},
            "obstacles": [[[4, 2], [8, 2], [8, 6], [4, 6]], [[6, 4], [12, 4], [9, 9]]]}"#,
    )
    .unwrap();
    let out = temp("scene-mesh.json");
    let o = build(
        ["--scene", scene.to_str().unwrap()],
        &out,
        &["--radius", "0.5"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let m: NavMesh = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert!(m.area() < 200.0 - 16.0);
    // The trapezoids cannot take overlapping obstacles, and say so.
    let o = build(
        ["--scene", scene.to_str().unwrap()],
        &out,
        &["--decomposition", "trapezoid"],
    );
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("obstacles 0 and 1 overlap"),
        "{}",
        stderr(&o)
    );

    let poly = temp("level.poly");
    std::fs::write(&poly, "poly\n1\n2\n4 0 0 10 0 10 10 0 10\n3 2 2 6 2 4 6\n").unwrap();
    let out = temp("level.json");
    let o = build(["--poly", poly.to_str().unwrap()], &out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let m: NavMesh = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(m.area(), 100.0 - 8.0);
}

/// `portolan` with `args`, killed (and the test failed) if it has not finished in `limit`: for
/// inputs that used to hang.
fn portolan_within(args: &[&str], limit: std::time::Duration) -> Output {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_portolan"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("portolan {args:?} still running after {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Issue 16: a `.poly` file whose points span a sub-normal box hung `portolan build` (the
/// overlay's grid step underflowed to 0 and was doubled forever); so did a scene with such
/// bounds. Both are now a one-line range error, at once.
#[test]
fn subnormal_coordinates_fail_in_one_line_instead_of_hanging() {
    let limit = std::time::Duration::from_secs(30);
    let out = temp("never-subnormal.json");
    for tiny in ["5e-324", "1e-310"] {
        let poly = temp(&format!("subnormal-{tiny}.poly"));
        std::fs::write(
            &poly,
            format!("poly\n1\n1\n4 0 0 {tiny} 0 {tiny} {tiny} 0 {tiny}\n"),
        )
        .unwrap();
        // The file is read into a scene before either decomposition runs.
        let o = portolan_within(
            &[
                "build",
                "--poly",
                poly.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
            ],
            limit,
        );
        let err = stderr(&o);
        assert!(!o.status.success(), "{err}");
        assert!(!err.contains("panicked"), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(&format!("to ({tiny}, {tiny})")), "{err}");
        assert!(err.contains("out of the range"), "{err}");

        let scene = temp(&format!("subnormal-{tiny}.json"));
        std::fs::write(
            &scene,
            format!(r#"{{"bounds": {{"min": [0, 0], "max": [{tiny}, {tiny}]}}}}"#),
        )
        .unwrap();
        for decomposition in ["cdt", "trapezoid"] {
            let o = portolan_within(
                &[
                    "build",
                    "--scene",
                    scene.to_str().unwrap(),
                    "--decomposition",
                    decomposition,
                    "-o",
                    out.to_str().unwrap(),
                ],
                limit,
            );
            let err = stderr(&o);
            assert!(!o.status.success(), "{err}");
            assert_eq!(err.trim_end().lines().count(), 1, "{err}");
            assert!(
                err.contains(&format!("the bounds (0.0, 0.0) to ({tiny}, {tiny})")),
                "{err}"
            );
        }
    }
    assert!(!out.exists());
}

#[test]
fn bad_input_fails_in_one_line() {
    let out = temp("never.json");
    let o = build(
        ["--map", &data("movingai/tiny/trivial_untraversable.map")],
        &out,
        &[],
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("no walkable space"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"));
    let o = portolan(&["build", "-o", out.to_str().unwrap()]);
    assert!(!o.status.success());
    let bad = temp("bad.map");
    std::fs::write(&bad, "type octile\nheight 1\nwidth 2\nmap\n.?\n").unwrap();
    let o = build(["--map", bad.to_str().unwrap()], &out, &[]);
    assert!(stderr(&o).contains("line 5, column 2"), "{}", stderr(&o));
    let o = build(
        ["--map", &data("movingai/tiny/1.map")],
        &out,
        &["--radius", "-1"],
    );
    assert!(stderr(&o).contains("agent_radius"), "{}", stderr(&o));
    // Issue 16, item 11: a scene error printed its text twice ("invalid scene: X: X").
    let scene = temp("degenerate.json");
    std::fs::write(
        &scene,
        r#"{"bounds": {"min": [0, 0], "max": [10, 10]}, "obstacles": [[[1,1],[1,1],[1,1]]]}"#,
    )
    .unwrap();
    let o = build(["--scene", scene.to_str().unwrap()], &out, &[]);
    let err = stderr(&o);
    assert_eq!(err.matches("needs at least 3").count(), 1, "{err}");
}

#[test]
fn scen_on_a_grid_map_builds_the_mesh_first_and_matches_the_gppc_optima() {
    let o = portolan(&[
        "scen",
        "--map",
        &data("gppc/AcrosstheCape.map"),
        "--scen",
        &data("gppc/AcrosstheCape.map.scen"),
        "--search",
        "exact",
        "--expect",
        "euclidean",
        "--tolerance",
        "1e-9",
        "--csv",
        temp("cape.csv").to_str().unwrap(),
    ]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("queries:    201"), "{err}");
    assert!(err.contains("mismatches: 0"), "{err}");
    let csv = std::fs::read_to_string(temp("cape.csv")).unwrap();
    assert_eq!(csv.lines().count(), 202, "header + one row per query");
    // --map goes with neither --mesh nor --scene (one clap group; see cli.rs for every pair).
    let o = portolan(&[
        "scen", "--map", "a.map", "--mesh", "b.mesh", "--scen", "c.scen",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
}

/// `scen --map` on a Dragon Age map: query points are cell corners, y down, and every one of
/// den011d's queries has a path (the file's octile optimum is an upper bound on it), so no row of
/// the CSV says `-1`, with either search.
#[test]
fn scen_on_den011d_answers_every_query() {
    for search in ["exact", "funnel"] {
        let csv = temp(&format!("den011d-{search}.csv"));
        let o = portolan(&[
            "scen",
            "--map",
            &data("movingai/dao/den011d.map"),
            "--scen",
            &data("movingai/dao/den011d.map.scen"),
            "--search",
            search,
            "--csv",
            csv.to_str().unwrap(),
        ]);
        let err = stderr(&o);
        assert!(o.status.success(), "{err}");
        assert!(!err.contains("query error"), "{err}");
        let text = std::fs::read_to_string(&csv).unwrap();
        let rows: Vec<Vec<f64>> = text
            .lines()
            .skip(1)
            .map(|l| l.split(',').map(|c| c.parse().unwrap()).collect())
            .collect();
        assert_eq!(rows.len(), 780, "{search}");
        for r in &rows {
            let (straight, length, octile) = ((r[3] - r[1]).hypot(r[4] - r[2]), r[5], r[6]);
            assert!(length >= 0.0, "{search}: no path in row {r:?}");
            assert!(
                length >= straight - 1e-9,
                "{search}: shorter than the line: {r:?}"
            );
            // The octile optimum bounds the shortest path (rounded to 5 or 6 digits: allow for
            // it); the funnel's path is near-optimal only.
            if search == "exact" {
                assert!(length <= octile * (1.0 + 1e-5), "longer than octile: {r:?}");
            }
        }
    }
}

/// `build --mesh` converts a mesh file (read and checked) to JSON or back to a `.mesh`.
#[test]
fn build_converts_a_mesh_file() {
    let json = temp("arena-merged.json");
    let o = build(
        ["--mesh", &data("polyanya/meshes/arena-merged.mesh")],
        &json,
        &[],
    );
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("55 polygons") && err.contains("read ->"),
        "{err}"
    );
    let m: NavMesh = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(m.polygon_count(), 55);
    // Build options do not apply to a mesh: clap says so.
    let o = build(
        ["--mesh", &data("polyanya/meshes/arena-merged.mesh")],
        &json,
        &["--radius", "1"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn scen_with_landmarks_matches_the_published_optima() {
    let mesh = data("polyanya/meshes/scene_mp_2p_01.mesh");
    let scen = data("polyanya/meshes/scene_mp_2p_01.mesh.scen");
    let csv = temp("mp-landmarks.csv");
    let o = portolan(&[
        "scen",
        "--mesh",
        &mesh,
        "--scen",
        &scen,
        "--landmarks",
        "8",
        "--expect",
        "euclidean",
        "--tolerance",
        "1e-9",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("landmarks:  8 built in"), "{err}");
    assert!(err.contains("queries:    2000"), "{err}");
    assert!(err.contains("mismatches: 0"), "{err}");
    // ... and they are used: the same lengths with far fewer expansions than without them.
    let plain_csv = temp("mp-plain.csv");
    let o = portolan(&[
        "scen",
        "--mesh",
        &mesh,
        "--scen",
        &scen,
        "--csv",
        plain_csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let expanded = |file: &std::path::Path| -> u64 {
        csv_column(file, "expanded")
            .iter()
            .map(|x| x.parse::<u64>().unwrap())
            .sum()
    };
    let (with, without) = (expanded(&csv), expanded(&plain_csv));
    assert!(
        with * 2 < without,
        "{with} expansions with landmarks, {without} without"
    );
    // Landmarks are for the exact search only.
    let o = portolan(&[
        "scen",
        "--mesh",
        &mesh,
        "--scen",
        &scen,
        "--search",
        "funnel",
        "--landmarks",
        "8",
    ]);
    let err = stderr(&o);
    assert!(!o.status.success());
    assert!(err.contains("--landmarks needs --search exact"), "{err}");
    // A count out of 1..=256 is refused before anything is built (a typo would otherwise ask
    // for a table of K × vertices floats).
    for k in ["0", "100000", "1.5"] {
        let o = portolan(&["scen", "--mesh", &mesh, "--scen", &scen, "--landmarks", k]);
        let err = stderr(&o);
        assert!(
            !o.status.success() && err.contains("--landmarks"),
            "{k}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    assert!(
        !err.contains("panicked") && err.lines().count() == 1,
        "{err}"
    );
}

#[test]
fn a_mesh_with_bent_faces_is_read_with_a_note() {
    let o = portolan(&[
        "path",
        "--mesh",
        &data("polyanya/tests/bad-collinear2-rot45.mesh"),
        "--from",
        "0.7071067811865476,0.7071067811865476",
        "--to",
        "0.7071067811865476,4.949747468305833",
        "--search",
        "exact",
        "--json",
    ]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("3 face(s)") && err.contains("(0-based: 1, 2, 3)"),
        "{err}"
    );
    let out: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let length = out["length"].as_f64().unwrap();
    assert!((length - 6.0).abs() < 1e-9, "{length}");
}

/// Issue 16, item 6: a write that fails midway (here a file-size limit, `ulimit -f`, with
/// SIGXFSZ ignored so the write returns EFBIG) left a truncated file where the good one was.
/// Every writer now writes beside its target and renames on success: the old file survives,
/// no temporary is left, and the error names the file.
#[test]
fn a_failed_write_leaves_the_old_file_whole() {
    let map = data("movingai/dao/den011d.map");
    let dir = temp("atomic");
    std::fs::create_dir_all(&dir).unwrap();
    let run_limited = |args: &str| {
        std::process::Command::new("bash")
            .arg("-c")
            .arg(format!(
                "trap '' XFSZ; ulimit -f 8; exec {} {args}",
                env!("CARGO_BIN_EXE_portolan")
            ))
            .output()
            .expect("bash runs")
    };
    let good = "the good file that was there before\n";
    let cases = [
        ("out.mesh", format!("build --map {map} -o")),
        ("out.json", format!("build --map {map} -o")),
        ("out.svg", format!("render --map {map} -o")),
        (
            "out.csv",
            format!("scen --map {map} --scen {map}.scen --csv"),
        ),
        ("eval.csv", "eval --maps 40 --no-timing --csv".to_owned()),
    ];
    for (name, command) in cases {
        let target = dir.join(name);
        std::fs::write(&target, good).unwrap();
        let out = run_limited(&format!("{command} {}", target.display()));
        assert_clean_failure(&out, name);
        assert_eq!(std::fs::read_to_string(&target).unwrap(), good, "{name}");
    }
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// An output path that cannot be written is an error naming it, before the work starts (it
/// was checked only after the build).
#[test]
fn an_unwritable_output_path_fails_first() {
    let target = temp("no-such-dir").join("deeper").join("out.mesh");
    let out = portolan(&[
        "build",
        "--map",
        &data("movingai/dao/brc202d.map"),
        "-o",
        target.to_str().unwrap(),
    ]);
    assert_clean_failure(&out, "out.mesh");
    assert!(!stderr(&out).contains("polygons"), "{}", stderr(&out));
}

/// Issue 16, item 10: `scen --expect euclidean` counted a query whose end is off the mesh as
/// a match when the file expects -1 (no path): bad input is not "no path".
#[test]
fn scen_counts_a_refused_query_as_a_mismatch_even_against_minus_one() {
    let mesh = data("polyanya/meshes/arena-merged.mesh");
    let scen = temp_file(
        "offmesh.scen",
        "version 1\n0\tarena.mesh\t49\t49\t-100\t-100\t5\t5\t-1\n",
    );
    let out = portolan(&[
        "scen",
        "--mesh",
        &mesh,
        "--scen",
        &scen,
        "--expect",
        "euclidean",
    ]);
    assert_clean_failure(&out, "1 of 1 lengths differ");
    assert!(
        stderr(&out).contains("not on the navigation mesh"),
        "{}",
        stderr(&out)
    );
}

/// Without `--expect`, a refused query still fails the run (after every query has run and the
/// CSV is written): bad input is not "no path".
#[test]
fn scen_fails_on_a_refused_query_after_writing_every_row() {
    let mesh = data("polyanya/meshes/arena-merged.mesh");
    let csv = temp("offmesh.csv");
    let scen = temp_file(
        "offmesh-plain.scen",
        "version 1\n0\tarena.mesh\t49\t49\t5\t5\t5\t5\t-1\n\
         1\tarena.mesh\t49\t49\t-100\t-100\t5\t5\t-1\n",
    );
    let out = portolan(&[
        "scen",
        "--mesh",
        &mesh,
        "--scen",
        &scen,
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_clean_failure(&out, "1 of 2 queries were refused (first: line 3:");
    assert!(
        stderr(&out).contains("not on the navigation mesh"),
        "{}",
        stderr(&out)
    );
    // Both queries are in the CSV, the refused one with length -1.
    let written = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(written.lines().count(), 3, "{written}");
}

/// `build --tile-size`: the map meshed tile by tile and stitched, a valid mesh of the same area
/// with more polygons (cut at the borders); a bad size is one clear line.
#[test]
fn build_with_tiles_writes_a_stitched_mesh() {
    let map = data("movingai/dao/den011d.map");
    let (whole, tiled) = (temp("den-whole.json"), temp("den-tiled.json"));
    assert!(build(["--map", &map], &whole, &[]).status.success());
    let o = build(["--map", &map], &tiled, &["--tile-size", "32"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let read = |p: &std::path::Path| -> NavMesh {
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    };
    let (a, b) = (read(&whole), read(&tiled));
    b.check_invariants().unwrap();
    assert_eq!(a.area(), b.area());
    assert!(b.polygon_count() > a.polygon_count());
    let o = build(["--map", &map], &tiled, &["--tile-size", "0"]);
    assert_clean_failure(&o, "tile_size");
}

/// Issue 11: `--search corner` answers every published query with the optimum, and
/// `--compare-exact` puts each query's excess in the CSV and the summary line on stderr.
#[test]
fn scen_corner_search_with_compare_exact() {
    let mesh = data("polyanya/meshes/scene_mp_2p_01.mesh");
    let scen = data("polyanya/meshes/scene_mp_2p_01.mesh.scen");
    let csv = temp("mp-corner.csv");
    let o = portolan(&[
        "scen",
        "--mesh",
        &mesh,
        "--scen",
        &scen,
        "--search",
        "corner",
        "--expect",
        "euclidean",
        "--tolerance",
        "1e-9",
        "--compare-exact",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("corner graph: 2093 corners"), "{err}");
    assert!(err.contains("mismatches: 0"), "{err}");
    assert!(
        err.contains("optimal 100.0%, mean excess 0.0000%, max excess 0.0000%, speed-up "),
        "{err}"
    );
    // The floor line: the time to locate both endpoints, and the most any speed-up could be.
    let floor = err
        .lines()
        .find_map(|l| l.strip_prefix("floor: locating both endpoints "))
        .unwrap_or_else(|| panic!("no floor line: {err}"));
    let (us, ceiling) = floor
        .split_once(" µs a query, the exact search's mean ")
        .and_then(|(us, rest)| Some((us.parse::<f64>().ok()?, rest.strip_suffix("× that")?)))
        .unwrap_or_else(|| panic!("floor line {floor:?}"));
    let ceiling: f64 = ceiling.parse().unwrap();
    assert!(us > 0.0 && ceiling > 1.0, "{floor}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("index,sx,sy,gx,gy,length,expected,us,expanded,exact,excess")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 2000);
    for r in &rows {
        let (length, exact, excess): (f64, f64, f64) = (
            r[5].parse().unwrap(),
            r[9].parse().unwrap(),
            r[10].parse().unwrap(),
        );
        assert!((length - exact).abs() <= 1e-9 * exact, "{r:?}");
        assert!(excess.abs() <= 1e-9, "{r:?}");
    }
    // --epsilon is the corner search's, finite and not negative.
    for (args, want) in [
        (
            &["--search", "exact", "--epsilon", "0.1"][..],
            "--epsilon applies to --search corner only",
        ),
        (
            &["--search", "corner", "--epsilon", "-1"],
            "--epsilon must be a finite number",
        ),
    ] {
        let o = portolan(&[&["scen", "--mesh", &mesh, "--scen", &scen][..], args].concat());
        assert_clean_failure(&o, want);
    }
}

/// `portolan scen --map MAP --scen SCEN --index INDEX` with `extra` flags.
fn scen_with_index(map: &str, scen: &str, index: &str, extra: &[&str]) -> Output {
    portolan(
        &[
            &["scen", "--map", map, "--scen", scen, "--index", index][..],
            extra,
        ]
        .concat(),
    )
}

/// `scen --no-channel` times the paths without their channels: on one index (a build's timed
/// fit can differ), every column but the times is the same as with them, for the corner search
/// and, with --compare-exact, the exact search. The index is built with `--no-time-limits`, so
/// it keeps its labels however busy the machine; the flag is refused where no graph is built.
#[test]
fn scen_without_channels_gives_the_same_answers() {
    let map = data("movingai/dao/den011d.map");
    let scen = data("movingai/dao/den011d.map.scen");
    let index = temp("den-channel.idx");
    let path = index.to_str().unwrap();
    let o = portolan(&["index", "--map", &map, "-o", path, "--no-time-limits"]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("label entries per corner"), "{err}");
    let columns = |extra: &[&str]| {
        let csv = temp(&format!("den-channel-{}.csv", extra.len()));
        let o = portolan(
            &[
                &["scen", "--map", &map, "--scen", &scen][..],
                &[
                    "--index",
                    index.to_str().unwrap(),
                    "--compare-exact",
                    "--csv",
                ],
                &[csv.to_str().unwrap()],
                extra,
            ]
            .concat(),
        );
        let err = stderr(&o);
        assert!(o.status.success(), "{err}");
        assert!(err.contains("optimal 100.0%"), "{err}");
        let text = std::fs::read_to_string(&csv).unwrap();
        // Every column but the times (`us`).
        text.lines()
            .map(|l| {
                let mut r: Vec<&str> = l.split(',').collect();
                r.remove(7);
                r.join(",")
            })
            .collect::<Vec<_>>()
    };
    // The graph is loaded, not built: no time limits to lift.
    let o = scen_with_index(&map, &scen, path, &["--no-time-limits"]);
    assert_clean_failure(
        &o,
        "--no-time-limits, --no-fit and --budget-mib apply to a corner graph built here",
    );
    // Built here, by `path`: lifted; with another search, refused.
    let query = ["path", "--map", &map, "--from", "104,99", "--to", "30,30"];
    let o = portolan(&[&query[..], &["--search", "corner", "--no-time-limits"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let o = portolan(&[&query[..], &["--search", "exact", "--no-time-limits"]].concat());
    assert_clean_failure(
        &o,
        "--no-time-limits, --no-fit and --budget-mib apply to a corner graph built here",
    );
    let (with, without) = (columns(&[]), columns(&["--no-channel"]));
    assert_eq!(with.len(), 781);
    let differ: Vec<_> = with.iter().zip(&without).filter(|(a, b)| a != b).collect();
    assert!(
        differ.is_empty(),
        "{} rows differ, first {:?}",
        differ.len(),
        differ[0]
    );
}

/// `--no-fit --no-time-limits` makes the index a function of the mesh alone: two builds write
/// the same bytes, the views answer every query (no plain search first), and every answer is
/// the optimum; `--no-fit` with a loaded index is refused like the other build flags.
#[test]
fn index_without_a_fit_is_the_same_file_every_time() {
    // (A map whose timed fit puts the plain search first below some distance.)
    let map = data("movingai/dao/brc202d.map");
    let scen = data("movingai/dao/brc202d.map.scen");
    let build = |name: &str| {
        let idx = temp(name);
        let path = idx.to_str().unwrap();
        let o = portolan(&[
            "index",
            "--map",
            &map,
            "-o",
            path,
            "--no-fit",
            "--no-time-limits",
        ]);
        let err = stderr(&o);
        assert!(o.status.success(), "{err}");
        assert!(err.contains("plain search first below 0.0"), "{err}");
        (std::fs::read(&idx).unwrap(), idx)
    };
    let (first, idx) = build("brc-nofit-1.idx");
    let (second, _) = build("brc-nofit-2.idx");
    assert!(first == second, "two builds differ");
    let path = idx.to_str().unwrap();
    let o = scen_with_index(&map, &scen, path, &["--compare-exact"]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("optimal 100.0%"), "{err}");
    let o = scen_with_index(&map, &scen, path, &["--no-fit"]);
    assert_clean_failure(
        &o,
        "--no-time-limits, --no-fit and --budget-mib apply to a corner graph built here",
    );
}

/// `--budget-mib` bounds the index built: a smaller budget gives a smaller file, which says the
/// budget and answers every query with the optimum; 0 leaves the corners alone (the plain
/// search); a budget that is not a finite number of MiB, 0 or more, is refused naming the flag.
#[test]
fn index_within_a_memory_budget() {
    let map = data("movingai/dao/den011d.map");
    let scen = data("movingai/dao/den011d.map.scen");
    let size = |mib: &str| {
        let idx = temp(&format!("den-budget-{mib}.idx"));
        let path = idx.to_str().unwrap();
        let o = portolan(&["index", "--map", &map, "-o", path, "--budget-mib", mib]);
        let err = stderr(&o);
        assert!(o.status.success(), "{err}");
        let kib: f64 = mib.parse::<f64>().unwrap() * 1024.0;
        assert!(err.contains(&format!("of a {kib:.0} KiB budget")), "{err}");
        let o = scen_with_index(&map, &scen, path, &["--compare-exact"]);
        let err = stderr(&o);
        assert!(o.status.success(), "{err}");
        assert!(err.contains("optimal 100.0%"), "{err}");
        let bytes = std::fs::metadata(&idx).unwrap().len() as f64;
        // (The file's header and checksum past the graph's memory; 0 keeps the corners.)
        assert!(
            kib == 0.0 || bytes <= kib * 1024.0 + 1024.0,
            "{mib} MiB: {bytes} bytes"
        );
        (bytes, err)
    };
    let (full, _) = size("8");
    let (half, _) = size("0.5");
    let (none, err) = size("0");
    assert!(none < half && half < full, "{none} {half} {full}");
    assert!(
        err.contains("0 edges, no labels; the plain search, no landmarks"),
        "{err}"
    );
    for bad in ["-1", "NaN", "inf", "1e300", "lots"] {
        let o = portolan(&["index", "--map", &map, "-o", "x.idx", "--budget-mib", bad]);
        assert_clean_failure(&o, "--budget-mib");
    }
}

/// Issue 15: `portolan index` saves the corner graph; `scen --index` loads it instead of
/// building it and answers every published query with the optimum; an index for another mesh,
/// a damaged one and `--index` with another search are one-line errors.
#[test]
fn index_then_scen_with_index() {
    let mesh = data("polyanya/meshes/scene_mp_2p_01.mesh");
    let scen = data("polyanya/meshes/scene_mp_2p_01.mesh.scen");
    let idx = temp("mp.idx");
    let o = portolan(&["index", "--mesh", &mesh, "-o", idx.to_str().unwrap()]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("corner graph: 2093 corners"), "{err}");
    let bytes = std::fs::read(&idx).unwrap();
    assert_eq!(&bytes[..8], b"PRTLNCG\0");
    let o = portolan(&[
        "scen",
        "--mesh",
        &mesh,
        "--scen",
        &scen,
        "--index",
        idx.to_str().unwrap(),
        "--expect",
        "euclidean",
        "--tolerance",
        "1e-9",
    ]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("loaded from"), "{err}");
    assert!(err.contains("mismatches: 0"), "{err}");
    // Another mesh: refused, naming both fingerprints.
    let other = data("polyanya/meshes/arena-merged.mesh");
    let o = portolan(&[
        "scen",
        "--mesh",
        &other,
        "--scen",
        &data("polyanya/scenarios/arena.scen"),
        "--index",
        idx.to_str().unwrap(),
    ]);
    assert_clean_failure(&o, "built for another mesh");
    // Refused before the CSV header: nothing on the standard output.
    assert!(
        o.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // Damaged: one byte changed.
    let mut damaged = bytes.clone();
    damaged[1000] ^= 1;
    let bad = temp("damaged.idx");
    std::fs::write(&bad, &damaged).unwrap();
    let o = portolan(&[
        "scen",
        "--mesh",
        &mesh,
        "--scen",
        &scen,
        "--index",
        bad.to_str().unwrap(),
    ]);
    assert_clean_failure(&o, "damaged");
    assert!(
        o.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // Another search with --index.
    let o = portolan(&[
        "scen",
        "--mesh",
        &mesh,
        "--scen",
        &scen,
        "--index",
        idx.to_str().unwrap(),
        "--search",
        "exact",
    ]);
    assert_clean_failure(&o, "--index is a corner graph");
}

/// `portolan gen-map` writes the library's seeded maps as `.map` files that `build --map` reads;
/// the same seed gives the same bytes; a bad parameter is a one-line error naming it.
#[test]
fn gen_map_writes_seeded_maps_that_build() {
    use portolan::io::movingai::{read_map, GridMap};
    use portolan::random_grid::{
        city_blocks_grid, random_blocked_grid, scattered_obstacles_grid, CityOptions,
        ScatterOptions,
    };
    // `gen-map ARGS -o NAME` (in the temporary directory): the file written, and its path.
    let generate = |name: &str, args: &[&str]| {
        let out = temp(name);
        let o = portolan(&[&["gen-map"], args, &["-o", out.to_str().unwrap()]].concat());
        assert!(o.status.success(), "{}", stderr(&o));
        (std::fs::read(&out).unwrap(), out)
    };
    let read = |bytes: &[u8]| -> GridMap { read_map(bytes).unwrap() };
    // `gen-map ARGS` refused, naming `field`.
    let refused = |args: &[&str], field: &str| {
        let never = temp("never.map");
        let o = portolan(&[&["gen-map"], args, &["-o", never.to_str().unwrap()]].concat());
        assert_clean_failure(&o, field);
    };

    let random = ["random", "--size", "48", "--density", "0.2", "--seed", "3"];
    let (bytes, _) = generate("gen-random.map", &random);
    let (again, _) = generate("gen-random-again.map", &random);
    assert_eq!(bytes, again);
    assert_eq!(read(&bytes), random_blocked_grid(48, 48, 0.2, 3).unwrap());

    let (_, maze) = generate("gen-maze.map", &["maze", "--width", "41", "--height", "21"]);
    let mesh = temp("gen-maze.mesh");
    let o = build(["--map", maze.to_str().unwrap()], &mesh, &[]);
    assert!(o.status.success(), "{}", stderr(&o));

    let city = ["city", "--size", "64", "--street", "2", "--seed", "5"];
    let (bytes, _) = generate("gen-city.map", &city);
    let want = city_blocks_grid(64, 64, &CityOptions::new(2, 8, 50), 5).unwrap();
    assert_eq!(read(&bytes), want);
    refused(&["city", "--street", "8"], "min_block");

    let scatter = [
        "scatter",
        "--size",
        "80",
        "--count",
        "12",
        "--max-radius",
        "9",
    ];
    let (bytes, _) = generate("gen-scatter.map", &scatter);
    let want = scattered_obstacles_grid(80, 80, &ScatterOptions::new(12, 3, 9), 1).unwrap();
    assert_eq!(read(&bytes), want);
    refused(&["scatter", "--min-radius", "0"], "min_radius");

    refused(&["random", "--density", "2"], "density");
}

/// `--snap DIST`: on a mesh built with an agent radius, a scenario's points near walls are off
/// the mesh; without `--snap` they are refused, with it every query is answered from the
/// nearest point of the mesh, the corner search and the exact search alike (the same snapped
/// query for both). A distance that is not one is a one-line error.
#[test]
fn scen_and_path_snap_ends_off_an_eroded_mesh() {
    let map = data("movingai/dao/den011d.map");
    let scen = data("movingai/dao/den011d.map.scen");
    let base = ["scen", "--map", &map, "--radius", "0.5", "--scen", &scen];
    let o = portolan(&base);
    assert_clean_failure(&o, "queries were refused");
    let o = portolan(
        &[
            &base[..],
            &["--search", "corner", "--compare-exact", "--snap", "3"],
        ]
        .concat(),
    );
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("queries:    780"), "{err}");
    assert!(
        err.contains("optimal 100.0%, mean excess 0.0000%, max excess 0.0000%"),
        "{err}"
    );
    // `path` too: a start half a cell from a wall.
    let path = [
        "path", "--map", &map, "--radius", "0.5", "--search", "exact",
    ];
    let ends = ["--from", "104,99", "--to", "30,30"];
    let o = portolan(&[&path[..], &ends].concat());
    assert_clean_failure(&o, "the start (104, 99) is not on the navigation mesh");
    let o = portolan(&[&path[..], &ends, &["--snap", "1"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    // `inf` snaps from anywhere: a start far off the map too.
    let far = ["--from", "-1000,99", "--to", "30,30", "--snap", "inf"];
    let o = portolan(&[&path[..], &far].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    for bad in ["-1", "NaN", "-inf"] {
        let o = portolan(&[&base[..], &["--snap", bad]].concat());
        assert_clean_failure(&o, "--snap must be a distance ≥ 0 (or inf, any distance)");
    }
}

/// `--arc-error` reaches the builder: on den011d with a radius of half a cell, 0.3 (one chord
/// per grid corner) gives fewer polygons than the default 1%, and every answer of the scenario is
/// still the shortest on its own mesh; a value outside [1e-6, 1] is refused with the option's name;
/// a --mesh takes no build flags.
#[test]
fn arc_error_coarsens_the_rounded_corners() {
    let map = data("movingai/dao/den011d.map");
    let polygons = |extra: &[&str]| -> usize {
        let out = temp("arc-error.json");
        let o = build(
            ["--map", &map],
            &out,
            &[&["--radius", "0.5"][..], extra].concat(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let mesh: NavMesh = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
        mesh.polygon_count()
    };
    let (fine, coarse) = (polygons(&[]), polygons(&["--arc-error", "0.3"]));
    assert!(coarse < fine, "{coarse} polygons against {fine}");
    let scen = data("movingai/dao/den011d.map.scen");
    let o = portolan(&[
        "scen",
        "--map",
        &map,
        "--scen",
        &scen,
        "--radius",
        "0.5",
        "--arc-error",
        "0.3",
        "--snap",
        "3",
        "--search",
        "corner",
        "--compare-exact",
    ]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("optimal 100.0%, mean excess 0.0000%, max excess 0.0000%"),
        "{err}"
    );
    let out = temp("arc-error-bad.json");
    // (1e-300 once looped, adding chords until the system killed the build.)
    for bad in ["0", "1.5", "-0.1", "NaN", "1e-300", "9e-7"] {
        let o = build(
            ["--map", &map],
            &out,
            &["--radius", "0.5", "--arc-error", bad],
        );
        assert_clean_failure(&o, "build option arc_error");
        assert!(!out.exists(), "a mesh written for {bad}");
    }
    let mesh = data("polyanya/meshes/arena-merged.mesh");
    let o = portolan(&["path", "--mesh", &mesh, "--arc-error", "0.3"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--arc-error"), "{}", stderr(&o));
}

/// `--repeat N` runs each query N times in a row and keeps its least time; the answers are the
/// same as one run's, with `--compare-exact` too; 0 runs is refused.
#[test]
fn scen_repeat_answers_as_one_run_does() {
    let mesh = data("polyanya/meshes/arena-merged.mesh");
    let scen = data("polyanya/scenarios/arena.scen");
    let lengths = |extra: &[&str], name: &str| -> Vec<String> {
        let csv = temp(name);
        let path = csv.to_str().unwrap();
        let args = ["scen", "--mesh", &mesh, "--scen", &scen, "--csv", path];
        let o = portolan(&[&args[..], extra].concat());
        let err = stderr(&o);
        assert!(o.status.success(), "{err}");
        assert!(err.contains("queries:    160"), "{err}");
        csv_column(&csv, "length")
    };
    let once = lengths(&[], "repeat-1.csv");
    assert_eq!(once.len(), 160);
    assert_eq!(lengths(&["--repeat", "3"], "repeat-3.csv"), once);
    assert_eq!(
        lengths(&["--repeat", "2", "--compare-exact"], "repeat-2x.csv"),
        once
    );
    let o = portolan(&["scen", "--mesh", &mesh, "--scen", &scen, "--repeat", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--repeat"), "{}", stderr(&o));
}
