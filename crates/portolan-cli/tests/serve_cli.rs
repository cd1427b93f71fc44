//! The `portolan` binary as a person starts it: `serve --port 0` prints the URL, answers, and
//! stops cleanly on Ctrl-C (SIGINT); and its search methods over HTTP.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn portolan() -> Command {
    Command::new(env!("CARGO_BIN_EXE_portolan"))
}

/// Kills the child if a test fails half-way.
struct Guard(Child);
impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn get(host_port: &str, path: &str) -> String {
    request(host_port, "GET", path, "")
}

/// One request on its own connection; the whole answer, head and body.
fn request(host_port: &str, method: &str, path: &str, body: &str) -> String {
    let mut s = TcpStream::connect(host_port).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {host_port}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

/// The JSON body of a `200` answer (sent with a `Content-Length`, as every JSON answer is).
fn json_of(answer: &str) -> serde_json::Value {
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let (_, body) = answer.split_once("\r\n\r\n").expect("a head and a body");
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// Starts `portolan` with `args` and returns it with the first line it prints on stdout.
fn start(args: &[&str]) -> (Guard, String) {
    let child = portolan()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut child = Guard(child);
    let mut line = String::new();
    BufReader::new(child.0.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    (child, line)
}

#[test]
fn serve_prints_its_url_answers_and_stops_on_ctrl_c() {
    let (mut child, line) = start(&["serve", "--port", "0"]);
    let url = line
        .trim()
        .strip_prefix("Listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"));
    let host_port = url
        .strip_prefix("http://127.0.0.1:")
        .and_then(|p| p.strip_suffix('/'))
        .map(|port| format!("127.0.0.1:{port}"))
        .unwrap_or_else(|| panic!("not a loopback URL: {url}"));
    assert_ne!(host_port, "127.0.0.1:0");

    let page = get(&host_port, "/");
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("<html"));
    let scene = get(&host_port, "/api/scene");
    assert!(scene.starts_with("HTTP/1.1 200"), "{scene}");
    assert!(scene.contains("\"polygon_count\""));

    let status = Command::new("kill")
        .args(["-INT", &child.0.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let deadline = Instant::now() + Duration::from_secs(20);
    let exit = loop {
        if let Some(s) = child.0.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < deadline, "still running after SIGINT");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(exit.success(), "{exit:?}");
    let mut err = String::new();
    child
        .0
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(err.contains("stopped"), "{err}");
}

#[test]
fn a_busy_port_is_a_clear_error() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = portolan()
        .args(["serve", "--port", &port])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot listen on 127.0.0.1:"), "{err}");
}

#[test]
fn bare_portolan_serves_on_a_free_port_when_8080_is_taken() {
    // Hold 8080 if we can; if something else already holds it the test is just as meaningful.
    let _held = std::net::TcpListener::bind("127.0.0.1:8080");
    let (_child, line) = start(&[]);
    assert!(
        line.starts_with("Listening on http://127.0.0.1:"),
        "{line:?}"
    );
    assert!(!line.contains(":8080/"), "{line:?}");
}

#[test]
fn a_bad_scene_file_is_a_clear_error() {
    let out = portolan()
        .args(["serve", "--port", "0", "--scene", "/nonexistent/scene.json"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot open scene"));
}

/// `serve --arc-error` reaches the server's builds (its scene says so), a value out of [1e-6, 1] is
/// the builder's error naming the option, and a --mesh takes no build flag.
#[test]
fn serve_takes_the_corner_rounding() {
    let arena = common::data("movingai/dao/arena.map");
    let (_child, host_port) = serving(&["--map", &arena, "--radius", "0.5", "--arc-error", "0.3"]);
    let scene = json_of(&get(&host_port, "/api/scene"));
    assert_eq!(scene["build"]["arc_error"], 0.3, "{}", scene["build"]);
    assert_eq!(scene["build"]["agent_radius"], 0.5);
    let out = portolan()
        .args(["serve", "--port", "0", "--map", &arena, "--radius", "0.5"])
        .args(["--arc-error", "0"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("arc_error = 0 is out of range"), "{err}");
    let mesh = common::data("polyanya/meshes/arena-merged.mesh");
    let out = portolan()
        .args([
            "serve",
            "--port",
            "0",
            "--mesh",
            &mesh,
            "--arc-error",
            "0.3",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot be used with"));
}

#[test]
fn demo_text_prints_the_default_query() {
    let out = portolan().arg("demo-text").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Default map: 800 x 450"), "{text}");
    assert!(
        text.contains("toward-goal") && text.contains("midpoint"),
        "{text}"
    );
}

/// `portolan serve --port 0` with `extra` arguments, and the `host:port` it listens on.
fn serving(extra: &[&str]) -> (Guard, String) {
    let (child, line) = start(&[&["serve", "--port", "0"], extra].concat());
    let host_port = line
        .trim()
        .strip_prefix("Listening on http://")
        .and_then(|h| h.strip_suffix('/'))
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_owned();
    (child, host_port)
}

/// Issue 11 over HTTP: `capabilities.methods` lists `"corner"`, and a corner-graph query is as
/// short as the exact one (both are exact), proves `bound` 1 and has no funnel; the funnel's
/// `bound` is `null`. On the built-in map and on a grid map, from the defaults and between the
/// vertex averages of mesh polygons (convex, so inside them).
#[test]
fn corner_method_is_listed_and_as_short_as_exact_over_http() {
    let arena = common::data("movingai/dao/arena.map");
    for extra in [&[][..], &["--map", arena.as_str()][..]] {
        let (_child, host_port) = serving(extra);
        let scene = json_of(&get(&host_port, "/api/scene"));
        let methods = &scene["capabilities"]["methods"];
        assert_eq!(
            *methods,
            serde_json::json!(["funnel", "exact", "corner"]),
            "{extra:?}"
        );

        let polygons = scene["mesh"]["polygons"].as_array().unwrap();
        let inside = |i: usize| {
            let ring = polygons[i].as_array().unwrap();
            let n = ring.len() as f64;
            let sum = |k: usize| ring.iter().map(|p| p[k].as_f64().unwrap()).sum::<f64>() / n;
            serde_json::json!([sum(0), sum(1)])
        };
        let n = polygons.len();
        let mut queries = vec![(
            scene["defaults"]["start"].clone(),
            scene["defaults"]["goal"].clone(),
        )];
        for k in 0..6 {
            queries.push((inside(k * n / 6), inside(n - 1 - k * n / 7)));
        }

        let path = |method: &str, start: &serde_json::Value, goal: &serde_json::Value| {
            let body = serde_json::json!({"start": start, "goal": goal, "method": method});
            json_of(&request(&host_port, "POST", "/api/path", &body.to_string()))
        };
        let mut found = 0;
        for (start, goal) in &queries {
            let exact = path("exact", start, goal);
            let corner = path("corner", start, goal);
            let funnel = path("funnel", start, goal);
            let what = format!("{extra:?} {start} -> {goal}");
            assert_eq!(corner["method"], "corner", "{what}");
            assert_eq!(corner["found"], exact["found"], "{what}");
            if exact["found"] != true {
                continue;
            }
            found += 1;
            let (le, lc) = (
                exact["length"].as_f64().unwrap(),
                corner["length"].as_f64().unwrap(),
            );
            assert!(
                (le - lc).abs() <= 1e-9 * le.max(1.0),
                "{what}: exact {le}, corner {lc}"
            );
            assert_eq!(corner["points"][0], exact["points"][0], "{what}");
            assert_eq!(exact["bound"], 1.0, "{what}");
            assert_eq!(corner["bound"], 1.0, "{what}");
            assert!(corner["funnel"].is_null(), "{what}: {corner}");
            assert!(corner["micros"].as_f64().unwrap() >= 0.0, "{what}");
            assert!(corner["expanded"].as_u64().is_some(), "{what}");
            // The funnel search proves nothing, unless the channel was forced (no cycle
            // between the endpoints): then its path is the shortest, and says so.
            if !funnel["bound"].is_null() {
                assert_eq!(funnel["bound"], 1.0, "{what}: {funnel}");
                let lf = funnel["length"].as_f64().unwrap();
                assert!((le - lf).abs() <= 1e-9 * le.max(1.0), "{what}: funnel {lf}");
            }
            assert!(funnel["funnel"].is_object(), "{what}");
        }
        assert!(found >= 4, "{extra:?}: only {found} connected queries");
    }
}
