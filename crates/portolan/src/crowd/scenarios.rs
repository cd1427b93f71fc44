//! The standard crowd scenarios, shared by tests, benchmarks and `portolan crowd`.
//!
//! - [`circle`](Scenario::circle): agents evenly on a circle, each going to the antipode. Exactly
//!   symmetric: the classic ORCA deadlock case, which the right-hand bias resolves.
//! - [`crossing`](Scenario::crossing): two groups in two rooms swap rooms through one corridor,
//!   meeting head-on in it.
//! - [`bottleneck`](Scenario::bottleneck): a crowd goes through a door one agent wide (1.6
//!   diameters: one agent passes at a time) into the next room.
//! - [`random`](Scenario::random): random start and goal pairs on a map
//!   ([`random_on`](Scenario::random_on) for a given scene, such as a MovingAI map).
//!
//! Every scenario is a pure function of its arguments (the seed jitters start positions by a
//! few percent of a radius, or places agents for `random`). Starts are at least 2.4 radii apart,
//! and so are goals, so every agent can stand at its goal at the end.
//!
//! ```
//! use portolan::crowd::scenarios::{Scenario, ScenarioKind};
//! let s = Scenario::new(ScenarioKind::Circle, 16, 1).unwrap();
//! assert_eq!(s.agents.len(), 16);
//! let crowd = s.crowd(Default::default()).unwrap();
//! assert_eq!(crowd.agents().len(), 16);
//! ```

use std::collections::HashMap;
use std::sync::Arc;

use super::corridor::{for_each_wall_near, SurfaceScratch};
use super::{AgentParams, Crowd, CrowdError, CrowdOptions};
use crate::build::{build, BuildError, BuildOptions};
use crate::geom::{Aabb, Vec2};
use crate::mesh::{NavMesh, PolyId};
use crate::random::{
    random_scene, sin_cos, RandomSceneError, RandomSceneOptions, Rng, WeightedIndex,
};
use crate::scene::Scene;

/// Radius of the agents of the built-in scenarios (`random` excepted: see [`Scenario::random`]).
pub const RADIUS: f64 = 0.5;
/// Top speed of the agents of the built-in scenarios, units per second.
pub const SPEED: f64 = 1.5;
/// The time step of the built-in scenarios, seconds: an agent moves at most 0.15 of its radius
/// per step. Overlaps under crowd pressure grow with the step (0.04 of the radii sum at this
/// step in the bottleneck, 0.10 at twice it).
pub const DT: f64 = 0.05;
/// Spacing of starts and goals, in radii.
const SPACING: f64 = 2.4;

/// Which scenario.
///
/// ```
/// use portolan::crowd::scenarios::ScenarioKind;
/// let k: ScenarioKind = "bottleneck".parse().unwrap();
/// assert_eq!(k, ScenarioKind::Bottleneck);
/// assert_eq!(k.to_string(), "bottleneck");
/// assert!("line".parse::<ScenarioKind>().is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ScenarioKind {
    /// [`Scenario::circle`].
    Circle,
    /// [`Scenario::crossing`].
    Crossing,
    /// [`Scenario::bottleneck`].
    Bottleneck,
    /// [`Scenario::random`].
    Random,
}

impl ScenarioKind {
    /// Every kind, in documentation order.
    pub const ALL: [ScenarioKind; 4] = [
        ScenarioKind::Circle,
        ScenarioKind::Crossing,
        ScenarioKind::Bottleneck,
        ScenarioKind::Random,
    ];

    /// The kind's name, as the CLI spells it.
    ///
    /// ```
    /// # use portolan::crowd::scenarios::ScenarioKind;
    /// assert_eq!(ScenarioKind::Circle.name(), "circle");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            ScenarioKind::Circle => "circle",
            ScenarioKind::Crossing => "crossing",
            ScenarioKind::Bottleneck => "bottleneck",
            ScenarioKind::Random => "random",
        }
    }
}

impl std::fmt::Display for ScenarioKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for ScenarioKind {
    type Err = ScenarioError;
    fn from_str(s: &str) -> Result<ScenarioKind, ScenarioError> {
        ScenarioKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| ScenarioError::UnknownKind(s.to_string()))
    }
}

/// The most agents a scenario places ([`ScenarioError::TooManyAgents`] past it): the
/// placements are kept in memory before any crowd exists, and a count of billions would fill
/// it. The crowd itself has no such bound.
///
/// ```
/// use portolan::crowd::scenarios::{Scenario, ScenarioError, MAX_AGENTS};
/// let e = Scenario::random(MAX_AGENTS + 1, 1).unwrap_err();
/// assert_eq!(e, ScenarioError::TooManyAgents { wanted: MAX_AGENTS + 1, max: MAX_AGENTS });
/// ```
pub const MAX_AGENTS: usize = 1 << 16;

/// [`random_pairs`] stops after this many draws in a row that fit nowhere: a full map. Before
/// it, a count far past what a map holds drew `200 n` times before saying so: 65,536 agents
/// 0.6 apart and a radius from walls on den011d took 16 s to place 21,184, then 3.9 s to
/// place 19,843 (the last thousand places of a nearly full map cost more than 20,000 draws
/// each); two radii from walls, as the scenarios are now, 5.9 s to place 18,693.
pub const MAX_MISS_RUN: usize = 20_000;

/// [`random_pairs`] stops after this many draws that fit nowhere in all (about 16 s of draws).
const MOST_MISSES: usize = 200 * MAX_AGENTS + 1000;

/// [`ScenarioError::NoAgents`] for none, [`ScenarioError::TooManyAgents`] past [`MAX_AGENTS`].
fn check_count(n: usize) -> Result<(), ScenarioError> {
    match n {
        0 => Err(ScenarioError::NoAgents),
        n if n > MAX_AGENTS => Err(ScenarioError::TooManyAgents {
            wanted: n,
            max: MAX_AGENTS,
        }),
        _ => Ok(()),
    }
}

/// Why a scenario could not be made.
///
/// ```
/// use portolan::crowd::scenarios::{Scenario, ScenarioError, ScenarioKind};
/// assert!(matches!(Scenario::new(ScenarioKind::Circle, 0, 1), Err(ScenarioError::NoAgents)));
/// ```
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ScenarioError {
    /// Not one of `circle`, `crossing`, `bottleneck`, `random`.
    #[error("unknown scenario {0:?} (circle, crossing, bottleneck or random)")]
    UnknownKind(String),
    /// Zero agents asked for.
    #[error("a scenario needs at least one agent")]
    NoAgents,
    /// The scenario's mesh did not build.
    #[error("scenario mesh: {0}")]
    Build(#[from] BuildError),
    /// The random scene's options.
    #[error("random scene: {0}")]
    RandomScene(#[from] RandomSceneError),
    /// A radius or speed that is not finite and > 0.
    #[error("{what} {value} must be finite and > 0")]
    InvalidParameter {
        /// `radius` or `max_speed`.
        what: &'static str,
        /// The value.
        value: f64,
    },
    /// A spacing or clearance that is not finite and ≥ 0 ([`random_pairs`]).
    #[error("{what} {value} must be finite and >= 0")]
    InvalidDistance {
        /// `spacing` or `clearance`.
        what: &'static str,
        /// The value.
        value: f64,
    },
    /// More agents than [`MAX_AGENTS`].
    #[error("{wanted} agents asked for; a scenario holds at most {max}")]
    TooManyAgents {
        /// How many were asked for.
        wanted: usize,
        /// [`MAX_AGENTS`].
        max: usize,
    },
    /// The map has no room for that many agents (starts and goals apart by 2.4 radii).
    #[error("room for only {placed} of {wanted} agents on this map")]
    NoRoom {
        /// How many fitted.
        placed: usize,
        /// How many were asked for.
        wanted: usize,
    },
}

/// A scenario: the scene, its mesh (built for the agents' radius), the agents and a time step.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Which scenario.
    pub kind: ScenarioKind,
    /// The obstacles.
    pub scene: Scene,
    /// The mesh, built for [`Scenario::radius`].
    pub mesh: Arc<NavMesh>,
    /// The agents.
    pub agents: Vec<AgentParams>,
    /// The agents' radius.
    pub radius: f64,
    /// The time step the scenario is meant for, seconds.
    pub dt: f64,
}

fn jitter(rng: &mut Rng) -> Vec2 {
    let j = 0.05 * RADIUS;
    Vec2::new(rng.range_f64(-j, j), rng.range_f64(-j, j))
}

/// `count` slots of a grid of pitch `pitch`, `cols` wide, from `origin` (the first slot's
/// centre), row by row.
fn grid_slots(origin: Vec2, cols: usize, count: usize, pitch: f64) -> Vec<Vec2> {
    (0..count)
        .map(|k| origin + Vec2::new((k % cols) as f64, (k / cols) as f64) * pitch)
        .collect()
}

/// Pairs starts with goals so that the agents nearest `door` (the first to arrive) take the
/// goals farthest from it: arrivals fill the goal room from the back, and nobody has to cross
/// agents already standing at their goals. Returns goal indices by start index.
fn far_goals_first(starts: &[Vec2], goals: &[Vec2], door: Vec2) -> Vec<usize> {
    let mut by_start: Vec<usize> = (0..starts.len()).collect();
    by_start.sort_by(|&a, &b| {
        starts[a]
            .distance(door)
            .total_cmp(&starts[b].distance(door))
            .then(a.cmp(&b))
    });
    let mut by_goal: Vec<usize> = (0..goals.len()).collect();
    by_goal.sort_by(|&a, &b| {
        goals[b]
            .distance(door)
            .total_cmp(&goals[a].distance(door))
            .then(a.cmp(&b))
    });
    let mut out = vec![0; starts.len()];
    for (s, g) in by_start.into_iter().zip(by_goal) {
        out[s] = g;
    }
    out
}

/// Pitch of goal grids in the built-in scenarios: 3 diameters, so an agent walks between
/// agents already at their goals.
const GOAL_PITCH: f64 = 6.0 * RADIUS;

fn mesh_for(scene: &Scene, radius: f64) -> Result<Arc<NavMesh>, ScenarioError> {
    Ok(Arc::new(build(
        scene,
        &BuildOptions::default().with_agent_radius(radius),
    )?))
}

impl Scenario {
    /// The scenario `kind` with `agents` agents, from `seed`.
    ///
    /// ```
    /// use portolan::crowd::scenarios::{Scenario, ScenarioKind};
    /// for kind in ScenarioKind::ALL {
    ///     let s = Scenario::new(kind, 10, 3).unwrap();
    ///     assert_eq!((s.kind, s.agents.len()), (kind, 10));
    /// }
    /// ```
    pub fn new(kind: ScenarioKind, agents: usize, seed: u64) -> Result<Scenario, ScenarioError> {
        match kind {
            ScenarioKind::Circle => Scenario::circle(agents, seed),
            ScenarioKind::Crossing => Scenario::crossing(agents, seed),
            ScenarioKind::Bottleneck => Scenario::bottleneck(agents, seed),
            ScenarioKind::Random => Scenario::random(agents, seed),
        }
    }

    /// `n` agents evenly on a circle (2.4 radii apart along it), each going to the antipode,
    /// in an open square. The seed turns the whole circle; the scenario stays exactly symmetric.
    ///
    /// ```
    /// # use portolan::crowd::scenarios::Scenario;
    /// let s = Scenario::circle(8, 0).unwrap();
    /// let a = &s.agents[0];
    /// assert!((a.position + a.goal).length() < 1e-9); // antipodes
    /// ```
    pub fn circle(n: usize, seed: u64) -> Result<Scenario, ScenarioError> {
        check_count(n)?;
        let r_circle = (n as f64 * SPACING * 1.25 * RADIUS / std::f64::consts::TAU).max(4.0);
        let half = r_circle + 4.0;
        let scene = Scene::new(Aabb::new(Vec2::new(-half, -half), Vec2::new(half, half)));
        let turn = Rng::new(seed).next_f64() * std::f64::consts::TAU;
        let agents = (0..n)
            .map(|i| {
                let (s, c) = sin_cos(turn + std::f64::consts::TAU * i as f64 / n as f64);
                let p = Vec2::new(c, s) * r_circle;
                AgentParams::new(p, -p, RADIUS, SPEED)
            })
            .collect();
        Ok(Scenario {
            kind: ScenarioKind::Circle,
            mesh: mesh_for(&scene, RADIUS)?,
            scene,
            agents,
            radius: RADIUS,
            dt: DT,
        })
    }

    /// Two rooms joined by a corridor; half the agents start in each room and go to the other,
    /// so the groups meet head-on in the corridor. Starts and the other group's goals
    /// alternate in each room's grid.
    ///
    /// ```
    /// # use portolan::crowd::scenarios::Scenario;
    /// let s = Scenario::crossing(20, 0).unwrap();
    /// let left = s.agents.iter().filter(|a| a.position.x < a.goal.x).count();
    /// assert_eq!(left, 10);
    /// ```
    pub fn crossing(n: usize, seed: u64) -> Result<Scenario, ScenarioError> {
        check_count(n)?;
        let pitch = SPACING * RADIUS;
        let per_group = n.div_ceil(2);
        // Each room holds one group's goals, GOAL_PITCH apart, over the whole room.
        let goal_cols = (per_group as f64).sqrt().ceil() as usize;
        let room = goal_cols as f64 * GOAL_PITCH + 2.0;
        let corridor_len = 12.0;
        let corridor_w = (room * 0.25).max(4.0);
        let height = room;
        let width = 2.0 * room + corridor_len;
        let (y0, y1) = ((height - corridor_w) / 2.0, (height + corridor_w) / 2.0);
        let scene = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(width, height)))
            .with_obstacle([
                [room, 0.0],
                [room + corridor_len, 0.0],
                [room + corridor_len, y0],
                [room, y0],
            ])
            .with_obstacle([
                [room, y1],
                [room + corridor_len, y1],
                [room + corridor_len, height],
                [room, height],
            ]);
        let goal_origin = |x0: f64| Vec2::new(x0 + 1.0 + GOAL_PITCH / 2.0, 1.0 + GOAL_PITCH / 2.0);
        // Starts: a dense block against the corridor's mouth, centred on it.
        let start_cols = ((room - 2.0) / pitch).floor().max(1.0) as usize;
        let start_rows = per_group.div_ceil(start_cols.min(per_group).max(1));
        let block_h = start_rows as f64 * pitch;
        let start_cols_used = per_group.div_ceil(start_rows);
        let block_w = start_cols_used as f64 * pitch;
        let by = (height - block_h) / 2.0 + pitch / 2.0;
        let left_starts = grid_slots(
            Vec2::new(room - block_w + pitch / 2.0 - 0.5, by),
            start_cols_used,
            per_group,
            pitch,
        );
        let right_starts = grid_slots(
            Vec2::new(room + corridor_len + 0.5 + pitch / 2.0, by),
            start_cols_used,
            per_group,
            pitch,
        );
        let left_goals = grid_slots(goal_origin(0.0), goal_cols, per_group, GOAL_PITCH);
        let right_goals = grid_slots(
            goal_origin(room + corridor_len),
            goal_cols,
            per_group,
            GOAL_PITCH,
        );
        let mid = height / 2.0;
        let to_right = far_goals_first(
            &left_starts,
            &right_goals,
            Vec2::new(room + corridor_len, mid),
        );
        let to_left = far_goals_first(&right_starts, &left_goals, Vec2::new(room, mid));
        let mut rng = Rng::new(seed);
        // Agent i: even ones go left → right, odd ones right → left.
        let agents = (0..n)
            .map(|i| {
                let k = i / 2;
                let (start, goal) = if i % 2 == 0 {
                    (left_starts[k], right_goals[to_right[k]])
                } else {
                    (right_starts[k], left_goals[to_left[k]])
                };
                AgentParams::new(start + jitter(&mut rng), goal, RADIUS, SPEED)
            })
            .collect();
        Ok(Scenario {
            kind: ScenarioKind::Crossing,
            mesh: mesh_for(&scene, RADIUS)?,
            scene,
            agents,
            radius: RADIUS,
            dt: DT,
        })
    }

    /// A room with the crowd, a wall with a door 1.6 agent diameters wide, and the goals in
    /// the next room.
    ///
    /// ```
    /// # use portolan::crowd::scenarios::Scenario;
    /// let s = Scenario::bottleneck(30, 0).unwrap();
    /// assert!(s.agents.iter().all(|a| a.position.x < a.goal.x));
    /// ```
    pub fn bottleneck(n: usize, seed: u64) -> Result<Scenario, ScenarioError> {
        check_count(n)?;
        let pitch = SPACING * RADIUS;
        let goal_cols = (n as f64).sqrt().ceil() as usize;
        let room = goal_cols as f64 * GOAL_PITCH + 2.0;
        let wall = 1.0;
        let door = 1.6 * 2.0 * RADIUS;
        let height = room;
        let width = 2.0 * room + wall;
        let (y0, y1) = ((height - door) / 2.0, (height + door) / 2.0);
        let scene = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(width, height)))
            .with_obstacle([
                [room, 0.0],
                [room + wall, 0.0],
                [room + wall, y0],
                [room, y0],
            ])
            .with_obstacle([
                [room, y1],
                [room + wall, y1],
                [room + wall, height],
                [room, height],
            ]);
        // The crowd: a dense block against the wall, centred on the door.
        let cols = ((room - 2.0) / pitch).floor().max(1.0) as usize;
        let rows = n.div_ceil(cols.min(n));
        let used_cols = n.div_ceil(rows);
        let origin = Vec2::new(
            room - 1.0 - used_cols as f64 * pitch + pitch / 2.0,
            (height - rows as f64 * pitch) / 2.0 + pitch / 2.0,
        );
        let starts = grid_slots(origin, used_cols, n, pitch);
        let goals = grid_slots(
            Vec2::new(room + wall + 1.0 + GOAL_PITCH / 2.0, 1.0 + GOAL_PITCH / 2.0),
            goal_cols,
            n,
            GOAL_PITCH,
        );
        let pairing = far_goals_first(&starts, &goals, Vec2::new(room + wall, height / 2.0));
        let mut rng = Rng::new(seed);
        let agents = (0..n)
            .map(|i| {
                AgentParams::new(
                    starts[i] + jitter(&mut rng),
                    goals[pairing[i]],
                    RADIUS,
                    SPEED,
                )
            })
            .collect();
        Ok(Scenario {
            kind: ScenarioKind::Bottleneck,
            mesh: mesh_for(&scene, RADIUS)?,
            scene,
            agents,
            radius: RADIUS,
            dt: DT,
        })
    }

    /// Random start and goal pairs on a random scene (the chapter's 800 × 450 maps, from
    /// `seed`), agents of radius 3 at 30 units per second.
    ///
    /// ```
    /// # use portolan::crowd::scenarios::Scenario;
    /// let s = Scenario::random(50, 7).unwrap();
    /// assert_eq!(s.agents.len(), 50);
    /// assert!(s.agents.iter().all(|a| s.mesh.locate(a.goal).polygon().is_some()));
    /// ```
    pub fn random(n: usize, seed: u64) -> Result<Scenario, ScenarioError> {
        let scene = random_scene(seed, &RandomSceneOptions::default())?;
        Scenario::random_on(scene, n, seed, 3.0, 30.0)
    }

    /// Random start and goal pairs on `scene` for agents of `radius` and `max_speed`: starts
    /// (and goals) at least 2.4 radii apart and two radii away from the mesh's walls (so that
    /// an agent can pass one standing at its goal on either side; one radius where two leave
    /// no room for them all), all in the largest connected part of the mesh.
    ///
    /// ```
    /// use portolan::crowd::scenarios::Scenario;
    /// use portolan::Scene;
    /// let s = Scenario::random_on(Scene::default_map(), 40, 1, 4.0, 40.0).unwrap();
    /// assert_eq!(s.agents.len(), 40);
    /// ```
    pub fn random_on(
        scene: Scene,
        n: usize,
        seed: u64,
        radius: f64,
        max_speed: f64,
    ) -> Result<Scenario, ScenarioError> {
        check_count(n)?;
        for (what, value) in [("radius", radius), ("max_speed", max_speed)] {
            if !(value.is_finite() && value > 0.0) {
                return Err(ScenarioError::InvalidParameter { what, value });
            }
        }
        let mesh = mesh_for(&scene, radius)?;
        // Starts and goals keep two radii of room to every wall (in the mesh, where walls are
        // already inflated by the radius), so an agent standing at its goal leaves room to
        // pass it on either side. With one radius, an agent whose route ran along a wall could
        // not pass one parked there, and ORCA held it still for good (brc202d, 500 agents,
        // seed 1, exact routes: `tests/crowd.rs`). Where two radii leave no room for them all
        // (passages narrower than four radii: a maze of one-cell corridors has none), one.
        let clearances = [2.0 * radius, radius];
        let agents = random_pairs_with_room(&mesh, n, SPACING * radius, clearances, seed)?
            .into_iter()
            .map(|(s, g)| AgentParams::new(s, g, radius, max_speed))
            .collect();
        // Half a radius per step at top speed.
        let dt = 0.5 * radius / max_speed;
        Ok(Scenario {
            kind: ScenarioKind::Random,
            scene,
            mesh,
            agents,
            radius,
            dt,
        })
    }

    /// A crowd on the scenario's mesh with its agents, in order (agent ids 0, 1, …).
    ///
    /// ```
    /// use portolan::crowd::scenarios::Scenario;
    /// let s = Scenario::bottleneck(12, 0).unwrap();
    /// let mut crowd = s.crowd(Default::default()).unwrap();
    /// crowd.step(s.dt).unwrap();
    /// assert_eq!(crowd.steps(), 1);
    /// ```
    pub fn crowd(&self, options: CrowdOptions) -> Result<Crowd, CrowdError> {
        let mut crowd = Crowd::new(self.mesh.clone(), options);
        for a in &self.agents {
            crowd.add_agent(a.clone())?;
        }
        Ok(crowd)
    }
}

/// [`random_pairs`] with the first of two clearances from the walls that has room for all `n`
/// pairs: `[preferred, fallback]`. The scenarios keep agents two radii from walls, so that an
/// agent parked at its goal leaves room to pass it on either side, and less where that leaves
/// no room for them all (passages under four radii wide). Errors other than
/// [`ScenarioError::NoRoom`] come from the first try; `NoRoom` from the second.
///
/// ```
/// use portolan::crowd::scenarios::{random_pairs, random_pairs_with_room};
/// use portolan::{build, BuildOptions, Scene};
/// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
/// // Room for 30 pairs 20 from every wall: the same pairs as `random_pairs` with 20.
/// let wide = random_pairs_with_room(&mesh, 30, 10.0, [20.0, 0.0], 7).unwrap();
/// assert_eq!(wide, random_pairs(&mesh, 30, 10.0, 20.0, 7).unwrap());
/// // No room 1,000 from every wall: anywhere.
/// let anywhere = random_pairs_with_room(&mesh, 30, 10.0, [1000.0, 0.0], 7).unwrap();
/// assert_eq!(anywhere, random_pairs(&mesh, 30, 10.0, 0.0, 7).unwrap());
/// ```
pub fn random_pairs_with_room(
    mesh: &NavMesh,
    n: usize,
    spacing: f64,
    [preferred, fallback]: [f64; 2],
    seed: u64,
) -> Result<Vec<(Vec2, Vec2)>, ScenarioError> {
    match random_pairs(mesh, n, spacing, preferred, seed) {
        Err(ScenarioError::NoRoom { .. }) => random_pairs(mesh, n, spacing, fallback, seed),
        pairs => pairs,
    }
}

/// `n` random (start, goal) pairs on the largest connected part of `mesh` (by area), each point
/// uniform over that part's area: the starts at least `spacing` apart, the goals too, and every
/// point at least `clearance` from every wall (0: anywhere on the part). A pure function of its
/// arguments: [`Scenario::random_on`] places its agents with it, and so does the web demo's
/// crowd on the page's own mesh.
///
/// Points are drawn in pairs until `n` pairs fit, or [`MAX_MISS_RUN`] pairs in a row did not
/// (the map is full), or `200` [`MAX_AGENTS`] in all did not. The stops do not depend on `n`,
/// so asking again for the number [`ScenarioError::NoRoom`] reports gives the pairs placed;
/// [`ScenarioError::NoRoom`] then says how many fitted. A spacing or clearance that is negative
/// or not finite is [`ScenarioError::InvalidDistance`]; `n = 0` gives no pairs, and `n` past
/// [`MAX_AGENTS`] is [`ScenarioError::TooManyAgents`].
///
/// ```
/// use portolan::crowd::scenarios::{random_pairs, ScenarioError};
/// use portolan::{build, BuildOptions, Scene};
/// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
/// let pairs = random_pairs(&mesh, 30, 10.0, 2.0, 7).unwrap();
/// assert_eq!(pairs.len(), 30);
/// assert!(pairs.iter().all(|&(s, g)| mesh.locate(s).polygon().is_some()
///     && mesh.locate(g).polygon().is_some()));
/// assert!(pairs[1..].iter().all(|&(s, _)| s.distance(pairs[0].0) >= 10.0));
/// assert_eq!(random_pairs(&mesh, 30, 10.0, 2.0, 7).unwrap(), pairs);
/// // Far more than the map holds 300 units apart.
/// assert!(matches!(
///     random_pairs(&mesh, 100, 300.0, 0.0, 7),
///     Err(ScenarioError::NoRoom { wanted: 100, .. })
/// ));
/// assert!(matches!(
///     random_pairs(&mesh, 3, f64::NAN, 0.0, 7),
///     Err(ScenarioError::InvalidDistance { what: "spacing", .. })
/// ));
/// ```
pub fn random_pairs(
    mesh: &NavMesh,
    n: usize,
    spacing: f64,
    clearance: f64,
    seed: u64,
) -> Result<Vec<(Vec2, Vec2)>, ScenarioError> {
    for (what, value) in [("spacing", spacing), ("clearance", clearance)] {
        if !(value.is_finite() && value >= 0.0) {
            return Err(ScenarioError::InvalidDistance { what, value });
        }
    }
    // (`n = 0` is no pairs here, not an error.)
    check_count(n.max(1))?;
    let mut rng = Rng::new(seed);
    let sampler = Sampler::new(mesh);
    let mut starts = Spread::new(spacing);
    let mut goals = Spread::new(spacing);
    // The bound on misses does not depend on `n`, so the draws and where they stop are the
    // same whatever `n` is: the first `k` pairs of any answer are the answer for `k`.
    let mut pairs = Vec::new();
    let (mut misses, mut miss_run) = (0, 0);
    let mut scratch = SurfaceScratch::default();
    let mut clear = |(poly, p): (PolyId, Vec2)| {
        let mut wall = false;
        if clearance > 0.0 {
            for_each_wall_near(mesh, poly, p, clearance, 16, &mut scratch, |_| wall = true);
        }
        (!wall).then_some(p)
    };
    while pairs.len() < n && misses < MOST_MISSES && miss_run < MAX_MISS_RUN {
        let s = sampler.sample(mesh, &mut rng);
        let g = sampler.sample(mesh, &mut rng);
        let s = s.and_then(&mut clear);
        let g = g.and_then(&mut clear);
        match (s, g) {
            (Some(s), Some(g)) if starts.fits(s) && goals.fits(g) => {
                starts.insert(s);
                goals.insert(g);
                pairs.push((s, g));
                miss_run = 0;
            }
            _ => {
                misses += 1;
                miss_run += 1;
            }
        }
    }
    if pairs.len() < n {
        return Err(ScenarioError::NoRoom {
            placed: pairs.len(),
            wanted: n,
        });
    }
    Ok(pairs)
}

/// Uniform points on the largest connected part of a mesh: a polygon by area, then a point in
/// one of its fan triangles by area.
struct Sampler {
    polys: Vec<PolyId>,
    by_area: WeightedIndex,
}

impl Sampler {
    fn new(mesh: &NavMesh) -> Sampler {
        let keep = mesh.largest_component();
        let polys: Vec<PolyId> = mesh.polygons().filter(|p| keep[p.index()]).collect();
        let by_area = WeightedIndex::new(polys.iter().map(|&p| mesh.polygon_area(p)));
        Sampler { polys, by_area }
    }

    fn sample(&self, mesh: &NavMesh, rng: &mut Rng) -> Option<(PolyId, Vec2)> {
        let poly = self.polys[self.by_area.pick(rng)?];
        let pts: Vec<Vec2> = mesh.polygon_points(poly).collect();
        let tri_areas: Vec<f64> = (1..pts.len() - 1)
            .map(|i| (pts[i] - pts[0]).cross(pts[i + 1] - pts[0]) * 0.5)
            .collect();
        let sum: f64 = tri_areas.iter().sum();
        let mut y = rng.range_f64(0.0, sum);
        let mut t = 0;
        while t + 1 < tri_areas.len() && y >= tri_areas[t] {
            y -= tri_areas[t];
            t += 1;
        }
        let (mut u, mut v) = (rng.next_f64(), rng.next_f64());
        if u + v > 1.0 {
            (u, v) = (1.0 - u, 1.0 - v);
        }
        let p = pts[0] + (pts[t + 1] - pts[0]) * u + (pts[t + 2] - pts[0]) * v;
        mesh.locate_in(poly, p).map(|_| (poly, p))
    }
}

/// Points kept at least `spacing` apart (a hash grid of cells `spacing` wide).
struct Spread {
    spacing: f64,
    cells: HashMap<(i64, i64), Vec<Vec2>>,
}

impl Spread {
    /// Points `spacing` apart (≥ 0; 0 takes every point).
    fn new(spacing: f64) -> Spread {
        Spread {
            spacing,
            cells: HashMap::new(),
        }
    }
    /// The cell of `p`: its coordinates over the spacing, rounded down, saturated to `i64` (a
    /// spacing tiny against the coordinates puts the far points in the edge cells, where they
    /// are still compared one by one).
    fn key(&self, p: Vec2) -> (i64, i64) {
        (
            (p.x / self.spacing).floor() as i64,
            (p.y / self.spacing).floor() as i64,
        )
    }
    fn fits(&self, p: Vec2) -> bool {
        if self.spacing == 0.0 {
            return true;
        }
        let (cx, cy) = self.key(p);
        (cx.saturating_sub(1)..=cx.saturating_add(1)).all(|x| {
            (cy.saturating_sub(1)..=cy.saturating_add(1)).all(|y| {
                self.cells
                    .get(&(x, y))
                    .is_none_or(|v| v.iter().all(|q| q.distance(p) >= self.spacing))
            })
        })
    }
    fn insert(&mut self, p: Vec2) {
        if self.spacing == 0.0 {
            return;
        }
        let k = self.key(p);
        self.cells.entry(k).or_default().push(p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two radii from walls where the map has room; in a maze of one-cell corridors (the mesh's
    /// are half a cell wide for agents of a quarter cell), which has none, one radius.
    #[test]
    fn random_agents_fit_corridors_narrower_than_four_radii() {
        let opts = crate::random_grid::MazeOptions::new(1, 1);
        let maze = crate::random_grid::maze_grid(33, 33, &opts, 5).unwrap();
        let s = Scenario::random_on(maze.to_scene(), 20, 1, 0.25, 2.0).unwrap();
        assert_eq!(s.agents.len(), 20);
        let two = random_pairs(&s.mesh, 20, SPACING * 0.25, 0.5, 1);
        assert!(
            matches!(two, Err(ScenarioError::NoRoom { placed: 0, .. })),
            "{two:?}"
        );
    }

    /// Past [`MAX_AGENTS`] every scenario and `random_pairs` refuse at once; far past what a map
    /// holds, `random_pairs` stops at a run of [`MAX_MISS_RUN`] misses with what it placed, and
    /// asking for that many gives the same pairs (the stops do not depend on the count).
    #[test]
    fn counts_past_the_bound_or_the_room_are_refused_quickly() {
        let too_many = ScenarioError::TooManyAgents {
            wanted: MAX_AGENTS + 1,
            max: MAX_AGENTS,
        };
        for kind in [
            ScenarioKind::Circle,
            ScenarioKind::Crossing,
            ScenarioKind::Bottleneck,
            ScenarioKind::Random,
        ] {
            assert_eq!(
                Scenario::new(kind, MAX_AGENTS + 1, 1).unwrap_err(),
                too_many
            );
        }
        let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
        let e = random_pairs(&mesh, usize::MAX, 10.0, 0.0, 3).unwrap_err();
        assert_eq!(
            e,
            ScenarioError::TooManyAgents {
                wanted: usize::MAX,
                max: MAX_AGENTS
            }
        );
        // Points 40 apart on an 800 x 450 map: a few hundred at most. Without the run's stop
        // this drew 200 x 65,536 times.
        let Err(ScenarioError::NoRoom { placed, wanted }) =
            random_pairs(&mesh, MAX_AGENTS, 40.0, 0.0, 3)
        else {
            panic!("room for 65,536 agents 40 apart");
        };
        assert_eq!(wanted, MAX_AGENTS);
        assert!((50..400).contains(&placed), "{placed} placed");
        let again = random_pairs(&mesh, placed, 40.0, 0.0, 3).unwrap();
        assert_eq!(again.len(), placed);
        let fewer = random_pairs(&mesh, placed / 2, 40.0, 0.0, 3).unwrap();
        assert_eq!(
            fewer[..],
            again[..placed / 2],
            "the first pairs of any answer"
        );
    }

    /// A spacing of 0 takes every point (point agents), and a spacing tiny against the
    /// coordinates (cells past `i64`, saturated) still keeps points apart, without an overflow.
    #[test]
    fn random_pairs_take_a_zero_or_tiny_spacing() {
        let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
        let any = random_pairs(&mesh, 400, 0.0, 0.0, 3).unwrap();
        assert_eq!(any.len(), 400);
        for spacing in [1e-300, f64::MIN_POSITIVE] {
            let pairs = random_pairs(&mesh, 50, spacing, 0.0, 3).unwrap();
            assert_eq!(pairs.len(), 50);
            for (i, a) in pairs.iter().enumerate() {
                for b in &pairs[i + 1..] {
                    assert!(a.0.distance(b.0) >= spacing && a.1.distance(b.1) >= spacing);
                }
            }
        }
        let s = Spread::new(1e-300);
        assert_eq!(s.key(Vec2::new(1e10, -1e10)), (i64::MAX, i64::MIN));
    }
}
