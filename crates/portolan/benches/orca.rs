//! ORCA solvers compared on the same problems: Portolan's own port of RVO2's linear programs
//! (`crowd::avoidance`, f64) against `dodgy_2d` (f32, glam), issue 13.
//!
//! Run: `cargo bench -p portolan --bench orca` (the map is in `../shared/data`).
//!
//! The problems come from a real crowd: 1,000 agents with random start and goal pairs on
//! lak303d (as `benches/crowd.rs`), 40 steps in, so agents walk in contact. For each moving
//! agent: its position, velocity, radius and top speed; its preferred velocity (straight to
//! its goal at top speed); its 10 nearest neighbours within the crowd's range; the mesh's wall
//! edges within its wall range that it stands in front of. Both solvers get the same agents,
//! neighbours, walls and horizons (1.5 s agents, 0.1 s walls). Timed: one solve of every
//! problem, the inputs already in each library's types. Before timing, the quality of both
//! answers is printed: agent constraints violated, wall crossings within the wall horizon, how
//! far the two answers are apart, and whether each answer is the same on a rerun.

use criterion::{criterion_group, criterion_main, Criterion};
use dodgy_2d::{Agent as DAgent, AvoidanceOptions, Obstacle};
use portolan::crowd::scenarios::Scenario;
use portolan::crowd::{AgentState, CrowdOptions};
use portolan::io::movingai::read_map;
use portolan::testkit::orca::{OrcaNeighbour, OrcaProblem, OrcaScratch};
use portolan::Vec2;
use std::borrow::Cow;
use std::hint::black_box;

const TIME_HORIZON: f64 = 1.5;
const OBSTACLE_TIME_HORIZON: f64 = 0.1;
const NEIGHBOURS: usize = 10;

fn problems() -> Vec<OrcaProblem> {
    let path = portolan::testkit::data_dir().join("movingai/dao/lak303d.map");
    let f = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let scene = read_map(std::io::BufReader::new(f)).unwrap().to_scene();
    let s = Scenario::random_on(scene, 1_000, 1, 0.25, 2.0).unwrap();
    let mut crowd = s
        .crowd(CrowdOptions::default().with_max_replans_per_step(1_000))
        .unwrap();
    for _ in 0..40 {
        crowd.step(s.dt).unwrap();
    }
    let agents = crowd.agents();
    let mesh = crowd.mesh_of(agents[0].id()).unwrap();
    let walls: Vec<(Vec2, Vec2)> = mesh
        .polygons()
        .flat_map(|p| {
            mesh.neighbours(p)
                .iter()
                .enumerate()
                .filter(|(_, n)| n.is_none())
                .map(move |(i, _)| mesh.edge(p, i))
        })
        .collect();
    let max_radius = agents.iter().map(|a| a.radius()).fold(0.0, f64::max);
    agents
        .iter()
        .filter(|a| a.state() == AgentState::Moving)
        .map(|a| {
            let pos = a.position();
            let to_goal = a.goal() - pos;
            let preferred = to_goal * (a.max_speed() / to_goal.length().max(1e-12));
            let range = a.radius() + max_radius + a.max_speed() * TIME_HORIZON;
            let mut near: Vec<(f64, OrcaNeighbour)> = agents
                .iter()
                .filter(|b| b.id() != a.id() && b.position().distance(pos) < range)
                .map(|b| {
                    let n = OrcaNeighbour {
                        position: b.position(),
                        velocity: b.velocity(),
                        radius: b.radius(),
                    };
                    (b.position().distance(pos), n)
                })
                .collect();
            near.sort_by(|x, y| x.0.total_cmp(&y.0));
            near.truncate(NEIGHBOURS);
            let wall_range = a.max_speed() * OBSTACLE_TIME_HORIZON + a.radius();
            let near_walls = walls
                .iter()
                .copied()
                .filter(|&(u, v)| {
                    (v - u).cross(pos - u) > 0.0
                        && portolan::geom::closest_point_on_segment(pos, u, v).distance(pos)
                            <= wall_range
                })
                .collect();
            OrcaProblem {
                position: pos,
                velocity: a.velocity(),
                radius: a.radius(),
                max_speed: a.max_speed(),
                preferred,
                neighbours: near.into_iter().map(|(_, n)| n).collect(),
                walls: near_walls,
                time_horizon: TIME_HORIZON,
                obstacle_time_horizon: OBSTACLE_TIME_HORIZON,
                dt: s.dt,
            }
        })
        .collect()
}

/// A problem in `dodgy_2d`'s types (f32; positions relative to the agent, so f32 loses no
/// more than it must on a large map).
struct Dodgy {
    me: DAgent,
    neighbours: Vec<Cow<'static, DAgent>>,
    obstacles: Vec<Cow<'static, Obstacle>>,
    preferred: dodgy_2d::Vec2,
    max_speed: f32,
    dt: f32,
    options: AvoidanceOptions,
}

fn v32(v: Vec2) -> dodgy_2d::Vec2 {
    dodgy_2d::Vec2::new(v.x as f32, v.y as f32)
}

fn to_dodgy(p: &OrcaProblem) -> Dodgy {
    let rel = |v: Vec2| v32(v - p.position);
    Dodgy {
        me: DAgent {
            position: dodgy_2d::Vec2::ZERO,
            velocity: v32(p.velocity),
            radius: p.radius as f32,
            avoidance_responsibility: 1.0,
        },
        neighbours: p
            .neighbours
            .iter()
            .map(|n| {
                Cow::Owned(DAgent {
                    position: rel(n.position),
                    velocity: v32(n.velocity),
                    radius: n.radius as f32,
                    avoidance_responsibility: 1.0,
                })
            })
            .collect(),
        // A mesh wall has the walkable side on its left; dodgy's open obstacles are solid on
        // the left: reverse each edge.
        obstacles: p
            .walls
            .iter()
            .map(|&(a, b)| {
                Cow::Owned(Obstacle::Open {
                    vertices: vec![rel(b), rel(a)],
                })
            })
            .collect(),
        preferred: v32(p.preferred),
        max_speed: p.max_speed as f32,
        dt: p.dt as f32,
        options: AvoidanceOptions {
            // The crowd's mesh is built for the agent's radius: against walls it is a point.
            obstacle_margin: 0.0,
            time_horizon: p.time_horizon as f32,
            obstacle_time_horizon: p.obstacle_time_horizon as f32,
        },
    }
}

fn solve_dodgy(d: &Dodgy) -> Vec2 {
    let v = d.me.compute_avoiding_velocity(
        &d.neighbours,
        &d.obstacles,
        d.preferred,
        d.max_speed,
        d.dt,
        &d.options,
    );
    Vec2::new(v.x as f64, v.y as f64)
}

fn report(what: &str, problems: &[OrcaProblem], dodgy: &[Dodgy]) {
    let mut s = OrcaScratch::default();
    let n = problems.len();
    let (mut own_bad, mut dodgy_bad, mut own_wall, mut dodgy_wall) = (0, 0, 0, 0);
    let (mut own_worst, mut dodgy_worst): (f64, f64) = (0.0, 0.0);
    let (mut differ, mut diff_sum, mut diff_max) = (0, 0.0, 0.0f64);
    let (mut own_rerun, mut dodgy_rerun) = (0, 0);
    let (mut own_hits, mut dodgy_hits) = (0, 0);
    let constrained = problems
        .iter()
        .filter(|p| !p.neighbours.is_empty() || !p.walls.is_empty())
        .count();
    for (p, d) in problems.iter().zip(dodgy) {
        let own = p.solve(&mut s);
        let theirs = solve_dodgy(d);
        // 1e-6 of the top speed: f32 rounding is about 1e-7 of it.
        let tol = 1e-6 * p.max_speed;
        let vo = p.agent_violation(own);
        let vd = p.agent_violation(theirs);
        own_bad += usize::from(vo > tol);
        dodgy_bad += usize::from(vd > tol);
        own_worst = own_worst.max(vo / p.max_speed);
        dodgy_worst = dodgy_worst.max(vd / p.max_speed);
        own_hits += p.collisions_if_alone(own);
        dodgy_hits += p.collisions_if_alone(theirs);
        own_wall += usize::from(p.crosses_wall(own));
        dodgy_wall += usize::from(p.crosses_wall(theirs));
        let diff = own.distance(theirs) / p.max_speed;
        differ += usize::from(diff > 1e-3);
        diff_sum += diff;
        diff_max = diff_max.max(diff);
        own_rerun += usize::from(p.solve(&mut s).to_bits_pair() != own.to_bits_pair());
        dodgy_rerun += usize::from(solve_dodgy(d).to_bits_pair() != theirs.to_bits_pair());
    }
    eprintln!(
        "orca quality, {what}: {n} problems ({constrained} with a neighbour or a wall)\n  \
         RVO2's agent half-planes violated by more than 1e-6 of top speed: own {own_bad}, dodgy_2d {dodgy_bad} \
         (worst {own_worst:.2e} / {dodgy_worst:.2e} of top speed)\n  \
         neighbours touched within the horizon if they kept their velocities: own {own_hits}, dodgy_2d {dodgy_hits}\n  \
         moves crossing a wall within the wall horizon: own {own_wall}, dodgy_2d {dodgy_wall}\n  \
         answers more than 1e-3 of top speed apart: {differ} (mean {:.2e}, max {diff_max:.3} of top speed)\n  \
         reruns differing: own {own_rerun}, dodgy_2d {dodgy_rerun}",
        diff_sum / n as f64
    );
}

trait Bits {
    fn to_bits_pair(self) -> (u64, u64);
}

impl Bits for Vec2 {
    fn to_bits_pair(self) -> (u64, u64) {
        (self.x.to_bits(), self.y.to_bits())
    }
}

fn orca(c: &mut Criterion) {
    let problems = problems();
    let dodgy: Vec<Dodgy> = problems.iter().map(to_dodgy).collect();
    report("agents and walls", &problems, &dodgy);
    // The same without the walls: the two solvers' wall models differ (a linearised
    // half-plane per wall against RVO2's obstacle velocity obstacles), their agent models
    // do not.
    let no_walls: Vec<OrcaProblem> = problems
        .iter()
        .map(|p| OrcaProblem {
            walls: Vec::new(),
            ..p.clone()
        })
        .collect();
    let no_walls_dodgy: Vec<Dodgy> = no_walls.iter().map(to_dodgy).collect();
    report("agents only", &no_walls, &no_walls_dodgy);
    let mut group = c.benchmark_group("orca_solve_all");
    group.sample_size(20);
    group.bench_function("own_f64", |b| {
        let mut s = OrcaScratch::default();
        b.iter(|| {
            for p in &problems {
                black_box(p.solve(&mut s));
            }
        })
    });
    group.bench_function("dodgy_2d_f32", |b| {
        b.iter(|| {
            for d in &dodgy {
                black_box(solve_dodgy(d));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, orca);
criterion_main!(benches);
