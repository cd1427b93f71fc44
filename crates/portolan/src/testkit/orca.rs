//! One agent's ORCA problem taken out of a crowd, solved with the crowd's own solver
//! (`crowd::avoidance`, a port of RVO2's linear programs in f64), for the benchmark that
//! compares it with `dodgy_2d` (`benches/orca.rs`) and for checking any solver's answer
//! against the same constraints.

use crate::crowd::avoidance::{self, Line, Me};
use crate::geom::{closest_point_on_segment, Vec2};

/// A neighbour as ORCA sees it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct OrcaNeighbour {
    /// Its position.
    pub position: Vec2,
    /// Its velocity over the last step.
    pub velocity: Vec2,
    /// Its radius.
    pub radius: f64,
}

/// One agent's avoidance problem: itself, its preferred velocity, its neighbours and the wall
/// segments near it (each with the walkable side on its left, as the mesh's boundary edges).
#[derive(Clone, Debug, PartialEq)]
pub struct OrcaProblem {
    /// The agent's position.
    pub position: Vec2,
    /// Its velocity over the last step.
    pub velocity: Vec2,
    /// Its radius.
    pub radius: f64,
    /// Its top speed.
    pub max_speed: f64,
    /// The velocity it would take alone.
    pub preferred: Vec2,
    /// Its nearest neighbours, nearest first.
    pub neighbours: Vec<OrcaNeighbour>,
    /// Wall segments `(a, b)` near it, walkable side on the left of `a → b`.
    pub walls: Vec<(Vec2, Vec2)>,
    /// ORCA's time horizon against agents.
    pub time_horizon: f64,
    /// ORCA's time horizon against walls.
    pub obstacle_time_horizon: f64,
    /// The time step.
    pub dt: f64,
}

/// Reusable buffers for [`OrcaProblem::solve`].
#[derive(Default, Debug)]
pub struct OrcaScratch {
    lines: Vec<Line>,
    lp: Vec<Line>,
}

impl OrcaProblem {
    fn me(&self) -> Me {
        Me {
            position: self.position,
            velocity: self.velocity,
            radius: self.radius,
        }
    }

    fn agent_line(&self, n: &OrcaNeighbour) -> Line {
        avoidance::agent_line(
            &self.me(),
            n.position,
            n.velocity,
            n.radius,
            1.0 / self.time_horizon,
            1.0 / self.dt,
            0.5,
            Vec2::new(-1.0, 0.0),
        )
    }

    /// The new velocity as the crowd computes it: wall half-planes (hard), then one ORCA
    /// half-plane per neighbour, then RVO2's linear programs.
    ///
    /// ```
    /// use portolan::testkit::orca::{OrcaProblem, OrcaScratch};
    /// use portolan::Vec2;
    /// let p = OrcaProblem {
    ///     position: Vec2::ZERO, velocity: Vec2::ZERO, radius: 0.5, max_speed: 1.0,
    ///     preferred: Vec2::new(1.0, 0.0), neighbours: vec![], walls: vec![],
    ///     time_horizon: 1.5, obstacle_time_horizon: 0.1, dt: 0.1,
    /// };
    /// assert_eq!(p.solve(&mut OrcaScratch::default()), Vec2::new(1.0, 0.0));
    /// ```
    pub fn solve(&self, scratch: &mut OrcaScratch) -> Vec2 {
        let lines = &mut scratch.lines;
        lines.clear();
        let inv_obstacle = 1.0 / self.obstacle_time_horizon;
        for &(a, b) in &self.walls {
            let c = closest_point_on_segment(self.position, a, b);
            if let Some(l) = avoidance::wall_line(self.position, c, inv_obstacle) {
                lines.push(l);
            }
        }
        let num_hard = lines.len();
        for n in &self.neighbours {
            lines.push(self.agent_line(n));
        }
        avoidance::solve(
            lines,
            num_hard,
            self.max_speed,
            self.preferred,
            &mut scratch.lp,
        )
    }

    /// How far `v` lies outside the ORCA half-planes of the neighbours (RVO2's agent
    /// constraints, the same in both solvers), in units of speed: 0 when `v` satisfies all.
    ///
    /// ```
    /// # use portolan::testkit::orca::{OrcaNeighbour, OrcaProblem};
    /// # use portolan::Vec2;
    /// let p = OrcaProblem {
    ///     position: Vec2::ZERO, velocity: Vec2::new(1.0, 0.0), radius: 0.5, max_speed: 1.0,
    ///     preferred: Vec2::new(1.0, 0.0),
    ///     neighbours: vec![OrcaNeighbour { position: Vec2::new(1.5, 0.0), velocity: Vec2::new(-1.0, 0.0), radius: 0.5 }],
    ///     walls: vec![], time_horizon: 1.5, obstacle_time_horizon: 0.1, dt: 0.1,
    /// };
    /// assert!(p.agent_violation(Vec2::new(1.0, 0.0)) > 0.0);
    /// assert_eq!(p.agent_violation(Vec2::new(-1.0, 0.0)), 0.0);
    /// ```
    pub fn agent_violation(&self, v: Vec2) -> f64 {
        self.neighbours
            .iter()
            .map(|n| {
                let l = self.agent_line(n);
                l.direction.cross(l.point - v).max(0.0)
            })
            .fold(0.0, f64::max)
    }

    /// How many neighbours, not overlapping the agent now, it would touch within the time
    /// horizon moving at `v` while they keep their velocities (a check neutral between
    /// agent formulations: RVO2 takes half the avoidance toward each neighbour, `dodgy_2d`
    /// all of it while the pair is not on a collision course).
    ///
    /// ```
    /// # use portolan::testkit::orca::{OrcaNeighbour, OrcaProblem};
    /// # use portolan::Vec2;
    /// let p = OrcaProblem {
    ///     position: Vec2::ZERO, velocity: Vec2::ZERO, radius: 0.5, max_speed: 1.0,
    ///     preferred: Vec2::ZERO,
    ///     neighbours: vec![OrcaNeighbour { position: Vec2::new(2.0, 0.0), velocity: Vec2::ZERO, radius: 0.5 }],
    ///     walls: vec![], time_horizon: 1.5, obstacle_time_horizon: 0.1, dt: 0.1,
    /// };
    /// assert_eq!(p.collisions_if_alone(Vec2::new(1.0, 0.0)), 1);
    /// assert_eq!(p.collisions_if_alone(Vec2::new(0.0, 1.0)), 0);
    /// ```
    pub fn collisions_if_alone(&self, v: Vec2) -> usize {
        self.neighbours
            .iter()
            .filter(|n| {
                let r = self.radius + n.radius;
                let d = n.position - self.position;
                if d.length_squared() <= r * r {
                    return false;
                }
                // Closest approach of d − t w over t in [0, τ].
                let w = v - n.velocity;
                let ww = w.length_squared();
                let t = if ww > 0.0 {
                    (d.dot(w) / ww).clamp(0.0, self.time_horizon)
                } else {
                    0.0
                };
                (d - w * t).length_squared() < r * r
            })
            .count()
    }

    /// Whether moving at `v` for the wall time horizon crosses a wall segment (a check that
    /// is neutral between wall formulations: the crowd linearises walls, `dodgy_2d` builds
    /// RVO2's obstacle velocity obstacles).
    ///
    /// ```
    /// # use portolan::testkit::orca::OrcaProblem;
    /// # use portolan::Vec2;
    /// let p = OrcaProblem {
    ///     position: Vec2::new(0.0, 0.05), velocity: Vec2::ZERO, radius: 0.5, max_speed: 1.0,
    ///     preferred: Vec2::ZERO, neighbours: vec![],
    ///     walls: vec![(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0))],
    ///     time_horizon: 1.5, obstacle_time_horizon: 0.1, dt: 0.1,
    /// };
    /// assert!(p.crosses_wall(Vec2::new(0.0, -1.0)));
    /// assert!(!p.crosses_wall(Vec2::new(0.0, 1.0)));
    /// ```
    pub fn crosses_wall(&self, v: Vec2) -> bool {
        let p = self.position;
        let q = p + v * self.obstacle_time_horizon;
        self.walls.iter().any(|&(a, b)| {
            let d = b - a;
            // Strictly from the walkable side (left) to the other.
            d.cross(p - a) > 0.0 && d.cross(q - a) < 0.0 && {
                let e = q - p;
                let s1 = e.cross(a - p);
                let s2 = e.cross(b - p);
                (s1 <= 0.0 && s2 >= 0.0) || (s1 >= 0.0 && s2 <= 0.0)
            }
        })
    }
}
