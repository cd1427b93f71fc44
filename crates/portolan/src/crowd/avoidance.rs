//! ORCA: optimal reciprocal collision avoidance (van den Berg, Guy, Lin and Manocha,
//! *Reciprocal n-body Collision Avoidance*, Robotics Research, Springer 2011).
//!
//! Each agent picks a new velocity on its own, from the positions and velocities of its
//! neighbours, and the choice is collision-free for `time_horizon` seconds provided that every
//! agent does the same:
//!
//! ```text
//!   velocity space of A            For each neighbour B, the velocities of A that collide with B
//!                                  within τ form a truncated cone (the velocity obstacle). u is
//!        ╲  VO(A|B) ╱              the smallest change of the relative velocity that leaves it.
//!         ╲  ____  ╱               A takes half of the responsibility: the ORCA half-plane is
//!          ╲╱    ╲╱    u           { v : (v − (v_A + u/2)) · n ≥ 0 },  n = u/|u|.
//!           ╲    ╱ ───►
//!    ─────────●──────── half-plane The new velocity is the one closest to the preferred velocity
//!           v_A                    in the intersection of all half-planes and the speed disc.
//! ```
//!
//! The intersection is found by a randomised-order-free incremental 2D linear program
//! (`linear_program_2`, O(n) expected per agent with n constraints; the constraints are taken in
//! a fixed order so the answer is deterministic). When the half-planes have no common point
//! (dense crowds), `linear_program_3` finds the velocity that violates the agent constraints
//! least (a 3D LP projected to 2D), keeping the wall constraints hard. This is a port of the
//! RVO2 library's `Agent::computeNewVelocity` and its three linear programs, in `f64`.
//!
//! **Walls.** The crowd plans on a mesh built for the agent's radius, so an agent is a point
//! against the mesh boundary. A wall edge at distance `d` with unit normal `n` (pointing from
//! the wall to the agent) becomes the hard constraint `v · n ≥ −d / τ_obstacle`: the agent cannot
//! reach the wall within `τ_obstacle` seconds. `v = 0` satisfies every wall constraint, so the
//! wall-only program is always feasible. This is a linearisation of RVO2's obstacle velocity
//! obstacle (which also handles the legs of polygonal obstacles); walls hold regardless,
//! because the final move is clamped to the mesh (see the corridor module).
//!
//! Cost per agent: O(k + w) constraints for k neighbours and w walls, each solved in O(k + w)
//! worst case; about a microsecond for k = 10 (see BENCHMARKS.md).

use crate::geom::norm;
use crate::geom::Vec2;

/// A directed line: the allowed half-plane is on its left (RVO2's convention).
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Line {
    pub point: Vec2,
    pub direction: Vec2,
}

const EPS: f64 = 1e-12;

#[inline]
fn det(a: Vec2, b: Vec2) -> f64 {
    a.x * b.y - a.y * b.x
}

/// What one agent knows about itself for avoidance.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Me {
    pub position: Vec2,
    pub velocity: Vec2,
    pub radius: f64,
}

/// The ORCA half-plane of `me` against a neighbour at `position` moving at `velocity`,
/// `responsibility` being `me`'s share of the avoidance (½ between two crowd agents).
/// `tie` is a unit direction used only when the two centres coincide exactly.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn agent_line(
    me: &Me,
    position: Vec2,
    velocity: Vec2,
    radius: f64,
    inv_time_horizon: f64,
    inv_dt: f64,
    responsibility: f64,
    tie: Vec2,
) -> Line {
    let rel_pos = position - me.position;
    let rel_vel = me.velocity - velocity;
    let dist_sq = rel_pos.length_squared();
    let combined = me.radius + radius;
    let combined_sq = combined * combined;
    let direction;
    let u;
    if dist_sq > combined_sq {
        // No collision yet.
        let w = rel_vel - rel_pos * inv_time_horizon;
        let w_len_sq = w.length_squared();
        let dot1 = w.dot(rel_pos);
        if dot1 < 0.0 && dot1 * dot1 > combined_sq * w_len_sq {
            // Project on the cut-off circle.
            let w_len = w_len_sq.sqrt();
            let unit_w = w / w_len;
            direction = Vec2::new(unit_w.y, -unit_w.x);
            u = unit_w * (combined * inv_time_horizon - w_len);
        } else {
            // Project on the legs.
            let leg = (dist_sq - combined_sq).sqrt();
            if det(rel_pos, w) > 0.0 {
                direction = Vec2::new(
                    rel_pos.x * leg - rel_pos.y * combined,
                    rel_pos.x * combined + rel_pos.y * leg,
                ) / dist_sq;
            } else {
                direction = -Vec2::new(
                    rel_pos.x * leg + rel_pos.y * combined,
                    -rel_pos.x * combined + rel_pos.y * leg,
                ) / dist_sq;
            }
            let dot2 = rel_vel.dot(direction);
            u = direction * dot2 - rel_vel;
        }
    } else {
        // Already overlapping: get apart within one time step.
        let w = rel_vel - rel_pos * inv_dt;
        let w_len = norm(w);
        let unit_w = if w_len > EPS { w / w_len } else { tie };
        direction = Vec2::new(unit_w.y, -unit_w.x);
        u = unit_w * (combined * inv_dt - w_len);
    }
    Line {
        point: me.velocity + u * responsibility,
        direction,
    }
}

/// The hard wall constraint for a point agent at `position` whose nearest wall point is
/// `closest`: `v · n ≥ −d / τ`. `None` when the agent sits exactly on the wall point (the move
/// clamp keeps it on the mesh there).
#[inline]
pub(crate) fn wall_line(position: Vec2, closest: Vec2, inv_time_horizon: f64) -> Option<Line> {
    let away = position - closest;
    let d = norm(away);
    if d <= EPS {
        return None;
    }
    let n = away / d;
    Some(Line {
        point: -n * (d * inv_time_horizon),
        direction: Vec2::new(n.y, -n.x),
    })
}

/// Solves on line `line_no` (RVO2's linearProgram1). `false` when infeasible.
fn linear_program_1(
    lines: &[Line],
    line_no: usize,
    radius: f64,
    opt: Vec2,
    direction_opt: bool,
    result: &mut Vec2,
) -> bool {
    let line = lines[line_no];
    let dot = line.point.dot(line.direction);
    let discriminant = dot * dot + radius * radius - line.point.length_squared();
    if discriminant < 0.0 {
        // The max-speed circle fully invalidates this line.
        return false;
    }
    let sqrt_disc = discriminant.sqrt();
    let mut t_left = -dot - sqrt_disc;
    let mut t_right = -dot + sqrt_disc;
    for other in &lines[..line_no] {
        let denominator = det(line.direction, other.direction);
        let numerator = det(other.direction, line.point - other.point);
        if denominator.abs() <= EPS {
            // Parallel lines.
            if numerator < 0.0 {
                return false;
            }
            continue;
        }
        let t = numerator / denominator;
        if denominator >= 0.0 {
            t_right = t_right.min(t);
        } else {
            t_left = t_left.max(t);
        }
        if t_left > t_right {
            return false;
        }
    }
    let t = if direction_opt {
        if opt.dot(line.direction) > 0.0 {
            t_right
        } else {
            t_left
        }
    } else {
        let t = line.direction.dot(opt - line.point);
        t.clamp(t_left, t_right)
    };
    *result = line.point + line.direction * t;
    true
}

/// RVO2's linearProgram2: the point of the disc of `radius` inside every half-plane closest to
/// `opt` (or furthest along `opt` when `direction_opt`). Returns the number of lines satisfied
/// before failing (`lines.len()` on success).
pub(crate) fn linear_program_2(
    lines: &[Line],
    radius: f64,
    opt: Vec2,
    direction_opt: bool,
    result: &mut Vec2,
) -> usize {
    if direction_opt {
        *result = opt * radius;
    } else if opt.length_squared() > radius * radius {
        *result = opt * (radius / norm(opt));
    } else {
        *result = opt;
    }
    for i in 0..lines.len() {
        if det(lines[i].direction, lines[i].point - *result) > 0.0 {
            // The result does not satisfy constraint i: compute a new optimal result.
            let temp = *result;
            if !linear_program_1(lines, i, radius, opt, direction_opt, result) {
                *result = temp;
                return i;
            }
        }
    }
    lines.len()
}

/// RVO2's linearProgram3: when the program is infeasible from line `begin` on, the velocity
/// that minimises the largest violation of the soft lines (those from `num_hard` on), keeping the
/// first `num_hard` lines (walls) hard. `scratch` is reused between calls.
pub(crate) fn linear_program_3(
    lines: &[Line],
    num_hard: usize,
    begin: usize,
    radius: f64,
    result: &mut Vec2,
    scratch: &mut Vec<Line>,
) {
    let mut distance = 0.0;
    for i in begin..lines.len() {
        if det(lines[i].direction, lines[i].point - *result) > distance {
            // The result does not satisfy constraint i.
            scratch.clear();
            scratch.extend_from_slice(&lines[..num_hard]);
            for j in num_hard..i {
                let denominator = det(lines[i].direction, lines[j].direction);
                let point = if denominator.abs() <= EPS {
                    if lines[i].direction.dot(lines[j].direction) > 0.0 {
                        // Same direction.
                        continue;
                    }
                    (lines[i].point + lines[j].point) * 0.5
                } else {
                    lines[i].point
                        + lines[i].direction
                            * (det(lines[j].direction, lines[i].point - lines[j].point)
                                / denominator)
                };
                let d = lines[j].direction - lines[i].direction;
                let len = norm(d);
                let direction = if len > 0.0 {
                    d / len
                } else {
                    lines[j].direction
                };
                scratch.push(Line { point, direction });
            }
            let temp = *result;
            let opt = Vec2::new(-lines[i].direction.y, lines[i].direction.x);
            if linear_program_2(scratch, radius, opt, true, result) < scratch.len() {
                // In principle impossible: the result is already in the feasible region of
                // this program; keep the previous one if rounding says otherwise.
                *result = temp;
            }
            distance = det(lines[i].direction, lines[i].point - *result);
        }
    }
}

/// The new velocity: closest to `preferred` within `max_speed` and every half-plane of
/// `lines`, whose first `num_hard` entries are walls.
pub(crate) fn solve(
    lines: &[Line],
    num_hard: usize,
    max_speed: f64,
    preferred: Vec2,
    scratch: &mut Vec<Line>,
) -> Vec2 {
    let mut result = Vec2::ZERO;
    let failed = linear_program_2(lines, max_speed, preferred, false, &mut result);
    if failed < lines.len() {
        linear_program_3(lines, num_hard, failed, max_speed, &mut result, scratch);
    }
    if result.is_finite() {
        result
    } else {
        Vec2::ZERO
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64, y: f64) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn no_constraints_keeps_the_preferred_velocity_within_max_speed() {
        let mut s = Vec::new();
        assert_eq!(solve(&[], 0, 2.0, v(1.0, 0.5), &mut s), v(1.0, 0.5));
        let r = solve(&[], 0, 1.0, v(3.0, 4.0), &mut s);
        assert!((r - v(0.6, 0.8)).length() < 1e-12);
    }

    #[test]
    fn head_on_pair_turns_aside() {
        let me = Me {
            position: v(0.0, 0.0),
            velocity: v(1.0, 0.0),
            radius: 0.5,
        };
        let line = agent_line(
            &me,
            v(3.0, 0.0),
            v(-1.0, 0.0),
            0.5,
            0.5,
            10.0,
            0.5,
            v(1.0, 0.0),
        );
        let mut s = Vec::new();
        let nv = solve(&[line], 0, 1.0, v(1.0, 0.0), &mut s);
        // The new velocity satisfies the half-plane and is no longer straight at the other.
        assert!(det(line.direction, line.point - nv) <= 1e-12);
        assert!(nv.y.abs() > 1e-3 || nv.x < 1.0 - 1e-3);
    }

    #[test]
    fn wall_constraint_stops_the_approach() {
        // Wall along y = 0, agent at y = 0.1 heading down at speed 1, τ = 1: at most 0.1 down.
        let line = wall_line(v(0.0, 0.1), v(0.0, 0.0), 1.0).unwrap();
        let mut s = Vec::new();
        let nv = solve(&[line], 1, 1.0, v(0.0, -1.0), &mut s);
        assert!((nv.y + 0.1).abs() < 1e-12, "{nv}");
    }

    #[test]
    fn infeasible_agents_relax_but_walls_hold() {
        // Squeezed between two agents closing in and a wall below.
        let me = Me {
            position: v(0.0, 0.2),
            velocity: v(0.0, 0.0),
            radius: 0.5,
        };
        let wall = wall_line(me.position, v(0.0, 0.0), 2.0).unwrap();
        let a = agent_line(
            &me,
            v(-0.9, 0.2),
            v(1.0, 0.0),
            0.5,
            0.5,
            10.0,
            0.5,
            v(1.0, 0.0),
        );
        let b = agent_line(
            &me,
            v(0.9, 0.2),
            v(-1.0, 0.0),
            0.5,
            0.5,
            10.0,
            0.5,
            v(1.0, 0.0),
        );
        let c = agent_line(
            &me,
            v(0.0, 1.1),
            v(0.0, -1.0),
            0.5,
            0.5,
            10.0,
            0.5,
            v(1.0, 0.0),
        );
        let lines = [wall, a, b, c];
        let mut s = Vec::new();
        let nv = solve(&lines, 1, 1.0, v(0.0, 0.0), &mut s);
        assert!(nv.is_finite());
        assert!(
            det(wall.direction, wall.point - nv) <= 1e-9,
            "wall violated: {nv}"
        );
    }
}
