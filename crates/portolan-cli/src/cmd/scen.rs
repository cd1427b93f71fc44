//! `portolan scen`: run every query of a scenario file and time it.

use crate::input::{MeshArgs, SearchArg, SearchArgs};
use anyhow::{bail, Context, Result};
use portolan::search::landmarks::Landmarks;
use portolan::{PathError, PathFinder};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `portolan scen`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Output: one CSV row per query (index, sx, sy, gx, gy, length, expected, us,
expanded; -1 for no path) to --csv or stdout, then a summary on stderr. Times exclude two
untimed warm-up queries per search (the first query, and its start to the last goal). A query
the search refuses (an end off the mesh) gets a row too, and fails the run at the end.

Examples:
  portolan scen --mesh scene_mp_2p_01.mesh --scen scene_mp_2p_01.mesh.scen --search exact --expect euclidean
  portolan scen --mesh scene_mp_2p_01.mesh --scen scene_mp_2p_01.mesh.scen --landmarks 16 --expect euclidean
  portolan scen --mesh arena.mesh --scen arena.scen --search funnel --csv arena-funnel.csv
  portolan scen --map AcrosstheCape.map --scen AcrosstheCape.map.scen --expect euclidean --tolerance 1e-9

With --map, query points are cell corners, y grows south, as in GPPC and MovingAI scenarios; a
query ending on a double corner (two blocked cells touching diagonally) is answered, through the
shorter side."
)]
#[command(mut_group("input", |g| g.required(true)))]
#[command(mut_arg("search", |a| {
    a.default_value("exact").default_value_if(
        "index",
        clap::builder::ArgPredicate::IsPresent,
        Some("corner"),
    )
}))]
pub struct Args {
    /// --scene | --map | --poly | --mesh (one is required), --decomposition, --radius, --arc-error.
    #[command(flatten)]
    pub input: MeshArgs,
    /// MovingAI-style scenario file (.scen / .mesh.scen), in the mesh's coordinates.
    #[arg(long)]
    pub scen: PathBuf,
    /// --search (default: exact), --portal.
    #[command(flatten)]
    pub search: SearchArgs,
    /// What the file's last column is, to count mismatches: `euclidean` (the shortest any-angle
    /// length, as in .mesh.scen files). Without it, the column is only copied to the CSV.
    #[arg(long, value_enum)]
    pub expect: Option<Expect>,
    /// Relative tolerance for a length to match the expected one (the files give 6 to 13
    /// significant digits).
    #[arg(long, default_value_t = 1e-6)]
    pub tolerance: f64,
    /// Write the CSV here instead of stdout.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Precompute K landmarks first (exact search only): the same lengths, fewer expansions.
    /// Their build time is printed apart and not counted in the queries' times.
    /// K is 1 to 256: the table takes K × vertices × 8 bytes and K whole-mesh searches.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub landmarks: Option<u16>,
    /// Also run the plain exact search on every query, in the same process, before the chosen
    /// one on every other query (run second, a search finds the query's data in the caches, so
    /// neither always goes second; the `time` line then mixes both positions): the CSV gains
    /// `exact,excess` columns (excess relative to the exact length) and stderr a summary line `optimal N%, mean excess X%, max excess Y%, speed-up Z×`
    /// (optimal within 1e-9 relative; speed-up = the exact search's mean time / this one's),
    /// then a line `floor: locating both endpoints X µs a query, the exact search's mean Y×
    /// that` (every method first locates the endpoints: no speed-up can pass Y).
    #[arg(long)]
    pub compare_exact: bool,
    /// Load the corner graph from this file (written by `portolan index` for the same mesh)
    /// instead of building it: the corner search (the default with --index). A file for
    /// another mesh, of another version or damaged is refused.
    #[arg(long, value_name = "FILE")]
    pub index: Option<PathBuf>,
    /// Find the paths without their channels (the polygons they pass through, which this
    /// command does not print), with --compare-exact for both searches: what a query costs a
    /// caller that needs only the points. The corner search's answers from its index spend
    /// about a sixth of their time on the channel; the other searches get it almost free.
    #[arg(long)]
    pub no_channel: bool,
    /// Run each query N times in a row (each search, with --compare-exact) and count its least
    /// time: what the query costs with its data warm, as when an area's queries come together
    /// (a frame's batch); by default each query runs once, meeting the caches the queries
    /// before it left. N is 1 to 1,000.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub repeat: u16,
}

/// `--expect` values.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// The last column is the Euclidean shortest-path length (-1: no path).
    Euclidean,
}

/// Runs `portolan scen`.
pub fn run(args: Args) -> Result<()> {
    if args.tolerance.is_nan() || args.tolerance < 0.0 {
        bail!("--tolerance must be a non-negative number");
    }
    if args.landmarks.is_some() && args.search.search == SearchArg::Funnel {
        bail!("--landmarks needs --search exact or corner (the funnel search does not use them)");
    }
    if args.index.is_some() && args.search.search != SearchArg::Corner {
        bail!("--index is a corner graph: it needs --search corner (the default with --index)");
    }
    let (_, mesh) = args.input.load()?;
    let f = std::fs::File::open(&args.scen)
        .with_context(|| format!("cannot open {}", args.scen.display()))?;
    let queries = portolan::io::scenario::read(std::io::BufReader::new(f))
        .with_context(|| format!("scenario {}", args.scen.display()))?;
    // The CSV file is written beside its target and renamed over it at the end, so a failure
    // leaves the old file; opened before the queries run, so a bad path fails first.
    let mut csv_file = args
        .csv
        .as_deref()
        .map(crate::output::AtomicFile::create)
        .transpose()?;
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let out: &mut dyn Write = match csv_file.as_mut() {
        Some(f) => f.writer(),
        None => &mut stdout,
    };
    let csv_name = args
        .csv
        .as_ref()
        .map_or("the standard output".to_owned(), |p| {
            p.display().to_string()
        });
    // The index is loaded (and a mismatched one refused) before anything is written.
    let mut opts = args
        .search
        .options_with_index(&mesh, true, args.index.as_deref())?
        .with_channel(!args.no_channel);
    let header = if args.compare_exact {
        "index,sx,sy,gx,gy,length,expected,us,expanded,exact,excess"
    } else {
        "index,sx,sy,gx,gy,length,expected,us,expanded"
    };
    writeln!(out, "{header}").with_context(|| format!("cannot write {csv_name}"))?;
    if let Some(k) = args.landmarks {
        let t0 = Instant::now();
        let lm = Landmarks::build(&mesh, usize::from(k));
        eprintln!(
            "landmarks:  {} built in {:.1} ms ({:.0} KiB)",
            lm.count(),
            t0.elapsed().as_secs_f64() * 1e3,
            lm.memory_bytes() as f64 / 1024.0
        );
        opts.landmarks = Some(std::sync::Arc::new(lm));
    }
    let mut finder = PathFinder::new();
    let mut exact_finder = PathFinder::new();
    // The same query for both: snapped alike.
    let exact_opts = portolan::SearchOptions::exact()
        .with_snap(opts.snap)
        .with_channel(opts.channel);
    let mut compare = Compare::default();
    // Untimed queries per search first: the first queries grow each search's buffers to the
    // mesh and derive the mesh's lazy data (dead ends, for every search that leaves the start's
    // polygon), one-time costs that would otherwise land on whichever query comes first. The
    // first query of a file is often short enough to stay in one polygon, so the first start
    // to the last goal too.
    let _ = mesh.dead_ends();
    if let (Some(a), Some(b)) = (queries.first(), queries.last()) {
        for (s, g) in [(a.start, a.goal), (a.start, b.goal)] {
            let _ = finder.find_path(&mesh, s, g, &opts);
            if args.compare_exact {
                let _ = exact_finder.find_path(&mesh, s, g, &exact_opts);
            }
        }
    }
    let bar = indicatif::ProgressBar::new(queries.len() as u64);
    let mut micros = Vec::with_capacity(queries.len());
    let (mut mismatches, mut failures) = (0usize, Vec::new());
    for (i, q) in queries.iter().enumerate() {
        // With --compare-exact, every other query runs the exact search first: run second, a
        // search finds the query's mesh data in the caches and the branch predictors trained
        // on it (on the arenas' microsecond queries the second of two equal searches measured
        // 0.7x the first's time), so a fixed order would favour the exact search.
        let exact_first = args.compare_exact && i % 2 == 1;
        let mut exact_run = None;
        if exact_first {
            exact_run = Some(timed(args.repeat, || {
                exact_finder.find_path(&mesh, q.start, q.goal, &exact_opts)
            }));
        }
        let (r, us) = timed(args.repeat, || {
            finder.find_path(&mesh, q.start, q.goal, &opts)
        });
        micros.push(us);
        let (length, expanded, failed) = match &r {
            Ok(p) => (Some(p.length), p.expanded, false),
            Err(PathError::NoPath) => (None, 0, false),
            Err(e) => {
                failures.push(format!("line {}: {e}", q.line));
                (None, 0, true)
            }
        };
        if args.expect == Some(Expect::Euclidean) {
            // A query the search refused (an end off the mesh, say) is bad input, not "no
            // path": it never matches, even where the file expects -1.
            let ok = !failed
                && match (length, q.expected) {
                    (Some(l), Some(w)) => (l - w).abs() <= args.tolerance * w.max(1.0),
                    (None, None) => true,
                    _ => false,
                };
            mismatches += usize::from(!ok);
        }
        write!(
            out,
            "{i},{},{},{},{},{},{},{us:.2},{expanded}",
            q.start.x,
            q.start.y,
            q.goal.x,
            q.goal.y,
            length.unwrap_or(-1.0),
            q.expected.unwrap_or(-1.0),
        )
        .with_context(|| format!("cannot write {csv_name}"))?;
        if args.compare_exact {
            let (exact, exact_us) = exact_run.unwrap_or_else(|| {
                timed(args.repeat, || {
                    exact_finder.find_path(&mesh, q.start, q.goal, &exact_opts)
                })
            });
            let exact = exact.ok().map(|p| p.length);
            let excess = compare.add(length, exact, us, exact_us);
            // The floor: locating both endpoints, the first step of every method that answers
            // from the endpoints' positions (timed alike, after both searches).
            let (_, floor_us) = timed(args.repeat, || {
                std::hint::black_box((mesh.locate(q.start), mesh.locate(q.goal)))
            });
            compare.add_floor(floor_us);
            write!(
                out,
                ",{},{}",
                exact.unwrap_or(-1.0),
                excess.map_or("".to_owned(), |x| format!("{x:e}"))
            )
            .with_context(|| format!("cannot write {csv_name}"))?;
        }
        writeln!(out).with_context(|| format!("cannot write {csv_name}"))?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    out.flush()
        .with_context(|| format!("cannot write {csv_name}"))?;
    if let Some(f) = csv_file {
        f.commit()?;
    }
    for f in failures.iter().take(10) {
        eprintln!("query error: {f}");
    }
    let (mean, median, p99) = summary(&mut micros);
    eprintln!("queries:    {}", queries.len());
    if args.expect.is_some() {
        eprintln!(
            "mismatches: {mismatches} (relative tolerance {})",
            args.tolerance
        );
    }
    eprintln!("time (µs):  mean {mean:.1}, median {median:.1}, p99 {p99:.1}");
    if args.compare_exact {
        eprintln!("{}", compare.summary());
        eprintln!("{}", compare.floor());
    }
    if mismatches > 0 {
        bail!(
            "{mismatches} of {} lengths differ from the expected ones",
            queries.len()
        );
    }
    // A refused query (an end off the mesh, say) is bad input, not "no path": the run fails
    // once every query has run and the CSV is written, so a script sees it.
    if let Some(first) = failures.first() {
        bail!(
            "{} of {} queries were refused (first: {first})",
            failures.len(),
            queries.len()
        );
    }
    Ok(())
}

/// `f`'s result and its least run time in microseconds over `runs` runs in a row (`--repeat`;
/// every run answers the same query, the last answer is kept).
fn timed<T>(runs: u16, mut f: impl FnMut() -> T) -> (T, f64) {
    let mut once = || {
        let t0 = Instant::now();
        let r = f();
        (r, t0.elapsed().as_secs_f64() * 1e6)
    };
    let (mut r, mut least) = once();
    for _ in 1..runs {
        let (again, us) = once();
        (r, least) = (again, least.min(us));
    }
    (r, least)
}

/// What `--compare-exact` accumulates.
#[derive(Default, Debug)]
struct Compare {
    /// Queries both searches answered with a path.
    both: usize,
    optimal: usize,
    excess_sum: f64,
    excess_max: f64,
    us: f64,
    exact_us: f64,
    /// Queries where one search found a path and the other did not.
    disagree: usize,
    /// Time spent locating both endpoints of every query (the floor), and how many were timed.
    floor_us: f64,
    floors: usize,
}

impl Compare {
    /// Adds one query; returns its relative excess when both found a path.
    fn add(
        &mut self,
        length: Option<f64>,
        exact: Option<f64>,
        us: f64,
        exact_us: f64,
    ) -> Option<f64> {
        self.us += us;
        self.exact_us += exact_us;
        match (length, exact) {
            (Some(l), Some(e)) => {
                let x = if e > 0.0 { (l - e) / e } else { l - e };
                self.both += 1;
                self.optimal += usize::from(x <= 1e-9);
                self.excess_sum += x;
                self.excess_max = self.excess_max.max(x);
                Some(x)
            }
            (None, None) => None,
            _ => {
                self.disagree += 1;
                None
            }
        }
    }

    /// One query's time to locate both its endpoints.
    fn add_floor(&mut self, us: f64) {
        self.floor_us += us;
        self.floors += 1;
    }

    /// `floor: locating both endpoints X µs a query, the exact search's mean Y× that`: the
    /// highest speed-up over the exact search that a method answering from its endpoints'
    /// positions could reach on these queries, which it must first locate.
    fn floor(&self) -> String {
        let n = self.floors.max(1) as f64;
        format!(
            "floor: locating both endpoints {:.3} µs a query, the exact search's mean {:.1}× that",
            self.floor_us / n,
            self.exact_us / self.floor_us.max(f64::MIN_POSITIVE)
        )
    }

    /// `optimal N%, mean excess X%, max excess Y%, speed-up Z×`.
    fn summary(&self) -> String {
        let n = self.both.max(1) as f64;
        // Shorter than the exact search by rounding only (the last bits of a sum taken in
        // another order) prints as 0, not -0.0000.
        let mean = 100.0 * self.excess_sum / n;
        let mean = if mean.abs() < 5e-5 { 0.0 } else { mean };
        let mut s = format!(
            "optimal {:.1}%, mean excess {:.4}%, max excess {:.4}%, speed-up {:.2}×",
            100.0 * self.optimal as f64 / n,
            mean,
            100.0 * self.excess_max,
            self.exact_us / self.us.max(f64::MIN_POSITIVE)
        );
        if self.disagree > 0 {
            s += &format!(
                " ({} queries where only one search found a path)",
                self.disagree
            );
        }
        s
    }
}

/// Mean, median and 99th percentile (nearest rank) of a sample; zeros when empty.
pub fn summary(xs: &mut [f64]) -> (f64, f64, f64) {
    if xs.is_empty() {
        return (0.0, 0.0, 0.0);
    }
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    let mean = xs.iter().sum::<f64>() / n as f64;
    let rank = |p: f64| xs[((p * n as f64).ceil() as usize).clamp(1, n) - 1];
    (mean, rank(0.5), rank(0.99))
}

#[cfg(test)]
mod tests {
    use super::summary;

    #[test]
    fn summary_of_a_sample() {
        let mut xs: Vec<f64> = (1..=100).rev().map(f64::from).collect();
        assert_eq!(summary(&mut xs), (50.5, 50.0, 99.0));
        assert_eq!(summary(&mut []), (0.0, 0.0, 0.0));
    }
}
