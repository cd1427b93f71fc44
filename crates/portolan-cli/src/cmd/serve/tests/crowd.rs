//! Crowd sessions (`/api/crowd`): a real server on port 0, as the parent module's tests.

use super::*;
use crate::cmd::serve::api::Limits;
use portolan::{Decomposition, NavMesh};

/// The mesh the server's crowds of radius `r` move on for `scene`.
fn crowd_mesh(scene: &Scene, r: f64) -> NavMesh {
    let mut o = BuildOptions::default().with_agent_radius(r);
    o.decomposition = Decomposition::CdtMerged;
    build(scene, &o).unwrap()
}

fn flat(v: &Value) -> Vec<Vec2> {
    let a: Vec<f64> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert_eq!(a.len() % 2, 0);
    a.chunks(2).map(|c| Vec2::new(c[0], c[1])).collect()
}

/// Every point on `mesh` (within the f32 rounding of the answer).
fn assert_on_mesh(mesh: &NavMesh, points: &[Vec2]) {
    for (i, &p) in points.iter().enumerate() {
        assert!(
            mesh.nearest_point(p, 1e-3).is_some(),
            "agent {i} at {p} is off the crowd's mesh"
        );
    }
}

/// Largest overlap of two agents of radius `r`, as a fraction of the sum of their radii.
fn max_overlap(points: &[Vec2], r: f64) -> f64 {
    let mut worst: f64 = 0.0;
    for i in 0..points.len() {
        for j in i + 1..points.len() {
            worst = worst.max((2.0 * r - points[i].distance(points[j])) / (2.0 * r));
        }
    }
    worst
}

fn create(addr: SocketAddr, body: &Value) -> Value {
    let a = post(addr, "/api/crowd", body);
    assert_eq!(a.status, 200, "{}", String::from_utf8_lossy(&a.body));
    a.json()
}

#[test]
fn a_crowd_is_made_on_the_world_steps_and_is_deleted() {
    let srv = server();
    let addr = srv.addr();
    let c = create(addr, &json!({"agents": 50, "seed": 7}));
    let id = c["crowd"].as_u64().unwrap();
    assert_eq!(c["agents"], 50);
    assert_eq!(
        (c["radius"].as_f64(), c["speed"].as_f64()),
        (Some(3.0), Some(40.0))
    );
    assert_eq!(c["ids"].as_array().unwrap().len(), 50);
    assert_eq!(
        (c["steps"].as_u64(), c["time"].as_f64()),
        (Some(0), Some(0.0))
    );
    let dt = c["dt"].as_f64().unwrap();
    // An agent moves at most 0.15 radius per step.
    assert!((dt - 0.15 * 3.0 / 40.0).abs() < 1e-12, "dt {dt}");
    let mesh = crowd_mesh(&Scene::default_map(), 3.0);
    let start = flat(&c["positions"]);
    let goals = flat(&c["goals"]);
    assert_eq!((start.len(), goals.len()), (50, 50));
    assert_on_mesh(&mesh, &start);
    assert_on_mesh(&mesh, &goals);
    // Starts 2.4 radii apart, and so are goals.
    for pts in [&start, &goals] {
        for i in 0..pts.len() {
            for j in i + 1..pts.len() {
                assert!(pts[i].distance(pts[j]) >= 2.4 * 3.0 - 1e-3);
            }
        }
    }

    let mut last = start.clone();
    for k in 1..=5 {
        let a = post(
            addr,
            &format!("/api/crowd/{id}/step"),
            &json!({"steps": 40}),
        );
        assert_eq!(a.status, 200);
        let s = a.json();
        assert_eq!(s["crowd"], id);
        assert_eq!(s["ran"], 40);
        assert_eq!(s["steps"], 40 * k);
        assert!((s["time"].as_f64().unwrap() - 40.0 * k as f64 * dt).abs() < 1e-9);
        assert!(s["step_ms"].as_f64().unwrap() > 0.0);
        assert!(
            s.get("goals").is_none(),
            "step answers carry positions only"
        );
        let now = flat(&s["positions"]);
        assert_on_mesh(&mesh, &now);
        assert!(max_overlap(&now, 3.0) <= 0.05, "overlap beyond 5%");
        last = now;
    }
    let moved = start
        .iter()
        .zip(&last)
        .map(|(a, b)| a.distance(*b))
        .fold(0.0, f64::max);
    assert!(moved > 10.0, "agents moved ({moved})");

    let g = get(addr, &format!("/api/crowd/{id}")).json();
    assert_eq!(
        flat(&g["positions"]),
        last,
        "GET answers the state without stepping"
    );
    assert_eq!(g["steps"], 200);

    assert_eq!(
        send(addr, "DELETE", &format!("/api/crowd/{id}"), b"").status,
        200
    );
    post(addr, &format!("/api/crowd/{id}/step"), &json!({})).assert_error(404, "unknown-crowd");
    srv.shutdown();
}

#[test]
fn the_circle_scenario_reaches_its_antipodes_without_overlaps() {
    let srv = server();
    let addr = srv.addr();
    let c = create(addr, &json!({"agents": 40, "scenario": "circle"}));
    let id = c["crowd"].as_u64().unwrap();
    let start = flat(&c["positions"]);
    let goals = flat(&c["goals"]);
    let b = Scene::default_map().bounds;
    let centre = (b.min + b.max) * 0.5;
    for (s, g) in start.iter().zip(&goals) {
        // Antipodes about the centre of the bounds (to the answer's f32 rounding).
        assert!((*s + *g - centre * 2.0).length() < 1e-3, "{s} and {g}");
    }
    let mut arrived = false;
    let mut answers = 0;
    while !arrived && answers < 40 {
        let s = post(
            addr,
            &format!("/api/crowd/{id}/step"),
            &json!({"steps": 200}),
        )
        .json();
        answers += 1;
        let now = flat(&s["positions"]);
        assert!(
            max_overlap(&now, 3.0) <= 0.05,
            "overlap beyond 5% after {answers} answers"
        );
        arrived = now.iter().zip(&goals).all(|(p, g)| p.distance(*g) <= 3.0);
        if arrived {
            assert_eq!(s["arrived"], 40);
        }
    }
    assert!(
        arrived,
        "all 40 agents at their antipodes after {answers} × 200 steps"
    );
    srv.shutdown();
}

#[test]
fn sending_agents_spreads_their_goals_and_leaves_the_others() {
    let srv = server();
    let addr = srv.addr();
    let c = create(addr, &json!({"agents": 30}));
    let id = c["crowd"].as_u64().unwrap();
    let before = flat(&c["goals"]);
    let ids: Vec<u64> = c["ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let chosen: Vec<u64> = ids.iter().copied().step_by(2).collect();
    let target = Scene::DEFAULT_GOAL;
    let a = post(
        addr,
        &format!("/api/crowd/{id}/goal"),
        &json!({"agents": chosen, "goal": target}),
    );
    assert_eq!(a.status, 200, "{}", String::from_utf8_lossy(&a.body));
    let v = a.json();
    assert_eq!(v["sent"], chosen.len());
    let after = flat(&v["goals"]);
    let mesh = crowd_mesh(&Scene::default_map(), 3.0);
    assert_on_mesh(&mesh, &after);
    let mut sent = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        if chosen.contains(id) {
            assert!(after[i].distance(target) < 60.0, "{id} sent near the point");
            sent.push(after[i]);
        } else {
            assert_eq!(after[i], before[i], "{id} kept its goal");
        }
    }
    // Spread: every sent agent has a place of its own, 3 radii apart.
    assert!(
        max_overlap(&sent, 4.5) <= 1e-3,
        "spread goals 3 radii apart"
    );
    // Everybody to one point, unspread.
    let v = post(
        addr,
        &format!("/api/crowd/{id}/goal"),
        &json!({"goal": target, "spread": false}),
    )
    .json();
    assert_eq!(v["sent"], 30);
    assert!(flat(&v["goals"]).iter().all(|g| g.distance(target) < 1e-3));
    srv.shutdown();
}

#[test]
fn bad_crowd_requests_get_typed_errors_and_change_nothing() {
    let srv = server();
    let addr = srv.addr();
    let c = create(addr, &json!({"agents": 10}));
    let id = c["crowd"].as_u64().unwrap();
    let goals = flat(&c["goals"]);
    let step = format!("/api/crowd/{id}/step");
    let goal = format!("/api/crowd/{id}/goal");
    let raw_post = |path: &str, body: &str| send(addr, "POST", path, body.as_bytes());

    // Unknown crowd, on every route.
    post(addr, "/api/crowd/999/step", &json!({})).assert_error(404, "unknown-crowd");
    post(addr, "/api/crowd/999/goal", &json!({"goal": [40, 60]}))
        .assert_error(404, "unknown-crowd");
    get(addr, "/api/crowd/999").assert_error(404, "unknown-crowd");
    send(addr, "DELETE", "/api/crowd/999", b"").assert_error(404, "unknown-crowd");
    get(addr, "/api/crowd/x").assert_error(404, "not-found");
    let a = get(addr, &step);
    a.assert_error(405, "method-not-allowed");
    assert_eq!(a.header("allow"), Some("POST"));

    // NaN and infinities cannot be written in JSON: refused by the parser.
    raw_post("/api/crowd", r#"{"agents": 5, "radius": NaN}"#).assert_error(400, "bad-json");
    raw_post(&goal, r#"{"goal": [NaN, 1]}"#).assert_error(400, "bad-json");
    raw_post(&goal, r#"{"goal": [1e999, 1]}"#).assert_error(400, "bad-json");
    raw_post(&step, r#"{"steps": 1, "dt": 1e999}"#).assert_error(400, "bad-json");
    post(addr, "/api/crowd", &json!({"agents": 5, "colour": "red"})).assert_error(400, "bad-json");
    post(
        addr,
        "/api/crowd",
        &json!({"agents": 5, "scenario": "bottleneck"}),
    )
    .assert_error(400, "bad-json");

    // Values out of range.
    post(addr, "/api/crowd", &json!({"agents": 0})).assert_error(400, "bad-agents");
    let v = post(
        addr,
        "/api/crowd",
        &json!({"agents": Limits::default().max_crowd_agents + 1}),
    )
    .assert_error(413, "over-budget");
    assert_eq!(v["limit"], "max_crowd_agents");
    // (It once said "the scene is over the work budget".)
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("the crowd request is over"),
        "{v}"
    );
    post(addr, "/api/crowd", &json!({"agents": 5, "radius": -1})).assert_error(400, "bad-radius");
    let e =
        post(addr, "/api/crowd", &json!({"agents": 5, "speed": 0})).assert_error(400, "bad-speed");
    // (It once said "max speed 0 is negative".)
    assert_eq!(
        e["error"],
        "speed 0 must be > 0: a crowd's agents must be able to move"
    );
    post(addr, "/api/crowd", &json!({"agents": 5, "speed": -3})).assert_error(400, "bad-speed");
    let v = post(
        addr,
        "/api/crowd",
        &json!({"agents": 3000, "scenario": "circle"}),
    )
    .assert_error(422, "no-room");
    assert!(v["placed"].as_u64().unwrap() > 0 && v["placed"].as_u64().unwrap() < 3000);
    // Random placement too (`crowd::scenarios::random_pairs`): 1,000 agents 48 units apart do
    // not fit the 800 × 450 map; point agents (radius 0) fit anywhere.
    let v = post(addr, "/api/crowd", &json!({"agents": 1000, "radius": 20}))
        .assert_error(422, "no-room");
    assert!(v["placed"].as_u64().unwrap() > 0 && v["placed"].as_u64().unwrap() < 1000);
    let points = create(addr, &json!({"agents": 20, "radius": 0}));
    assert_eq!(flat(&points["positions"]).len(), 20);
    for steps in [0, Limits::default().max_crowd_steps + 1] {
        let v = post(addr, &step, &json!({"steps": steps})).assert_error(413, "over-budget");
        assert_eq!(v["limit"], "max_crowd_steps");
    }
    post(addr, &step, &json!({"steps": 1, "dt": -0.1})).assert_error(400, "bad-dt");
    post(addr, &step, &json!({"steps": 1, "dt": 0})).assert_error(400, "bad-dt");

    // An unknown agent among known ones: nobody is sent.
    let v = post(
        addr,
        &goal,
        &json!({"agents": [0, 1, 77], "goal": Scene::DEFAULT_GOAL}),
    )
    .assert_error(422, "unknown-agent");
    assert!(v["error"].as_str().unwrap().contains("agent 77"), "{v}");
    // A goal inside an obstacle, or off the map, without snapping; a negative snap.
    let (_, inside) = interior_obstacle();
    post(addr, &goal, &json!({"goal": inside})).assert_error(422, "goal-off-mesh");
    post(addr, &goal, &json!({"goal": [-500, -500]})).assert_error(422, "goal-off-mesh");
    post(addr, &goal, &json!({"goal": inside, "snap": -1})).assert_error(400, "bad-snap");
    let g = get(addr, &format!("/api/crowd/{id}")).json();
    assert_eq!(flat(&g["goals"]), goals, "no failed request changed a goal");
    assert_eq!(g["steps"], 0, "no failed request ran a step");
    // With snapping, the goal in the obstacle is moved onto the mesh.
    let v = post(
        addr,
        &goal,
        &json!({"goal": inside, "snap": 200, "spread": false}),
    )
    .json();
    let mesh = crowd_mesh(&Scene::default_map(), 3.0);
    assert_on_mesh(&mesh, &flat(&v["goals"]));
    assert_alive(addr);
    srv.shutdown();
}

#[test]
fn crowds_are_bounded_in_number_and_expire_when_idle() {
    let limits = Limits {
        max_crowds: 2,
        crowd_idle_timeout: Duration::from_millis(1500),
        ..Limits::default()
    };
    let srv = server_with(limits);
    let addr = srv.addr();
    let caps = get(addr, "/api/scene").json();
    let l = &caps["capabilities"]["limits"];
    assert_eq!(l["max_crowds"], 2);
    assert_eq!(l["crowd_idle_timeout_ms"], 1500);
    assert_eq!(l["max_crowd_agents"], Limits::default().max_crowd_agents);
    assert_eq!(l["max_crowd_steps"], Limits::default().max_crowd_steps);
    let a = create(addr, &json!({"agents": 3}))["crowd"]
        .as_u64()
        .unwrap();
    let b = create(addr, &json!({"agents": 3}))["crowd"]
        .as_u64()
        .unwrap();
    assert_ne!(a, b);
    // Both in use: no room for a third.
    post(addr, "/api/crowd", &json!({"agents": 3})).assert_error(429, "too-many-crowds");
    // Idle past the timeout, both are dropped; a new one fits.
    std::thread::sleep(Duration::from_millis(1700));
    post(addr, &format!("/api/crowd/{a}/step"), &json!({})).assert_error(404, "unknown-crowd");
    let c = create(addr, &json!({"agents": 3}))["crowd"]
        .as_u64()
        .unwrap();
    assert!(c > b, "ids are not reused");
    srv.shutdown();
}

#[test]
fn a_crowd_follows_scene_edits_onto_the_new_mesh() {
    let srv = server();
    let addr = srv.addr();
    let c = create(addr, &json!({"agents": 200, "seed": 3}));
    let id = c["crowd"].as_u64().unwrap();
    assert_eq!(c["revision"], 1);
    // A block over the middle of the map, on top of agents standing there (CDT takes overlaps).
    let mut scene = Scene::default_map();
    let b = scene.bounds;
    let m = (b.min + b.max) * 0.5;
    let block: Vec<Vec2> = [(-60.0, -60.0), (60.0, -60.0), (60.0, 60.0), (-60.0, 60.0)]
        .iter()
        .map(|&(x, y)| m + Vec2::new(x, y))
        .collect();
    scene.obstacles.push(block.clone());
    let before = flat(&c["positions"]);
    assert!(
        before
            .iter()
            .any(|p| (p.x - m.x).abs() < 57.0 && (p.y - m.y).abs() < 57.0),
        "some agent stands where the block goes"
    );
    let a = post(
        addr,
        "/api/scene",
        &json!({"scene": scene, "build": {"decomposition": "cdt-merged"}}),
    );
    assert_eq!(a.status, 200, "{}", String::from_utf8_lossy(&a.body));
    let s = post(addr, &format!("/api/crowd/{id}/step"), &json!({"steps": 1})).json();
    assert_eq!(s["revision"], 2);
    let now = flat(&s["positions"]);
    assert_on_mesh(&crowd_mesh(&scene, 3.0), &now);
    assert!(
        now.iter()
            .all(|p| (p.x - m.x).abs() >= 60.0 || (p.y - m.y).abs() >= 60.0),
        "nobody is left inside the block"
    );
    srv.shutdown();
}

#[test]
fn a_crowd_follows_tiled_edits_and_doors_onto_the_new_mesh() {
    let srv = server();
    let addr = srv.addr();
    let c = create(addr, &json!({"agents": 200, "seed": 3}));
    let id = c["crowd"].as_u64().unwrap();
    let scene = Scene::default_map();
    let b = scene.bounds;
    let m = (b.min + b.max) * 0.5;
    assert!(
        crowd_mesh(&scene, 3.0).locate(m).polygon().is_some(),
        "the centre is free before the door"
    );
    let door: Vec<Vec2> = [(-60.0, -60.0), (60.0, -60.0), (60.0, 60.0), (-60.0, 60.0)]
        .iter()
        .map(|&(x, y)| m + Vec2::new(x, y))
        .collect();
    let send_to_centre = || {
        post(
            addr,
            &format!("/api/crowd/{id}/goal"),
            &json!({"agents": [0], "goal": m, "spread": false}),
        )
    };
    let step = || {
        let s = post(addr, &format!("/api/crowd/{id}/step"), &json!({"steps": 1}));
        assert_eq!(s.status, 200, "{}", String::from_utf8_lossy(&s.body));
        s.json()
    };
    // Tiled mode, then a closed door over the middle of the map (on top of agents standing
    // there): the tiled edit is a new revision, and the next step moves the crowd off the door.
    let t = post(addr, "/api/tiles", &json!({"tile_size": 64}));
    assert_eq!(t.status, 200, "{}", String::from_utf8_lossy(&t.body));
    let a = post(
        addr,
        "/api/tiles/add",
        &json!({"shape": door, "door": true}),
    );
    assert_eq!(a.status, 200, "{}", String::from_utf8_lossy(&a.body));
    let a = a.json();
    let door_id = a["obstacle"].as_u64().unwrap();
    let closed = a["scene"]["revision"].as_u64().unwrap();
    let s = step();
    assert_eq!(s["revision"].as_u64(), Some(closed));
    let mut with_door = scene.clone();
    with_door.obstacles.push(door.clone());
    assert_on_mesh(&crowd_mesh(&with_door, 3.0), &flat(&s["positions"]));
    assert!(
        flat(&s["positions"])
            .iter()
            .all(|p| (p.x - m.x).abs() >= 60.0 || (p.y - m.y).abs() >= 60.0),
        "nobody is left inside the closed door"
    );
    send_to_centre().assert_error(422, "goal-off-mesh");
    // Opening the door (another tiled edit) gives the crowd the ground back.
    let a = post(
        addr,
        "/api/tiles/door",
        &json!({"id": door_id, "open": true}),
    );
    assert_eq!(a.status, 200, "{}", String::from_utf8_lossy(&a.body));
    let open = a.json()["scene"]["revision"].as_u64().unwrap();
    assert!(open > closed);
    assert_eq!(step()["revision"].as_u64(), Some(open));
    let g = send_to_centre();
    assert_eq!(g.status, 200, "{}", String::from_utf8_lossy(&g.body));
    srv.shutdown();
}

/// `"search"` picks how a crowd plans; the answers say it, and with `"corner"` whether the
/// crowd's mesh has its graph, built again after a scene edit. A graph past its timeout is
/// `422 over-budget` at creation and makes no crowd; a value that is no search is `bad-json`.
#[test]
fn a_crowd_plans_with_the_search_asked_for() {
    let srv = server();
    let addr = srv.addr();
    let c = create(addr, &json!({"agents": 30, "seed": 2}));
    assert_eq!(
        (c["search"].as_str(), c.get("graph")),
        (Some("funnel"), None)
    );
    let c = create(addr, &json!({"agents": 30, "seed": 2, "search": "exact"}));
    assert_eq!(
        (c["search"].as_str(), c.get("graph")),
        (Some("exact"), None)
    );
    let c = create(addr, &json!({"agents": 30, "seed": 2, "search": "corner"}));
    assert_eq!(
        (c["search"].as_str(), c["graph"].as_bool()),
        (Some("corner"), Some(true))
    );
    let id = c["crowd"].as_u64().unwrap();
    let step = format!("/api/crowd/{id}/step");
    let s = post(addr, &step, &json!({"steps": 20})).json();
    assert_eq!(
        (s["ran"].as_u64(), s["replans"].as_u64()),
        (Some(20), Some(30))
    );
    assert_on_mesh(
        &crowd_mesh(&Scene::default_map(), 3.0),
        &flat(&s["positions"]),
    );
    // A scene edit: the crowd's new mesh gets its own graph.
    let mut scene = Scene::default_map();
    let m = (scene.bounds.min + scene.bounds.max) * 0.5;
    scene.obstacles.push(
        [(-20.0, -20.0), (20.0, -20.0), (20.0, 20.0), (-20.0, 20.0)]
            .iter()
            .map(|&(x, y)| m + Vec2::new(x, y))
            .collect(),
    );
    let a = post(
        addr,
        "/api/scene",
        &json!({"scene": scene, "build": {"decomposition": "cdt-merged"}}),
    );
    assert_eq!(a.status, 200, "{}", String::from_utf8_lossy(&a.body));
    let s = post(addr, &step, &json!({"steps": 1})).json();
    assert_eq!(
        (s["revision"].as_u64(), s["graph"].as_bool()),
        (Some(2), Some(true))
    );
    post(addr, "/api/crowd", &json!({"agents": 5, "search": "fast"})).assert_error(400, "bad-json");
    srv.shutdown();

    let srv = server_with(Limits {
        corner_graph_timeout: Duration::ZERO,
        ..Limits::default()
    });
    let addr = srv.addr();
    let e = post(
        addr,
        "/api/crowd",
        &json!({"agents": 5, "search": "corner"}),
    );
    e.assert_error(422, "over-budget");
    assert_eq!(e.json()["limit"], "corner_graph_timeout_ms");
    // No session was made: the first crowd made now is number 0.
    assert_eq!(create(addr, &json!({"agents": 5}))["crowd"], 0);
    srv.shutdown();
}
