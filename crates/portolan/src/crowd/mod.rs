//! Crowds: many agents that follow their paths on the mesh and avoid each other.
//!
//! The navmesh finds the global route; local avoidance keeps agents apart (the chapter's
//! applications section; Recast's DetourCrowd, Unity and Unreal split the work the same way).
//! A [`Crowd`] sits on top of the path search, one way: `mesh → search → path → agents`.
//!
//! Each [`Crowd::step`] runs, for every agent:
//!
//! ```text
//!  replan queue ──► corridor ──► preferred ──► ORCA ──► move along ──► separation
//!  (≤ K oldest)     (next        velocity     (neighbours  surface      (push overlaps
//!                    corner)     + bias       + walls)     (clamped)    apart, clamped)
//! ```
//!
//! - **Corridor** (`corridor.rs`, Detour's `dtPathCorridor`): the agent keeps its channel and
//!   corners, steers to the next corner, moves the corridor's start as it advances, skips a
//!   corner once the one after is in sight, and asks for a replan when its goal changes, when
//!   it strays off its channel, when it stalls, or when the mesh changes
//!   ([`Crowd::set_mesh`], the hook for dynamic obstacles; [`Crowd::set_mesh_changed`] when
//!   the change is confined to known boxes, such as rebuilt tiles: only the agents whose
//!   corridor enters them replan).
//! - **Budgeted replanning**: at most [`CrowdOptions::max_replans_per_step`] path queries per
//!   step, oldest request first, so a mass goal change spreads over frames.
//! - **Plans** ([`CrowdOptions::search`]): the chapter's channel search by default; the exact
//!   search, or the exact search through a radius class's corner graph
//!   ([`Crowd::set_corner_graph`]), give every agent a shortest route, the latter at a fraction
//!   of the channel search's cost on large maps (500 plans on brc202d: 12.3 ms against 99.7 ms,
//!   `BENCHMARKS.md`, "Crowds: what does a plan cost?").
//! - **ORCA** (`avoidance.rs`): van den Berg, Guy, Lin and Manocha, *Reciprocal n-body
//!   Collision Avoidance* (2011): each agent takes half the responsibility for avoiding each
//!   of its nearest neighbours (found with a uniform grid, `grid.rs`), the nearby wall edges of
//!   the mesh are hard constraints, and a small 2D linear program picks the new velocity
//!   closest to the preferred one.
//! - **Moves are clamped to the mesh** (Detour's `moveAlongSurface`): an agent slides along the
//!   wall it would cross, so no agent ever leaves the walkable area, whatever avoidance asks.
//! - **Separation**: where ORCA could not satisfy every constraint (dense crowds), overlapping
//!   pairs are pushed apart by half their overlap each (Detour's collision pass), again clamped;
//!   up to [`CrowdOptions::separation_iterations`] passes, until one finds no overlap.
//! - **Symmetry breaking**: plain ORCA can deadlock when a scenario is exactly symmetric (two
//!   agents head-on, a circle of agents) because each sees the mirror image of the other's
//!   choice. Every preferred velocity is rotated by a small fixed angle to the agent's right
//!   ([`CrowdOptions::right_bias`]), varied by a few percent per agent from its id: a
//!   right-hand rule, so head-on pairs pass left side to left side and a circle turns into a
//!   roundabout. The bias is a pure function of the id, so steps stay deterministic.
//! - **Giving way**: an agent at its goal holds its place and walks back when pushed away; in a
//!   passage too narrow for two, that held a passing agent still for good (each pushing as
//!   hard as the other). So a *parked* agent (one that has reached its current goal) steps
//!   aside, across the other's heading, once a neighbour on its way (heading at it, wanting at
//!   least half its top speed and getting less than half of that) has walked into it for a
//!   second more than none has. Between walls the step aside is a slide along the passage,
//!   and the neighbour pushes it ahead to where there is room; with nobody held up by it, it
//!   walks back. A passer-by slowed for a moment goes round as before.
//!
//! **Radii.** An agent's centre moves on a mesh built for its radius (obstacles inflated by
//! it), so a centre on the mesh means a body clear of obstacles. [`Crowd::new`] takes one mesh
//! for every agent; [`Crowd::with_radius_classes`] takes one per radius class
//! ([`build_per_radius`](crate::build::build_per_radius)) and gives each agent the smallest
//! class that fits it.
//!
//! **Determinism.** A step computes every agent's new state from the previous positions into a
//! buffer (in parallel with rayon when [`CrowdOptions::parallel`] is set, the `parallel` feature
//! is on and the crowd has at least [`CrowdOptions::parallel_min_agents`] agents), then applies
//! it in agent order. The buffer is in the neighbour grid's cell order, so agents computed one
//! after the other are neighbours and find each other's data in cache. Neighbours are visited
//! in a fixed order, replans are computed independently and applied in queue order. The same
//! inputs give bit-identical positions, sequential or parallel, on any number of threads. So a
//! crowd may pick the way per step: with [`CrowdOptions::parallel_tuning`] it times its steps
//! both ways now and then and runs the faster, for machines whose cores are busy elsewhere,
//! where waiting for the pool's threads costs more than they save.
//!
//! **Cost.** Per agent and step: a grid query for its neighbours, a funnel over the next
//! polygons of its channel, a breadth-first search for walls and for the move, and a 2D linear
//! program of O(neighbours + walls) constraints. Measured step times for 1,000 and 10,000
//! agents on a Dragon Age map and on AcrosstheCape are in the repository's `BENCHMARKS.md`,
//! section "Crowds" (`cargo bench -p portolan --bench crowd`).
//!
//! **Limits.** Overlaps under crowd pressure grow with the time step: the scenarios keep them
//! under 5% of the radii sum at steps where an agent moves at most 0.15 of its radius
//! ([`scenarios::DT`]); at twice that the bottleneck reached 10%.
//!
//! ```
//! use portolan::crowd::{AgentParams, Crowd, CrowdOptions};
//! use portolan::{build, BuildOptions, Scene, Vec2};
//! use std::sync::Arc;
//!
//! // One mesh built for agents of radius 5.
//! let mesh = build(&Scene::default_map(), &BuildOptions::default().with_agent_radius(5.0)).unwrap();
//! let mut crowd = Crowd::new(Arc::new(mesh), CrowdOptions::default());
//! let a = crowd.add_agent(AgentParams::new(Vec2::new(20.0, 20.0), Vec2::new(780.0, 430.0), 5.0, 60.0)).unwrap();
//! let b = crowd.add_agent(AgentParams::new(Vec2::new(780.0, 430.0), Vec2::new(20.0, 20.0), 5.0, 60.0)).unwrap();
//! for _ in 0..2000 {
//!     crowd.step(0.05).unwrap();
//! }
//! assert!(crowd.agent(a).unwrap().is_arrived() && crowd.agent(b).unwrap().is_arrived());
//! ```

pub(crate) mod avoidance;
mod corridor;
mod grid;
pub mod scenarios;

use std::collections::VecDeque;
use std::sync::Arc;

use self::avoidance::{Line, Me};
use self::corridor::{Corridor, SurfaceScratch};
use self::grid::Grid;
use crate::geom::norm;
use crate::geom::{Aabb, Vec2};
use crate::mesh::{NavMesh, PolyId};
use crate::search::corner_graph::CornerGraph;
use crate::search::{PathError, PathFinder, SearchMethod, SearchOptions};

/// The most neighbours an agent avoids ([`CrowdOptions::max_neighbours`] is at most this).
pub const MAX_NEIGHBOURS: usize = 16;
/// The default of [`CrowdOptions::parallel_min_agents`].
pub const PARALLEL_MIN_AGENTS: usize = 512;
/// How often a crowd that tunes itself ([`CrowdOptions::parallel_tuning`]) tries the way it
/// found slower: once every this many steps.
pub const TUNING_PROBE_EVERY: u32 = 16;
/// Agents per rayon task in the per-agent pass (a task costs a steal, about a microsecond).
const PAR_CHUNK: usize = 128;
/// Agents per rayon task in the step's copying passes (the snapshot, the write-back).
#[cfg(feature = "parallel")]
const PAR_GATHER_CHUNK: usize = 1024;
/// How many agents of the step's cell order [`Ctx::touch`] loads ahead at a time.
const TOUCH_AHEAD: usize = 32;
/// Separation passes are cheap per agent (a few distance tests): they use the pool only from
/// this many times [`CrowdOptions::parallel_min_agents`] on, in tasks of [`SEPARATION_CHUNK`]
/// agents.
const SEPARATION_PARALLEL_FACTOR: usize = 8;
/// Agents per rayon task in a separation pass.
const SEPARATION_CHUNK: usize = 512;
/// Queueing: a neighbour is ahead within this cosine of the heading, going the same way
/// within this cosine.
const FOLLOW_CONE: f64 = 0.8;
/// Queueing: the time to close the gap to the agent ahead, seconds.
const FOLLOW_TIME: f64 = 0.3;
/// Queueing: the preferred speed never drops below this fraction of the top speed.
const FOLLOW_FLOOR: f64 = 0.1;
/// Most polygons searched for walls around an agent.
const WALL_POLYS: usize = 16;
/// Giving way: a parked agent yields to a neighbour on its way (not parked) whose heading points
/// at it within this cosine...
const YIELD_CONE: f64 = 0.5;
/// ...whose centre is within this many times their radii sum...
const YIELD_RANGE: f64 = 2.0;
/// ...who wants at least this fraction of its top speed (not one slowing down to arrive)...
const YIELD_WANT: f64 = 0.5;
/// ...and makes less than this fraction of the speed it wants along its heading: held up, not
/// passing by.
const YIELD_SLOW: f64 = 0.5;
/// A parked agent steps aside at this fraction of its top speed...
const YIELD_SPEED: f64 = 0.5;
/// ...once a held-up neighbour has walked into it for this many seconds more than none has:
/// a passer-by slowed a moment goes round, as it would without the rule.
const YIELD_AFTER: f64 = 1.0;

/// An agent's handle: stable for the agent's life, never reused by the same crowd.
///
/// ```
/// # use portolan::crowd::{AgentParams, Crowd, CrowdOptions};
/// # use portolan::{build, BuildOptions, Scene, Vec2};
/// # let mesh = std::sync::Arc::new(build(&Scene::default_map(), &BuildOptions::default()).unwrap());
/// let mut crowd = Crowd::new(mesh, CrowdOptions::default());
/// let p = AgentParams::new(Vec2::new(20.0, 20.0), Vec2::new(60.0, 20.0), 1.0, 10.0);
/// let a = crowd.add_agent(p.clone()).unwrap();
/// let b = crowd.add_agent(p).unwrap();
/// assert!(a < b);
/// assert_eq!(a.to_string(), "agent 0");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AgentId(pub u64);

impl std::fmt::Display for AgentId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "agent {}", self.0)
    }
}

/// What a new agent is: where it stands, where it goes, its size and its top speed.
///
/// ```
/// use portolan::crowd::AgentParams;
/// use portolan::Vec2;
/// let p = AgentParams::new(Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0), 0.5, 1.5);
/// assert_eq!(p.radius, 0.5);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct AgentParams {
    /// Start position (on the agent's mesh, or snapped there with [`CrowdOptions::snap`]).
    pub position: Vec2,
    /// Goal (same rule).
    pub goal: Vec2,
    /// Body radius, ≥ 0.
    pub radius: f64,
    /// Top speed in units per second, ≥ 0.
    pub max_speed: f64,
}

impl AgentParams {
    /// An agent at `position` going to `goal`.
    ///
    /// ```
    /// # use portolan::crowd::AgentParams;
    /// # use portolan::Vec2;
    /// let p = AgentParams::new(Vec2::ZERO, Vec2::new(1.0, 1.0), 0.25, 2.0);
    /// assert_eq!(p.max_speed, 2.0);
    /// ```
    pub fn new(position: Vec2, goal: Vec2, radius: f64, max_speed: f64) -> AgentParams {
        AgentParams {
            position,
            goal,
            radius,
            max_speed,
        }
    }
}

/// Tuning of a crowd; the defaults suit agents that cross their own diameter in a fraction of
/// a second.
///
/// ```
/// use portolan::crowd::CrowdOptions;
/// let o = CrowdOptions::default().with_max_replans_per_step(8).with_parallel(false);
/// assert_eq!(o.max_replans_per_step, 8);
/// assert!(!o.parallel);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct CrowdOptions {
    /// ORCA's time horizon against other agents, seconds (default 1.5): larger anticipates
    /// earlier and moves more cautiously.
    pub time_horizon: f64,
    /// ORCA's time horizon against walls, seconds (default 0.1). Walls hold anyway (moves are
    /// clamped to the mesh); a long horizon makes agents crawl past door jambs.
    pub obstacle_time_horizon: f64,
    /// How many nearest neighbours each agent avoids, 1..=[`MAX_NEIGHBOURS`] (default 10).
    pub max_neighbours: usize,
    /// Path queries per step at most, oldest request first (default 64).
    pub max_replans_per_step: usize,
    /// Corner offset of planned paths, as a fraction of the agent's radius (default 0.25): a
    /// margin at the turns on top of the mesh's inflation.
    pub corner_offset: f64,
    /// An agent has arrived when its centre is within this fraction of its radius of its goal
    /// (default 0.5). A corner counts as passed within one radius.
    pub arrival_distance: f64,
    /// Seconds without progress toward the next corner before an agent replans (default 2).
    pub stall_time: f64,
    /// The right-hand bias of preferred velocities, radians (default 0.2); see the
    /// [module docs](self). 0 turns it off.
    pub right_bias: f64,
    /// Most passes of the separation step (default 4; it stops at the first pass that pushes
    /// no one); 0 turns it off.
    pub separation_iterations: usize,
    /// Snap positions and goals off the mesh to the nearest mesh point within this distance;
    /// `None` (the default) rejects them with [`CrowdError::PositionOffMesh`] /
    /// [`CrowdError::GoalOffMesh`].
    pub snap: Option<f64>,
    /// Compute steps on rayon's thread pool (default true; needs the `parallel` feature,
    /// ignored without it). The result is the same either way.
    pub parallel: bool,
    /// Crowds smaller than this step on the calling thread even when
    /// [`CrowdOptions::parallel`] is set (default [`PARALLEL_MIN_AGENTS`]): below it, waking
    /// the pool's threads costs more than the work they would share (at 1,000 agents the pool
    /// lost to one thread in loaded runs, `BENCHMARKS.md`, section "Crowds"; 512 itself was
    /// not bisected). 0 always uses the pool. The result is the same either way.
    pub parallel_min_agents: usize,
    /// Whether a crowd allowed on the pool ([`CrowdOptions::parallel`], at least
    /// [`CrowdOptions::parallel_min_agents`] agents) measures its steps and takes the faster
    /// way, on the pool or on the calling thread (default false: in the benchmarks on a quiet
    /// machine the pool alone was as fast or faster; see `BENCHMARKS.md`). Every
    /// [`TUNING_PROBE_EVERY`]th step it tries the other way for a few steps (the first step
    /// after a switch is not counted), so the choice follows the load of
    /// the machine: with its cores busy elsewhere, waiting for the pool's threads costs more
    /// than they save. false always uses the pool. The positions are the same either way;
    /// only the time differs.
    pub parallel_tuning: bool,
    /// How an agent's route is planned (default [`SearchMethod::Funnel`]). The agent keeps the
    /// route's channel and steers by the funnel through it, so the channel decides the way it
    /// walks:
    /// - [`SearchMethod::Funnel`]: the chapter's channel A*, the cheapest plan on small maps;
    ///   its channel is not always the shortest path's (on the published game maps 12–72% of
    ///   its paths are the shortest, `BENCHMARKS.md`), so an agent may go round an obstacle the
    ///   long way.
    /// - [`SearchMethod::Exact`]: Polyanya; every agent walks a shortest route.
    /// - [`SearchMethod::Corner`]: the same shortest routes through the radius class's
    ///   [`CornerGraph`] ([`Crowd::set_corner_graph`]), much faster per plan on large maps; a
    ///   class without a graph for its current mesh plans with [`SearchMethod::Exact`].
    pub search: SearchMethod,
}

impl Default for CrowdOptions {
    fn default() -> CrowdOptions {
        CrowdOptions {
            time_horizon: 1.5,
            obstacle_time_horizon: 0.1,
            max_neighbours: 10,
            max_replans_per_step: 64,
            corner_offset: 0.25,
            arrival_distance: 0.5,
            stall_time: 2.0,
            right_bias: 0.2,
            separation_iterations: 4,
            snap: None,
            parallel: true,
            parallel_min_agents: PARALLEL_MIN_AGENTS,
            parallel_tuning: false,
            search: SearchMethod::Funnel,
        }
    }
}

impl CrowdOptions {
    /// Sets [`CrowdOptions::search`].
    ///
    /// ```
    /// # use portolan::crowd::CrowdOptions;
    /// use portolan::search::SearchMethod;
    /// let o = CrowdOptions::default().with_search(SearchMethod::Exact);
    /// assert_eq!(o.search, SearchMethod::Exact);
    /// ```
    pub fn with_search(mut self, search: SearchMethod) -> CrowdOptions {
        self.search = search;
        self
    }

    /// Sets [`CrowdOptions::max_replans_per_step`].
    ///
    /// ```
    /// # use portolan::crowd::CrowdOptions;
    /// assert_eq!(CrowdOptions::default().with_max_replans_per_step(1).max_replans_per_step, 1);
    /// ```
    pub fn with_max_replans_per_step(mut self, k: usize) -> CrowdOptions {
        self.max_replans_per_step = k;
        self
    }

    /// Sets [`CrowdOptions::parallel`].
    ///
    /// ```
    /// # use portolan::crowd::CrowdOptions;
    /// assert!(!CrowdOptions::default().with_parallel(false).parallel);
    /// ```
    pub fn with_parallel(mut self, parallel: bool) -> CrowdOptions {
        self.parallel = parallel;
        self
    }

    /// Sets [`CrowdOptions::parallel_min_agents`].
    ///
    /// ```
    /// # use portolan::crowd::CrowdOptions;
    /// assert_eq!(CrowdOptions::default().with_parallel_min_agents(0).parallel_min_agents, 0);
    /// ```
    pub fn with_parallel_min_agents(mut self, n: usize) -> CrowdOptions {
        self.parallel_min_agents = n;
        self
    }

    /// Sets [`CrowdOptions::parallel_tuning`].
    ///
    /// ```
    /// # use portolan::crowd::CrowdOptions;
    /// assert!(CrowdOptions::default().with_parallel_tuning(true).parallel_tuning);
    /// ```
    pub fn with_parallel_tuning(mut self, tuning: bool) -> CrowdOptions {
        self.parallel_tuning = tuning;
        self
    }

    /// Sets [`CrowdOptions::snap`].
    ///
    /// ```
    /// # use portolan::crowd::CrowdOptions;
    /// assert_eq!(CrowdOptions::default().with_snap(Some(2.0)).snap, Some(2.0));
    /// ```
    pub fn with_snap(mut self, snap: Option<f64>) -> CrowdOptions {
        self.snap = snap;
        self
    }

    /// Sets [`CrowdOptions::right_bias`].
    ///
    /// ```
    /// # use portolan::crowd::CrowdOptions;
    /// assert_eq!(CrowdOptions::default().with_right_bias(0.0).right_bias, 0.0);
    /// ```
    pub fn with_right_bias(mut self, right_bias: f64) -> CrowdOptions {
        self.right_bias = right_bias;
        self
    }

    fn validate(&self) -> Result<(), CrowdError> {
        let bad = |option: &'static str, value: f64, reason: &'static str| {
            Err(CrowdError::InvalidOption {
                option,
                value,
                reason,
            })
        };
        let positive = |x: f64| x.is_finite() && x > 0.0;
        let non_negative = |x: f64| x.is_finite() && x >= 0.0;
        if !positive(self.time_horizon) {
            return bad("time_horizon", self.time_horizon, "must be finite and > 0");
        }
        if !positive(self.obstacle_time_horizon) {
            return bad(
                "obstacle_time_horizon",
                self.obstacle_time_horizon,
                "must be finite and > 0",
            );
        }
        if self.max_neighbours == 0 || self.max_neighbours > MAX_NEIGHBOURS {
            return bad(
                "max_neighbours",
                self.max_neighbours as f64,
                "must be 1..=MAX_NEIGHBOURS",
            );
        }
        if self.max_replans_per_step == 0 {
            return bad("max_replans_per_step", 0.0, "must be ≥ 1");
        }
        if !non_negative(self.corner_offset) {
            return bad(
                "corner_offset",
                self.corner_offset,
                "must be finite and ≥ 0",
            );
        }
        if !non_negative(self.arrival_distance) {
            return bad(
                "arrival_distance",
                self.arrival_distance,
                "must be finite and ≥ 0",
            );
        }
        if !positive(self.stall_time) {
            return bad("stall_time", self.stall_time, "must be finite and > 0");
        }
        if !(self.right_bias.is_finite() && self.right_bias.abs() < 1.0) {
            return bad(
                "right_bias",
                self.right_bias,
                "must be finite, |bias| < 1 rad",
            );
        }
        if let Some(s) = self.snap {
            if s.is_nan() || s < 0.0 {
                return bad("snap", s, "must be ≥ 0 (or None)");
            }
        }
        Ok(())
    }
}

/// Which input was not a finite number.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AgentField {
    /// [`AgentParams::position`].
    Position,
    /// [`AgentParams::goal`] or a new goal.
    Goal,
    /// [`AgentParams::radius`].
    Radius,
    /// [`AgentParams::max_speed`].
    MaxSpeed,
}

/// Why a crowd operation was refused; each names its culprit.
///
/// ```
/// use portolan::crowd::{AgentField, AgentParams, Crowd, CrowdError, CrowdOptions};
/// use portolan::{build, BuildOptions, Scene, Vec2};
/// let mesh = std::sync::Arc::new(build(&Scene::default_map(), &BuildOptions::default()).unwrap());
/// let mut crowd = Crowd::new(mesh, CrowdOptions::default());
/// let p = AgentParams::new(Vec2::new(f64::NAN, 1.0), Vec2::new(20.0, 20.0), 1.0, 1.0);
/// assert!(matches!(
///     crowd.add_agent(p),
///     Err(CrowdError::NonFinite { field: AgentField::Position, .. })
/// ));
/// ```
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum CrowdError {
    /// A position, goal, radius or speed was NaN or infinite.
    #[error("{field:?} of {} is not finite", agent.map_or("a new agent".to_string(), |a| a.to_string()))]
    NonFinite {
        /// The agent, when it exists already.
        agent: Option<AgentId>,
        /// Which input.
        field: AgentField,
    },
    /// A negative radius.
    #[error("radius {radius} is negative")]
    NegativeRadius {
        /// The radius given.
        radius: f64,
    },
    /// A negative top speed.
    #[error("max speed {max_speed} is negative")]
    NegativeSpeed {
        /// The speed given.
        max_speed: f64,
    },
    /// No radius class is large enough for the agent.
    #[error("radius {radius} is larger than the largest radius class, {largest}")]
    RadiusTooLarge {
        /// The radius given.
        radius: f64,
        /// The largest class.
        largest: f64,
    },
    /// A start position off the agent's mesh, with no snapping (or none within reach).
    #[error("position {position} is off the mesh")]
    PositionOffMesh {
        /// The position given.
        position: Vec2,
    },
    /// A goal off the agent's mesh, with no snapping (or none within reach).
    #[error("goal {goal} of {} is off the mesh", agent.map_or("a new agent".to_string(), |a| a.to_string()))]
    GoalOffMesh {
        /// The agent, when it exists already.
        agent: Option<AgentId>,
        /// The goal given.
        goal: Vec2,
    },
    /// No agent has this id (never added, or removed).
    #[error("{0} is not in the crowd")]
    UnknownAgent(AgentId),
    /// A time step that is not finite and > 0.
    #[error("time step {dt} must be finite and > 0")]
    InvalidTimeStep {
        /// The step given.
        dt: f64,
    },
    /// A corner graph built for another mesh than the radius class's
    /// ([`Crowd::set_corner_graph`]).
    #[error("the corner graph given to radius class {class} was built for another mesh")]
    ForeignGraph {
        /// The class.
        class: usize,
    },
    /// An option out of its range.
    #[error("option {option} = {value}: {reason}")]
    InvalidOption {
        /// The option's field name.
        option: &'static str,
        /// Its value.
        value: f64,
        /// The rule it breaks.
        reason: &'static str,
    },
}

/// Where an agent is in its life.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AgentState {
    /// Waiting for a path (new agent, new goal): it stands still but still avoids others.
    Planning,
    /// Following its corridor.
    Moving,
    /// Within [`CrowdOptions::arrival_distance`] of its goal (it walks back if pushed away).
    Arrived,
    /// Its goal cannot be reached from where it is: it stands.
    NoPath,
}

/// One agent of a [`Crowd`], read-only.
///
/// ```
/// # use portolan::crowd::{AgentParams, AgentState, Crowd, CrowdOptions};
/// # use portolan::{build, BuildOptions, Scene, Vec2};
/// # let mesh = std::sync::Arc::new(build(&Scene::default_map(), &BuildOptions::default()).unwrap());
/// let mut crowd = Crowd::new(mesh, CrowdOptions::default());
/// let id = crowd.add_agent(AgentParams::new(Vec2::new(20.0, 20.0), Vec2::new(60.0, 20.0), 1.0, 10.0)).unwrap();
/// let agent = crowd.agent(id).unwrap();
/// assert_eq!((agent.id(), agent.position(), agent.radius()), (id, Vec2::new(20.0, 20.0), 1.0));
/// assert_eq!(agent.state(), AgentState::Planning);
/// ```
#[derive(Clone, Debug)]
pub struct Agent {
    id: AgentId,
    position: Vec2,
    velocity: Vec2,
    radius: f64,
    max_speed: f64,
    goal: Vec2,
    class: usize,
    poly: PolyId,
    state: AgentState,
    corridor: Corridor,
    queued: bool,
    /// Seconds without getting closer to the point steered toward.
    stall: f64,
    /// Seconds a held-up neighbour has been walking into it (parked agents), less the
    /// seconds none has: it steps aside from `YIELD_AFTER`.
    pressure: f64,
    /// The closest the agent came to that point.
    best: f64,
    /// cos and sin of the right-hand bias angle.
    bias: (f64, f64),
    /// The unit direction it wanted to go last step (zero when standing).
    heading: Vec2,
    /// The speed it wanted last step, along `heading` (after queueing).
    want: f64,
    /// It has reached its current goal (arrived there once since the goal was set): it only
    /// holds its place, and gives way to agents on their way ([`Crowd::step`]).
    parked: bool,
}

impl Agent {
    /// The agent's id.
    ///
    /// See [`Agent`] for an example.
    pub fn id(&self) -> AgentId {
        self.id
    }
    /// Its position (always on its mesh).
    ///
    /// See [`Agent`] for an example.
    pub fn position(&self) -> Vec2 {
        self.position
    }
    /// Its velocity over the last step.
    ///
    /// ```
    /// # use portolan::crowd::{AgentParams, Crowd, CrowdOptions};
    /// # use portolan::{build, BuildOptions, Scene, Vec2};
    /// # let mesh = std::sync::Arc::new(build(&Scene::default_map(), &BuildOptions::default()).unwrap());
    /// let mut crowd = Crowd::new(mesh, CrowdOptions::default());
    /// let id = crowd.add_agent(AgentParams::new(Vec2::new(20.0, 20.0), Vec2::new(60.0, 20.0), 1.0, 10.0)).unwrap();
    /// crowd.step(0.1).unwrap(); // plans
    /// crowd.step(0.1).unwrap(); // moves
    /// assert!(crowd.agent(id).unwrap().velocity().x > 9.0);
    /// ```
    pub fn velocity(&self) -> Vec2 {
        self.velocity
    }
    /// Its radius.
    ///
    /// See [`Agent`] for an example.
    pub fn radius(&self) -> f64 {
        self.radius
    }
    /// Its top speed.
    ///
    /// ```
    /// # use portolan::crowd::{AgentParams, Crowd, CrowdOptions};
    /// # use portolan::{build, BuildOptions, Scene, Vec2};
    /// # let mesh = std::sync::Arc::new(build(&Scene::default_map(), &BuildOptions::default()).unwrap());
    /// # let mut crowd = Crowd::new(mesh, CrowdOptions::default());
    /// let id = crowd.add_agent(AgentParams::new(Vec2::new(20.0, 20.0), Vec2::new(60.0, 20.0), 1.0, 3.0)).unwrap();
    /// assert_eq!(crowd.agent(id).unwrap().max_speed(), 3.0);
    /// ```
    pub fn max_speed(&self) -> f64 {
        self.max_speed
    }
    /// Its goal (snapped, if snapping moved it).
    ///
    /// ```
    /// # use portolan::crowd::{AgentParams, Crowd, CrowdOptions};
    /// # use portolan::{build, BuildOptions, Scene, Vec2};
    /// # let mesh = std::sync::Arc::new(build(&Scene::default_map(), &BuildOptions::default()).unwrap());
    /// # let mut crowd = Crowd::new(mesh, CrowdOptions::default());
    /// let id = crowd.add_agent(AgentParams::new(Vec2::new(20.0, 20.0), Vec2::new(60.0, 20.0), 1.0, 3.0)).unwrap();
    /// assert_eq!(crowd.agent(id).unwrap().goal(), Vec2::new(60.0, 20.0));
    /// ```
    pub fn goal(&self) -> Vec2 {
        self.goal
    }
    /// Its state.
    ///
    /// See [`Agent`] for an example.
    pub fn state(&self) -> AgentState {
        self.state
    }
    /// The polygons of its corridor still ahead, from about where it stands to its goal's (on
    /// its class's mesh); empty while it waits for its first path.
    ///
    /// ```
    /// # use portolan::crowd::{AgentParams, Crowd, CrowdOptions};
    /// # use portolan::{build, BuildOptions, Scene, Vec2};
    /// # let mesh = std::sync::Arc::new(build(&Scene::default_map(), &BuildOptions::default()).unwrap());
    /// let mut crowd = Crowd::new(mesh.clone(), CrowdOptions::default());
    /// let id = crowd.add_agent(AgentParams::new(Vec2::new(20.0, 20.0), Vec2::new(780.0, 430.0), 1.0, 3.0)).unwrap();
    /// assert!(crowd.agent(id).unwrap().channel().is_empty());
    /// crowd.step(0.1).unwrap();
    /// let channel = crowd.agent(id).unwrap().channel();
    /// assert_eq!(channel.last().copied(), mesh.locate(Vec2::new(780.0, 430.0)).polygon());
    /// ```
    pub fn channel(&self) -> &[PolyId] {
        if !self.corridor.valid {
            return &[];
        }
        self.corridor
            .channel
            .get(self.corridor.cursor..)
            .unwrap_or(&[])
    }
    /// Whether it is at its goal now.
    ///
    /// See the [module docs](self) for an example.
    pub fn is_arrived(&self) -> bool {
        self.state == AgentState::Arrived
    }
}

/// What one [`Crowd::step`] did.
///
/// ```
/// # use portolan::crowd::{AgentParams, Crowd, CrowdOptions};
/// # use portolan::{build, BuildOptions, Scene, Vec2};
/// # let mesh = std::sync::Arc::new(build(&Scene::default_map(), &BuildOptions::default()).unwrap());
/// let mut crowd = Crowd::new(mesh, CrowdOptions::default().with_max_replans_per_step(1));
/// for x in [20.0, 30.0] {
///     crowd.add_agent(AgentParams::new(Vec2::new(x, 20.0), Vec2::new(60.0, 60.0), 1.0, 3.0)).unwrap();
/// }
/// let s = crowd.step(0.1).unwrap();
/// assert_eq!((s.replans, s.pending_replans), (1, 1));
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct StepStats {
    /// Path queries run this step.
    pub replans: usize,
    /// Requests still waiting.
    pub pending_replans: usize,
    /// Agents at their goal after the step.
    pub arrived: usize,
}

#[derive(Clone, Debug)]
struct Class {
    radius: f64,
    mesh: Arc<NavMesh>,
    /// The corner graph of `mesh` for [`SearchMethod::Corner`] plans, if given
    /// ([`Crowd::set_corner_graph`]); dropped when the mesh is replaced.
    graph: Option<Arc<CornerGraph>>,
}

impl Class {
    /// Whether `graph` was built for another mesh than the class's.
    fn is_foreign(&self, graph: &CornerGraph) -> bool {
        graph.mesh_id() != self.mesh.instance_id()
    }

    /// Drops the corner graph where it was built for another mesh than the class's.
    fn drop_foreign_graph(&mut self) {
        if self.graph.as_ref().is_some_and(|g| self.is_foreign(g)) {
            self.graph = None;
        }
    }

    /// The search options of a plan on this class's mesh.
    fn plan_options(&self, method: SearchMethod) -> SearchOptions {
        match (method, &self.graph) {
            (SearchMethod::Funnel, _) => SearchOptions::funnel(),
            (SearchMethod::Corner, Some(graph)) => SearchOptions::corner(graph.clone()),
            (SearchMethod::Exact | SearchMethod::Corner, _) => SearchOptions::exact(),
        }
    }
}

/// An agent's new state, computed from the previous step's snapshot.
#[derive(Copy, Clone, Debug)]
struct StepOut {
    position: Vec2,
    velocity: Vec2,
    poly: PolyId,
    heading: Vec2,
    /// The speed it wanted last step, along `heading` (after queueing).
    want: f64,
    cursor: usize,
    stall: f64,
    /// Seconds a held-up neighbour has been walking into it (parked agents), less the
    /// seconds none has: it steps aside from `YIELD_AFTER`.
    pressure: f64,
    best: f64,
    replan: bool,
    /// The agent stood in polygon p beside the channel, next to `channel[k]`: (k, p).
    reconnect: Option<(usize, PolyId)>,
    /// The grid slots (cell order) of the agent's nearest neighbours.
    neighbours: [u32; MAX_NEIGHBOURS],
    neighbour_count: usize,
}

impl Default for StepOut {
    fn default() -> StepOut {
        StepOut {
            position: Vec2::ZERO,
            velocity: Vec2::ZERO,
            poly: PolyId(0),
            heading: Vec2::ZERO,
            want: 0.0,
            cursor: 0,
            stall: 0.0,
            pressure: 0.0,
            best: 0.0,
            replan: false,
            reconnect: None,
            neighbours: [0; MAX_NEIGHBOURS],
            neighbour_count: 0,
        }
    }
}

/// What an agent sees of a neighbour, copied once per step into an array in the grid's cell
/// order: neighbours' data sit close together in memory, where the agents themselves are
/// large and in the order they were added.
#[derive(Copy, Clone, Debug)]
struct Snap {
    position: Vec2,
    velocity: Vec2,
    heading: Vec2,
    radius: f64,
    id: AgentId,
    class: usize,
    arrived: bool,
    /// On its way (not parked) and held up: it wants at least [`YIELD_WANT`] of its top speed
    /// and gets under [`YIELD_SLOW`] of that along its heading (a parked agent it walks into
    /// gives way; see [`Ctx::compute`]).
    held_up: bool,
}

/// Per-worker scratch.
#[derive(Default)]
struct Scratch {
    lines: Vec<Line>,
    lp: Vec<Line>,
    surface: SurfaceScratch,
    portals: Vec<crate::search::funnel::Portal>,
}

/// Many agents on navigation meshes: path following, ORCA avoidance, moves clamped to the
/// mesh. See the [module docs](self) for the algorithm.
///
/// See the [module docs](self) for an example.
#[derive(Debug)]
pub struct Crowd {
    classes: Vec<Class>,
    options: CrowdOptions,
    agents: Vec<Agent>,
    next_id: u64,
    queue: VecDeque<AgentId>,
    steps: u64,
    grid: Grid,
    /// What agents see of their neighbours, in the grid's cell order (see [`Snap`]).
    snaps: Vec<Snap>,
    /// `slot_of[i]`: agent i's place in the grid's cell order.
    slot_of: Vec<u32>,
    positions: Vec<Vec2>,
    out: Vec<StepOut>,
    finder: PathFinder,
    /// Search contexts of the parallel path queries, one per pool thread.
    #[cfg(feature = "parallel")]
    finders: Vec<std::sync::Mutex<PathFinder>>,
    tuner: Tuner,
}

impl Crowd {
    /// A crowd whose agents all move on `mesh` (build it for the largest agent radius).
    /// Invalid options are reported by the first [`Crowd::step`] or [`Crowd::add_agent`].
    ///
    /// See the [module docs](self) for an example.
    pub fn new(mesh: Arc<NavMesh>, options: CrowdOptions) -> Crowd {
        Crowd::from_classes(
            vec![Class {
                radius: f64::INFINITY,
                mesh,
                graph: None,
            }],
            options,
        )
    }

    /// A crowd with one mesh per radius class: `(radius, mesh built for that radius)`, as
    /// [`build_per_radius`](crate::build::build_per_radius) makes them. An agent moves on the
    /// mesh of the smallest class at least as large as its radius.
    ///
    /// ```
    /// use portolan::build::{build_per_radius, BuildOptions};
    /// use portolan::crowd::{AgentParams, Crowd, CrowdError, CrowdOptions};
    /// use portolan::{Scene, Vec2};
    /// use std::sync::Arc;
    /// let radii = [2.0, 8.0];
    /// let meshes = build_per_radius(&Scene::default_map(), &BuildOptions::default(), &radii).unwrap();
    /// let classes = radii.iter().copied().zip(meshes.into_iter().map(Arc::new)).collect();
    /// let mut crowd = Crowd::with_radius_classes(classes, CrowdOptions::default()).unwrap();
    /// let p = |r| AgentParams::new(Vec2::new(20.0, 20.0), Vec2::new(700.0, 400.0), r, 50.0);
    /// assert!(crowd.add_agent(p(1.0)).is_ok());
    /// assert!(crowd.add_agent(p(8.0)).is_ok());
    /// assert!(matches!(crowd.add_agent(p(9.0)), Err(CrowdError::RadiusTooLarge { .. })));
    /// ```
    pub fn with_radius_classes(
        mut classes: Vec<(f64, Arc<NavMesh>)>,
        options: CrowdOptions,
    ) -> Result<Crowd, CrowdError> {
        for &(r, _) in &classes {
            if r.is_nan() || r < 0.0 {
                return Err(CrowdError::NegativeRadius { radius: r });
            }
        }
        if classes.is_empty() {
            return Err(CrowdError::InvalidOption {
                option: "classes",
                value: 0.0,
                reason: "at least one radius class",
            });
        }
        classes.sort_by(|a, b| a.0.total_cmp(&b.0));
        let classes = classes
            .into_iter()
            .map(|(radius, mesh)| Class {
                radius,
                mesh,
                graph: None,
            })
            .collect();
        Ok(Crowd::from_classes(classes, options))
    }

    fn from_classes(classes: Vec<Class>, options: CrowdOptions) -> Crowd {
        Crowd {
            classes,
            options,
            agents: Vec::new(),
            next_id: 0,
            queue: VecDeque::new(),
            steps: 0,
            grid: Grid::default(),
            snaps: Vec::new(),
            slot_of: Vec::new(),
            positions: Vec::new(),
            out: Vec::new(),
            finder: PathFinder::new(),
            #[cfg(feature = "parallel")]
            finders: Vec::new(),
            tuner: Tuner::default(),
        }
    }

    /// The options.
    ///
    /// ```
    /// # use portolan::crowd::{Crowd, CrowdOptions};
    /// # use portolan::{build, BuildOptions, Scene};
    /// # let mesh = std::sync::Arc::new(build(&Scene::default_map(), &BuildOptions::default()).unwrap());
    /// let crowd = Crowd::new(mesh, CrowdOptions::default());
    /// assert_eq!(crowd.options(), &CrowdOptions::default());
    /// ```
    pub fn options(&self) -> &CrowdOptions {
        &self.options
    }

    /// The mesh an agent moves on.
    ///
    /// ```
    /// # use portolan::crowd::{AgentParams, Crowd, CrowdOptions};
    /// # use portolan::{build, BuildOptions, Scene, Vec2};
    /// # let mesh = std::sync::Arc::new(build(&Scene::default_map(), &BuildOptions::default()).unwrap());
    /// let mut crowd = Crowd::new(mesh.clone(), CrowdOptions::default());
    /// let id = crowd.add_agent(AgentParams::new(Vec2::new(20.0, 20.0), Vec2::new(60.0, 20.0), 1.0, 3.0)).unwrap();
    /// assert!(std::ptr::eq(crowd.mesh_of(id).unwrap(), &*mesh));
    /// ```
    pub fn mesh_of(&self, id: AgentId) -> Result<&NavMesh, CrowdError> {
        let a = self.agent(id)?;
        Ok(&self.classes[a.class].mesh)
    }

    /// The agents, in the order they were added.
    ///
    /// ```
    /// # use portolan::crowd::{AgentParams, Crowd, CrowdOptions};
    /// # use portolan::{build, BuildOptions, Scene, Vec2};
    /// # let mesh = std::sync::Arc::new(build(&Scene::default_map(), &BuildOptions::default()).unwrap());
    /// let mut crowd = Crowd::new(mesh, CrowdOptions::default());
    /// crowd.add_agent(AgentParams::new(Vec2::new(20.0, 20.0), Vec2::new(60.0, 20.0), 1.0, 3.0)).unwrap();
    /// assert_eq!(crowd.agents().len(), 1);
    /// ```
    pub fn agents(&self) -> &[Agent] {
        &self.agents
    }

    /// How many steps have run.
    ///
    /// ```
    /// # use portolan::crowd::{Crowd, CrowdOptions};
    /// # use portolan::{build, BuildOptions, Scene};
    /// # let mesh = std::sync::Arc::new(build(&Scene::default_map(), &BuildOptions::default()).unwrap());
    /// let mut crowd = Crowd::new(mesh, CrowdOptions::default());
    /// crowd.step(0.1).unwrap();
    /// assert_eq!(crowd.steps(), 1);
    /// ```
    pub fn steps(&self) -> u64 {
        self.steps
    }

    fn index_of(&self, id: AgentId) -> Result<usize, CrowdError> {
        // Ids grow with insertion and removal keeps the order, so the list is sorted by id.
        self.agents
            .binary_search_by_key(&id, |a| a.id)
            .map_err(|_| CrowdError::UnknownAgent(id))
    }

    /// One agent.
    ///
    /// ```
    /// # use portolan::crowd::{AgentId, Crowd, CrowdError, CrowdOptions};
    /// # use portolan::{build, BuildOptions, Scene};
    /// # let mesh = std::sync::Arc::new(build(&Scene::default_map(), &BuildOptions::default()).unwrap());
    /// let crowd = Crowd::new(mesh, CrowdOptions::default());
    /// assert_eq!(crowd.agent(AgentId(7)).unwrap_err(), CrowdError::UnknownAgent(AgentId(7)));
    /// ```
    pub fn agent(&self, id: AgentId) -> Result<&Agent, CrowdError> {
        Ok(&self.agents[self.index_of(id)?])
    }

    /// Puts `p` on `mesh`: as is when on it, snapped within [`CrowdOptions::snap`], else `None`.
    fn place(&self, mesh: &NavMesh, p: Vec2) -> Option<(PolyId, Vec2)> {
        if let Some(poly) = mesh.locate(p).polygon() {
            return Some((poly, p));
        }
        mesh.nearest_point(p, self.options.snap?)
    }

    /// Adds an agent; it plans its path within the next steps (budgeted).
    ///
    /// Errors: [`CrowdError::NonFinite`], [`CrowdError::NegativeRadius`],
    /// [`CrowdError::NegativeSpeed`], [`CrowdError::RadiusTooLarge`],
    /// [`CrowdError::PositionOffMesh`], [`CrowdError::GoalOffMesh`],
    /// [`CrowdError::InvalidOption`].
    ///
    /// ```
    /// use portolan::crowd::{AgentParams, Crowd, CrowdError, CrowdOptions};
    /// use portolan::{build, BuildOptions, Scene, Vec2};
    /// let mesh = std::sync::Arc::new(build(&Scene::default_map(), &BuildOptions::default()).unwrap());
    /// let mut crowd = Crowd::new(mesh, CrowdOptions::default());
    /// let outside = Vec2::new(-50.0, 20.0);
    /// let p = AgentParams::new(Vec2::new(20.0, 20.0), outside, 1.0, 3.0);
    /// assert!(matches!(crowd.add_agent(p.clone()), Err(CrowdError::GoalOffMesh { goal, .. }) if goal == outside));
    /// let mut small = p;
    /// small.radius = -1.0;
    /// assert!(matches!(crowd.add_agent(small), Err(CrowdError::NegativeRadius { .. })));
    /// ```
    pub fn add_agent(&mut self, params: AgentParams) -> Result<AgentId, CrowdError> {
        self.options.validate()?;
        let nonfinite = |field| CrowdError::NonFinite { agent: None, field };
        if !params.position.is_finite() {
            return Err(nonfinite(AgentField::Position));
        }
        if !params.goal.is_finite() {
            return Err(nonfinite(AgentField::Goal));
        }
        if !params.radius.is_finite() {
            return Err(nonfinite(AgentField::Radius));
        }
        if !params.max_speed.is_finite() {
            return Err(nonfinite(AgentField::MaxSpeed));
        }
        if params.radius < 0.0 {
            return Err(CrowdError::NegativeRadius {
                radius: params.radius,
            });
        }
        if params.max_speed < 0.0 {
            return Err(CrowdError::NegativeSpeed {
                max_speed: params.max_speed,
            });
        }
        let class = self
            .classes
            .iter()
            .position(|c| c.radius >= params.radius)
            .ok_or(CrowdError::RadiusTooLarge {
                radius: params.radius,
                largest: self.classes.last().map_or(0.0, |c| c.radius),
            })?;
        let mesh = self.classes[class].mesh.clone();
        let (poly, position) =
            self.place(&mesh, params.position)
                .ok_or(CrowdError::PositionOffMesh {
                    position: params.position,
                })?;
        let (_, goal) = self
            .place(&mesh, params.goal)
            .ok_or(CrowdError::GoalOffMesh {
                agent: None,
                goal: params.goal,
            })?;
        let id = AgentId(self.next_id);
        self.next_id += 1;
        let angle = -self.options.right_bias * (0.95 + 0.1 * unit_hash(id.0));
        let (s, c) = crate::random::sin_cos(angle);
        self.agents.push(Agent {
            id,
            position,
            velocity: Vec2::ZERO,
            radius: params.radius,
            max_speed: params.max_speed,
            goal,
            class,
            poly,
            state: AgentState::Planning,
            corridor: Corridor::default(),
            queued: true,
            stall: 0.0,
            pressure: 0.0,
            best: f64::INFINITY,
            bias: (c, s),
            heading: Vec2::ZERO,
            want: 0.0,
            parked: false,
        });
        self.queue.push_back(id);
        Ok(id)
    }

    /// Removes an agent.
    ///
    /// ```
    /// # use portolan::crowd::{AgentParams, Crowd, CrowdError, CrowdOptions};
    /// # use portolan::{build, BuildOptions, Scene, Vec2};
    /// # let mesh = std::sync::Arc::new(build(&Scene::default_map(), &BuildOptions::default()).unwrap());
    /// let mut crowd = Crowd::new(mesh, CrowdOptions::default());
    /// let id = crowd.add_agent(AgentParams::new(Vec2::new(20.0, 20.0), Vec2::new(60.0, 20.0), 1.0, 3.0)).unwrap();
    /// crowd.remove_agent(id).unwrap();
    /// assert_eq!(crowd.remove_agent(id), Err(CrowdError::UnknownAgent(id)));
    /// ```
    pub fn remove_agent(&mut self, id: AgentId) -> Result<(), CrowdError> {
        let i = self.index_of(id)?;
        self.agents.remove(i);
        // Its queue entry, if any, is skipped when popped.
        Ok(())
    }

    /// Sends an agent to a new goal; it replans within the next steps (budgeted) and stands
    /// until then.
    ///
    /// ```
    /// # use portolan::crowd::{AgentParams, AgentState, Crowd, CrowdOptions};
    /// # use portolan::{build, BuildOptions, Scene, Vec2};
    /// # let mesh = std::sync::Arc::new(build(&Scene::default_map(), &BuildOptions::default()).unwrap());
    /// let mut crowd = Crowd::new(mesh, CrowdOptions::default());
    /// let id = crowd.add_agent(AgentParams::new(Vec2::new(20.0, 20.0), Vec2::new(60.0, 20.0), 1.0, 3.0)).unwrap();
    /// crowd.set_goal(id, Vec2::new(20.0, 60.0)).unwrap();
    /// assert_eq!(crowd.agent(id).unwrap().goal(), Vec2::new(20.0, 60.0));
    /// assert_eq!(crowd.agent(id).unwrap().state(), AgentState::Planning);
    /// ```
    pub fn set_goal(&mut self, id: AgentId, goal: Vec2) -> Result<(), CrowdError> {
        let i = self.index_of(id)?;
        if !goal.is_finite() {
            return Err(CrowdError::NonFinite {
                agent: Some(id),
                field: AgentField::Goal,
            });
        }
        let mesh = self.classes[self.agents[i].class].mesh.clone();
        let (_, goal) = self.place(&mesh, goal).ok_or(CrowdError::GoalOffMesh {
            agent: Some(id),
            goal,
        })?;
        let a = &mut self.agents[i];
        a.goal = goal;
        a.parked = false;
        a.corridor.valid = false;
        a.state = AgentState::Planning;
        if !a.queued {
            a.queued = true;
            self.queue.push_back(id);
        }
        Ok(())
    }

    /// Replaces the mesh of radius class `class` (0 for [`Crowd::new`]; classes are in order of
    /// radius): the hook for dynamic obstacles. Every agent of the class is put back on the new
    /// mesh (moved to its nearest point if the change left it off) with its goal, and replans,
    /// budgeted as any replan. A corner graph the class had ([`Crowd::set_corner_graph`]) is
    /// dropped unless it was built for `mesh`: until it is given one for the new mesh, the class
    /// plans exactly.
    ///
    /// ```
    /// # use portolan::crowd::{AgentParams, Crowd, CrowdOptions};
    /// # use portolan::{build, BuildOptions, Scene, Vec2};
    /// # use std::sync::Arc;
    /// let mesh = Arc::new(build(&Scene::default_map(), &BuildOptions::default()).unwrap());
    /// let mut crowd = Crowd::new(mesh.clone(), CrowdOptions::default());
    /// crowd.add_agent(AgentParams::new(Vec2::new(20.0, 20.0), Vec2::new(60.0, 20.0), 1.0, 3.0)).unwrap();
    /// let smaller = Arc::new(build(&Scene::default_map(), &BuildOptions::default().with_agent_radius(5.0)).unwrap());
    /// crowd.set_mesh(0, smaller).unwrap();
    /// assert!(crowd.step(0.1).unwrap().replans >= 1);
    /// ```
    pub fn set_mesh(&mut self, class: usize, mesh: Arc<NavMesh>) -> Result<(), CrowdError> {
        if class >= self.classes.len() {
            return Err(CrowdError::InvalidOption {
                option: "class",
                value: class as f64,
                reason: "no such radius class",
            });
        }
        self.classes[class].mesh = mesh.clone();
        self.classes[class].drop_foreign_graph();
        for i in 0..self.agents.len() {
            if self.agents[i].class == class {
                self.put_back(i, &mesh);
            }
        }
        Ok(())
    }

    /// Gives radius class `class` (0 for [`Crowd::new`]) the corner graph of its current mesh,
    /// for plans with [`SearchMethod::Corner`] ([`CrowdOptions::search`]); `None` takes it
    /// away (the class then plans with [`SearchMethod::Exact`]). Replacing the class's mesh
    /// ([`Crowd::set_mesh`], [`Crowd::set_mesh_changed`]) drops a graph built for the old one:
    /// build the new mesh's graph (in the background, say) and give it again.
    ///
    /// Errors: [`CrowdError::InvalidOption`] for an unknown class, [`CrowdError::ForeignGraph`]
    /// for a graph built for another mesh; the crowd is unchanged either way.
    ///
    /// ```
    /// use portolan::crowd::{AgentParams, Crowd, CrowdError, CrowdOptions};
    /// use portolan::search::corner_graph::CornerGraph;
    /// use portolan::search::SearchMethod;
    /// use portolan::{build, BuildOptions, Scene, Vec2};
    /// use std::sync::Arc;
    /// let mesh = Arc::new(build(&Scene::default_map(), &BuildOptions::default()).unwrap());
    /// let options = CrowdOptions::default().with_search(SearchMethod::Corner);
    /// let mut crowd = Crowd::new(mesh.clone(), options);
    /// crowd.set_corner_graph(0, Some(Arc::new(CornerGraph::build(&mesh)))).unwrap();
    /// assert!(crowd.corner_graph(0).is_some());
    /// // A graph of another mesh is refused.
    /// let other = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
    /// let foreign = Some(Arc::new(CornerGraph::build(&other)));
    /// assert_eq!(crowd.set_corner_graph(0, foreign), Err(CrowdError::ForeignGraph { class: 0 }));
    /// let a = crowd.add_agent(AgentParams::new(Vec2::new(20.0, 20.0), Vec2::new(780.0, 430.0), 1.0, 60.0)).unwrap();
    /// crowd.step(0.05).unwrap(); // plans through the graph
    /// assert!(!crowd.agent(a).unwrap().channel().is_empty());
    /// ```
    pub fn set_corner_graph(
        &mut self,
        class: usize,
        graph: Option<Arc<CornerGraph>>,
    ) -> Result<(), CrowdError> {
        let Some(c) = self.classes.get_mut(class) else {
            return Err(CrowdError::InvalidOption {
                option: "class",
                value: class as f64,
                reason: "no such radius class",
            });
        };
        if graph.as_ref().is_some_and(|g| c.is_foreign(g)) {
            return Err(CrowdError::ForeignGraph { class });
        }
        c.graph = graph;
        Ok(())
    }

    /// The corner graph radius class `class` plans with ([`Crowd::set_corner_graph`]), if any
    /// (`None` for an unknown class too).
    ///
    /// ```
    /// # use portolan::crowd::{Crowd, CrowdOptions};
    /// # use portolan::{build, BuildOptions, Scene};
    /// # let mesh = std::sync::Arc::new(build(&Scene::default_map(), &BuildOptions::default()).unwrap());
    /// let crowd = Crowd::new(mesh, CrowdOptions::default());
    /// assert!(crowd.corner_graph(0).is_none() && crowd.corner_graph(7).is_none());
    /// ```
    pub fn corner_graph(&self, class: usize) -> Option<&Arc<CornerGraph>> {
        self.classes.get(class)?.graph.as_ref()
    }

    /// Replaces the mesh of radius class `class` after a change confined to the boxes
    /// `changed` (for a [`DynamicNavMesh`](crate::dynamic::DynamicNavMesh), the bounds of the
    /// tiles [`Snapshot::changed_tiles_since`](crate::dynamic::Snapshot::changed_tiles_since)
    /// lists): only the agents whose remaining corridor enters a changed box replan (budgeted,
    /// as [`Crowd::set_mesh`] does for all); the others keep their corridors. Returns how many
    /// agents of the class replan.
    ///
    /// The new mesh may number its polygons differently, so a kept corridor is carried over
    /// polygon by polygon: each is looked up in the new mesh at its centroid and kept only if
    /// the polygon found there has exactly the same vertices, and consecutive ones still share
    /// an edge; any polygon that fails makes the agent replan, so no stale polygon id is ever
    /// followed. Agents waiting for a path or without one are put back on the new mesh and
    /// replan, as with [`Crowd::set_mesh`].
    ///
    /// Errors: [`CrowdError::InvalidOption`] for an unknown class or a box that is not finite.
    ///
    /// ```
    /// use portolan::crowd::{AgentParams, Crowd, CrowdOptions};
    /// use portolan::dynamic::DynamicNavMesh;
    /// use portolan::geom::Aabb;
    /// use portolan::{BuildOptions, Scene, Vec2};
    /// let scene = Scene::new(Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(200.0, 100.0)));
    /// let mut nav = DynamicNavMesh::new(scene, &BuildOptions::cdt(), 50.0).unwrap();
    /// let old = nav.snapshot();
    /// let mut crowd = Crowd::new(old.mesh().clone(), CrowdOptions::default());
    /// let low = crowd.add_agent(AgentParams::new(Vec2::new(10.0, 10.0), Vec2::new(190.0, 10.0), 1.0, 20.0)).unwrap();
    /// let high = crowd.add_agent(AgentParams::new(Vec2::new(10.0, 80.0), Vec2::new(190.0, 80.0), 1.0, 20.0)).unwrap();
    /// crowd.step(0.1).unwrap(); // both plan
    /// // A wall across the upper half.
    /// nav.add_obstacle([(98.0, 55.0), (102.0, 55.0), (102.0, 100.0), (98.0, 100.0)]).unwrap();
    /// nav.update().unwrap();
    /// let new = nav.snapshot();
    /// let grid = new.grid();
    /// let boxes: Vec<Aabb> = new
    ///     .changed_tiles_since(&old)
    ///     .iter()
    ///     .map(|&t| grid.tile_bounds(t % grid.columns(), t / grid.columns()))
    ///     .collect();
    /// assert_eq!(crowd.set_mesh_changed(0, new.mesh().clone(), &boxes).unwrap(), 1);
    /// assert_eq!(crowd.step(0.1).unwrap().replans, 1); // only `high` replans
    /// # let _ = (low, high);
    /// ```
    pub fn set_mesh_changed(
        &mut self,
        class: usize,
        mesh: Arc<NavMesh>,
        changed: &[Aabb],
    ) -> Result<usize, CrowdError> {
        if class >= self.classes.len() {
            return Err(CrowdError::InvalidOption {
                option: "class",
                value: class as f64,
                reason: "no such radius class",
            });
        }
        if let Some(b) = changed
            .iter()
            .find(|b| !(b.min.is_finite() && b.max.is_finite()))
        {
            return Err(CrowdError::InvalidOption {
                option: "changed",
                value: if b.min.is_finite() { b.max.x } else { b.min.x },
                reason: "changed boxes must be finite",
            });
        }
        let old = std::mem::replace(&mut self.classes[class].mesh, mesh.clone());
        self.classes[class].drop_foreign_graph();
        let mut replanning = 0;
        let mut mapped = Vec::new();
        for i in 0..self.agents.len() {
            let a = &mut self.agents[i];
            if a.class != class {
                continue;
            }
            let keep = a.corridor.valid
                && matches!(a.state, AgentState::Moving | AgentState::Arrived)
                && carry_corridor(&old, &mesh, a, changed, &mut mapped);
            if keep {
                let c = &mut a.corridor;
                a.poly = mapped[0];
                c.channel.clear();
                c.channel.extend_from_slice(&mapped[1..]);
                c.cursor = 0;
                continue;
            }
            replanning += 1;
            self.put_back(i, &mesh);
        }
        Ok(replanning)
    }

    /// Puts agent `i` back on `mesh` (its nearest point if a change left it off) with its goal,
    /// and queues it for a plan.
    fn put_back(&mut self, i: usize, mesh: &NavMesh) {
        let a = &mut self.agents[i];
        // A non-empty mesh always has a nearest point; an empty one leaves the agent where it
        // was, with no polygon to stand on: it cannot plan (NoPath) until a mesh comes back.
        if let Some((poly, p)) = mesh.nearest_point(a.position, f64::INFINITY) {
            a.poly = poly;
            a.position = p;
        }
        if let Some((_, g)) = mesh.nearest_point(a.goal, f64::INFINITY) {
            a.goal = g;
        }
        a.corridor.valid = false;
        a.state = AgentState::Planning;
        if !a.queued {
            a.queued = true;
            self.queue.push_back(a.id);
        }
    }

    /// Advances the crowd by `dt` seconds; see the [module docs](self) for what a step does.
    ///
    /// See the [module docs](self) for an example.
    pub fn step(&mut self, dt: f64) -> Result<StepStats, CrowdError> {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(CrowdError::InvalidTimeStep { dt });
        }
        self.options.validate()?;
        let allowed = cfg!(feature = "parallel")
            && self.options.parallel
            && self.agents.len() >= self.options.parallel_min_agents;
        let tuning = allowed && self.options.parallel_tuning;
        let parallel = allowed && (!tuning || self.tuner.choose());
        // The clock is read only when tuning.
        let start = tuning.then(std::time::Instant::now);
        #[cfg(feature = "parallel")]
        let (stats, replan_time) = if parallel && rayon::current_thread_index().is_none() {
            // The whole step runs on one of the pool's threads, so the calling thread hands
            // over once per step instead of once per parallel pass, and each pass's first half
            // runs where it was split.
            rayon::scope(|_| self.step_on(dt, parallel, tuning))
        } else {
            self.step_on(dt, parallel, tuning)
        };
        #[cfg(not(feature = "parallel"))]
        let (stats, replan_time) = self.step_on(dt, parallel, tuning);
        if let Some(start) = start {
            // Path queries come and go; the rest of the step is what the two ways share.
            let t = start.elapsed().saturating_sub(replan_time);
            self.tuner.record(parallel, t.as_secs_f64());
        }
        Ok(stats)
    }

    /// The step itself, with `dt` and the options checked; `parallel` says whether its passes
    /// use rayon's pool. Also returns the time its path queries took when `timed` (else zero).
    fn step_on(
        &mut self,
        dt: f64,
        parallel: bool,
        timed: bool,
    ) -> (StepStats, std::time::Duration) {
        // Path queries are heavy (tens to hundreds of microseconds each): two of them are
        // worth the pool whatever the crowd's size.
        let replan_start = timed.then(std::time::Instant::now);
        let replans = self.replan(self.options.parallel);
        let replan_time = replan_start.map_or(std::time::Duration::ZERO, |t| t.elapsed());
        let n = self.agents.len();
        // The neighbour grid, from the positions before the step.
        // One pass over the agents (they are large: each pass is a trip through memory at
        // 10,000 agents).
        self.positions.clear();
        let (mut max_radius, mut max_speed) = (0.0f64, 0.0f64);
        self.positions.extend(self.agents.iter().map(|a| {
            max_radius = max_radius.max(a.radius);
            max_speed = max_speed.max(a.max_speed);
            a.position
        }));
        // Cells of half the largest query range (an agent looks within its radius, the largest
        // radius and its top speed times the horizon): the k nearest are found in the few cells
        // around an agent (see `grid.rs`).
        let query = 2.0 * max_radius + max_speed * self.options.time_horizon;
        self.grid.rebuild(&self.positions, query * 0.5);
        self.snaps.clear();
        let agents = &self.agents;
        let snap = |&j: &u32| {
            let b = &agents[j as usize];
            Snap {
                position: b.position,
                velocity: b.velocity,
                heading: b.heading,
                radius: b.radius,
                id: b.id,
                class: b.class,
                arrived: b.state == AgentState::Arrived,
                held_up: !b.parked
                    && b.want >= YIELD_WANT * b.max_speed
                    && b.velocity.dot(b.heading) < YIELD_SLOW * b.want,
            }
        };
        if parallel {
            // (`parallel` is only ever set with the feature on.)
            #[cfg(feature = "parallel")]
            {
                use rayon::prelude::*;
                self.snaps.par_extend(
                    self.grid
                        .items()
                        .par_iter()
                        .with_min_len(PAR_GATHER_CHUNK)
                        .map(snap),
                );
            }
        } else {
            self.snaps.extend(self.grid.items().iter().map(snap));
        }
        self.out.clear();
        self.out.resize(n, StepOut::default());
        {
            let ctx = Ctx {
                agents: &self.agents,
                classes: &self.classes,
                options: &self.options,
                grid: &self.grid,
                snaps: &self.snaps,
                dt,
                max_radius,
            };
            // Agents in cell order (`out[slot]` is agent `items[slot]`'s): consecutive agents
            // are neighbours, so their queries read the same cells and snapshots from cache.
            let items = self.grid.items();
            for_each_out(parallel, PAR_CHUNK, &mut self.out, |slot, out, s| {
                if slot % TOUCH_AHEAD == 0 {
                    ctx.touch(&items[slot..(slot + TOUCH_AHEAD).min(items.len())]);
                }
                ctx.compute(items[slot] as usize, out, s)
            });
        }
        self.slot_of.clear();
        self.slot_of.resize(n, 0);
        for (slot, &i) in self.grid.items().iter().enumerate() {
            self.slot_of[i as usize] = slot as u32;
        }
        // The new states but for position and polygon (written after separation), then the
        // replans they ask for, queued in agent order either way.
        let out = &self.out;
        let apply = |(a, &slot): (&mut Agent, &u32)| {
            let o = &out[slot as usize];
            a.velocity = o.velocity;
            a.heading = o.heading;
            a.want = o.want;
            a.corridor.cursor = o.cursor;
            if let Some((k, p)) = o.reconnect {
                // The polygon the agent stood in replaces the channel up to k.
                a.corridor.channel.splice(..k, [p]);
                a.corridor.cursor = 0;
            }
            a.stall = o.stall;
            a.pressure = o.pressure;
            a.best = o.best;
            (o.replan && !a.queued).then(|| {
                a.queued = true;
                a.id
            })
        };
        if parallel {
            // (`parallel` is only ever set with the feature on.)
            #[cfg(feature = "parallel")]
            {
                use rayon::prelude::*;
                let asked: Vec<AgentId> = self
                    .agents
                    .par_iter_mut()
                    .zip(self.slot_of.par_iter())
                    .with_min_len(PAR_GATHER_CHUNK)
                    .filter_map(apply)
                    .collect();
                self.queue.extend(asked);
            }
        } else {
            let asked = self.agents.iter_mut().zip(&self.slot_of).filter_map(apply);
            self.queue.extend(asked);
        }
        let parallel_separation =
            parallel && n >= self.options.parallel_min_agents * SEPARATION_PARALLEL_FACTOR;
        for _ in 0..self.options.separation_iterations {
            // A pass that pushed no one leaves the positions as they were, and so would every
            // pass after it.
            if !self.separate(parallel_separation) {
                break;
            }
        }
        let mut arrived = 0;
        for (a, &slot) in self.agents.iter_mut().zip(&self.slot_of) {
            let o = &self.out[slot as usize];
            a.position = o.position;
            a.poly = o.poly;
            let near = norm(a.position - a.goal) <= self.options.arrival_distance * a.radius;
            a.state = match a.state {
                AgentState::Moving | AgentState::Arrived if near => AgentState::Arrived,
                AgentState::Arrived => AgentState::Moving,
                s => s,
            };
            a.parked |= a.state == AgentState::Arrived;
            arrived += usize::from(a.state == AgentState::Arrived);
        }
        self.steps += 1;
        let stats = StepStats {
            replans,
            pending_replans: self.queue.len(),
            arrived,
        };
        (stats, replan_time)
    }

    /// Runs up to K queued path queries, oldest first; returns how many ran.
    fn replan(&mut self, parallel: bool) -> usize {
        let mut jobs: Vec<(usize, Vec2, Vec2)> = Vec::new();
        while jobs.len() < self.options.max_replans_per_step {
            let Some(id) = self.queue.pop_front() else {
                break;
            };
            let Ok(i) = self.index_of(id) else { continue };
            self.agents[i].queued = false;
            jobs.push((i, self.agents[i].position, self.agents[i].goal));
        }
        if jobs.is_empty() {
            return 0;
        }
        // Per class, the options of its plans (only the channel is kept, and corners are found
        // each step, so no corner offset here).
        let options: Vec<SearchOptions> = self
            .classes
            .iter()
            .map(|c| c.plan_options(self.options.search))
            .collect();
        let plan = |finder: &mut PathFinder, &(i, from, to): &(usize, Vec2, Vec2)| {
            let class = self.agents[i].class;
            finder.find_path(&self.classes[class].mesh, from, to, &options[class])
        };
        #[cfg(feature = "parallel")]
        let results: Vec<Result<crate::search::Path, PathError>> = if parallel && jobs.len() > 1 {
            use rayon::prelude::*;
            // One search context per pool thread, kept from step to step (a fresh one grows
            // its arrays to the mesh on its first query). The queries are handed out one at a
            // time, not in fixed shares: their costs differ tenfold (a short detour against a
            // path across the map), and fixed shares left one thread idle for most of the pass.
            let threads = rayon::current_num_threads().max(1);
            if self.finders.len() < threads {
                self.finders
                    .resize_with(threads, || std::sync::Mutex::new(PathFinder::new()));
            }
            let finders = &self.finders;
            jobs.par_iter()
                .with_max_len(1)
                .map(|job| {
                    let k = rayon::current_thread_index().unwrap_or(0) % finders.len();
                    // Each thread locks only its own context: never contended. A poisoned
                    // lock (a panic in another query) leaves a context that is still valid.
                    let mut finder = finders[k]
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    plan(&mut finder, job)
                })
                .collect()
        } else {
            jobs.iter().map(|j| plan(&mut self.finder, j)).collect()
        };
        #[cfg(not(feature = "parallel"))]
        let results: Vec<Result<crate::search::Path, PathError>> = {
            let _ = parallel;
            jobs.iter().map(|j| plan(&mut self.finder, j)).collect()
        };
        for (&(i, _, _), result) in jobs.iter().zip(results) {
            let a = &mut self.agents[i];
            match result {
                Ok(path) => {
                    let mesh = &self.classes[a.class].mesh;
                    if let Some(&first) = path.channel.first() {
                        if mesh.locate_in(first, a.position).is_some() {
                            a.poly = first;
                        }
                    }
                    a.corridor.set(path.channel);
                    a.state = AgentState::Moving;
                    a.stall = 0.0;
                    a.best = f64::INFINITY;
                }
                Err(_) => {
                    // Every endpoint was checked on the way in and the agent stands on its
                    // mesh, so this is "no path" (another component) or a mesh with no room.
                    a.corridor.valid = false;
                    a.state = AgentState::NoPath;
                }
            }
        }
        jobs.len()
    }

    /// One separation pass: every overlapping pair is pushed apart by half its overlap each,
    /// each push clamped to the mesh.
    /// Works in cell order on `out` (each slot's position and polygon, its neighbours' slots),
    /// from the positions of the previous pass; the caller writes the result back to the agents.
    /// Returns whether any agent was pushed.
    fn separate(&mut self, parallel: bool) -> bool {
        let pushed = std::sync::atomic::AtomicBool::new(false);
        self.positions.clear();
        self.positions.extend(self.out.iter().map(|o| o.position));
        let snaps = &self.snaps;
        let classes = &self.classes;
        let positions = &self.positions;
        for_each_out(parallel, SEPARATION_CHUNK, &mut self.out, |i, o, s| {
            let a = &snaps[i];
            let mut push = Vec2::ZERO;
            for &j in &o.neighbours[..o.neighbour_count] {
                let j = j as usize;
                let b = &snaps[j];
                let d = positions[j] - positions[i];
                let combined = a.radius + b.radius;
                let dist_sq = d.length_squared();
                if dist_sq >= combined * combined {
                    continue;
                }
                let dist = dist_sq.sqrt();
                let away = if dist > 1e-12 {
                    -d / dist
                } else {
                    tie_direction(a.id, b.id)
                };
                push += away * ((combined - dist) * 0.5);
            }
            if push != Vec2::ZERO {
                // Read first: the line stays shared between the threads, not written by both.
                if !pushed.load(std::sync::atomic::Ordering::Relaxed) {
                    pushed.store(true, std::sync::atomic::Ordering::Relaxed);
                }
                let mesh = &classes[a.class].mesh;
                let (poly, p) = corridor::move_along_surface(
                    mesh,
                    o.poly,
                    positions[i],
                    positions[i] + push,
                    &mut s.surface,
                );
                o.position = p;
                o.poly = poly;
            }
        });
        pushed.into_inner()
    }
}

/// Whether agent `a`'s polygon and remaining corridor on `old` avoid every box of `changed`
/// and exist unchanged in `new`: then `mapped` holds their ids in `new` (the agent's polygon
/// first, then the channel from the cursor on).
fn carry_corridor(
    old: &NavMesh,
    new: &NavMesh,
    a: &Agent,
    changed: &[Aabb],
    mapped: &mut Vec<PolyId>,
) -> bool {
    mapped.clear();
    let c = &a.corridor;
    let ahead = c.channel.get(c.cursor..).unwrap_or(&[]);
    for &p in std::iter::once(&a.poly).chain(ahead) {
        if p.index() >= old.polygon_count() {
            return false;
        }
        let b = old.polygon_bounds(p);
        // Interiors only: a polygon that merely touches a changed box keeps its geometry
        // unless the check below says otherwise.
        if changed.iter().any(|c| {
            b.min.x < c.max.x && c.min.x < b.max.x && b.min.y < c.max.y && c.min.y < b.max.y
        }) {
            return false;
        }
        let Some(q) = same_polygon(old, new, p) else {
            return false;
        };
        mapped.push(q);
    }
    // The channel must still be a chain of neighbours, and the agent must stand in its polygon.
    mapped[1..]
        .windows(2)
        .all(|w| new.shared_edge(w[0], w[1]).is_some())
        && new.locate_in(mapped[0], a.position).is_some()
}

/// The polygon of `new` with exactly the vertices of polygon `p` of `old` (in the same cyclic
/// order), found at `p`'s centroid.
fn same_polygon(old: &NavMesh, new: &NavMesh, p: PolyId) -> Option<PolyId> {
    let q = new.locate(old.centroid(p)).polygon()?;
    let a: Vec<Vec2> = old.polygon_points(p).collect();
    let b: Vec<Vec2> = new.polygon_points(q).collect();
    if a.len() != b.len() || a.is_empty() {
        return None;
    }
    let k = b.iter().position(|&v| v == a[0])?;
    (0..a.len())
        .all(|i| a[i] == b[(k + i) % b.len()])
        .then_some(q)
}

/// Step times on the pool and on the calling thread (moving averages, seconds, path queries
/// left out), and which way to run the next step: the faster, except every
/// [`TUNING_PROBE_EVERY`]th step, which tries the other. Only the time depends on it.
#[derive(Clone, Debug, Default)]
struct Tuner {
    sequential: Option<f64>,
    parallel: Option<f64>,
    since_probe: u32,
    /// Steps left in the current run of the other way (a probe is [`TUNING_PROBE_STEPS`]
    /// steps, its first one not recorded: the pool's threads wake up from sleep on it).
    probe_left: u32,
    /// The way of the previous step, and whether the step being timed switched ways.
    last: Option<bool>,
    switched: bool,
}

/// Steps in one probe of the other way.
const TUNING_PROBE_STEPS: u32 = 3;

impl Tuner {
    fn choose(&mut self) -> bool {
        let way = match (self.sequential, self.parallel) {
            (None, _) => false,
            (_, None) => true,
            (Some(s), Some(p)) => {
                let faster = p < s;
                if self.probe_left > 0 {
                    self.probe_left -= 1;
                    !faster
                } else {
                    self.since_probe += 1;
                    if self.since_probe >= TUNING_PROBE_EVERY {
                        self.since_probe = 0;
                        self.probe_left = TUNING_PROBE_STEPS - 1;
                        !faster
                    } else {
                        faster
                    }
                }
            }
        };
        self.switched = self.last.is_some_and(|l| l != way);
        self.last = Some(way);
        way
    }

    fn record(&mut self, parallel: bool, seconds: f64) {
        if self.switched && (self.sequential.is_some() && self.parallel.is_some()) {
            return;
        }
        let e = if parallel {
            &mut self.parallel
        } else {
            &mut self.sequential
        };
        *e = Some(e.map_or(seconds, |x| x + 0.25 * (seconds - x)));
    }
}

/// Runs `f(i, &mut out[i], scratch)` for every index, on rayon's pool in tasks of at least
/// `chunk` indices when `parallel` (and there is more than one task).
fn for_each_out(
    parallel: bool,
    chunk: usize,
    out: &mut [StepOut],
    f: impl Fn(usize, &mut StepOut, &mut Scratch) + Sync + Send,
) {
    // Small crowds forced onto the pool (`parallel_min_agents` below the chunk) still split.
    let chunk = chunk.min(out.len() / 2).max(1);
    #[cfg(feature = "parallel")]
    if parallel && out.len() > chunk {
        use rayon::prelude::*;
        out.par_iter_mut()
            .enumerate()
            .with_min_len(chunk)
            .for_each_init(Scratch::default, |s, (i, o)| f(i, o, s));
        return;
    }
    let _ = (parallel, chunk);
    let mut s = Scratch::default();
    for (i, o) in out.iter_mut().enumerate() {
        f(i, o, &mut s);
    }
}

/// A number in [0, 1) from an id (SplitMix64's mix), for the per-agent bias.
fn unit_hash(x: u64) -> f64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// Which way `a` leaves `b` when both stand on the same point: opposite for the two.
fn tie_direction(a: AgentId, b: AgentId) -> Vec2 {
    if a < b {
        Vec2::new(-1.0, 0.0)
    } else {
        Vec2::new(1.0, 0.0)
    }
}

/// The read-only snapshot one step computes from.
struct Ctx<'a> {
    agents: &'a [Agent],
    classes: &'a [Class],
    options: &'a CrowdOptions,
    grid: &'a Grid,
    snaps: &'a [Snap],
    dt: f64,
    max_radius: f64,
}

impl Ctx<'_> {
    /// Reads what [`Ctx::compute`] will read first of each agent of `items` (its struct and
    /// the channel at its cursor), in one loop of independent loads. The agents are visited in
    /// cell order, so their structs and channels are scattered in memory; inside `compute`
    /// each of those cache misses stalled the step (about a tenth of it at 10,000 agents), while
    /// here the processor overlaps them, and the lines are still in cache when `compute` runs.
    #[inline(never)]
    fn touch(&self, items: &[u32]) {
        let mut acc = 0u64;
        for &i in items {
            let a = &self.agents[i as usize];
            let c = &a.corridor;
            acc ^= a.class as u64
                ^ a.goal.x.to_bits()
                ^ a.bias.0.to_bits()
                ^ a.stall.to_bits()
                ^ u64::from(c.channel.get(c.cursor).map_or(0, |p| p.0));
        }
        std::hint::black_box(acc);
    }

    fn compute(&self, i: usize, out: &mut StepOut, s: &mut Scratch) {
        let a = &self.agents[i];
        let mesh = &*self.classes[a.class].mesh;
        let pos = a.position;
        let dt = self.dt;
        out.position = pos;
        out.poly = a.poly;
        out.cursor = a.corridor.cursor;
        out.stall = a.stall;
        out.pressure = 0.0;
        out.best = a.best;
        out.replan = false;
        out.reconnect = None;
        // 1. Corridor: where the agent is along it, and the point to steer toward.
        let mut preferred = Vec2::ZERO;
        let c = &a.corridor;
        if c.valid && matches!(a.state, AgentState::Moving | AgentState::Arrived) {
            let mut first = None;
            let mut from = c.cursor;
            match c.advance_to(a.poly) {
                Some(k) => {
                    out.cursor = k;
                    from = k;
                }
                None => {
                    let end = (c.cursor + corridor::LOOKAHEAD).min(c.channel.len());
                    // On a shared edge the agent may be listed in the neighbour polygon.
                    if let Some(k) =
                        (c.cursor..end).find(|&k| mesh.locate_in(c.channel[k], pos).is_some())
                    {
                        out.cursor = k;
                        out.poly = c.channel[k];
                        from = k;
                    } else if let Some(k) =
                        (c.cursor..end).find(|&k| mesh.shared_edge(a.poly, c.channel[k]).is_some())
                    {
                        // Pushed into a polygon beside the channel: the corridor gets it in
                        // front of channel[k] (Detour's mergeCorridorStartMoved), no replan.
                        out.reconnect = Some((k, a.poly));
                        first = Some(a.poly);
                        from = k;
                    } else {
                        out.replan = true;
                    }
                }
            }
            let (target, last) = c.steer_target(
                mesh,
                pos,
                a.goal,
                self.options.corner_offset * a.radius,
                first,
                from,
                &mut s.portals,
            );
            let to = target - pos;
            let dist = norm(to);
            if last && dist <= self.options.arrival_distance * a.radius * 0.5 {
                preferred = Vec2::ZERO;
            } else if dist > 1e-12 {
                let speed = if last {
                    a.max_speed.min(dist / dt)
                } else {
                    a.max_speed
                };
                let d = to / dist * speed;
                let (cos, sin) = a.bias;
                preferred = Vec2::new(d.x * cos - d.y * sin, d.x * sin + d.y * cos);
            }
            // Stall: no progress toward the target for a while means replan.
            if a.state == AgentState::Moving {
                // Progress is measured toward the goal along the corridor: the cursor moving on
                // or the distance to the steering point shrinking.
                if out.cursor > c.cursor {
                    out.best = f64::INFINITY;
                }
                if dist < out.best - 0.01 * a.radius.max(1e-9) {
                    out.best = dist;
                    out.stall = 0.0;
                } else {
                    out.stall += dt;
                    if out.stall > self.options.stall_time {
                        out.replan = true;
                        out.stall = 0.0;
                        out.best = f64::INFINITY;
                    }
                }
            }
        }
        // 2. ORCA: walls first (hard), then the nearest neighbours.
        let lines = &mut s.lines;
        lines.clear();
        let inv_obstacle = 1.0 / self.options.obstacle_time_horizon;
        let wall_range = a.max_speed * self.options.obstacle_time_horizon + a.radius;
        corridor::for_each_wall_near(
            mesh,
            out.poly,
            pos,
            wall_range,
            WALL_POLYS,
            &mut s.surface,
            |closest| {
                if let Some(l) = avoidance::wall_line(pos, closest, inv_obstacle) {
                    lines.push(l);
                }
            },
        );
        let num_hard = lines.len();
        let my_range = a.radius + self.max_radius + a.max_speed * self.options.time_horizon;
        let range_sq = my_range.powi(2);
        let k = self.options.max_neighbours;
        let mut near: [(f64, u32); MAX_NEIGHBOURS] = [(0.0, 0); MAX_NEIGHBOURS];
        let count = self.grid.nearest(pos, i, range_sq, &mut near[..k]);
        out.neighbour_count = count;
        // Giving way: a parked agent that a held-up neighbour on its way walks into steps
        // aside, across that neighbour's heading, to the side it already stands on (and walks
        // back to its goal once nobody is held up by it). Holding its place, it would block a
        // passage too narrow for two for good: in one, the walls turn the step aside into a
        // slide along, and the neighbour pushes it ahead to where there is room.
        if a.parked {
            let held_up = near[..count].iter().find_map(|&(_, slot)| {
                let b = &self.snaps[slot as usize];
                let rel = pos - b.position;
                let d = norm(rel);
                (b.held_up
                    && d <= YIELD_RANGE * (a.radius + b.radius)
                    && b.heading.dot(rel) > YIELD_CONE * d)
                    .then_some((b.heading, rel))
            });
            out.pressure = if held_up.is_some() {
                (a.pressure + dt).min(2.0 * YIELD_AFTER)
            } else {
                (a.pressure - dt).max(0.0)
            };
            if let (Some((h, rel)), true) = (held_up, out.pressure >= YIELD_AFTER) {
                // The side of the neighbour's line the agent stands on (its right on the line).
                let left = Vec2::new(-h.y, h.x);
                let side = if left.dot(rel) > 0.0 { left } else { -left };
                preferred = side * (YIELD_SPEED * a.max_speed);
            }
        }
        // Queueing: an agent does not push into the back of a neighbour ahead going its way;
        // it follows at that neighbour's speed plus the gap closed in FOLLOW_TIME (a
        // car-following rule, so a jam at a door does not compress). Never below
        // FOLLOW_FLOOR of its top speed, so queues cannot lock each other for good.
        let speed = norm(preferred);
        out.heading = Vec2::ZERO;
        out.want = 0.0;
        if speed > 0.0 {
            let dir = preferred / speed;
            let mut cap = speed;
            for &(_, slot) in &near[..count] {
                let b = &self.snaps[slot as usize];
                if b.arrived || b.heading.dot(dir) <= FOLLOW_CONE {
                    continue;
                }
                let rel = b.position - pos;
                let dist = norm(rel);
                if rel.dot(dir) <= FOLLOW_CONE * dist {
                    continue;
                }
                let gap = (dist - a.radius - b.radius).max(0.0);
                cap = cap.min(gap / FOLLOW_TIME + b.velocity.dot(dir).max(0.0));
            }
            let cap = cap.max(FOLLOW_FLOOR * a.max_speed).min(speed);
            preferred = dir * cap;
            out.heading = dir;
            out.want = cap;
        }
        let me = Me {
            position: pos,
            velocity: a.velocity,
            radius: a.radius,
        };
        let inv_horizon = 1.0 / self.options.time_horizon;
        for (n, &(_, slot)) in near[..count].iter().enumerate() {
            out.neighbours[n] = slot;
            let b = &self.snaps[slot as usize];
            lines.push(avoidance::agent_line(
                &me,
                b.position,
                b.velocity,
                b.radius,
                inv_horizon,
                1.0 / dt,
                0.5,
                tie_direction(a.id, b.id),
            ));
        }
        let velocity = avoidance::solve(lines, num_hard, a.max_speed, preferred, &mut s.lp);
        // 3. Move, clamped to the mesh.
        let (poly, p) =
            corridor::move_along_surface(mesh, out.poly, pos, pos + velocity * dt, &mut s.surface);
        out.position = p;
        out.poly = poly;
        out.velocity = (p - pos) / dt;
    }
}
