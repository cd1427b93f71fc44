//! Path following over a corridor (Detour's `dtPathCorridor`), and moves clamped to the mesh
//! (Detour's `moveAlongSurface`).
//!
//! An agent keeps the channel of its last path (the polygons from where it was to its goal) and
//! the path's corners (with corner offset). Each step it
//!
//! 1. finds its polygon in the channel, a few polygons ahead of where it was: the corridor's
//!    start moves forward as the agent advances. Not found means the agent has strayed (pushed
//!    aside by the crowd): it asks for a replan, and keeps steering meanwhile;
//! 2. steers toward the first corner of the funnel from where it stands now, over the next
//!    polygons of its channel (Detour's `findCorners`), the corner pushed out by the corner
//!    offset: the corner is always in sight, so an agent the crowd pushed past a corner (or
//!    aside) simply sees the next one, which is the corridor's optimisation;
//! 3. asks for a replan when it made no progress toward its corner for a while.
//!
//! ```text
//!     channel:  [p0 p1 p2 p3 p4 p5 …]      funnel from the agent over the window:
//!                     ▲ cursor              agent ── first corner (offset) ── …
//! ```
//!
//! **Moves never leave the mesh.** [`move_along_surface`] walks from the agent's polygon
//! toward the target over the polygons that the segment's bounding circle touches (a
//! breadth-first search across portals, never across a pinch vertex), and returns the target
//! when one of them holds it, or else the nearest point of those polygons to it: the move
//! slides along the wall it hit. The point returned is located in the polygon returned (it is
//! pulled inside where rounding put a projection a hair out), so a position is on the mesh
//! after every step, whatever avoidance asked for.

use crate::geom::{norm, orient, Orientation, Vec2};
use crate::mesh::{NavMesh, PolyId};
use crate::search::corner::outer_bisector;
use crate::search::funnel::{beyond, Portal};

/// How many polygons ahead of its cursor an agent looks for itself in its channel.
pub(crate) const LOOKAHEAD: usize = 8;
/// How many polygons of the channel, from the cursor, the steering funnel looks at.
pub(crate) const WINDOW: usize = 24;
/// Most polygons a surface move visits.
const MAX_VISITED: usize = 32;

/// The path an agent follows: its channel and where it is along it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Corridor {
    /// The polygons from the agent's polygon at planning time to the goal's.
    pub channel: Vec<PolyId>,
    /// The channel index of the agent's polygon.
    pub cursor: usize,
    /// Whether the corridor holds a path (false until the first plan arrives).
    pub valid: bool,
}

/// The portal from polygon `p` into its neighbour `q`, if they share an edge.
#[inline]
fn portal(mesh: &NavMesh, p: PolyId, q: PolyId) -> Option<Portal> {
    let i = mesh.shared_edge(p, q)?;
    let (a, b) = mesh.edge(p, i);
    Some(Portal { left: b, right: a })
}

impl Corridor {
    /// A corridor for a fresh path.
    pub(crate) fn set(&mut self, channel: Vec<PolyId>) {
        self.channel = channel;
        self.cursor = 0;
        self.valid = true;
    }

    /// The channel index of `poly` among the next [`LOOKAHEAD`] polygons from the cursor;
    /// `None` when it is not there (the agent has strayed).
    pub(crate) fn advance_to(&self, poly: PolyId) -> Option<usize> {
        let end = (self.cursor + LOOKAHEAD).min(self.channel.len());
        (self.cursor..end).find(|&i| self.channel[i] == poly)
    }

    /// The point to steer toward from `pos`, and whether it is the goal: the first corner of
    /// the funnel over the next [`WINDOW`] polygons of the channel from `from` (Detour's
    /// `findCorners`), after `first` when the agent stands in a polygon beside the channel,
    /// pushed `offset` out along the outer bisector of the turn. Always in sight from `pos`
    /// within the channel, however the crowd pushed the agent. Past the window, the funnel ends
    /// at the midpoint of the window's last portal.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn steer_target(
        &self,
        mesh: &NavMesh,
        pos: Vec2,
        goal: Vec2,
        offset: f64,
        first: Option<PolyId>,
        from: usize,
        portals: &mut Vec<Portal>,
    ) -> (Vec2, bool) {
        let end = (from + WINDOW).min(self.channel.len());
        let window = &self.channel[from.min(end)..end];
        let whole = end == self.channel.len();
        portals.clear();
        portals.push(Portal::point(pos));
        // The portals are made as the funnel reaches them (most agents see their first two
        // corners a few polygons ahead, so most of the window is never looked at), one edge
        // ahead: the window's last portal is dropped for its midpoint when the channel goes on.
        let mut source = Portals::new(mesh, first, window, goal, whole);
        let mut path = [Vec2::ZERO; 3];
        let len = first_corners(portals, &mut source, &mut path);
        let last = source.last;
        let path = &path[..len];
        match path.len() {
            0 | 1 => (last, whole),
            2 => (path[1], whole && path[1] == last),
            _ => {
                let c = path[1];
                if c == last {
                    return (c, whole);
                }
                // Close to the corner the direction from the agent to it is ill-conditioned
                // (an agent pushed a hair past it would see the bisector flip into the wall):
                // no offset within twice the offset's length.
                let d = norm(pos - c);
                let pushed = match outer_bisector(pos, c, path[2]) {
                    Some(b) if offset > 0.0 && d > 2.0 * offset => c + b * offset,
                    _ => c,
                };
                (pushed, false)
            }
        }
    }
}

/// The portals of a steering window, made on demand (see [`Corridor::steer_target`]).
struct Portals<'a> {
    mesh: &'a NavMesh,
    /// The polygon beside the channel the agent stands in, before `window[0]`.
    first: Option<PolyId>,
    window: &'a [PolyId],
    /// The next pair to look at: 0 is (first, window[0]), k ≥ 1 is (window[k - 1], window[k]).
    next: usize,
    /// The edge portal made but not yet handed out (it may be the window's last).
    pending: Option<Portal>,
    finished: bool,
    goal: Vec2,
    whole: bool,
    /// The funnel's end: the goal, or the midpoint of the window's last portal.
    last: Vec2,
}

impl<'a> Portals<'a> {
    /// The portals of `window` (after `first`, the polygon beside the channel the agent stands
    /// in, if any), ending at `goal` when the window is the `whole` rest of the channel.
    fn new(
        mesh: &'a NavMesh,
        first: Option<PolyId>,
        window: &'a [PolyId],
        goal: Vec2,
        whole: bool,
    ) -> Portals<'a> {
        Portals {
            mesh,
            first: first.filter(|_| !window.is_empty()),
            window,
            next: 0,
            pending: None,
            finished: false,
            goal,
            whole,
            // Set once the funnel reaches the end; never equal to a corner before that.
            last: if whole {
                goal
            } else {
                Vec2::new(f64::NAN, f64::NAN)
            },
        }
    }

    /// The next edge portal of the window, skipping pairs that share no edge.
    fn next_edge(&mut self) -> Option<Portal> {
        loop {
            let edge = if self.next == 0 {
                self.next = 1;
                match (self.first, self.window.first()) {
                    (Some(f), Some(&w)) => portal(self.mesh, f, w),
                    _ => None,
                }
            } else {
                let k = self.next;
                if k >= self.window.len() {
                    return None;
                }
                self.next += 1;
                portal(self.mesh, self.window[k - 1], self.window[k])
            };
            if edge.is_some() {
                return edge;
            }
        }
    }

    /// Makes portals until `portals` holds more than `n`, or all of them.
    fn fill(&mut self, portals: &mut Vec<Portal>, n: usize) {
        while portals.len() <= n && !self.finished {
            match self.next_edge() {
                Some(e) => {
                    if let Some(p) = self.pending.replace(e) {
                        portals.push(p);
                    }
                }
                None => {
                    self.finished = true;
                    match self.pending.take() {
                        Some(p) if self.whole => {
                            portals.push(p);
                            self.last = self.goal;
                        }
                        Some(p) => self.last = p.midpoint(),
                        None if self.whole => self.last = self.goal,
                        None => self.last = portals.pop().map_or(self.goal, |p| p.midpoint()),
                    }
                    portals.push(Portal::point(self.last));
                }
            }
        }
    }
}

/// The first three points of the funnel's path (start, first corner, second) over the portals
/// `source` makes, into `path`; returns how many there are. The same steps, predicates and
/// answers as [`Funnel`](crate::search::funnel::Funnel) stopped at three points, without its
/// allocation and without making the portals past the last it needs.
fn first_corners(portals: &mut Vec<Portal>, source: &mut Portals, path: &mut [Vec2; 3]) -> usize {
    let start = portals[0].left;
    path[0] = start;
    let mut len = 1;
    let (mut apex, mut left, mut right) = (start, start, start);
    let (mut left_index, mut right_index) = (0, 0);
    let mut next = 1;
    let push = |path: &mut [Vec2; 3], len: &mut usize, p: Vec2| {
        if path[*len - 1] != p {
            path[*len] = p;
            *len += 1;
        }
    };
    while len < 3 {
        let i = next;
        source.fill(portals, i + 1);
        if i >= portals.len() {
            break;
        }
        let Portal { left: l, right: r } = portals[i];
        // Tighten the right side: r is not outside (right of) the current right ray.
        if orient(apex, right, r) != Orientation::Clockwise {
            if apex == right || !beyond(apex, left, r, Orientation::Clockwise) {
                right = r;
                right_index = i;
            } else {
                // r crossed over the left ray: the path turns at the left endpoint.
                let corner = left;
                push(path, &mut len, corner);
                (apex, right) = (corner, corner);
                right_index = left_index;
                next = left_index + 1;
                continue;
            }
        }
        // Tighten the left side, symmetrically.
        if orient(apex, left, l) != Orientation::CounterClockwise {
            if apex == left || !beyond(apex, right, l, Orientation::CounterClockwise) {
                left = l;
                left_index = i;
            } else {
                let corner = right;
                push(path, &mut len, corner);
                (apex, left) = (corner, corner);
                left_index = right_index;
                next = right_index + 1;
                continue;
            }
        }
        next = i + 1;
        if next == portals.len() {
            push(path, &mut len, portals[i].left);
            break;
        }
    }
    len
}

/// Scratch for surface moves, one per worker.
#[derive(Clone, Debug, Default)]
pub(crate) struct SurfaceScratch {
    visited: Vec<PolyId>,
}

/// Moves from `start` (in polygon `poly`) toward `target` over the mesh; see the module docs.
/// Returns the polygon and the point reached.
pub(crate) fn move_along_surface(
    mesh: &NavMesh,
    poly: PolyId,
    start: Vec2,
    target: Vec2,
    scratch: &mut SurfaceScratch,
) -> (PolyId, Vec2) {
    if !target.is_finite() {
        return (poly, start);
    }
    if mesh.locate_in(poly, target).is_some() {
        return (poly, target);
    }
    let centre = (start + target) * 0.5;
    let radius = norm(start - target) * 0.5 + 1e-9;
    let radius_sq = radius * radius;
    let visited = &mut scratch.visited;
    visited.clear();
    visited.push(poly);
    let mut best: (f64, PolyId, Vec2) = (f64::INFINITY, poly, start);
    let mut head = 0;
    while head < visited.len() {
        let p = visited[head];
        head += 1;
        let (d, q) = mesh.nearest_in(p, target);
        if d < best.0 {
            best = (d, p, q);
            if d == 0.0 {
                // `nearest_in` says 0 for a point inside, but also for one a rounding error
                // outside an edge: `pull_inside` keeps a point inside and nudges the other in.
                return (p, mesh.pull_inside(p, q));
            }
        }
        for (i, n) in mesh.neighbours(p).iter().enumerate() {
            let Some(n) = *n else { continue };
            if visited.len() >= MAX_VISITED || visited.contains(&n) {
                continue;
            }
            let (a, b) = mesh.edge(p, i);
            let c = crate::geom::closest_point_on_segment(centre, a, b);
            if (c - centre).length_squared() <= radius_sq {
                visited.push(n);
            }
        }
    }
    let (_, p, q) = best;
    (p, mesh.pull_inside(p, q))
}

/// Calls `f(closest point)` for every wall edge within `range` of `pos`, over the polygons
/// reachable from `poly` across portals within `range` (at most `max_polys` of them).
pub(crate) fn for_each_wall_near(
    mesh: &NavMesh,
    poly: PolyId,
    pos: Vec2,
    range: f64,
    max_polys: usize,
    scratch: &mut SurfaceScratch,
    mut f: impl FnMut(Vec2),
) {
    let range_sq = range * range;
    let visited = &mut scratch.visited;
    visited.clear();
    visited.push(poly);
    let mut head = 0;
    while head < visited.len() {
        let p = visited[head];
        head += 1;
        for (i, n) in mesh.neighbours(p).iter().enumerate() {
            let (a, b) = mesh.edge(p, i);
            let c = crate::geom::closest_point_on_segment(pos, a, b);
            if (c - pos).length_squared() > range_sq {
                continue;
            }
            match *n {
                // Only walls the agent is in front of (on the polygon's side of the wall's
                // line): a wall seen from behind is reached only through another wall, and its
                // end point would hold the agent back from a corner it merely walks past.
                None if (b - a).cross(pos - a) > 0.0 => f(c),
                None => {}
                Some(n) if visited.len() < max_polys && !visited.contains(&n) => visited.push(n),
                Some(_) => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{build, BuildOptions};
    use crate::geom::Aabb;
    use crate::scene::Scene;

    fn v(x: f64, y: f64) -> Vec2 {
        Vec2::new(x, y)
    }

    fn room() -> NavMesh {
        let scene = Scene::new(Aabb::new(v(0.0, 0.0), v(10.0, 10.0))).with_obstacle([
            [4.0, 2.0],
            [6.0, 2.0],
            [6.0, 8.0],
            [4.0, 8.0],
        ]);
        build(&scene, &BuildOptions::default()).unwrap()
    }

    #[test]
    fn a_free_move_reaches_its_target() {
        let mesh = room();
        let s = v(1.0, 1.0);
        let poly = mesh.locate(s).polygon().unwrap();
        let (p, q) = move_along_surface(&mesh, poly, s, v(9.0, 1.5), &mut Default::default());
        assert_eq!(q, v(9.0, 1.5));
        assert!(mesh.locate_in(p, q).is_some());
    }

    #[test]
    fn a_move_into_a_wall_slides_and_stays_on_the_mesh() {
        let mesh = room();
        let s = v(3.5, 5.0);
        let poly = mesh.locate(s).polygon().unwrap();
        let (p, q) = move_along_surface(&mesh, poly, s, v(4.5, 5.5), &mut Default::default());
        assert!(mesh.locate_in(p, q).is_some());
        assert!(q.x <= 4.0 && (q.y - 5.5).abs() < 1e-9, "{q}");
        // Out of the map entirely.
        let s = v(0.2, 9.8);
        let poly = mesh.locate(s).polygon().unwrap();
        let (p, q) = move_along_surface(&mesh, poly, s, v(-1.0, 11.0), &mut Default::default());
        assert!(mesh.locate_in(p, q).is_some());
        assert_eq!(q, v(0.0, 10.0));
    }

    /// The funnel's first points with consecutive repeats dropped, as `first_corners` keeps them.
    fn first_three(path: &[Vec2]) -> Vec<Vec2> {
        let mut out: Vec<Vec2> = Vec::new();
        for &p in path {
            if out.last() != Some(&p) {
                out.push(p);
            }
        }
        out.truncate(3);
        out
    }

    #[test]
    fn first_corners_are_the_funnels_first_points_on_random_meshes() {
        use crate::search::funnel::{channel_portals, Funnel};
        use crate::search::{PathFinder, SearchOptions};
        use crate::testkit::check_counted;
        use crate::testkit::scenes::{grid_point, mesh_of, random_scene};
        use proptest::prelude::*;
        // `first_corners` is the steering copy of `Funnel::step` (no allocation, portals made
        // as needed): over a whole channel, and over a window of it that ends at the midpoint
        // of its last portal, it must find the funnel's own first three points.
        let checked = check_counted(
            file!(),
            64,
            (
                random_scene(),
                prop::collection::vec((grid_point(), grid_point()), 1..12),
                2usize..8,
            ),
            |(scene, queries, cut)| {
                let mesh = mesh_of(&scene);
                let mut finder = PathFinder::new();
                let mut n = 0;
                for (s, g) in queries {
                    let Ok(path) = finder.find_path(&mesh, s, g, &SearchOptions::funnel()) else {
                        continue;
                    };
                    let channel = &path.channel;
                    // Whole: the funnel runs to the goal.
                    let want =
                        first_three(&Funnel::new(&channel_portals(&mesh, channel, s, g)).finish());
                    let got = run_first_corners(&mesh, channel, s, g, true);
                    prop_assert_eq!(&got, &want, "whole channel of {} polygons", channel.len());
                    n += 1;
                    // A window of `cut` polygons that is not the whole channel: its funnel ends
                    // at the midpoint of the window's last portal.
                    if cut < channel.len() {
                        let window = &channel[..cut];
                        let mut portals = channel_portals(&mesh, window, s, g);
                        portals.pop(); // the goal
                        let last = portals
                            .pop()
                            .expect("2 polygons: an edge portal")
                            .midpoint();
                        portals.push(Portal::point(last));
                        let want = first_three(&Funnel::new(&portals).finish());
                        let got = run_first_corners(&mesh, window, s, g, false);
                        prop_assert_eq!(&got, &want, "window of {} of {}", cut, channel.len());
                        n += 1;
                    }
                }
                Ok(n)
            },
        );
        assert!(checked >= 100, "only {checked} channels compared");
    }

    /// `first_corners` over `window` from `start` (no polygon beside the channel), set up as
    /// [`Corridor::steer_target`] sets it up.
    fn run_first_corners(
        mesh: &NavMesh,
        window: &[PolyId],
        start: Vec2,
        goal: Vec2,
        whole: bool,
    ) -> Vec<Vec2> {
        let mut portals = vec![Portal::point(start)];
        let mut source = Portals::new(mesh, None, window, goal, whole);
        let mut path = [Vec2::ZERO; 3];
        let len = first_corners(&mut portals, &mut source, &mut path);
        path[..len].to_vec()
    }

    #[test]
    fn walls_near_a_point_are_found() {
        let mesh = room();
        let s = v(3.5, 5.0);
        let poly = mesh.locate(s).polygon().unwrap();
        let mut walls = Vec::new();
        for_each_wall_near(&mesh, poly, s, 1.0, 16, &mut Default::default(), |c| {
            walls.push(c)
        });
        assert!(walls.contains(&v(4.0, 5.0)), "{walls:?}");
    }
}
