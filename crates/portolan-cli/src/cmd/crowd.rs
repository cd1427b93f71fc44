//! `portolan crowd`: run a crowd scenario and report arrivals, overlaps, mesh exits and step
//! times, all measured from the positions after every step.

use crate::input::SearchArg;
use crate::output::AtomicFile;
use anyhow::{bail, Context, Result};
use portolan::crowd::scenarios::{Scenario, ScenarioKind};
use portolan::crowd::CrowdOptions;
use portolan::search::corner_graph::CornerGraph;
use portolan::search::SearchMethod;
use portolan::Vec2;
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `portolan crowd`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Output: a summary (JSON with --json) on stdout: agents, steps, arrived,
max_overlap_ratio (largest overlap of two agents over their radii sum, any step),
left_mesh (agent positions off the mesh, summed over steps), mean_step_ms, p99_step_ms,
sim_seconds_to_all_arrived (null if they did not). Arrival, overlap and mesh exits are
measured from the positions after every step, not taken from the crowd's own counters.

Examples:
  portolan crowd --scenario circle --agents 300 --steps 3000 --json
  portolan crowd --scenario bottleneck --agents 200 --steps 6000 --svg bottleneck.svg
  portolan crowd --scenario random --map ../shared/data/movingai/dao/den011d.map --agents 1000 --steps 500 --json
  portolan crowd --scenario crossing --agents 100 --steps 2000 --trace crossing.csv

The run stops early once every agent has arrived."
)]
pub struct Args {
    /// Which scenario: circle, crossing, bottleneck or random.
    #[arg(long, value_parser = parse_kind)]
    pub scenario: ScenarioKind,
    /// A MovingAI .map to run the random scenario on (cells are 1 unit; y grows south). Without
    /// it, random uses a seeded random 800 × 450 scene.
    #[arg(long)]
    pub map: Option<PathBuf>,
    /// Number of agents.
    #[arg(long, default_value_t = 100)]
    pub agents: usize,
    /// Most steps to run (the run stops when everyone has arrived).
    #[arg(long, default_value_t = 1000)]
    pub steps: usize,
    /// Seed of the scenario (start jitter, or the random placement).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Time step in seconds (default: the scenario's, 0.05 for the built-in ones).
    #[arg(long)]
    pub dt: Option<f64>,
    /// Agent radius on a --map (cells).
    #[arg(long, default_value_t = 0.25)]
    pub radius: f64,
    /// Agent top speed on a --map (cells per second).
    #[arg(long, default_value_t = 2.0)]
    pub speed: f64,
    /// Path queries per step at most.
    #[arg(long, default_value_t = 64)]
    pub replans: usize,
    /// Run every step on one thread (the positions are the same either way).
    #[arg(long)]
    pub sequential: bool,
    /// How agents plan their routes: funnel (the chapter's channel search, the crowd's
    /// default; its routes are not always the shortest), exact (every route shortest) or
    /// corner (the same routes as exact through a corner graph, built before the run).
    #[arg(long, value_enum, default_value_t = SearchArg::Funnel)]
    pub search: SearchArg,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write every agent's position at every step as CSV: step,agent,x,y,radius.
    #[arg(long)]
    pub trace: Option<PathBuf>,
    /// Draw the mesh and the agents' trails as SVG.
    #[arg(long)]
    pub svg: Option<PathBuf>,
}

fn parse_kind(s: &str) -> std::result::Result<ScenarioKind, String> {
    s.parse()
        .map_err(|e: portolan::crowd::scenarios::ScenarioError| e.to_string())
}

/// What a run measured.
#[derive(serde::Serialize, Debug)]
struct Summary {
    scenario: String,
    /// How agents plan: funnel, exact or corner.
    search: String,
    /// The corner graph's build, before the run (corner only).
    graph_build_ms: Option<f64>,
    agents: usize,
    steps: usize,
    dt: f64,
    arrived: usize,
    max_overlap_ratio: f64,
    left_mesh: usize,
    mean_step_ms: f64,
    p99_step_ms: f64,
    sim_seconds_to_all_arrived: Option<f64>,
    /// The mean over the agents that arrived of when each first did, seconds: shorter routes
    /// arrive sooner.
    mean_arrival_s: Option<f64>,
}

/// Runs `portolan crowd`.
pub fn run(args: Args) -> Result<()> {
    if args.agents == 0 {
        bail!("--agents must be at least 1");
    }
    if args.replans == 0 {
        bail!("--replans must be at least 1");
    }
    if let Some(dt) = args.dt {
        if !(dt.is_finite() && dt > 0.0) {
            bail!("--dt must be a positive number of seconds");
        }
    }
    let scenario = match (&args.map, args.scenario) {
        (Some(map), ScenarioKind::Random) => {
            let scene = crate::input::load_map(map)?;
            Scenario::random_on(scene, args.agents, args.seed, args.radius, args.speed)
        }
        (Some(_), kind) => bail!("--map runs the random scenario only (not {kind})"),
        (None, kind) => Scenario::new(kind, args.agents, args.seed),
    }
    .context("scenario")?;
    let dt = args.dt.unwrap_or(scenario.dt);
    let search = SearchMethod::from(args.search);
    let options = CrowdOptions::default()
        .with_max_replans_per_step(args.replans)
        .with_parallel(!args.sequential)
        .with_search(search);
    let mut crowd = scenario.crowd(options).context("crowd")?;
    let mut graph_ms = None;
    if search == SearchMethod::Corner {
        let t0 = Instant::now();
        let graph = std::sync::Arc::new(CornerGraph::build(&scenario.mesh));
        graph_ms = Some(t0.elapsed().as_secs_f64() * 1e3);
        crowd
            .set_corner_graph(0, Some(graph))
            .context("corner graph")?;
    }
    // Files are opened before the run, so a bad path fails first.
    let mut trace = args.trace.as_deref().map(AtomicFile::create).transpose()?;
    let svg = args.svg.as_deref().map(AtomicFile::create).transpose()?;
    if let Some(t) = trace.as_mut() {
        writeln!(t.writer(), "step,agent,x,y,radius").context("cannot write the trace")?;
    }
    let radii: Vec<f64> = scenario.agents.iter().map(|a| a.radius).collect();
    let goals: Vec<Vec2> = crowd.agents().iter().map(|a| a.goal()).collect();
    let mut trails: Vec<Vec<Vec2>> = if svg.is_some() {
        crowd.agents().iter().map(|a| vec![a.position()]).collect()
    } else {
        Vec::new()
    };
    let trail_every = (args.steps / 400).max(1);
    let mut times = Vec::with_capacity(args.steps);
    let (mut max_overlap, mut left_mesh, mut all_arrived_at) = (0.0f64, 0usize, None);
    let mut steps = 0;
    let mut first_arrival: Vec<Option<f64>> = vec![None; radii.len()];
    let bar = indicatif::ProgressBar::new(args.steps as u64);
    for step in 1..=args.steps {
        let t0 = Instant::now();
        crowd.step(dt).context("step")?;
        times.push(t0.elapsed().as_secs_f64() * 1e3);
        steps = step;
        let points: Vec<Vec2> = crowd.agents().iter().map(|a| a.position()).collect();
        left_mesh += points
            .iter()
            .filter(|&&p| scenario.mesh.locate(p).polygon().is_none())
            .count();
        max_overlap = max_overlap.max(max_overlap_ratio(&points, &radii));
        if let Some(t) = trace.as_mut() {
            let w = t.writer();
            for (i, p) in points.iter().enumerate() {
                writeln!(w, "{step},{i},{},{},{}", p.x, p.y, radii[i])
                    .context("cannot write the trace")?;
            }
        }
        if !trails.is_empty() && step % trail_every == 0 {
            for (t, &p) in trails.iter_mut().zip(&points) {
                t.push(p);
            }
        }
        bar.inc(1);
        let mut arrived = true;
        for (i, ((p, g), r)) in points.iter().zip(&goals).zip(&radii).enumerate() {
            let here = p.distance(*g) <= 0.5 * r;
            if here && first_arrival[i].is_none() {
                first_arrival[i] = Some(step as f64 * dt);
            }
            arrived &= here;
        }
        if arrived {
            all_arrived_at = Some(step as f64 * dt);
            break;
        }
    }
    bar.finish_and_clear();
    if let Some(t) = trace {
        t.commit()?;
    }
    if let Some(mut f) = svg {
        let points: Vec<Vec2> = crowd.agents().iter().map(|a| a.position()).collect();
        for (t, &p) in trails.iter_mut().zip(&points) {
            t.push(p);
        }
        let text = draw_svg(&scenario.mesh, &trails, &radii);
        f.writer()
            .write_all(text.as_bytes())
            .context("cannot write the SVG")?;
        f.commit()?;
    }
    let arrived = crowd
        .agents()
        .iter()
        .zip(&goals)
        .zip(&radii)
        .filter(|((a, g), r)| a.position().distance(**g) <= 0.5 * *r)
        .count();
    let mut sorted = times.clone();
    sorted.sort_by(f64::total_cmp);
    let p99 = sorted
        .get(((sorted.len() as f64 * 0.99).ceil() as usize).saturating_sub(1))
        .copied()
        .unwrap_or(0.0);
    let summary = Summary {
        scenario: scenario.kind.to_string(),
        // The name `--search` takes (every value has one).
        search: clap::ValueEnum::to_possible_value(&args.search)
            .map_or_else(String::new, |v| v.get_name().to_owned()),
        graph_build_ms: graph_ms,
        agents: scenario.agents.len(),
        steps,
        dt,
        arrived,
        max_overlap_ratio: max_overlap,
        left_mesh,
        mean_step_ms: times.iter().sum::<f64>() / times.len().max(1) as f64,
        p99_step_ms: p99,
        sim_seconds_to_all_arrived: all_arrived_at,
        mean_arrival_s: {
            let times: Vec<f64> = first_arrival.iter().flatten().copied().collect();
            (!times.is_empty()).then(|| times.iter().sum::<f64>() / times.len() as f64)
        },
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &summary)?;
        writeln!(out)?;
    } else {
        writeln!(
            out,
            "{} with {} agents planning {}, {} steps of {} s: {} arrived{}{}",
            summary.scenario,
            summary.agents,
            summary.search,
            summary.steps,
            summary.dt,
            summary.arrived,
            summary
                .sim_seconds_to_all_arrived
                .map_or(String::new(), |s| format!(" (all after {s:.2} s)")),
            summary
                .mean_arrival_s
                .map_or(String::new(), |s| format!(", on average after {s:.2} s"))
        )?;
        if let Some(ms) = summary.graph_build_ms {
            writeln!(out, "corner graph built in {ms:.1} ms before the run")?;
        }
        writeln!(
            out,
            "max overlap {:.4} of the radii sum, {} positions off the mesh",
            summary.max_overlap_ratio, summary.left_mesh
        )?;
        writeln!(
            out,
            "step time: mean {:.3} ms, p99 {:.3} ms",
            summary.mean_step_ms, summary.p99_step_ms
        )?;
    }
    Ok(())
}

/// The largest overlap of two agents as a fraction of their radii sum, with a hash grid.
fn max_overlap_ratio(points: &[Vec2], radii: &[f64]) -> f64 {
    let cell = 2.0 * radii.iter().copied().fold(0.0, f64::max);
    if cell <= 0.0 {
        return 0.0;
    }
    let key = |p: Vec2| ((p.x / cell).floor() as i64, (p.y / cell).floor() as i64);
    let mut grid: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
    for (i, &p) in points.iter().enumerate() {
        grid.entry(key(p)).or_default().push(i);
    }
    let mut worst: f64 = 0.0;
    for (i, &p) in points.iter().enumerate() {
        let (cx, cy) = key(p);
        for x in cx - 1..=cx + 1 {
            for y in cy - 1..=cy + 1 {
                for &j in grid.get(&(x, y)).map_or(&[][..], |v| v.as_slice()) {
                    if j <= i {
                        continue;
                    }
                    let sum = radii[i] + radii[j];
                    let d = p.distance(points[j]);
                    if d < sum && sum > 0.0 {
                        worst = worst.max((sum - d) / sum);
                    }
                }
            }
        }
    }
    worst
}

/// The mesh (light), every agent's trail and its final disc, y up.
fn draw_svg(mesh: &portolan::NavMesh, trails: &[Vec<Vec2>], radii: &[f64]) -> String {
    use std::fmt::Write as _;
    let b = mesh.bounds();
    let (w, h) = (b.max.x - b.min.x, b.max.y - b.min.y);
    let scale = 1000.0 / w.max(h).max(1e-9);
    let line = 1.0 / scale;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{:.0}" height="{:.0}" viewBox="{} {} {} {}">"#,
        w * scale,
        h * scale,
        b.min.x,
        -b.max.y,
        w,
        h
    );
    let _ = writeln!(
        s,
        r##"<rect x="{}" y="{}" width="{w}" height="{h}" fill="#555"/>"##,
        b.min.x, -b.max.y
    );
    let _ = writeln!(s, r#"<g transform="scale(1,-1)">"#);
    for p in mesh.polygons() {
        let pts: Vec<String> = mesh
            .polygon_points(p)
            .map(|q| format!("{},{}", q.x, q.y))
            .collect();
        let _ = writeln!(
            s,
            r##"<polygon points="{}" fill="#f4f1e8" stroke="#ddd" stroke-width="{line}"/>"##,
            pts.join(" ")
        );
    }
    for (i, t) in trails.iter().enumerate() {
        let hue = (i * 137) % 360;
        let pts: Vec<String> = t.iter().map(|q| format!("{},{}", q.x, q.y)).collect();
        let _ = writeln!(
            s,
            r#"<polyline points="{}" fill="none" stroke="hsl({hue},70%,45%)" stroke-opacity="0.6" stroke-width="{}"/>"#,
            pts.join(" "),
            line * 1.5
        );
        if let Some(last) = t.last() {
            let _ = writeln!(
                s,
                r#"<circle cx="{}" cy="{}" r="{}" fill="hsl({hue},70%,45%)" fill-opacity="0.5"/>"#,
                last.x, last.y, radii[i]
            );
        }
    }
    s.push_str("</g>\n</svg>\n");
    s
}
