//! The `portolan` binary as a person starts it: `serve --port 0` prints the URL, answers, and
//! stops cleanly on Ctrl-C (SIGINT).

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
    let mut s = TcpStream::connect(host_port).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {host_port}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
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
