//! The chapter's evaluation: how often does channel A* + funnel find the globally shortest path?
//!
//! For each of many seeded random maps ([`random`](crate::random)): build the trapezoid mesh,
//! draw start/goal pairs in free space, and run every [`Strategy`] (a labelled
//! [`SearchOptions`]) and the exact [`VisibilityGraph`] oracle on each pair. Pairs in one polygon
//! (the answer is a straight segment, nothing to measure) and pairs the oracle cannot connect are
//! counted and skipped. The [`Summary`] aggregates the chapter's columns:
//!
//! ```text
//! | crossing point  | global shortest | mean excess | excess > 10% | excess > 50% | mean expanded |
//! | portal midpoint |             72% |       3.77% |         1006 |           58 |           ... |
//! ```
//! where a query *reaches the global shortest* when its length is within
//! [`EvalOptions::relative_tolerance`] of the oracle's, and its *excess* is
//! `length / optimum - 1`. An excess below `-tolerance` means the path is shorter than the
//! "shortest" one: a bug in the oracle or in the search, reported as a violation, never averaged.
//!
//! Everything but the wall-clock timings is a function of [`EvalOptions`] alone: the same options
//! give the same [`Summary::table`] and CSV, byte for byte (timings are kept apart, in
//! [`Summary::timing_table`]). Maps are independent, so a caller may evaluate them in parallel
//! with [`evaluate_map`] and [`Summary::add`] them in map order.
//!
//! ```
//! use portolan::eval::{evaluate, EvalOptions};
//! let options = EvalOptions { maps: 3, queries_per_map: 5, ..EvalOptions::default() };
//! let summary = evaluate(&options, |_| {}).unwrap();
//! assert_eq!(summary.drawn(), 15);
//! assert_eq!(summary.violations(), 0);
//! println!("{}", summary.table());
//! ```

mod report;
mod runner;
mod summary;
#[cfg(test)]
mod tests;

use crate::build::{build, BuildError, BuildOptions};
use crate::geom::Vec2;
use crate::random::{random_free_point, random_scene, RandomSceneError, RandomSceneOptions, Rng};
use crate::scene::Scene;
use crate::search::corner_graph::CornerGraph;
use crate::search::visibility::{ShortestPath, VisibilityError, VisibilityGraph};
use crate::search::{resolve_endpoint, EndpointRole};
use crate::search::{Path, PathError, PathFinder, PortalPoint, SearchMethod, SearchOptions, Snap};
use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Instant;

pub use report::{write_csv_header, write_csv_rows};
pub use runner::evaluate_map;
use runner::*;
pub use summary::{Row, Summary, WorstCase};

/// One row of the table: a name and the search options it runs with.
#[derive(Clone, Debug, PartialEq)]
pub struct Strategy {
    /// A short identifier for CSV columns and file names (`midpoint`, `toward-goal`).
    pub key: String,
    /// The row's label in the table (`portal midpoint`).
    pub label: String,
    /// The options of the query.
    pub options: SearchOptions,
}

impl Strategy {
    /// A strategy row.
    pub fn new(key: &str, label: &str, options: SearchOptions) -> Strategy {
        Strategy {
            key: key.to_owned(),
            label: label.to_owned(),
            options,
        }
    }

    /// The chapter's two rows: channel A* + funnel with the portal midpoint, then with the
    /// toward-goal crossing point. An exact search is one more row with its own
    /// [`SearchOptions::method`].
    pub fn chapter() -> Vec<Strategy> {
        vec![
            Strategy::new(
                "midpoint",
                "portal midpoint",
                SearchOptions::with_portal_point(PortalPoint::Midpoint),
            ),
            Strategy::new(
                "toward-goal",
                "toward-goal intersection",
                SearchOptions::with_portal_point(PortalPoint::TowardGoal),
            ),
        ]
    }

    /// The chapter's two rows, then the exact any-angle search ([`SearchMethod::Exact`]), which
    /// must reach the global shortest path on every query. Its "expanded" counts search nodes
    /// (intervals), not polygons.
    pub fn with_exact() -> Vec<Strategy> {
        let mut rows = Strategy::chapter();
        rows.push(Strategy::new(
            "exact",
            "exact (Polyanya)",
            SearchOptions::exact(),
        ));
        rows
    }

    /// [`Strategy::with_exact`] and the corner search ([`SearchMethod::Corner`], its graph built
    /// per map by the runner with [`CornerGraph::build_with_views`], so that a seed gives one
    /// table): the eval's default rows.
    ///
    /// ```
    /// use portolan::eval::Strategy;
    /// let keys: Vec<String> = Strategy::with_corner().into_iter().map(|s| s.key).collect();
    /// assert_eq!(keys, ["midpoint", "toward-goal", "exact", "corner"]);
    /// ```
    pub fn with_corner() -> Vec<Strategy> {
        let mut rows = Strategy::with_exact();
        rows.push(Strategy::new(
            "corner",
            "corner graph (exact)",
            SearchOptions::exact().with_method(SearchMethod::Corner),
        ));
        rows
    }
}

/// What to evaluate.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalOptions {
    /// How many random maps. Default: 400 (the chapter's count).
    pub maps: usize,
    /// Start/goal pairs drawn per map (some are skipped). Default: 22: about one pair in nine
    /// has both ends in one polygon, so 400 maps give about the chapter's 7,855 compared queries.
    pub queries_per_map: usize,
    /// The seed every map and query derives from. Default: 1.
    pub seed: u64,
    /// How the maps are made. Default: [`RandomSceneOptions::default`].
    pub scene: RandomSceneOptions,
    /// The table's rows. Default: [`Strategy::chapter`].
    pub strategies: Vec<Strategy>,
    /// Lengths within this relative difference count as equal. Default: `1e-9`.
    pub relative_tolerance: f64,
    /// Draws per free point before a map is declared full. Default: 10,000.
    pub point_attempts: usize,
}

impl Default for EvalOptions {
    fn default() -> Self {
        EvalOptions {
            maps: 400,
            queries_per_map: 22,
            seed: 1,
            scene: RandomSceneOptions::default(),
            strategies: Strategy::with_corner(),
            relative_tolerance: 1e-9,
            point_attempts: 10_000,
        }
    }
}

/// Why an evaluation could not run; names the map where one is at fault.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum EvalError {
    /// The tolerance is negative or not finite.
    #[error("the relative tolerance {0} must be finite and not negative")]
    BadTolerance(f64),
    /// No strategy to evaluate.
    #[error("no strategy to evaluate")]
    NoStrategy,
    /// The scene options are invalid.
    #[error(transparent)]
    Scene(#[from] RandomSceneError),
    /// The mesh of a map could not be built (a bug in the generator or the builder).
    #[error("map {map} (scene seed {seed}): {source}")]
    Build {
        /// The map's index.
        map: usize,
        /// The seed of its scene ([`random_scene`]).
        seed: u64,
        /// What went wrong.
        source: BuildError,
    },
    /// The oracle refused a map (a bug: the builder accepted it).
    #[error("map {map}: the visibility graph refused the scene: {source}")]
    Oracle {
        /// The map's index.
        map: usize,
        /// What went wrong.
        source: crate::search::visibility::OracleError,
    },
    /// No free point could be drawn (the obstacles fill the map).
    #[error("map {map}: no free point found in {attempts} draws")]
    NoFreePoint {
        /// The map's index.
        map: usize,
        /// The draws tried.
        attempts: usize,
    },
}

/// One strategy's answer to one compared query.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// The path, or why there is none (an error here is a violation: the oracle found a path).
    pub result: Result<Path, PathError>,
    /// `length / optimum - 1`, when there is a path.
    pub excess: Option<f64>,
    /// Wall-clock time of the query in nanoseconds (not reproducible).
    pub nanos: u64,
}

/// What became of one drawn start/goal pair.
#[derive(Clone, Debug, PartialEq)]
pub enum QueryOutcome {
    /// Start and goal share a polygon: skipped.
    SamePolygon,
    /// The oracle finds no path: skipped.
    Unreachable,
    /// Compared: the optimum and each strategy's run, in [`EvalOptions::strategies`] order.
    Compared {
        /// The oracle's shortest path.
        optimum: ShortestPath,
        /// The oracle's query time in nanoseconds (not reproducible; graph building excluded).
        oracle_nanos: u64,
        /// One run per strategy.
        runs: Vec<Run>,
    },
}

/// One drawn start/goal pair.
#[derive(Clone, Debug, PartialEq)]
pub struct QueryRecord {
    /// The query's index in its map.
    pub query: usize,
    /// The start.
    pub start: Vec2,
    /// The goal.
    pub goal: Vec2,
    /// What became of it.
    pub outcome: QueryOutcome,
}

/// Everything measured on one map.
#[derive(Clone, Debug, PartialEq)]
pub struct MapReport {
    /// The map's index.
    pub map: usize,
    /// The seed of its scene: `random_scene(seed, &options.scene)` rebuilds it.
    pub seed: u64,
    /// The scene.
    pub scene: Scene,
    /// Polygons in its trapezoid mesh.
    pub polygons: usize,
    /// The queries, in drawing order.
    pub queries: Vec<QueryRecord>,
}

/// Evaluates every map in order, calling `progress` after each; the sequential driver (see the
/// [module docs](self) for running maps in parallel).
pub fn evaluate(
    options: &EvalOptions,
    mut progress: impl FnMut(&MapReport),
) -> Result<Summary, EvalError> {
    check(options)?;
    let mut summary = Summary::new(options);
    for map in 0..options.maps {
        let report = evaluate_map(options, map)?;
        summary.add(&report);
        progress(&report);
    }
    Ok(summary)
}
