//! Tiled mode (`/api/tiles...`): a real server, spoken to over TCP as in the parent module.

use super::*;
use portolan::build::tiles::{build_tiled, TileGrid};
use portolan::geom::Aabb;
use std::collections::BTreeSet;

const TILE: f64 = 64.0;

/// Enters tiled mode with tiles of side [`TILE`]; the answer.
fn enter(addr: SocketAddr) -> Value {
    let a = post(addr, "/api/tiles", &json!({ "tile_size": TILE }));
    assert_eq!(a.status, 200, "{}", String::from_utf8_lossy(&a.body));
    a.json()
}

/// The tiles whose rectangle shares interior with the ring's box (`strict`) or at least a point
/// (`loose`): the tiles an obstacle of that shape is placed on lie between the two.
fn touched(grid: &TileGrid, ring: &[Vec2]) -> (BTreeSet<usize>, BTreeSet<usize>) {
    let b = Aabb::from_points(ring.iter().copied()).unwrap();
    let (mut strict, mut loose) = (BTreeSet::new(), BTreeSet::new());
    for j in 0..grid.rows() {
        for i in 0..grid.columns() {
            let t = grid.tile_bounds(i, j);
            let k = j * grid.columns() + i;
            if t.min.x < b.max.x && b.min.x < t.max.x && t.min.y < b.max.y && b.min.y < t.max.y {
                strict.insert(k);
            }
            if t.min.x <= b.max.x && b.min.x <= t.max.x && t.min.y <= b.max.y && b.min.y <= t.max.y
            {
                loose.insert(k);
            }
        }
    }
    (strict, loose)
}

/// Asserts that an edit rebuilt exactly the tiles the shapes touch (before and after it).
fn assert_rebuilt(answer: &Value, shapes: &[&[Vec2]]) {
    let grid = TileGrid::new(Scene::default_map().bounds, TILE).unwrap();
    let got: BTreeSet<usize> = answer["update"]["tiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_u64().unwrap() as usize)
        .collect();
    let (mut strict, mut loose) = (BTreeSet::new(), BTreeSet::new());
    for s in shapes {
        let (a, b) = touched(&grid, s);
        strict.extend(a);
        loose.extend(b);
    }
    assert!(
        strict.is_subset(&got) && got.is_subset(&loose),
        "rebuilt {got:?}, touched {strict:?} (at most {loose:?})"
    );
    assert!(got.len() < grid.columns() * grid.rows());
    let u = &answer["update"];
    let ms = u["update_ms"].as_f64().unwrap();
    assert!(ms > 0.0 && ms.is_finite(), "{u}");
    let sum = u["rebuild_ms"].as_f64().unwrap() + u["publish_ms"].as_f64().unwrap();
    assert!((ms - sum).abs() < 1e-9, "{u}");
    assert_eq!(answer["scene"]["build_ms"].as_f64().unwrap(), ms);
}

/// The exact shortest length of the default query on the server.
fn exact_length(addr: SocketAddr) -> f64 {
    let mut q = default_query();
    q["method"] = json!("exact");
    let a = post(addr, "/api/path", &q);
    assert_eq!(a.status, 200);
    a.json()["length"].as_f64().unwrap()
}

/// The exact shortest length of the default query on a tiled mesh of `scene` built from
/// scratch.
// Field by field: `SearchOptions` is to become `#[non_exhaustive]` (issue 14).
#[allow(clippy::field_reassign_with_default)]
fn scratch_length(scene: &Scene) -> f64 {
    let mesh = build_tiled(scene, &BuildOptions::cdt(), TILE).unwrap();
    let mut o = SearchOptions::default();
    o.method = SearchMethod::Exact;
    PathFinder::new()
        .find_path(&mesh, Scene::DEFAULT_START, Scene::DEFAULT_GOAL, &o)
        .unwrap()
        .length
}

fn shape(v: &Value) -> Vec<Vec2> {
    pts(v)
}

#[test]
fn tiled_edits_rebuild_only_the_touched_tiles_and_match_a_build_from_scratch() {
    let srv = server();
    let addr = srv.addr();
    let start = enter(addr);
    let scene = &start["scene"];
    assert_eq!(scene["revision"], 2);
    assert!(start["update"].is_null());
    let t = &scene["tiles"];
    let grid = TileGrid::new(Scene::default_map().bounds, TILE).unwrap();
    assert_eq!(t["tile_size"], TILE);
    assert_eq!(t["columns"], grid.columns());
    assert_eq!(t["rows"], grid.rows());
    assert_points(&json!([t["origin"]]), &[Scene::default_map().bounds.min]);
    assert_eq!(t["static_obstacles"], 0);
    // Every obstacle of the map became a dynamic one, ids from 1, none a door.
    let n = Scene::default_map().obstacles.len();
    let obstacles = t["obstacles"].as_array().unwrap();
    assert_eq!(obstacles.len(), n);
    for (k, o) in obstacles.iter().enumerate() {
        assert_eq!(o["id"], k as u64 + 1);
        assert_eq!(
            (o["door"].clone(), o["open"].clone()),
            (json!(false), json!(false))
        );
        assert_eq!(shape(&o["shape"]), Scene::default_map().obstacles[k]);
    }
    assert_eq!(scene["build"]["decomposition"], "cdt-merged");
    let tiled = build_tiled(&Scene::default_map(), &BuildOptions::cdt(), TILE).unwrap();
    assert_eq!(scene["mesh"]["polygon_count"], tiled.polygon_count());
    assert_eq!(
        get(addr, "/api/scene").json()["tiles"],
        start["scene"]["tiles"]
    );
    let open_length = exact_length(addr);
    assert!((open_length - scratch_length(&Scene::default_map())).abs() < 1e-9);

    // Add a door across the default path: its tiles are rebuilt, the path goes around it.
    let block = block_across_default_path(20.0);
    let a = post(
        addr,
        "/api/tiles/add",
        &json!({"shape": block, "door": true}),
    )
    .json();
    assert_eq!(a["scene"]["revision"], 3);
    let id = a["obstacle"].as_u64().unwrap();
    assert_eq!(id, n as u64 + 1);
    assert_rebuilt(&a, &[&block]);
    let mut blocked = Scene::default_map();
    blocked.obstacles.push(block.clone());
    assert_eq!(scene_of(&a["scene"]["scene"]), blocked);
    let closed_length = exact_length(addr);
    assert!(closed_length > open_length + 1e-6);
    assert!((closed_length - scratch_length(&blocked)).abs() < 1e-9);
    let p = post(addr, "/api/path", &default_query()).json();
    assert_eq!(p["revision"], 3);

    // Open it, close it: one click's worth each; the path goes through, then around.
    let a = post(addr, "/api/tiles/door", &json!({"id": id, "open": true})).json();
    assert_rebuilt(&a, &[&block]);
    let door = &a["scene"]["tiles"]["obstacles"][n];
    assert_eq!(
        (door["door"].clone(), door["open"].clone()),
        (json!(true), json!(true))
    );
    assert_eq!(scene_of(&a["scene"]["scene"]), Scene::default_map());
    assert!((exact_length(addr) - open_length).abs() < 1e-9);
    let a = post(addr, "/api/tiles/door", &json!({"id": id, "open": false})).json();
    assert_rebuilt(&a, &[&block]);
    assert!((exact_length(addr) - closed_length).abs() < 1e-9);

    // Move it: the tiles under its old and new places.
    let by = Vec2::new(TILE * 1.5, 3.0);
    let a = post(addr, "/api/tiles/move", &json!({"id": id, "by": by})).json();
    let moved: Vec<Vec2> = block.iter().map(|&p| p + by).collect();
    assert_eq!(shape(&a["scene"]["tiles"]["obstacles"][n]["shape"]), moved);
    assert_rebuilt(&a, &[&block, &moved]);
    let mut now = Scene::default_map();
    now.obstacles.push(moved.clone());
    assert!((exact_length(addr) - scratch_length(&now)).abs() < 1e-9);

    // Reshape it (same id) into a triangle; remove it: back to the map's mesh.
    let tri = vec![moved[0], moved[1], moved[2]];
    let a = post(addr, "/api/tiles/reshape", &json!({"id": id, "shape": tri})).json();
    assert_eq!(a["obstacle"], id);
    assert_eq!(shape(&a["scene"]["tiles"]["obstacles"][n]["shape"]), tri);
    assert_rebuilt(&a, &[&moved, &tri]);
    let a = post(addr, "/api/tiles/remove", &json!({"id": id})).json();
    assert_rebuilt(&a, &[&tri]);
    assert_eq!(
        a["scene"]["tiles"]["obstacles"].as_array().unwrap().len(),
        n
    );
    assert_eq!(a["scene"]["mesh"], start["scene"]["mesh"]);
    // A map obstacle moves too.
    let a = post(addr, "/api/tiles/move", &json!({"id": 1, "by": [5, 5]})).json();
    let first = &Scene::default_map().obstacles[0];
    let first_moved: Vec<Vec2> = first.iter().map(|&p| p + Vec2::new(5.0, 5.0)).collect();
    assert_rebuilt(&a, &[first, &first_moved]);

    // Re-tiling keeps the obstacles and their ids; a scene edit or reset leaves tiled mode.
    let a = post(addr, "/api/tiles", &json!({"tile_size": 100})).json();
    assert_eq!(
        a["scene"]["tiles"]["obstacles"],
        json!(a["scene"]["tiles"]["obstacles"])
    );
    assert_eq!(a["scene"]["tiles"]["columns"], 8);
    assert_eq!(a["scene"]["tiles"]["obstacles"][0]["id"], 1);
    let r = send(addr, "POST", "/api/scene/reset", b"").json();
    assert!(r.get("tiles").is_none());
    post(addr, "/api/tiles/remove", &json!({"id": 1})).assert_error(409, "not-tiled");
    srv.shutdown();
}

/// Tiled mode takes the agent radius and the corner rounding of the request (or keeps the
/// current ones): its mesh is the library's tiled build with those options.
#[test]
fn tiles_take_the_radius_and_the_corner_rounding() {
    let srv = server();
    let addr = srv.addr();
    let mut counts = Vec::new();
    for arc_error in [0.01, 0.3] {
        let a = post(
            addr,
            "/api/tiles",
            &json!({"tile_size": TILE, "agent_radius": 6, "arc_error": arc_error}),
        );
        assert_eq!(a.status, 200, "{}", String::from_utf8_lossy(&a.body));
        let scene = &a.json()["scene"];
        assert_eq!(
            scene["build"],
            json!({"decomposition": "cdt-merged", "agent_radius": 6.0, "arc_error": arc_error})
        );
        let options = BuildOptions::cdt()
            .with_agent_radius(6.0)
            .with_arc_error(arc_error);
        let tiled = build_tiled(&Scene::default_map(), &options, TILE).unwrap();
        assert_eq!(scene["mesh"]["polygon_count"], tiled.polygon_count());
        counts.push(tiled.vertex_count());
    }
    assert!(counts[1] < counts[0], "{counts:?}");
    // Omitted, both are kept.
    let a = post(addr, "/api/tiles", &json!({ "tile_size": TILE })).json();
    assert_eq!(a["scene"]["build"]["arc_error"], 0.3);
    assert_eq!(a["scene"]["build"]["agent_radius"], 6.0);
    srv.shutdown();
}

#[test]
fn tiled_edits_refuse_bad_input_naming_the_culprit_and_change_nothing() {
    let srv = server();
    let addr = srv.addr();
    // Not tiled yet.
    post(
        addr,
        "/api/tiles/add",
        &json!({"shape": [[1, 1], [9, 1], [5, 9]]}),
    )
    .assert_error(409, "not-tiled");
    // Bad tile sizes.
    for size in [0.0, -5.0] {
        post(addr, "/api/tiles", &json!({ "tile_size": size })).assert_error(400, "bad-tile-size");
    }
    let e = post(addr, "/api/tiles", &json!({"tile_size": 1})).assert_error(413, "over-budget");
    assert_eq!(e["limit"], "max_tiles");
    send(addr, "POST", "/api/tiles", br#"{"tile_size": NaN}"#).assert_error(400, "bad-json");
    post(
        addr,
        "/api/tiles",
        &json!({"tile_size": 64, "agent_radius": -1}),
    )
    .assert_error(400, "bad-agent-radius");
    for bad in [0.0, 2.0] {
        post(
            addr,
            "/api/tiles",
            &json!({"tile_size": 64, "agent_radius": 2, "arc_error": bad}),
        )
        .assert_error(400, "bad-arc-error");
    }
    assert_eq!(get(addr, "/api/scene").json()["revision"], 1);

    let revision = enter(addr)["scene"]["revision"].as_u64().unwrap();
    let tri = json!([[300, 200], [340, 200], [320, 240]]);
    // Unknown (or removed) ids.
    for route in ["move", "remove", "door", "reshape"] {
        let body = json!({"id": 99, "by": [1, 1], "open": true, "shape": tri});
        let mut body = body.as_object().unwrap().clone();
        body.retain(|k, _| match route {
            "move" => k == "id" || k == "by",
            "remove" => k == "id",
            "door" => k == "id" || k == "open",
            _ => k == "id" || k == "shape",
        });
        let e = post(addr, &format!("/api/tiles/{route}"), &Value::Object(body))
            .assert_error(422, "unknown-obstacle");
        assert_eq!(e["obstacles"], json!([99]), "{route}");
    }
    // Bad shapes: the culprit vertex.
    let bowtie = json!([[10, 10], [20, 20], [20, 10], [10, 20]]);
    let e = post(addr, "/api/tiles/add", &json!({ "shape": bowtie }))
        .assert_error(422, "self-intersecting");
    assert_eq!(e["vertex"], 0);
    let outside = json!([[10, 10], [20, 10], [15, -20]]);
    let e = post(addr, "/api/tiles/add", &json!({ "shape": outside }))
        .assert_error(422, "outside-world");
    assert_eq!(e["vertex"], 2);
    post(
        addr,
        "/api/tiles/add",
        &json!({"shape": [[10, 10], [20, 10], [30, 10]]}),
    )
    .assert_error(422, "bad-shape");
    send(
        addr,
        "POST",
        "/api/tiles/add",
        br#"{"shape": [[NaN, 10], [20, 10], [15, 20]]}"#,
    )
    .assert_error(400, "bad-json");
    // A move out of the world names the obstacle and the vertex; so does a reshape.
    let e = post(addr, "/api/tiles/move", &json!({"id": 1, "by": [1e308, 0]}))
        .assert_error(422, "outside-world");
    assert_eq!(
        (e["obstacles"].clone(), e["vertex"].clone()),
        (json!([1]), json!(0))
    );
    let e = post(
        addr,
        "/api/tiles/reshape",
        &json!({"id": 2, "shape": bowtie}),
    )
    .assert_error(422, "self-intersecting");
    assert_eq!(e["obstacles"], json!([2]));
    // Stale, wrong method, unknown route.
    let e = post(
        addr,
        "/api/tiles/remove",
        &json!({"id": 1, "base_revision": 1}),
    )
    .assert_error(409, "stale-revision");
    assert_eq!(e["revision"], revision);
    let a = get(addr, "/api/tiles/add");
    a.assert_error(405, "method-not-allowed");
    assert_eq!(a.header("allow"), Some("POST"));
    get(addr, "/api/tiles/nope").assert_error(404, "not-found");
    post(addr, "/api/tiles/add", &json!({"shape": tri, "colour": 1})).assert_error(400, "bad-json");
    // Nothing changed.
    let now = get(addr, "/api/scene").json();
    assert_eq!(now["revision"], revision);
    assert_eq!(
        now["tiles"]["obstacles"].as_array().unwrap().len(),
        Scene::default_map().obstacles.len()
    );
    assert_alive(addr);
    srv.shutdown();

    // A mesh file has no scene to tile.
    let srv = serve_app(App::from_mesh(default_mesh()));
    post(srv.addr(), "/api/tiles", &json!({"tile_size": 64})).assert_error(409, "read-only");
    srv.shutdown();
}

#[test]
fn an_edit_over_the_polygon_budget_is_undone_exactly() {
    let tiled = build_tiled(&Scene::default_map(), &BuildOptions::cdt(), TILE).unwrap();
    let srv = server_with(Limits {
        max_mesh_polygons: tiled.polygon_count(),
        ..Limits::default()
    });
    let addr = srv.addr();
    let before = enter(addr)["scene"].clone();
    let e = post(
        addr,
        "/api/tiles/add",
        &json!({"shape": block_across_default_path(20.0)}),
    )
    .assert_error(422, "over-budget");
    assert_eq!(e["limit"], "max_mesh_polygons");
    let now = get(addr, "/api/scene").json();
    assert_eq!(now["revision"], before["revision"]);
    assert_eq!(now["tiles"], before["tiles"]);
    // The dynamic mesh was put back as it was: an edit that changes nothing republishes the
    // same mesh, within the budget.
    let a = post(addr, "/api/tiles/move", &json!({"id": 3, "by": [0, 0]}));
    assert_eq!(a.status, 200, "{}", String::from_utf8_lossy(&a.body));
    assert_eq!(a.json()["scene"]["mesh"], before["mesh"]);
    srv.shutdown();
}

#[test]
fn entering_tiled_mode_is_held_to_the_build_timeout_and_reports_its_limits() {
    let srv = server_with(Limits {
        build_timeout: Duration::ZERO,
        ..Limits::default()
    });
    let addr = srv.addr();
    let e = post(addr, "/api/tiles", &json!({"tile_size": 64})).assert_error(422, "over-budget");
    assert_eq!(e["limit"], "build_timeout_ms");
    assert_eq!(get(addr, "/api/scene").json()["revision"], 1);
    assert!(get(addr, "/api/scene").json().get("tiles").is_none());
    srv.shutdown();
    let srv = server();
    let v = get(srv.addr(), "/api/scene").json();
    assert_eq!(
        v["capabilities"]["limits"]["max_tiles"],
        Limits::default().max_tiles
    );
    srv.shutdown();
}

/// A grid map's traced outlines can touch themselves (at diagonal cells) and enclose holes: such
/// obstacles stay static, the others become dynamic, and edits work around them.
#[test]
fn a_grid_map_keeps_its_self_touching_outlines_static() {
    let args = super::super::Args {
        input: crate::input::InputArgs {
            map: Some(format!("{DATA}/movingai/dao/arena.map").into()),
            ..Default::default()
        },
        ..super::super::Args::default()
    };
    let srv = serve_app(super::super::app(&args).unwrap());
    let addr = srv.addr();
    let scene = scene_of(&get(addr, "/api/scene").json()["scene"]);
    let a = post(addr, "/api/tiles", &json!({"tile_size": 16}));
    assert_eq!(a.status, 200, "{}", String::from_utf8_lossy(&a.body));
    let t = a.json()["scene"]["tiles"].clone();
    let fixed = t["static_obstacles"].as_u64().unwrap() as usize;
    let dynamic = t["obstacles"].as_array().unwrap().len();
    assert!(fixed >= 1, "the outer wall, with a hole, is static");
    assert_eq!(fixed + dynamic, scene.obstacles.len());
    let mesh = build_tiled(&scene, &BuildOptions::cdt(), 16.0).unwrap();
    assert_eq!(
        a.json()["scene"]["mesh"]["polygon_count"],
        mesh.polygon_count()
    );
    let a = post(addr, "/api/tiles/move", &json!({"id": 1, "by": [0.5, 0]}));
    assert_eq!(a.status, 200, "{}", String::from_utf8_lossy(&a.body));
    srv.shutdown();
}

/// A tile size off the overlay's grid (800 / 7.3 on the 800-wide default map) enters tiled mode
/// with its side rounded onto the grid; the stitch failed there before ("polygons 20 and 21
/// overlap", an internal error).
#[test]
fn a_tile_size_off_the_grid_enters_tiled_mode_on_the_grid() {
    let srv = server();
    let addr = srv.addr();
    let size = 800.0 / 7.3;
    let a = post(addr, "/api/tiles", &json!({ "tile_size": size }));
    assert_eq!(a.status, 200, "{}", String::from_utf8_lossy(&a.body));
    let v = a.json();
    let t = &v["scene"]["tiles"];
    let grid = TileGrid::new(Scene::default_map().bounds, size).unwrap();
    assert_eq!(t["tile_size"], grid.size());
    assert_eq!(grid.size(), 109.58904266357422);
    assert_eq!(
        (t["columns"].clone(), t["rows"].clone()),
        (json!(8), json!(5))
    );
    let tiled = build_tiled(&Scene::default_map(), &BuildOptions::cdt(), size).unwrap();
    assert_eq!(v["scene"]["mesh"]["polygon_count"], tiled.polygon_count());
    assert!((exact_length(addr) - scratch_length(&Scene::default_map())).abs() < 1e-9);
    srv.shutdown();
}
