//! The façade: [`PathFinder`], the reusable query context every search goes through.
//!
//! A query runs in four steps, the same for every [`SearchMethod`]:
//!
//! ```text
//! check options ─► resolve start/goal (endpoint) ─► search ─► corner offset
//!                    snap, polygons holding them      │         (one pass, run by run
//!                                                     │          between off-mesh links)
//!             Funnel: channel A* ─► funnel per run ───┤
//!             Exact:  Polyanya ───────────────────────┘
//! ```
//!
//! [`PathFinder::find_path_traced`] also returns what the funnel saw ([`FunnelTrace`]): the
//! resolved endpoints, the channel's portals, every step of the funnel and the portal-midpoint
//! polyline, for tools that draw the algorithm.

use super::chain_funnel::ChainFunnel;
use super::channel::{ChannelRun, ChannelSearch};
use super::endpoint::{resolve_endpoint, Endpoint, EndpointRole};
use super::funnel::{channel_portals, channel_portals_into, Funnel, FunnelStep, Portal};
use super::polyanya::ExactSearch;
use super::{LinkTraversal, Path, PathError, SearchMethod, SearchOptions, Snap};
use crate::geom::Vec2;
use crate::mesh::NavMesh;

/// A reusable query context: keeps the search arrays between queries (Detour's
/// `dtNavMeshQuery`). One per thread; the mesh itself is shared.
///
/// ```
/// use portolan::{build, BuildOptions, PathFinder, Scene, SearchOptions, Vec2};
/// let mesh = build(&Scene::default_map(), &BuildOptions::trapezoid()).unwrap();
/// let mut finder = PathFinder::new();
/// let opts = SearchOptions::default();
/// let a = finder.find_path(&mesh, Vec2::new(20.0, 20.0), Vec2::new(780.0, 430.0), &opts).unwrap();
/// let b = finder.find_path(&mesh, Vec2::new(780.0, 430.0), Vec2::new(20.0, 20.0), &opts).unwrap();
/// assert!((a.length - b.length).abs() < 1e-6 * a.length);
/// ```
#[derive(Debug, Default, Clone)]
pub struct PathFinder {
    channel: ChannelSearch,
    portals: Vec<Portal>,
    funnel: ChainFunnel,
    exact: ExactSearch,
}

impl PathFinder {
    /// An empty context; it grows to the mesh on first use.
    ///
    /// ```
    /// let finder = portolan::PathFinder::new();
    /// # let _ = finder;
    /// ```
    pub fn new() -> PathFinder {
        PathFinder::default()
    }

    /// Finds a path from `start` to `goal` with the method and options given.
    ///
    /// ```
    /// use portolan::{build, BuildOptions, PathFinder, Scene, SearchOptions};
    /// let mesh = build(&Scene::default_map(), &BuildOptions::trapezoid()).unwrap();
    /// let (s, g) = (Scene::DEFAULT_START, Scene::DEFAULT_GOAL);
    /// let mut finder = PathFinder::new();
    /// let funnel = finder.find_path(&mesh, s, g, &SearchOptions::funnel()).unwrap();
    /// let exact = finder.find_path(&mesh, s, g, &SearchOptions::exact()).unwrap();
    /// assert!(exact.length <= funnel.length + 1e-9);
    /// ```
    pub fn find_path(
        &mut self,
        mesh: &NavMesh,
        start: Vec2,
        goal: Vec2,
        options: &SearchOptions,
    ) -> Result<Path, PathError> {
        check_options(options)?;
        let mut path = match options.method {
            SearchMethod::Exact | SearchMethod::Corner => {
                self.exact.find_path(mesh, start, goal, options)?
            }
            SearchMethod::Funnel => {
                let s = resolve_endpoint(mesh, start, options.snap, EndpointRole::Start)?;
                let g = resolve_endpoint(mesh, goal, options.snap, EndpointRole::Goal)?;
                // A forced channel (no cycle between the endpoints) is the only channel: no
                // A* needed, and the funnel's path through it is the shortest.
                match self.exact.forced_funnel(mesh, &s, &g, options) {
                    Some(path) => path,
                    None => {
                        let run = self.channel.search(mesh, &s, &g, options)?;
                        self.funnel_path(mesh, &s, run)
                    }
                }
            }
        };
        offset_corners(mesh, &mut path, options.corner_offset);
        if !options.channel {
            // The searches that build a channel apart from the path skipped it; the others
            // had it from their nodes, and it goes here, so the option means one thing for all.
            path.channel = Vec::new();
        }
        Ok(path)
    }

    /// [`find_path`](PathFinder::find_path) for the funnel search, also returning what the
    /// funnel saw ([`FunnelTrace`]): the resolved endpoints, the channel's portals, every
    /// [`Funnel::step`] and the portal-midpoint polyline. The path is the one `find_path`
    /// returns for the same query. The exact search has no funnel:
    /// [`PathError::Unsupported`] for [`SearchMethod::Exact`].
    ///
    /// ```
    /// use portolan::{build, BuildOptions, PathFinder, Scene, SearchOptions};
    /// let mesh = build(&Scene::default_map(), &BuildOptions::trapezoid()).unwrap();
    /// let (s, g) = (Scene::DEFAULT_START, Scene::DEFAULT_GOAL);
    /// let (path, trace) = PathFinder::new()
    ///     .find_path_traced(&mesh, s, g, &SearchOptions::funnel())
    ///     .unwrap();
    /// assert_eq!((trace.start, trace.goal), (s, g));
    /// // The start, one portal per step between polygons, the goal.
    /// assert_eq!(trace.portals.len(), path.channel.len() + 1);
    /// assert!(trace.steps.last().unwrap().done);
    /// // The chapter's comparison: the midpoint polyline is much longer than the funnel's.
    /// assert!(trace.midpoint_length() > 1.5 * path.length);
    /// ```
    pub fn find_path_traced(
        &mut self,
        mesh: &NavMesh,
        start: Vec2,
        goal: Vec2,
        options: &SearchOptions,
    ) -> Result<(Path, FunnelTrace), PathError> {
        if options.method != SearchMethod::Funnel {
            return Err(PathError::Unsupported {
                method: "exact",
                option: "trace (the exact search has no funnel)",
            });
        }
        // The trace is read from the channel, which the funnel search has anyway.
        let mut path = if options.channel {
            self.find_path(mesh, start, goal, options)?
        } else {
            self.find_path(mesh, start, goal, &options.clone().with_channel(true))?
        };
        let trace = FunnelTrace::of_path(mesh, &path);
        if !options.channel {
            path.channel = Vec::new();
        }
        Ok((path, trace))
    }

    /// The funnel, run by run between the off-mesh links of a channel.
    fn funnel_path(&mut self, mesh: &NavMesh, s: &Endpoint, run: ChannelRun) -> Path {
        let mut portals = std::mem::take(&mut self.portals);
        let mut points: Vec<Vec2> = Vec::new();
        let mut piece = Vec::new();
        let mut links = Vec::new();
        let (mut first, mut from) = (0, s.point);
        for i in 1..=run.polygons.len() {
            let link = run.via.get(i).copied().flatten();
            if i < run.polygons.len() && link.is_none() {
                continue;
            }
            let to = link.map_or(run.end, |l| l.from);
            channel_portals_into(mesh, &run.polygons[first..i], from, to, &mut portals);
            // The funnel with two chains: the trace's simple funnel's path, in one pass
            // (`tests/chain_funnel.rs` compares them on every channel it meets).
            self.funnel.pull(&portals, &mut piece);
            points.extend_from_slice(&piece);
            if let Some(l) = link {
                // The piece ends at the link's start (the funnel keeps its goal point).
                links.push(LinkTraversal {
                    link: l.link,
                    segment: points.len() - 1,
                    reversed: l.reversed,
                });
                (first, from) = (i, l.to);
            }
        }
        self.portals = portals;
        let length = Path::polyline_length(&points);
        Path {
            points,
            length,
            channel: run.polygons,
            expanded: run.expanded,
            status: run.status,
            links,
            bound: None,
        }
    }
}

/// What the funnel saw on a query ([`PathFinder::find_path_traced`]): everything a drawing of
/// the chapter's figure needs, computed once by the library.
///
/// With off-mesh links, the portals are those of the whole channel (consecutive polygons joined
/// by a link have no portal between them), so the trace is a picture of the channel, not of the
/// runs the path was pulled through.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct FunnelTrace {
    /// The start as searched: after snapping ([`SearchOptions::snap`]).
    pub start: Vec2,
    /// Where the path ends: the goal after snapping, or the closest reachable point of a
    /// partial path.
    pub goal: Vec2,
    /// The channel's portals: the start (zero width), every shared edge in order, the end.
    pub portals: Vec<Portal>,
    /// Every [`Funnel::step`] over `portals`, in order; the last is `done`.
    pub steps: Vec<FunnelStep>,
    /// The portals' midpoints, start to end: the chapter's naive path.
    pub midpoint_path: Vec<Vec2>,
}

impl FunnelTrace {
    /// The trace of a path the funnel search found on `mesh` (its channel, from its first point
    /// to its last), without searching again: what [`PathFinder::find_path_traced`] returns
    /// with the path.
    ///
    /// ```
    /// use portolan::{build, BuildOptions, FunnelTrace, PathFinder, Scene, SearchOptions};
    /// let mesh = build(&Scene::default_map(), &BuildOptions::trapezoid()).unwrap();
    /// let (s, g) = (Scene::DEFAULT_START, Scene::DEFAULT_GOAL);
    /// let mut finder = PathFinder::new();
    /// let path = finder.find_path(&mesh, s, g, &SearchOptions::funnel()).unwrap();
    /// let (_, traced) = finder.find_path_traced(&mesh, s, g, &SearchOptions::funnel()).unwrap();
    /// assert_eq!(FunnelTrace::of_path(&mesh, &path), traced);
    /// ```
    pub fn of_path(mesh: &NavMesh, path: &Path) -> FunnelTrace {
        // The path's ends are the resolved (snapped) start and where it stops: the goal, or the
        // closest reachable point of a partial path. The corner offset never moves them.
        let start = path.points.first().copied().unwrap_or(Vec2::ZERO);
        let goal = path.points.last().copied().unwrap_or(start);
        let portals = channel_portals(mesh, &path.channel, start, goal);
        let mut funnel = Funnel::new(&portals);
        let mut steps = Vec::with_capacity(portals.len());
        while let Some(step) = funnel.step() {
            steps.push(step);
        }
        let midpoint_path = portals.iter().map(Portal::midpoint).collect();
        FunnelTrace {
            start,
            goal,
            portals,
            steps,
            midpoint_path,
        }
    }

    /// The length of [`FunnelTrace::midpoint_path`].
    ///
    /// ```
    /// use portolan::search::FunnelTrace;
    /// use portolan::search::funnel::Portal;
    /// use portolan::Vec2;
    /// let (a, b) = (Vec2::new(0.0, 0.0), Vec2::new(3.0, 4.0));
    /// let trace = FunnelTrace {
    ///     start: a,
    ///     goal: b,
    ///     portals: vec![Portal::point(a), Portal::point(b)],
    ///     steps: Vec::new(),
    ///     midpoint_path: vec![a, b],
    /// };
    /// assert_eq!(trace.midpoint_length(), 5.0);
    /// ```
    pub fn midpoint_length(&self) -> f64 {
        Path::polyline_length(&self.midpoint_path)
    }
}

/// The corner offset ([`SearchOptions::corner_offset`]), the same for every method: applied run
/// by run between the off-mesh links taken, so a link's ends stay where they are.
fn offset_corners(mesh: &NavMesh, path: &mut Path, r: f64) {
    if r <= 0.0 || path.points.is_empty() {
        return;
    }
    let mut first = 0;
    let ends = path.links.iter().map(|l| (l.segment, l.segment + 1));
    for (last, next) in ends.chain([(path.points.len() - 1, 0)]) {
        super::corner::offset_corners(mesh, &mut path.points[first..=last], r);
        first = next;
    }
    path.length = Path::polyline_length(&path.points);
}

/// Rejects option values that cannot be used.
fn check_options(options: &SearchOptions) -> Result<(), PathError> {
    let r = options.corner_offset;
    if !(r.is_finite() && r >= 0.0) {
        return Err(PathError::InvalidOption {
            option: "corner_offset",
            value: r,
            reason: "must be finite and not negative",
        });
    }
    let e = options.epsilon;
    if !(e.is_finite() && e >= 0.0) {
        return Err(PathError::InvalidOption {
            option: "epsilon",
            value: e,
            reason: "must be finite and not negative",
        });
    }
    if let Snap::Within(d) = options.snap {
        if d.is_nan() || d < 0.0 {
            return Err(PathError::InvalidOption {
                option: "snap",
                value: d,
                reason: "the snapping distance must not be negative or NaN",
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod partial_tests {
    use super::*;
    use crate::build::{build, BuildOptions};
    use crate::mesh::Location;
    use crate::scene::Scene;
    use crate::search::raycast::raycast;
    use crate::search::PartialReason;
    use crate::search::PathStatus;
    use crate::testkit::scenes::split_map;

    fn partial() -> SearchOptions {
        SearchOptions::default().with_allow_partial(true)
    }

    #[test]
    fn unreachable_goal_gives_a_marked_partial_path_to_the_closest_point() {
        let m = split_map();
        let (a, b) = (Vec2::new(1.0, 1.0), Vec2::new(9.0, 7.0));
        let mut f = PathFinder::new();
        assert_eq!(
            f.find_path(&m, a, b, &SearchOptions::default()),
            Err(PathError::NoPath)
        );
        let p = f.find_path(&m, a, b, &partial()).unwrap();
        assert_eq!(p.status, PathStatus::Partial(PartialReason::Unreachable));
        assert!(!p.is_complete());
        assert_eq!(p.points, vec![a, Vec2::new(4.0, 7.0)], "the wall's face");
        // The same with the goal on the start's side: complete.
        let q = f.find_path(&m, a, Vec2::new(3.0, 9.0), &partial()).unwrap();
        assert!(q.is_complete());
    }

    #[test]
    fn search_limit_is_an_error_or_a_partial_path() {
        let m = build(&Scene::default_map(), &BuildOptions::trapezoid()).unwrap();
        let (a, b) = (Scene::DEFAULT_START, Scene::DEFAULT_GOAL);
        let mut f = PathFinder::new();
        let limited = SearchOptions::default().with_max_expanded(Some(4));
        assert_eq!(
            f.find_path(&m, a, b, &limited),
            Err(PathError::SearchLimit { expanded: 4 })
        );
        let p = f
            .find_path(&m, a, b, &limited.clone().with_allow_partial(true))
            .unwrap();
        assert_eq!(p.status, PathStatus::Partial(PartialReason::SearchLimit));
        assert_eq!(p.expanded, 4);
        let end = *p.points.last().unwrap();
        assert!(end.distance(b) < a.distance(b));
        assert_ne!(m.locate(end), Location::Outside);
        for w in p.points.windows(2) {
            assert!(raycast(&m, w[0], w[1]).unwrap().is_clear());
        }
        // A budget that suffices changes nothing.
        let full = f.find_path(&m, a, b, &SearchOptions::default()).unwrap();
        let enough = SearchOptions::default()
            .with_max_expanded(Some(full.expanded))
            .with_allow_partial(true);
        assert_eq!(f.find_path(&m, a, b, &enough).unwrap(), full);
        // A budget of zero: the partial path is the start alone.
        let zero = SearchOptions::default()
            .with_max_expanded(Some(0))
            .with_allow_partial(true);
        let p = f.find_path(&m, a, b, &zero).unwrap();
        assert_eq!(p.points, vec![a]);
        assert_eq!(p.status, PathStatus::Partial(PartialReason::SearchLimit));
        // ...unless start and goal share a polygon.
        let near = Vec2::new(a.x + 1.0, a.y + 1.0);
        assert!(f.find_path(&m, a, near, &zero).unwrap().is_complete());
    }

    #[test]
    fn bad_input_stays_an_error_with_partial_paths_allowed() {
        let m = split_map();
        let mut f = PathFinder::new();
        let a = Vec2::new(1.0, 1.0);
        assert_eq!(
            f.find_path(&m, a, Vec2::new(5.0, 5.0), &partial()),
            Err(PathError::GoalOffMesh(Vec2::new(5.0, 5.0)))
        );
        assert!(matches!(
            f.find_path(&m, a, Vec2::new(f64::NAN, 5.0), &partial()),
            Err(PathError::NonFinite {
                role: EndpointRole::Goal,
                ..
            })
        ));
        assert_eq!(
            f.find_path(&m, Vec2::new(-1.0, 1.0), a, &partial()),
            Err(PathError::StartOffMesh(Vec2::new(-1.0, 1.0)))
        );
        let bad_snap = partial().with_snap(Snap::Within(f64::NAN));
        assert!(matches!(
            f.find_path(&m, a, Vec2::new(9.0, 9.0), &bad_snap),
            Err(PathError::InvalidOption { option: "snap", .. })
        ));
    }

    #[test]
    fn snapping_an_off_mesh_goal_then_partial() {
        // The chapter's fourth pitfall and a partial path together: a goal clicked inside the
        // wall snaps to its right face, which is unreachable; the path stops at the left face.
        let m = split_map();
        let opts = partial().with_snap(Snap::Within(3.0));
        let p = PathFinder::new()
            .find_path(&m, Vec2::new(1.0, 5.0), Vec2::new(5.5, 5.0), &opts)
            .unwrap();
        assert_eq!(p.points, vec![Vec2::new(1.0, 5.0), Vec2::new(4.0, 5.0)]);
        assert!(!p.is_complete());
    }
}

#[cfg(test)]
mod snap_tests {
    use super::*;
    use crate::build::{build, BuildOptions};
    use crate::scene::Scene;

    #[test]
    fn off_mesh_goal_snaps_to_the_nearest_wall_within_the_distance_only() {
        let scene = Scene::new(crate::geom::Aabb::new(Vec2::ZERO, Vec2::new(800.0, 450.0)))
            .with_obstacle([(150.0, 0.0), (230.0, 0.0), (230.0, 300.0), (150.0, 300.0)]);
        let m = build(&scene, &BuildOptions::trapezoid()).unwrap();
        let start = Vec2::new(60.0, 60.0);
        // Inside the obstacle [150, 230] × [0, 300], 10 from its left side.
        let goal = Vec2::new(160.0, 100.0);
        let mut f = PathFinder::new();
        let near = SearchOptions::default().with_snap(Snap::Within(5.0));
        assert_eq!(
            f.find_path(&m, start, goal, &near),
            Err(PathError::GoalOffMesh(goal))
        );
        let far = SearchOptions::default().with_snap(Snap::Within(15.0));
        let p = f.find_path(&m, start, goal, &far).unwrap();
        assert_eq!(p.points.last(), Some(&Vec2::new(150.0, 100.0)));
        assert!(p.is_complete());
        // Off the map entirely: snapped onto the map's side.
        let out = Vec2::new(-3.0, 20.0);
        let p = f.find_path(&m, out, start, &far).unwrap();
        assert_eq!(p.points[0], Vec2::new(0.0, 20.0));
        // Snapping both ends into the same polygon.
        let p = f
            .find_path(&m, Vec2::new(-1.0, 10.0), Vec2::new(-1.0, 30.0), &far)
            .unwrap();
        assert_eq!(p.points, vec![Vec2::new(0.0, 10.0), Vec2::new(0.0, 30.0)]);
        // Infinite points are rejected before snapping.
        assert!(matches!(
            f.find_path(&m, start, Vec2::new(f64::INFINITY, 1.0), &far),
            Err(PathError::NonFinite {
                role: EndpointRole::Goal,
                ..
            })
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{build, BuildOptions};
    use crate::geom::Aabb;
    use crate::mesh::Location;
    use crate::scene::Scene;
    use crate::search::PortalPoint;

    fn mesh() -> NavMesh {
        build(&Scene::default_map(), &BuildOptions::trapezoid()).unwrap()
    }

    #[test]
    fn same_polygon_is_a_straight_segment() {
        let m = mesh();
        let a = Vec2::new(10.0, 10.0);
        let b = Vec2::new(12.0, 30.0);
        let p = PathFinder::new()
            .find_path(&m, a, b, &SearchOptions::default())
            .unwrap();
        assert_eq!(p.points, vec![a, b]);
        assert_eq!(p.channel.len(), 1);
        assert_eq!(p.expanded, 0);
    }

    #[test]
    fn off_mesh_points_are_rejected_or_snapped() {
        let m = mesh();
        let inside_obstacle = Vec2::new(360.0, 100.0);
        let goal = Vec2::new(700.0, 400.0);
        let mut f = PathFinder::new();
        assert_eq!(
            f.find_path(&m, inside_obstacle, goal, &SearchOptions::default()),
            Err(PathError::StartOffMesh(inside_obstacle))
        );
        assert_eq!(
            f.find_path(&m, goal, Vec2::new(900.0, 0.0), &SearchOptions::default()),
            Err(PathError::GoalOffMesh(Vec2::new(900.0, 0.0)))
        );
        assert!(matches!(
            f.find_path(
                &m,
                Vec2::new(f64::NAN, 0.0),
                goal,
                &SearchOptions::default()
            ),
            Err(PathError::NonFinite {
                role: EndpointRole::Start,
                ..
            })
        ));
        let opts = SearchOptions::default().with_snap(Snap::Within(100.0));
        let p = f.find_path(&m, inside_obstacle, goal, &opts).unwrap();
        // The nearest wall is the obstacle's right side, about 34 away.
        let snapped = p.points[0];
        assert!(m.locate(snapped).polygon().is_some());
        assert!(
            snapped.x > 380.0 && inside_obstacle.distance(snapped) < 35.0,
            "{snapped}"
        );
        let too_far = SearchOptions::default().with_snap(Snap::Within(10.0));
        assert_eq!(
            f.find_path(&m, inside_obstacle, goal, &too_far),
            Err(PathError::StartOffMesh(inside_obstacle))
        );
    }

    #[test]
    fn snapping_onto_a_slanted_wall_lands_on_the_mesh() {
        // Regression: this point inside the slanted obstacle 2 of the default map projects onto
        // its edge a rounding error outside the mesh; the query used to fail as "off the mesh".
        let m = mesh();
        let inside = Vec2::new(513.8354903459565, 83.65781965262296);
        assert_eq!(m.locate(inside), Location::Outside);
        let opts = SearchOptions::default().with_snap(Snap::Within(1000.0));
        let p = PathFinder::new()
            .find_path(&m, inside, Vec2::new(740.0, 390.0), &opts)
            .unwrap();
        let start = p.points[0];
        assert_ne!(
            m.locate(start),
            Location::Outside,
            "the snapped start is on the mesh"
        );
        // ... and it is the nearest free point: as far from `inside` as the obstacle's nearest
        // edge, to within the nudge that put it on the mesh.
        let wall = Scene::default_map()
            .obstacles
            .iter()
            .flat_map(|o| o.iter().zip(o.iter().cycle().skip(1)))
            .map(|(&a, &b)| inside.distance(crate::geom::closest_point_on_segment(inside, a, b)))
            .fold(f64::INFINITY, f64::min);
        assert!(wall > 0.0 && wall < 20.0, "{wall}");
        assert!(
            (start.distance(inside) - wall).abs() < 1e-9,
            "{start:?} vs {wall}"
        );
    }

    #[test]
    fn unreachable_goal_is_no_path() {
        // A wall splitting the map in two.
        let s = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(10.0, 10.0))).with_obstacle([
            (4.0, 0.0),
            (6.0, 0.0),
            (6.0, 10.0),
            (4.0, 10.0),
        ]);
        let m = build(&s, &BuildOptions::trapezoid()).unwrap();
        let r = PathFinder::new().find_path(
            &m,
            Vec2::new(1.0, 1.0),
            Vec2::new(9.0, 9.0),
            &SearchOptions::default(),
        );
        assert_eq!(r, Err(PathError::NoPath));
    }

    #[test]
    fn toward_goal_beats_midpoints_on_the_default_query() {
        let m = mesh();
        let mut f = PathFinder::new();
        let tg = f
            .find_path(
                &m,
                Scene::DEFAULT_START,
                Scene::DEFAULT_GOAL,
                &SearchOptions::default(),
            )
            .unwrap();
        let mid = f
            .find_path(
                &m,
                Scene::DEFAULT_START,
                Scene::DEFAULT_GOAL,
                &SearchOptions::with_portal_point(PortalPoint::Midpoint),
            )
            .unwrap();
        assert!(tg.length <= mid.length + 1e-9);
        assert!(tg.channel.len() >= 2);
    }

    #[test]
    fn a_trace_replays_the_funnel_of_the_path_it_comes_with() {
        let m = mesh();
        let mut f = PathFinder::new();
        // The start is off the map: the trace starts where it was snapped to.
        let (s, g) = (Vec2::new(-5.0, 60.0), Scene::DEFAULT_GOAL);
        let options = SearchOptions::funnel().with_snap(Snap::Within(10.0));
        let (path, trace) = f.find_path_traced(&m, s, g, &options).unwrap();
        assert_eq!(path, f.find_path(&m, s, g, &options).unwrap());
        assert_eq!(trace.start, Vec2::new(0.0, 60.0));
        assert_eq!((trace.start, trace.goal), (path.points[0], g));
        assert_eq!(trace.portals.len(), path.channel.len() + 1);
        assert_eq!(trace.midpoint_path.len(), trace.portals.len());
        assert_eq!(trace.midpoint_path[0], trace.start);
        // The steps' corners, after the start, are the path's points.
        let mut replayed = vec![trace.start];
        replayed.extend(trace.steps.iter().filter_map(|st| st.corner));
        crate::search::funnel::simplify_collinear(&mut replayed);
        assert_eq!(replayed, path.points);
        assert!(trace.steps.last().is_some_and(|st| st.done));
        assert!(trace.midpoint_length() > path.length);
        // The exact search has no funnel to trace.
        assert!(matches!(
            f.find_path_traced(
                &m,
                s,
                g,
                &SearchOptions::exact().with_snap(Snap::Within(10.0))
            ),
            Err(PathError::Unsupported { .. })
        ));
    }
}
