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

use crate::geom::Vec2;
use crate::io::movingai::GridMap;
use crate::mesh::{NavMesh, PolyId};
use crate::random::Rng;
use crate::search::funnel::Portal;
use crate::search::{Path, PathError, PathFinder, SearchOptions};
pub use counted::check_counted;
use std::path::PathBuf;

/// A free cell of `map` drawn by `rng`: column, then row, each uniform over the map's size and
/// one past it (the cell past the edge counts as blocked), again until the cell is free. Loops
/// forever on a map with no free cell.
///
/// ```
/// use portolan::random::Rng;
/// use portolan::random_grid::random_blocked_grid;
/// let map = random_blocked_grid(8, 8, 0.5, 1).unwrap();
/// let (x, y) = portolan::testkit::random_free_cell(&map, &mut Rng::new(2));
/// assert!(!map.is_blocked(x as i64, y as i64));
/// ```
pub fn random_free_cell(map: &GridMap, rng: &mut Rng) -> (usize, usize) {
    loop {
        let x = rng.range_usize(0, map.width());
        let y = rng.range_usize(0, map.height());
        if !map.is_blocked(x as i64, y as i64) {
            return (x, y);
        }
    }
}

/// What is wrong with a path on `mesh`, if anything: a leg that a raycast finds blocked, or a
/// channel that is empty, that is not a chain of polygons sharing edges, or that does not run
/// from a polygon holding the first point to one holding the last. `None` for a valid path.
///
/// ```
/// use portolan::{build, BuildOptions, PathFinder, Scene, SearchOptions};
/// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
/// let path = PathFinder::new()
///     .find_path(&mesh, Scene::DEFAULT_START, Scene::DEFAULT_GOAL, &SearchOptions::exact())
///     .unwrap();
/// assert_eq!(portolan::testkit::path_fault(&mesh, &path.points, &path.channel), None);
/// assert!(portolan::testkit::path_fault(&mesh, &path.points, &[]).is_some());
/// ```
pub fn path_fault(mesh: &NavMesh, points: &[Vec2], channel: &[PolyId]) -> Option<String> {
    for w in points.windows(2) {
        if !crate::raycast(mesh, w[0], w[1]).is_ok_and(|ray| ray.is_clear()) {
            return Some(format!("leg {} -> {} is blocked", w[0], w[1]));
        }
    }
    let (Some(&first), Some(&last)) = (channel.first(), channel.last()) else {
        return Some("empty channel".to_string());
    };
    if let Some(w) = channel
        .windows(2)
        .find(|w| mesh.shared_edge(w[0], w[1]).is_none())
    {
        return Some(format!("channel {} -> {} share no edge", w[0], w[1]));
    }
    let holds = |p: PolyId, x: Option<&Vec2>| x.is_some_and(|&x| mesh.locate_in(p, x).is_some());
    if !holds(first, points.first()) {
        return Some("channel starts elsewhere".to_string());
    }
    if !holds(last, points.last()) {
        return Some("channel ends elsewhere".to_string());
    }
    None
}

/// `portals` mirrored (x → −x): left and right ends swap, so that a funnel runs its other
/// side's code on the same channel.
///
/// ```
/// use portolan::geom::Vec2;
/// use portolan::search::funnel::Portal;
/// let p = Portal { left: Vec2::new(1.0, 2.0), right: Vec2::new(3.0, 4.0) };
/// let m = portolan::testkit::mirrored_portals(&[p]);
/// assert_eq!((m[0].left, m[0].right), (Vec2::new(-3.0, 4.0), Vec2::new(-1.0, 2.0)));
/// ```
pub fn mirrored_portals(portals: &[Portal]) -> Vec<Portal> {
    portals
        .iter()
        .map(|q| Portal {
            left: Vec2::new(-q.right.x, q.right.y),
            right: Vec2::new(-q.left.x, q.left.y),
        })
        .collect()
}

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

/// The MovingAI grid map at `rel` under [`data_dir`], read; panics naming the file where it is
/// missing or malformed (a test's setup, not a user's input).
///
/// ```
/// let map = portolan::testkit::data_map("movingai/dao/arena.map");
/// assert_eq!((map.width(), map.height()), (49, 49));
/// ```
pub fn data_map(rel: &str) -> GridMap {
    let path = data_dir().join(rel);
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    crate::io::movingai::read_map(std::io::BufReader::new(file))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
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

/// The query `s → g` found again without its channel ([`SearchOptions::channel`] `false`)
/// gives `with`'s path (the same query with it) in every field but an empty channel, or the
/// same error; `Err` says how it does not.
pub fn same_without_channel(
    finder: &mut PathFinder,
    mesh: &NavMesh,
    (s, g): (Vec2, Vec2),
    options: &SearchOptions,
    with: &Result<Path, PathError>,
) -> Result<(), String> {
    let bare = finder.find_path(mesh, s, g, &options.clone().with_channel(false));
    match (with, bare) {
        (Ok(a), Ok(mut b)) => {
            if !b.channel.is_empty() {
                return Err(format!("a channel of {} polygons", b.channel.len()));
            }
            b.channel = a.channel.clone();
            if *a != b {
                return Err(format!("with the channel {a:?}, without {b:?}"));
            }
            Ok(())
        }
        (Err(a), Err(b)) if *a == b => Ok(()),
        (a, b) => Err(format!("with the channel {a:?}, without {b:?}")),
    }
}
