//! Reporting: the Markdown tables and the CSV rows.

use super::*;

impl Summary {
    /// The chapter's table in Markdown, plus mean expanded polygons, and a line of counts.
    /// Reproducible: a function of the options alone.
    pub fn table(&self) -> String {
        let mut s = String::new();
        s.push_str("| crossing point | global shortest | mean excess | excess > 10% | excess > 50% | mean expanded |\n");
        s.push_str("| --- | ---: | ---: | ---: | ---: | ---: |\n");
        for r in &self.rows {
            let n = r.measured.max(1) as f64;
            let _ = writeln!(
                s,
                "| {} | {:.1}% | {:.2}% | {} | {} | {:.1} |",
                r.strategy.label,
                100.0 * r.shortest as f64 / n,
                100.0 * r.excess_sum / n,
                r.over_10,
                r.over_50,
                r.expanded_sum as f64 / n,
            );
        }
        let maps = self.maps.max(1) as f64;
        let _ = writeln!(
            s,
            "\n{} maps ({:.1} obstacles, trapezoid meshes of {:.1} polygons on average, {}–{}); \
             {} pairs drawn: {} compared, {} skipped with start and goal in one polygon, {} \
             skipped as unreachable. Equal within {:e} (relative).",
            self.maps,
            self.obstacles_sum as f64 / maps,
            self.polygons_sum as f64 / maps,
            if self.maps == 0 { 0 } else { self.polygons_min },
            self.polygons_max,
            self.drawn,
            self.compared,
            self.same_polygon,
            self.unreachable,
            self.tolerance,
        );
        for r in &self.rows {
            if r.failed + r.below_optimum > 0 {
                let _ = writeln!(
                    s,
                    "VIOLATION {}: {} queries without a path, {} shorter than the optimum.",
                    r.strategy.label, r.failed, r.below_optimum
                );
            }
        }
        s
    }

    /// Mean wall-clock time per compared query, per strategy and for the oracle (graph building
    /// excluded), in Markdown. Varies between runs.
    pub fn timing_table(&self) -> String {
        let n = self.compared.max(1) as f64;
        let mut s = String::from("| search | mean µs per query |\n| --- | ---: |\n");
        for r in &self.rows {
            let _ = writeln!(
                s,
                "| {} | {:.2} |",
                r.strategy.label,
                r.nanos_sum as f64 / n / 1e3
            );
        }
        let _ = writeln!(
            s,
            "| visibility graph (the oracle) | {:.2} |",
            self.oracle_nanos as f64 / n / 1e3
        );
        s
    }
}

/// Writes the CSV header: one row per drawn query, with a group of columns per strategy.
pub fn write_csv_header(
    w: &mut impl std::io::Write,
    strategies: &[Strategy],
) -> std::io::Result<()> {
    write!(w, "map,query,start_x,start_y,goal_x,goal_y,outcome,optimum")?;
    for s in strategies {
        let k = &s.key;
        write!(w, ",{k}_length,{k}_excess,{k}_expanded,{k}_channel")?;
    }
    writeln!(w)
}

/// Writes one CSV row per query of the report (no timings, so the file is reproducible). Numbers
/// are printed in full (shortest round-trip form); a strategy without a path leaves its cells
/// empty.
pub fn write_csv_rows(
    w: &mut impl std::io::Write,
    report: &MapReport,
    strategies: &[Strategy],
) -> std::io::Result<()> {
    for q in &report.queries {
        write!(
            w,
            "{},{},{},{},{},{}",
            report.map, q.query, q.start.x, q.start.y, q.goal.x, q.goal.y
        )?;
        match &q.outcome {
            QueryOutcome::SamePolygon | QueryOutcome::Unreachable => {
                let name = if q.outcome == QueryOutcome::SamePolygon {
                    "same-polygon"
                } else {
                    "unreachable"
                };
                write!(w, ",{name},")?;
                for _ in strategies {
                    write!(w, ",,,,")?;
                }
            }
            QueryOutcome::Compared { optimum, runs, .. } => {
                write!(w, ",compared,{}", optimum.length)?;
                for run in runs {
                    match (&run.result, run.excess) {
                        (Ok(p), Some(e)) => {
                            write!(w, ",{},{},{},{}", p.length, e, p.expanded, p.channel.len())?
                        }
                        _ => write!(w, ",,,,")?,
                    }
                }
            }
        }
        writeln!(w)?;
    }
    Ok(())
}
