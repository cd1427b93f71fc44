//! Aggregation: per-strategy rows, the worst cases and the counts, added map by map.

use super::*;

/// The worst query of a strategy (largest excess), kept for drawing.
#[derive(Clone, Debug, PartialEq)]
pub struct WorstCase {
    /// The map's index.
    pub map: usize,
    /// The query's index in the map.
    pub query: usize,
    /// The map.
    pub scene: Scene,
    /// The start.
    pub start: Vec2,
    /// The goal.
    pub goal: Vec2,
    /// The strategy's path.
    pub path: Path,
    /// The oracle's path.
    pub optimum: ShortestPath,
    /// `path.length / optimum.length - 1`.
    pub excess: f64,
}

/// The aggregate of one strategy over every compared query.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The strategy.
    pub strategy: Strategy,
    /// Queries measured: a path no shorter than the optimum (beyond the tolerance). With the two
    /// violation counts below, this adds up to [`Summary::compared`].
    pub measured: usize,
    /// Queries within the tolerance of the optimum.
    pub shortest: usize,
    /// Sum of excesses (negative ones within the tolerance count as 0).
    pub excess_sum: f64,
    /// Queries with excess above 10%.
    pub over_10: usize,
    /// Queries with excess above 50%.
    pub over_50: usize,
    /// Sum of polygons expanded.
    pub expanded_sum: usize,
    /// Sum of query times in nanoseconds (not reproducible).
    pub nanos_sum: u128,
    /// Violations: no path although the oracle found one.
    pub failed: usize,
    /// Violations: shorter than the optimum by more than the tolerance.
    pub below_optimum: usize,
    /// The query with the largest excess (the first such, in map and query order).
    pub worst: Option<WorstCase>,
}

/// The aggregate of an evaluation: counts, one [`Row`] per strategy, and the tables.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub(super) tolerance: f64,
    pub(super) maps: usize,
    pub(super) polygons_sum: usize,
    pub(super) polygons_min: usize,
    pub(super) polygons_max: usize,
    pub(super) obstacles_sum: usize,
    pub(super) drawn: usize,
    pub(super) same_polygon: usize,
    pub(super) unreachable: usize,
    pub(super) compared: usize,
    pub(super) oracle_nanos: u128,
    pub(super) rows: Vec<Row>,
}

impl Summary {
    /// An empty summary for these options.
    pub fn new(options: &EvalOptions) -> Summary {
        Summary {
            tolerance: options.relative_tolerance,
            maps: 0,
            polygons_sum: 0,
            polygons_min: usize::MAX,
            polygons_max: 0,
            obstacles_sum: 0,
            drawn: 0,
            same_polygon: 0,
            unreachable: 0,
            compared: 0,
            oracle_nanos: 0,
            rows: options
                .strategies
                .iter()
                .map(|s| Row {
                    strategy: s.clone(),
                    measured: 0,
                    shortest: 0,
                    excess_sum: 0.0,
                    over_10: 0,
                    over_50: 0,
                    expanded_sum: 0,
                    nanos_sum: 0,
                    failed: 0,
                    below_optimum: 0,
                    worst: None,
                })
                .collect(),
        }
    }

    /// Adds one map's report (add them in map order for reproducible worst cases).
    pub fn add(&mut self, report: &MapReport) {
        self.maps += 1;
        self.polygons_sum += report.polygons;
        self.polygons_min = self.polygons_min.min(report.polygons);
        self.polygons_max = self.polygons_max.max(report.polygons);
        self.obstacles_sum += report.scene.obstacles.len();
        for q in &report.queries {
            self.drawn += 1;
            let (optimum, oracle_nanos, runs) = match &q.outcome {
                QueryOutcome::SamePolygon => {
                    self.same_polygon += 1;
                    continue;
                }
                QueryOutcome::Unreachable => {
                    self.unreachable += 1;
                    continue;
                }
                QueryOutcome::Compared {
                    optimum,
                    oracle_nanos,
                    runs,
                } => (optimum, oracle_nanos, runs),
            };
            self.compared += 1;
            self.oracle_nanos += u128::from(*oracle_nanos);
            for (row, run) in self.rows.iter_mut().zip(runs) {
                row.nanos_sum += u128::from(run.nanos);
                let (Ok(path), Some(excess)) = (&run.result, run.excess) else {
                    row.failed += 1;
                    continue;
                };
                if excess < -self.tolerance {
                    row.below_optimum += 1;
                    continue;
                }
                row.measured += 1;
                row.expanded_sum += path.expanded;
                if excess <= self.tolerance {
                    row.shortest += 1;
                }
                row.excess_sum += excess.max(0.0);
                row.over_10 += usize::from(excess > 0.10);
                row.over_50 += usize::from(excess > 0.50);
                if row.worst.as_ref().is_none_or(|w| excess > w.excess) {
                    row.worst = Some(WorstCase {
                        map: report.map,
                        query: q.query,
                        scene: report.scene.clone(),
                        start: q.start,
                        goal: q.goal,
                        path: path.clone(),
                        optimum: optimum.clone(),
                        excess,
                    });
                }
            }
        }
    }

    /// Maps added.
    pub fn maps(&self) -> usize {
        self.maps
    }
    /// Start/goal pairs drawn.
    pub fn drawn(&self) -> usize {
        self.drawn
    }
    /// Pairs skipped because start and goal share a polygon.
    pub fn same_polygon(&self) -> usize {
        self.same_polygon
    }
    /// Pairs skipped because the oracle finds no path.
    pub fn unreachable(&self) -> usize {
        self.unreachable
    }
    /// Pairs compared.
    pub fn compared(&self) -> usize {
        self.compared
    }
    /// One row per strategy, in the options' order.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }
    /// Violations over all rows: paths missing where the oracle has one, or shorter than the
    /// optimum beyond the tolerance. Anything but 0 is a bug.
    pub fn violations(&self) -> usize {
        self.rows.iter().map(|r| r.failed + r.below_optimum).sum()
    }
}
