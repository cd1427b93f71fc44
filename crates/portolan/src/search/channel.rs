//! Channel search: A* over the polygons of a mesh.
//!
//! A polygon is not a point, so the chapter gives each one a *position*: the point where the agent
//! enters it, estimated when its portal is crossed ([`portal_point`]). The cost of a step is the
//! straight distance between consecutive positions, the heuristic the straight distance to the
//! goal. With [`PortalPoint::TowardGoal`] the entry point is where the line from the current
//! position toward the goal meets the portal, clamped to [0.02, 0.98] of it; with
//! [`PortalPoint::Midpoint`] it is the portal's middle.
//!
//! Because a polygon's position depends on the parent it was reached from, this is a heuristic
//! search over a graph that changes as it is explored: it finds a short channel, not always the
//! one holding the globally shortest path (the chapter's table measures how often). The exact
//! alternative is [`SearchMethod::Exact`](super::SearchMethod).
//!
//! Beyond the chapter, the search also follows the mesh's off-mesh links
//! ([`NavMesh::with_links`]: a link is one more edge, costing the walk to its start plus its own
//! cost, and the next position is its landing point), skips polygons excluded by
//! [`SearchOptions::filter`], stops after [`SearchOptions::max_expanded`] polygons, and with
//! [`SearchOptions::allow_partial`] ends an unsuccessful search at the expanded polygon closest to
//! the goal (Detour's partial paths).
//!
//! Cost: O(E log V) for the polygons and portals it touches. [`PathFinder`] keeps its arrays
//! between queries and clears them lazily with a generation counter, so a query allocates only
//! its result and the two short lists of polygons holding the start and the goal.

use super::funnel::{channel_portals_into, simplify_collinear, Funnel, Portal};
use super::open::Open;
use super::{
    LinkTraversal, PartialReason, Path, PathError, PathStatus, PortalPoint, SearchMethod,
    SearchOptions, Snap,
};
use crate::geom::Vec2;
use crate::mesh::{LinkEdge, Location, NavMesh, PolyId};
use std::collections::BinaryHeap;

/// The chapter's `portalPoint`: where the line `from → goal` crosses the portal `a b`, clamped to
/// [0.02, 0.98] of it (a little away from the ends, which usually touch obstacles). When the line
/// is parallel to the portal, the midpoint.
///
/// ```
/// use portolan::geom::Vec2;
/// use portolan::search::channel::portal_point;
/// let (a, b) = (Vec2::new(0.0, 0.0), Vec2::new(0.0, 10.0));
/// assert_eq!(portal_point(a, b, Vec2::new(-1.0, 2.0), Vec2::new(1.0, 2.0)), Vec2::new(0.0, 2.0));
/// assert_eq!(portal_point(a, b, Vec2::new(-1.0, 50.0), Vec2::new(1.0, 50.0)), Vec2::new(0.0, 9.8));
/// ```
#[inline]
pub fn portal_point(a: Vec2, b: Vec2, from: Vec2, goal: Vec2) -> Vec2 {
    let ab = b - a;
    let d = goal - from;
    let denom = d.cross(ab);
    let mut t = 0.5;
    if denom.abs() > 1e-12 * d.length() * ab.length() {
        t = d.cross(from - a) / denom;
    }
    a + ab * t.clamp(0.02, 0.98)
}

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
    generation: u32,
    seen: Vec<u32>,
    closed: Vec<u32>,
    g: Vec<f64>,
    pos: Vec<Vec2>,
    parent: Vec<u32>,
    goal_mark: Vec<u32>,
    /// How polygon `i` was reached from its parent: `NO_LINK` through a portal, otherwise the
    /// index of the link edge in the parent's [`NavMesh::links_from`].
    via: Vec<u32>,
    heap: BinaryHeap<Open>,
    portals: Vec<Portal>,
    exact: super::polyanya::ExactSearch,
}

const NO_LINK: u32 = u32::MAX;

/// What the channel search found: polygons from start to end, how each was entered, where the
/// path ends (the goal, or the closest reachable point for a partial search).
#[derive(Clone, Debug)]
struct ChannelRun {
    polygons: Vec<PolyId>,
    /// `via[i]`: the link taken from `polygons[i - 1]` into `polygons[i]`, `None` for a portal
    /// (and for `i = 0`).
    via: Vec<Option<LinkEdge>>,
    end: Vec2,
    status: PathStatus,
    expanded: usize,
}

/// A start or goal resolved to the mesh: the (possibly snapped) point and the polygons holding it.
#[derive(Clone, Debug, PartialEq)]
pub struct Endpoint {
    /// The point on the mesh.
    pub point: Vec2,
    /// Every polygon that holds it (several when it is on an edge or vertex).
    pub polygons: Vec<PolyId>,
}

/// Where a query point lies on the mesh, snapping it first if allowed: the point used and its
/// [`Location`] (never `Outside`). Shared by the channel and the exact search.
pub(crate) fn locate_endpoint(
    mesh: &NavMesh,
    p: Vec2,
    snap: Snap,
    which: &'static str,
) -> Result<(Vec2, Location), PathError> {
    if !p.is_finite() {
        return Err(PathError::NonFinite { which, point: p });
    }
    let off = || {
        if which == "start" {
            PathError::StartOffMesh(p)
        } else {
            PathError::GoalOffMesh(p)
        }
    };
    match mesh.locate(p) {
        Location::Outside => match snap {
            Snap::Reject => Err(off()),
            Snap::Within(d) => {
                let (poly, q) = mesh.nearest_point(p, d).ok_or_else(off)?;
                // `nearest_point` guarantees that `poly` holds `q` (nudged inside where the
                // projection onto a slanted edge rounded outward).
                let loc = mesh.locate_in(poly, q).ok_or_else(off)?;
                Ok((q, loc))
            }
        },
        loc => Ok((p, loc)),
    }
}

/// Finds the polygons holding `p`, snapping it first if allowed.
pub fn resolve_endpoint(
    mesh: &NavMesh,
    p: Vec2,
    snap: Snap,
    which: &'static str,
) -> Result<Endpoint, PathError> {
    let (point, loc) = locate_endpoint(mesh, p, snap, which)?;
    let polygons = match loc {
        Location::InPolygon(poly) => vec![poly],
        Location::OnEdge {
            polygon, neighbour, ..
        } => std::iter::once(polygon).chain(neighbour).collect(),
        Location::OnVertex { vertex, .. } => mesh.vertex_polygons(vertex).to_vec(),
        Location::Outside => unreachable!("locate_endpoint never returns Outside"),
    };
    Ok(Endpoint { point, polygons })
}

impl PathFinder {
    /// An empty context; it grows to the mesh on first use.
    pub fn new() -> PathFinder {
        PathFinder::default()
    }

    fn reset(&mut self, n: usize) {
        if self.seen.len() < n {
            self.seen.resize(n, 0);
            self.closed.resize(n, 0);
            self.goal_mark.resize(n, 0);
            self.g.resize(n, 0.0);
            self.pos.resize(n, Vec2::ZERO);
            self.parent.resize(n, 0);
            self.via.resize(n, NO_LINK);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.closed.iter_mut().for_each(|s| *s = 0);
            self.goal_mark.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
        self.heap.clear();
    }

    /// Finds a path from `start` to `goal`.
    pub fn find_path(
        &mut self,
        mesh: &NavMesh,
        start: Vec2,
        goal: Vec2,
        options: &SearchOptions,
    ) -> Result<Path, PathError> {
        check_options(options)?;
        match options.method {
            SearchMethod::Exact => {
                let mut path = self.exact.find_path(mesh, start, goal, options)?;
                if options.corner_offset > 0.0 {
                    // Run by run between the links taken: a link's ends stay where they are.
                    let mut first = 0;
                    let ends = path.links.iter().map(|l| (l.segment, l.segment + 1));
                    for (last, next) in ends.chain([(path.points.len() - 1, 0)]) {
                        let run = &mut path.points[first..=last];
                        super::corner::offset_corners(mesh, run, options.corner_offset);
                        first = next;
                    }
                    path.length = Path::polyline_length(&path.points);
                }
                Ok(path)
            }
            SearchMethod::Funnel => {
                let s = resolve_endpoint(mesh, start, options.snap, "start")?;
                let g = resolve_endpoint(mesh, goal, options.snap, "goal")?;
                self.funnel_path(mesh, &s, &g, options)
            }
        }
    }

    /// Channel A* then the funnel, run by run between off-mesh links, then the corner offset.
    fn funnel_path(
        &mut self,
        mesh: &NavMesh,
        s: &Endpoint,
        g: &Endpoint,
        options: &SearchOptions,
    ) -> Result<Path, PathError> {
        let run = self.search(mesh, s, g, options)?;
        let mut portals = std::mem::take(&mut self.portals);
        let mut points: Vec<Vec2> = Vec::new();
        let mut links = Vec::new();
        let (mut first, mut from) = (0, s.point);
        for i in 1..=run.polygons.len() {
            let link = run.via.get(i).copied().flatten();
            if i < run.polygons.len() && link.is_none() {
                continue;
            }
            let to = link.map_or(run.end, |l| l.from);
            channel_portals_into(mesh, &run.polygons[first..i], from, to, &mut portals);
            let mut piece = Funnel::new(&portals).finish();
            simplify_collinear(&mut piece);
            if options.corner_offset > 0.0 {
                super::corner::offset_corners(mesh, &mut piece, options.corner_offset);
            }
            points.extend(piece);
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
        Ok(Path {
            points,
            length,
            channel: run.polygons,
            expanded: run.expanded,
            status: run.status,
            links,
        })
    }

    /// Runs only the channel A* (the chapter's `findChannel`): the polygons from start to goal and
    /// the number of polygons expanded. Honours the options' filter, links and search limit; with
    /// `allow_partial` an unsuccessful search returns the channel to the closest polygon reached.
    pub fn find_channel(
        &mut self,
        mesh: &NavMesh,
        start: Vec2,
        goal: Vec2,
        options: &SearchOptions,
    ) -> Result<(Vec<PolyId>, usize), PathError> {
        check_options(options)?;
        let s = resolve_endpoint(mesh, start, options.snap, "start")?;
        let g = resolve_endpoint(mesh, goal, options.snap, "goal")?;
        let run = self.search(mesh, &s, &g, options)?;
        Ok((run.polygons, run.expanded))
    }

    /// Channel A* between resolved endpoints, with the default options but `portal`: the
    /// polygons from start to goal (consecutive ones are neighbours, or joined by an off-mesh
    /// link) and the number of polygons expanded.
    pub fn channel_between(
        &mut self,
        mesh: &NavMesh,
        start: &Endpoint,
        goal: &Endpoint,
        portal: PortalPoint,
    ) -> Result<(Vec<PolyId>, usize), PathError> {
        let run = self.search(mesh, start, goal, &SearchOptions::with_portal_point(portal))?;
        Ok((run.polygons, run.expanded))
    }

    /// The channel A*, with links, filter, budget and partial results.
    fn search(
        &mut self,
        mesh: &NavMesh,
        start: &Endpoint,
        goal: &Endpoint,
        options: &SearchOptions,
    ) -> Result<ChannelRun, PathError> {
        let filter = options.filter.as_deref().filter(|f| !f.is_empty());
        let excluded = |p: PolyId| filter.is_some_and(|f| f.is_excluded(p));
        let complete = |polygons: Vec<PolyId>, via, expanded| ChannelRun {
            polygons,
            via,
            end: goal.point,
            status: PathStatus::Complete,
            expanded,
        };
        if let Some(&p) = start
            .polygons
            .iter()
            .find(|&&p| goal.polygons.contains(&p) && !excluded(p))
        {
            return Ok(complete(vec![p], vec![None], 0));
        }
        self.reset(mesh.polygon_count());
        let gen = self.generation;
        let (sp, gp) = (start.point, goal.point);
        for &p in &goal.polygons {
            if !excluded(p) {
                self.goal_mark[p.index()] = gen;
            }
        }
        for &p in &start.polygons {
            let i = p.index();
            self.seen[i] = gen;
            self.g[i] = 0.0;
            self.pos[i] = sp;
            self.parent[i] = u32::MAX;
            self.via[i] = NO_LINK;
            self.heap.push(Open {
                f: sp.distance(gp),
                g: 0.0,
                id: p.0,
            });
        }
        let portal = options.portal_point;
        let mut expanded = 0;
        let mut found = None;
        let mut limited = false;
        // The expanded polygon closest to the goal, for partial paths: (distance, polygon, point).
        let mut closest: Option<(f64, usize, Vec2)> = None;
        while let Some(Open {
            id: poly, g: g_cur, ..
        }) = self.heap.pop()
        {
            let cur = poly as usize;
            if self.closed[cur] == gen || g_cur > self.g[cur] {
                continue;
            }
            if options.max_expanded.is_some_and(|max| expanded >= max) {
                limited = true;
                break;
            }
            self.closed[cur] = gen;
            expanded += 1;
            if self.goal_mark[cur] == gen {
                found = Some(cur);
                break;
            }
            let pid = PolyId(poly);
            if options.allow_partial {
                // Nudged onto the mesh below, for the winner only.
                let (d, q) = mesh.nearest_in(pid, gp);
                if closest.is_none_or(|(best, _, _)| d < best) {
                    closest = Some((d, cur, q));
                }
            }
            let here = self.pos[cur];
            let nbs = mesh.neighbours(pid);
            for (i, nb) in nbs.iter().enumerate() {
                let Some(nb) = *nb else { continue };
                let j = nb.index();
                if self.closed[j] == gen || excluded(nb) {
                    continue;
                }
                let (a, b) = mesh.edge(pid, i);
                let entry = match portal {
                    PortalPoint::TowardGoal => portal_point(a, b, here, gp),
                    PortalPoint::Midpoint => (a + b) * 0.5,
                };
                let ng = self.g[cur] + here.distance(entry);
                self.relax(j, ng, entry, poly, NO_LINK, gp);
            }
            for (k, link) in mesh.links_from(pid).iter().enumerate() {
                let j = link.to_polygon.index();
                if self.closed[j] == gen || excluded(link.to_polygon) {
                    continue;
                }
                let ng = self.g[cur] + here.distance(link.from) + link.cost;
                self.relax(j, ng, link.to, poly, k as u32, gp);
            }
        }
        let (end_poly, end, status) = match (found, closest) {
            (Some(p), _) => (p, gp, PathStatus::Complete),
            (None, Some((_, p, q))) if options.allow_partial => {
                let q = mesh.pull_inside(PolyId(p as u32), q);
                let reason = if limited {
                    PartialReason::SearchLimit
                } else {
                    PartialReason::Unreachable
                };
                (p, q, PathStatus::Partial(reason))
            }
            (None, None) if options.allow_partial => {
                // Nothing was expanded (a budget of 0): stay at the start.
                let p = start.polygons[0];
                let status = PathStatus::Partial(if limited {
                    PartialReason::SearchLimit
                } else {
                    PartialReason::Unreachable
                });
                return Ok(ChannelRun {
                    polygons: vec![p],
                    via: vec![None],
                    end: sp,
                    status,
                    expanded,
                });
            }
            (None, _) if limited => return Err(PathError::SearchLimit { expanded }),
            (None, _) => return Err(PathError::NoPath),
        };
        let mut p = end_poly;
        let mut polygons = vec![PolyId(p as u32)];
        let mut via = Vec::new();
        while self.parent[p] != u32::MAX {
            let parent = self.parent[p] as usize;
            via.push(match self.via[p] {
                NO_LINK => None,
                k => Some(mesh.links_from(PolyId(parent as u32))[k as usize]),
            });
            p = parent;
            polygons.push(PolyId(p as u32));
        }
        via.push(None);
        polygons.reverse();
        via.reverse();
        Ok(ChannelRun {
            polygons,
            via,
            end,
            status,
            expanded,
        })
    }

    /// A* relaxation of polygon `j`, reached at `entry` with cost `ng`.
    #[inline]
    fn relax(&mut self, j: usize, ng: f64, entry: Vec2, parent: u32, via: u32, gp: Vec2) {
        let gen = self.generation;
        if self.seen[j] != gen || ng < self.g[j] {
            self.seen[j] = gen;
            self.g[j] = ng;
            self.pos[j] = entry;
            self.parent[j] = parent;
            self.via[j] = via;
            self.heap.push(Open {
                f: ng + entry.distance(gp),
                g: ng,
                id: j as u32,
            });
        }
    }
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
    use crate::scene::Scene;
    use crate::search::raycast::raycast;
    use crate::search::test_scenes::split_map;
    use crate::search::PartialReason;

    fn partial() -> SearchOptions {
        SearchOptions {
            allow_partial: true,
            ..SearchOptions::default()
        }
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
        let limited = SearchOptions {
            max_expanded: Some(4),
            ..SearchOptions::default()
        };
        assert_eq!(
            f.find_path(&m, a, b, &limited),
            Err(PathError::SearchLimit { expanded: 4 })
        );
        let p = f
            .find_path(
                &m,
                a,
                b,
                &SearchOptions {
                    allow_partial: true,
                    ..limited.clone()
                },
            )
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
        let enough = SearchOptions {
            max_expanded: Some(full.expanded),
            allow_partial: true,
            ..SearchOptions::default()
        };
        assert_eq!(f.find_path(&m, a, b, &enough).unwrap(), full);
        // A budget of zero: the partial path is the start alone.
        let zero = SearchOptions {
            max_expanded: Some(0),
            allow_partial: true,
            ..SearchOptions::default()
        };
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
            Err(PathError::NonFinite { which: "goal", .. })
        ));
        assert_eq!(
            f.find_path(&m, Vec2::new(-1.0, 1.0), a, &partial()),
            Err(PathError::StartOffMesh(Vec2::new(-1.0, 1.0)))
        );
        let bad_snap = SearchOptions {
            snap: Snap::Within(f64::NAN),
            ..partial()
        };
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
        let opts = SearchOptions {
            snap: Snap::Within(3.0),
            ..partial()
        };
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
        let near = SearchOptions {
            snap: Snap::Within(5.0),
            ..SearchOptions::default()
        };
        assert_eq!(
            f.find_path(&m, start, goal, &near),
            Err(PathError::GoalOffMesh(goal))
        );
        let far = SearchOptions {
            snap: Snap::Within(15.0),
            ..SearchOptions::default()
        };
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
            Err(PathError::NonFinite { which: "goal", .. })
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{build, BuildOptions};
    use crate::geom::Aabb;
    use crate::scene::Scene;

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
            Err(PathError::NonFinite { which: "start", .. })
        ));
        let opts = SearchOptions {
            snap: Snap::Within(100.0),
            ..SearchOptions::default()
        };
        let p = f.find_path(&m, inside_obstacle, goal, &opts).unwrap();
        // The nearest wall is the obstacle's right side, about 34 away.
        let snapped = p.points[0];
        assert!(m.locate(snapped).polygon().is_some());
        assert!(
            snapped.x > 380.0 && inside_obstacle.distance(snapped) < 35.0,
            "{snapped}"
        );
        let too_far = SearchOptions {
            snap: Snap::Within(10.0),
            ..SearchOptions::default()
        };
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
        let opts = SearchOptions {
            snap: Snap::Within(1000.0),
            ..SearchOptions::default()
        };
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
}
