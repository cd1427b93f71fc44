//! A property test that reports how many of its cases checked something.
//!
//! Some properties must skip cases — a random query point inside an obstacle, a pair with no
//! path — and a `proptest!` whose every case skipped still passes. [`check_counted`] runs a
//! property the way `proptest!` does (random seed, shrinking, the regression file next to the
//! caller's source) and returns the sum of what each passing case reported it checked, so the
//! test can require enough real checks. The count is local to the call: tests running in
//! parallel cannot inflate it. Shared by the unit tests and (through `#[path]`) the
//! integration tests.

use proptest::strategy::Strategy;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use std::cell::Cell;

/// Runs `property` on `cases` random values of `strategy` (failing cases are shrunk and the test
/// panics with the minimal one, as `proptest!` does) and returns the sum of the counts the
/// passing cases returned. `source_file` is the caller's `file!()`, for the regression file.
pub fn check_counted<S: Strategy>(
    source_file: &'static str,
    cases: u32,
    strategy: S,
    property: impl Fn(S::Value) -> Result<usize, TestCaseError>,
) -> usize {
    let config = Config {
        cases,
        source_file: Some(source_file),
        ..Config::default()
    };
    let checked = Cell::new(0usize);
    let result = TestRunner::new(config).run(&strategy, |value| {
        let n = property(value)?;
        checked.set(checked.get() + n);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    checked.get()
}
