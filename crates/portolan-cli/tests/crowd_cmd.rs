//! `portolan crowd`: the summary's fields, the trace and the SVG, and clean failures.

mod common;

use common::{assert_clean_failure, data, portolan, stderr, temp};

#[test]
fn crowd_prints_json_writes_trace_and_svg() {
    let trace = temp("crowd.csv");
    let svg = temp("crowd.svg");
    let o = portolan(&[
        "crowd",
        "--scenario",
        "circle",
        "--agents",
        "40",
        "--steps",
        "3000",
        "--seed",
        "5",
        "--json",
        "--trace",
        trace.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for key in [
        "agents",
        "steps",
        "arrived",
        "max_overlap_ratio",
        "left_mesh",
        "mean_step_ms",
        "p99_step_ms",
        "sim_seconds_to_all_arrived",
    ] {
        assert!(v.get(key).is_some(), "{key} missing: {v}");
    }
    assert_eq!(v["agents"], 40);
    assert_eq!(v["arrived"], 40);
    assert_eq!(v["left_mesh"], 0);
    assert!(v["max_overlap_ratio"].as_f64().unwrap() <= 0.05);
    let steps = v["steps"].as_u64().unwrap();
    assert!(steps < 3000, "stops once all arrived");
    let dt = v["dt"].as_f64().unwrap();
    let t = v["sim_seconds_to_all_arrived"].as_f64().unwrap();
    assert!((t - steps as f64 * dt).abs() < 1e-9);
    let csv = std::fs::read_to_string(&trace).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("step,agent,x,y,radius"));
    assert_eq!(lines.count() as u64, steps * 40);
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg") && picture.matches("<polyline").count() == 40);
}

#[test]
fn crowd_runs_random_on_a_map() {
    let o = portolan(&[
        "crowd",
        "--scenario",
        "random",
        "--map",
        &data("movingai/dao/arena.map"),
        "--agents",
        "30",
        "--steps",
        "50",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("random with 30 agents") && out.contains("0 positions off the mesh"),
        "{out}"
    );
}

#[test]
fn crowd_refuses_bad_arguments_in_one_line() {
    let o = portolan(&["crowd", "--scenario", "line", "--agents", "3"]);
    assert_clean_failure(&o, "unknown scenario");
    let map = data("movingai/dao/arena.map");
    let o = portolan(&["crowd", "--scenario", "circle", "--map", &map]);
    assert_clean_failure(&o, "random scenario only");
    let o = portolan(&["crowd", "--scenario", "circle", "--agents", "0"]);
    assert_clean_failure(&o, "--agents");
    let o = portolan(&["crowd", "--scenario", "circle", "--dt=-1"]);
    assert_clean_failure(&o, "--dt");
    // Past the scenarios' bound: refused at once (before the bound, 2 x 10^10 draws).
    let o = portolan(&[
        "crowd",
        "--scenario",
        "random",
        "--map",
        &map,
        "--agents",
        "100000000",
    ]);
    assert_clean_failure(&o, "at most 65536");
}

/// `--search` picks how agents plan; the summary names it, and a corner run says how long its
/// graph took to build. Every run on arena arrives.
#[test]
fn crowd_plans_with_the_search_asked_for() {
    let map = data("movingai/dao/arena.map");
    let run = |search: &str, more: &[&str]| {
        let mut args = vec![
            "crowd",
            "--scenario",
            "random",
            "--map",
            &map,
            "--search",
            search,
        ];
        args.extend_from_slice(more);
        portolan(&args)
    };
    for search in ["funnel", "exact", "corner"] {
        let o = run(search, &["--agents", "20", "--steps", "4000", "--json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["search"], search);
        assert_eq!(v["graph_build_ms"].is_number(), search == "corner", "{v}");
        assert_eq!(v["arrived"], 20, "{search}: {v}");
        assert!(v["mean_arrival_s"].as_f64().unwrap() > 0.0);
    }
    assert_clean_failure(&run("fast", &[]), "--search");
}
