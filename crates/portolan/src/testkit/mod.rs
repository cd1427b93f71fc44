//! Test support shared by the unit tests, the integration tests, the benchmarks and the compare
//! crate: test scenes and scene strategies, counted property tests, the path of the shared data
//! and small statistics.
//!
//! Not part of the public API: compiled for the crate's own tests and behind the `testkit`
//! cargo feature, which the crate's dev-dependency on itself turns on for integration tests and
//! benchmarks (see ARCHITECTURE.md). Nothing here is stable.

mod counted;
pub mod orca;
pub mod scenes;

pub use counted::check_counted;
use std::path::PathBuf;

/// The shared data directory (`../shared/data` next to the workspace: maps, meshes,
/// scenarios; see its README). Tests that need a file skip or fail there when it is missing.
///
/// ```
/// let dir = portolan::testkit::data_dir();
/// assert!(dir.ends_with("shared/data"));
/// ```
pub fn data_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data"))
}

/// The grid maps of the shared data (Dragon Age, then the GPPC StarCraft map), relative to
/// [`data_dir`], smallest first: the set the grid-map tests, benchmarks and statistics run on.
///
/// ```
/// assert!(portolan::testkit::GRID_MAPS.iter().all(|m| m.ends_with(".map")));
/// ```
pub const GRID_MAPS: [&str; 5] = [
    "movingai/dao/arena.map",
    "movingai/dao/den011d.map",
    "movingai/dao/lak303d.map",
    "movingai/dao/brc202d.map",
    "gppc/AcrosstheCape.map",
];

/// The median of `xs` as the benchmarks report it: the upper middle value (`xs[n / 2]` after
/// sorting in place), NaN when empty.
///
/// ```
/// assert_eq!(portolan::testkit::median(&mut [3.0, 1.0, 2.0]), 2.0);
/// assert_eq!(portolan::testkit::median(&mut [4.0, 1.0, 2.0, 3.0]), 3.0);
/// ```
pub fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs.get(xs.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Mean, median and 99th percentile of `xs` (sorted in place; ranks are nearest-rank), NaN
/// when empty.
///
/// ```
/// let (mean, median, p99) = portolan::testkit::stats(&mut [1.0, 2.0, 3.0, 10.0]);
/// assert_eq!((mean, median, p99), (4.0, 2.0, 10.0));
/// ```
pub fn stats(xs: &mut [f64]) -> (f64, f64, f64) {
    if xs.is_empty() {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    let mean = xs.iter().sum::<f64>() / n as f64;
    let rank = |p: f64| xs[((p * n as f64).ceil() as usize).clamp(1, n) - 1];
    (mean, rank(0.5), rank(0.99))
}
