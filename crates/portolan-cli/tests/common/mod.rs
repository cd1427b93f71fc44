//! Helpers shared by the `portolan` binary's integration tests (each test file uses a subset).
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs the binary with `args` and waits for it.
pub fn portolan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_portolan"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// `portolan build` of `input` (`--scene`, `--map`, `--poly` or `--mesh` and a file) to `out`,
/// with `extra` flags.
pub fn build(input: [&str; 2], out: &std::path::Path, extra: &[&str]) -> Output {
    let out = out.to_str().expect("a UTF-8 temp path");
    portolan(&[&["build", input[0], input[1], "-o", out], extra].concat())
}

/// What the run printed on stderr.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A failed command says why in one line, exits non-zero, and never shows a panic.
pub fn assert_clean_failure(o: &Output, needle: &str) {
    let err = stderr(o);
    assert!(!o.status.success(), "should fail: {err}");
    assert!(!err.contains("panicked"), "panic shown to the user: {err}");
    assert!(err.contains(needle), "expected {needle:?} in: {err}");
}

/// A file of the shared public data (`../shared/data`, see its README).
pub fn data(path: &str) -> String {
    format!("{}/../../../shared/data/{path}", env!("CARGO_MANIFEST_DIR"))
}

/// A path in this test process's own scratch directory.
pub fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("portolan-cli-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Writes `text` to a scratch file and returns its path as a string.
pub fn temp_file(name: &str, text: &str) -> String {
    let p = temp(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().expect("a UTF-8 temp path").to_owned()
}

/// The column `name` of CSV file `path` (a `portolan scen --csv` file), a string per row.
pub fn csv_column(path: &std::path::Path, name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let col = header
        .iter()
        .position(|h| *h == name)
        .unwrap_or_else(|| panic!("no column {name} in {header:?}"));
    lines
        .map(|l| l.split(',').nth(col).expect("a full row").to_owned())
        .collect()
}
