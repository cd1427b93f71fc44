//! The funnel algorithm: the shortest polyline through a sequence of portals.
//!
//! This is Mikko Mononen's *Simple Stupid Funnel Algorithm* (2010), the string-pulling step of the
//! chapter. The funnel is an apex and two rays through the last accepted left and right portal
//! endpoints. Each portal tries to tighten the right ray, then the left one:
//!
//! ```text
//!         left ray            a new right endpoint inside the funnel narrows it;
//!     L ·─────────            one that crosses over the left ray means the path
//!      ╲          ╲           must turn at L: L becomes the apex, the path gets
//!  apex ●   funnel ·          the corner, and the scan restarts after L's portal
//!      ╱          ╱
//!     R ·─────────
//!         right ray
//! ```
//!
//! The start and the goal are zero-width portals. Worst case O(n²) for n portals (each restart
//! rescans); in practice close to linear. Every side decision is an exact [`orient`] call.
//!
//! # Left and right
//! A portal's endpoints are named as seen by an agent walking through it, with y **up**: leaving a
//! counter-clockwise polygon through its edge `a → b`, `b` is on the left and `a` on the right.
//! Ids and vertex order settle this, so no cross product with a polygon centre is needed. With
//! y-down data (screens) everything still works, only a drawing shows "left" on the right.

use crate::geom::{orient, same_ray, Orientation, Vec2};
use crate::mesh::{NavMesh, PolyId};

/// A portal as the agent sees it, walking through.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Portal {
    /// The endpoint on the agent's left (y up).
    pub left: Vec2,
    /// The endpoint on the agent's right.
    pub right: Vec2,
}

impl Portal {
    /// A zero-width portal at `p` (the start and the goal).
    pub fn point(p: Vec2) -> Portal {
        Portal { left: p, right: p }
    }
    /// The portal's midpoint.
    pub fn midpoint(&self) -> Vec2 {
        (self.left + self.right) * 0.5
    }
}

/// The portals of a channel: the start, every shared edge in order, the goal.
///
/// Consecutive polygons of `channel` must be neighbours (as [`PathFinder`](super::PathFinder)
/// returns them); a pair that is not is skipped.
pub fn channel_portals(mesh: &NavMesh, channel: &[PolyId], start: Vec2, goal: Vec2) -> Vec<Portal> {
    let mut portals = Vec::with_capacity(channel.len() + 1);
    channel_portals_into(mesh, channel, start, goal, &mut portals);
    portals
}

/// [`channel_portals`] into a reused buffer.
pub fn channel_portals_into(
    mesh: &NavMesh,
    channel: &[PolyId],
    start: Vec2,
    goal: Vec2,
    portals: &mut Vec<Portal>,
) {
    portals.clear();
    portals.push(Portal::point(start));
    for w in channel.windows(2) {
        // The shared edge as the first polygon runs it, counter-clockwise.
        if let Some((a, b)) = mesh.shared_edge(w[0], w[1]).map(|i| mesh.edge(w[0], i)) {
            portals.push(Portal { left: b, right: a });
        }
    }
    portals.push(Portal::point(goal));
}

/// What one [`Funnel::step`] did.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct FunnelStep {
    /// The portal processed in this step (0 is the start).
    pub portal: usize,
    /// The funnel's apex after the step.
    pub apex: Vec2,
    /// The end of the funnel's left ray after the step.
    pub left: Vec2,
    /// The end of the funnel's right ray after the step.
    pub right: Vec2,
    /// The point added to the path in this step: a corner where one side crossed the other, or
    /// the goal in the last step.
    pub corner: Option<Vec2>,
    /// `true` when the goal has been reached and the path is complete.
    pub done: bool,
}

/// The funnel algorithm, one portal at a time.
///
/// ```
/// use portolan::geom::Vec2;
/// use portolan::search::funnel::{Funnel, Portal, string_pull};
///
/// // A corridor turning around the corner (1, 1).
/// let portals = vec![
///     Portal::point(Vec2::new(0.0, 0.0)),
///     Portal { left: Vec2::new(1.0, 1.0), right: Vec2::new(1.0, -1.0) },
///     Portal { left: Vec2::new(1.0, 1.0), right: Vec2::new(3.0, 1.0) },
///     Portal::point(Vec2::new(2.0, 4.0)),
/// ];
/// assert_eq!(string_pull(&portals), vec![Vec2::new(0.0, 0.0), Vec2::new(1.0, 1.0), Vec2::new(2.0, 4.0)]);
///
/// let mut funnel = Funnel::new(&portals);
/// let mut added = vec![Vec2::new(0.0, 0.0)];
/// while let Some(step) = funnel.step() {
///     added.extend(step.corner); // the turn at (1, 1), then the goal
/// }
/// assert_eq!(added, funnel.path());
/// ```
#[derive(Clone, Debug)]
pub struct Funnel<'a> {
    portals: &'a [Portal],
    path: Vec<Vec2>,
    apex: Vec2,
    left: Vec2,
    right: Vec2,
    left_index: usize,
    right_index: usize,
    next: usize,
    done: bool,
}

impl<'a> Funnel<'a> {
    /// A funnel over `portals`; the first portal's left point is the start, the last one's the goal.
    pub fn new(portals: &'a [Portal]) -> Funnel<'a> {
        let start = portals.first().map_or(Vec2::ZERO, |p| p.left);
        Funnel {
            portals,
            path: if portals.is_empty() {
                Vec::new()
            } else {
                vec![start]
            },
            apex: start,
            left: start,
            right: start,
            left_index: 0,
            right_index: 0,
            next: 1,
            done: portals.is_empty(),
        }
    }

    /// Processes the next portal (or restarts at a corner); `None` once the path is complete.
    pub fn step(&mut self) -> Option<FunnelStep> {
        self.advance()
            .map(|(portal, corner)| self.record(portal, corner))
    }

    /// [`step`](Funnel::step) without its record: the portal processed and the point added to
    /// the path, if any. [`finish`](Funnel::finish) loops on this, so as not to copy the
    /// funnel's state into a record per step that nobody reads (measured: 0.96–0.97× the time
    /// of a maze query, whose long forced channels are mostly funnel).
    #[inline]
    fn advance(&mut self) -> Option<(usize, Option<Vec2>)> {
        if self.done {
            return None;
        }
        let i = self.next;
        if i >= self.portals.len() {
            // Only the start portal: the path is the start itself.
            self.done = true;
            return Some((i.saturating_sub(1), None));
        }
        let Portal { left: l, right: r } = self.portals[i];

        // Tighten the right side: r is not outside (right of) the current right ray. The same
        // end again (portals sharing it) narrows nothing, and is not tested against the left
        // side again: where the funnel is a straight angle (a start inside the first portal,
        // the two ends on opposite rays from it) that test called it a crossing and turned the
        // path at the left end for nothing.
        if r == self.right {
            self.right_index = i;
        } else if orient(self.apex, self.right, r) != Orientation::Clockwise {
            if self.apex == self.right || !beyond(self.apex, self.left, r, Orientation::Clockwise) {
                self.right = r;
                self.right_index = i;
            } else {
                // r crossed over the left ray: the path turns at the left endpoint.
                let corner = self.left;
                self.restart_at(corner, self.left_index);
                return Some((i, Some(corner)));
            }
        }
        // Tighten the left side, symmetrically.
        if l == self.left {
            self.left_index = i;
        } else if orient(self.apex, self.left, l) != Orientation::CounterClockwise {
            if self.apex == self.left
                || !beyond(self.apex, self.right, l, Orientation::CounterClockwise)
            {
                self.left = l;
                self.left_index = i;
            } else {
                let corner = self.right;
                self.restart_at(corner, self.right_index);
                return Some((i, Some(corner)));
            }
        }
        self.next = i + 1;
        let mut corner = None;
        if self.next == self.portals.len() {
            let goal = self.portals[i].left;
            if self.path.last() != Some(&goal) {
                self.path.push(goal);
                corner = Some(goal);
            }
            // The funnel closes on the goal: the path's last point is the apex.
            (self.apex, self.left, self.right) = (goal, goal, goal);
            self.done = true;
        }
        Some((i, corner))
    }

    fn restart_at(&mut self, corner: Vec2, index: usize) {
        if self.path.last() != Some(&corner) {
            self.path.push(corner);
        }
        self.apex = corner;
        self.left = corner;
        self.right = corner;
        self.left_index = index;
        self.right_index = index;
        self.next = index + 1;
    }

    fn record(&self, portal: usize, corner: Option<Vec2>) -> FunnelStep {
        FunnelStep {
            portal,
            apex: self.apex,
            left: self.left,
            right: self.right,
            corner,
            done: self.done,
        }
    }

    /// The path found so far (complete once [`Funnel::step`] returns `None`).
    pub fn path(&self) -> &[Vec2] {
        &self.path
    }
    /// The current apex.
    pub fn apex(&self) -> Vec2 {
        self.apex
    }
    /// The current end of the left ray.
    pub fn left(&self) -> Vec2 {
        self.left
    }
    /// The current end of the right ray.
    pub fn right(&self) -> Vec2 {
        self.right
    }
    /// The next portal to process.
    pub fn index(&self) -> usize {
        self.next
    }
    /// Runs to the end and returns the path.
    pub fn finish(mut self) -> Vec<Vec2> {
        while self.advance().is_some() {}
        self.path
    }
}

/// `true` when `p` is outside the funnel's side from `apex` through `side` (whose inside is
/// toward `inside`): strictly to the other side of its line, or on the line but not ahead of
/// the apex. A point on the side's ray itself is inside: the funnel then narrows to that ray.
/// (Testing only `orient(apex, side, p) == inside` called a point on the ray outside, and
/// turned the path at the side's end where it runs straight along a wall: a portal lying
/// along the line from the apex, as grid maps make them, gave paths longer than the
/// shortest.)
#[inline]
pub(crate) fn beyond(apex: Vec2, side: Vec2, p: Vec2, inside: Orientation) -> bool {
    match orient(apex, side, p) {
        Orientation::Collinear => p == apex || side == apex || !same_ray(apex, side, p),
        o => o != inside,
    }
}

/// The shortest polyline through the portals (the chapter's `stringPull`), with collinear
/// pass-through points removed.
pub fn string_pull(portals: &[Portal]) -> Vec<Vec2> {
    let mut path = Funnel::new(portals).finish();
    simplify_collinear(&mut path);
    path
}

/// Removes points where the polyline goes straight on (exactly collinear, same direction) and
/// repeated points.
pub fn simplify_collinear(path: &mut Vec<Vec2>) {
    path.dedup();
    if path.len() < 3 {
        return;
    }
    let mut out = Vec::with_capacity(path.len());
    out.push(path[0]);
    for i in 1..path.len() - 1 {
        let (a, b, c) = (*out.last().expect("starts non-empty"), path[i], path[i + 1]);
        let straight = orient(a, b, c) == Orientation::Collinear && (b - a).dot(c - b) > 0.0;
        if !straight {
            out.push(b);
        }
    }
    out.push(path[path.len() - 1]);
    *path = out;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A portal lying along the line from the apex (grid maps make them: a wall's end and the
    /// next corner in one row): the funnel narrows to that line instead of turning at the
    /// portal's far end. Before the fix the path went round (236, 241) and (236, 240), 1.05
    /// longer here; found on a 512 × 512 maze, where the exact search's funnel disagreed with
    /// Polyanya (y down, as in the map: the names follow the mesh's own order).
    #[test]
    fn regression_a_portal_along_the_apex_line_narrows_the_funnel() {
        let p = |lx, ly, rx, ry| Portal {
            left: v(lx, ly),
            right: v(rx, ry),
        };
        let portals = [
            Portal::point(v(232.0, 241.0)),
            p(236.0, 241.0, 233.0, 241.0),
            p(236.0, 240.0, 233.0, 241.0),
            p(236.0, 240.0, 237.0, 237.0),
            p(240.0, 236.0, 237.0, 237.0),
            Portal::point(v(240.0, 236.0)),
        ];
        assert_eq!(
            string_pull(&portals),
            vec![v(232.0, 241.0), v(233.0, 241.0), v(240.0, 236.0)]
        );
        // The same on the other side (mirrored: left and right swap).
        let mirrored = crate::testkit::mirrored_portals(&portals);
        assert_eq!(
            string_pull(&mirrored),
            vec![v(-232.0, 241.0), v(-233.0, 241.0), v(-240.0, 236.0)]
        );
    }

    fn v(x: f64, y: f64) -> Vec2 {
        Vec2::new(x, y)
    }

    /// A start inside the first portal (on the edge two squares share), and the next portal
    /// keeping its right end: the funnel is a straight angle at the start. Testing that end
    /// again against the left side found a crossing and turned the path at (4, 3), a detour
    /// of 2.08 for a segment of 1.12 (found by a review comparing this funnel with the one
    /// with two chains).
    #[test]
    fn regression_a_start_inside_the_first_portal_goes_straight() {
        let portals = [
            Portal::point(v(4.5, 3.0)),
            Portal {
                left: v(4.0, 3.0),
                right: v(5.0, 3.0),
            },
            Portal {
                left: v(5.0, 4.0),
                right: v(5.0, 3.0),
            },
            Portal::point(v(5.5, 3.5)),
        ];
        assert_eq!(string_pull(&portals), vec![v(4.5, 3.0), v(5.5, 3.5)]);
    }

    /// Zig-zag: the portals force a detour below the corner (1, -1), then above (2, 1).
    fn zigzag() -> Vec<Portal> {
        vec![
            Portal::point(v(0.0, 0.0)),
            Portal {
                left: v(1.0, -1.0),
                right: v(1.0, -3.0),
            },
            Portal {
                left: v(2.0, 3.0),
                right: v(2.0, 1.0),
            },
            Portal::point(v(3.0, 0.0)),
        ]
    }

    #[test]
    fn straight_corridor_is_a_segment() {
        let portals = vec![
            Portal::point(v(0.0, 0.0)),
            Portal {
                left: v(1.0, 1.0),
                right: v(1.0, -1.0),
            },
            Portal {
                left: v(2.0, 1.0),
                right: v(2.0, -1.0),
            },
            Portal::point(v(3.0, 0.5)),
        ];
        assert_eq!(string_pull(&portals), vec![v(0.0, 0.0), v(3.0, 0.5)]);
    }

    #[test]
    fn turns_right_and_left() {
        let path = string_pull(&zigzag());
        assert_eq!(
            path,
            vec![v(0.0, 0.0), v(1.0, -1.0), v(2.0, 1.0), v(3.0, 0.0)]
        );
    }

    #[test]
    fn start_equals_goal() {
        let p = v(1.0, 1.0);
        assert_eq!(string_pull(&[Portal::point(p), Portal::point(p)]), vec![p]);
        assert_eq!(string_pull(&[Portal::point(p)]), vec![p]);
        assert!(string_pull(&[]).is_empty());
    }

    #[test]
    fn collinear_points_are_removed() {
        let mut path = vec![
            v(0.0, 0.0),
            v(1.0, 1.0),
            v(1.0, 1.0),
            v(2.0, 2.0),
            v(2.0, 3.0),
        ];
        simplify_collinear(&mut path);
        assert_eq!(path, vec![v(0.0, 0.0), v(2.0, 2.0), v(2.0, 3.0)]);
    }

    #[test]
    fn portals_through_a_shared_vertex() {
        // Several portals fan around the corner (1, 1): the path turns there once.
        let c = v(1.0, 1.0);
        let portals = vec![
            Portal::point(v(0.0, 0.0)),
            Portal {
                left: c,
                right: v(1.0, -1.0),
            },
            Portal {
                left: c,
                right: v(2.0, 0.0),
            },
            Portal {
                left: c,
                right: v(2.0, 2.0),
            },
            Portal::point(v(0.5, 3.0)),
        ];
        assert_eq!(string_pull(&portals), vec![v(0.0, 0.0), c, v(0.5, 3.0)]);
    }

    #[test]
    fn steps_end_with_the_path() {
        let portals = zigzag();
        let mut f = Funnel::new(&portals);
        let mut corners = vec![v(0.0, 0.0)];
        let mut last = None;
        while let Some(s) = f.step() {
            corners.extend(s.corner);
            last = Some(s);
        }
        let last = last.unwrap();
        assert!(last.done);
        assert_eq!(corners, f.path());
        // The funnel closes on the goal (the demo draws the apex there at the end).
        let goal = portals.last().unwrap().left;
        assert_eq!((last.apex, last.left, last.right), (goal, goal, goal));
    }
}
