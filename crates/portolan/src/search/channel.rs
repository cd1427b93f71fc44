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
//! Cost: O(E log V) for the polygons and portals it touches. [`PathFinder`] keeps its arrays
//! between queries and clears them lazily with a generation counter, so a query allocates only
//! its result.

use super::funnel::{channel_portals_into, simplify_collinear, Funnel, Portal};
use super::{Path, PathError, PortalPoint, SearchMethod, SearchOptions, Snap};
use crate::geom::Vec2;
use crate::mesh::{Location, NavMesh, PolyId};
use std::cmp::Ordering;
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

#[derive(Copy, Clone, Debug)]
struct Open {
    f: f64,
    g: f64,
    poly: u32,
}
impl PartialEq for Open {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Open {}
impl PartialOrd for Open {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Open {
    fn cmp(&self, o: &Self) -> Ordering {
        // Min-heap on f, ties broken toward larger g (deeper nodes), then id for determinism.
        o.f.total_cmp(&self.f)
            .then(self.g.total_cmp(&o.g))
            .then(o.poly.cmp(&self.poly))
    }
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
    heap: BinaryHeap<Open>,
    portals: Vec<Portal>,
}

/// A start or goal resolved to the mesh: the (possibly snapped) point and the polygons holding it.
#[derive(Clone, Debug, PartialEq)]
pub struct Endpoint {
    /// The point on the mesh.
    pub point: Vec2,
    /// Every polygon that holds it (several when it is on an edge or vertex).
    pub polygons: Vec<PolyId>,
}

/// Finds the polygons holding `p`, snapping it first if allowed.
pub fn resolve_endpoint(
    mesh: &NavMesh,
    p: Vec2,
    snap: Snap,
    which: &'static str,
) -> Result<Endpoint, PathError> {
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
    let (point, loc) = match mesh.locate(p) {
        Location::Outside => match snap {
            Snap::Reject => return Err(off()),
            Snap::Within(d) => {
                let (poly, q) = mesh.nearest_point(p, d).ok_or_else(off)?;
                // `q` lies on an edge of `poly`, but rounding can put a point projected onto a
                // slanted edge a hair outside it, where `locate` finds nothing: trust the
                // polygon `nearest_point` found.
                let loc = match mesh.locate(q) {
                    Location::Outside => Location::InPolygon(poly),
                    loc => loc,
                };
                (q, loc)
            }
        },
        loc => (p, loc),
    };
    let polygons = match loc {
        Location::InPolygon(poly) => vec![poly],
        Location::OnEdge {
            polygon, neighbour, ..
        } => std::iter::once(polygon).chain(neighbour).collect(),
        Location::OnVertex { vertex, .. } => mesh.vertex_polygons(vertex).to_vec(),
        Location::Outside => unreachable!("handled above"),
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
        let s = resolve_endpoint(mesh, start, options.snap, "start")?;
        let g = resolve_endpoint(mesh, goal, options.snap, "goal")?;
        match options.method {
            SearchMethod::Funnel => {
                let (channel, expanded) =
                    self.channel_between(mesh, &s, &g, options.portal_point)?;
                let mut portals = std::mem::take(&mut self.portals);
                channel_portals_into(mesh, &channel, s.point, g.point, &mut portals);
                let mut points = Funnel::new(&portals).finish();
                self.portals = portals;
                simplify_collinear(&mut points);
                let length = Path::polyline_length(&points);
                Ok(Path {
                    points,
                    length,
                    channel,
                    expanded,
                })
            }
        }
    }

    /// Runs only the channel A* (the chapter's `findChannel`): the polygons from start to goal and
    /// the number of polygons expanded.
    pub fn find_channel(
        &mut self,
        mesh: &NavMesh,
        start: Vec2,
        goal: Vec2,
        options: &SearchOptions,
    ) -> Result<(Vec<PolyId>, usize), PathError> {
        let s = resolve_endpoint(mesh, start, options.snap, "start")?;
        let g = resolve_endpoint(mesh, goal, options.snap, "goal")?;
        self.channel_between(mesh, &s, &g, options.portal_point)
    }

    /// Channel A* between resolved endpoints.
    pub fn channel_between(
        &mut self,
        mesh: &NavMesh,
        start: &Endpoint,
        goal: &Endpoint,
        portal: PortalPoint,
    ) -> Result<(Vec<PolyId>, usize), PathError> {
        if let Some(&p) = start.polygons.iter().find(|p| goal.polygons.contains(p)) {
            return Ok((vec![p], 0));
        }
        self.reset(mesh.polygon_count());
        let gen = self.generation;
        let (sp, gp) = (start.point, goal.point);
        for &p in &goal.polygons {
            self.goal_mark[p.index()] = gen;
        }
        for &p in &start.polygons {
            let i = p.index();
            self.seen[i] = gen;
            self.g[i] = 0.0;
            self.pos[i] = sp;
            self.parent[i] = u32::MAX;
            self.heap.push(Open {
                f: sp.distance(gp),
                g: 0.0,
                poly: p.0,
            });
        }
        let mut expanded = 0;
        let mut found = None;
        while let Some(Open { poly, g: g_cur, .. }) = self.heap.pop() {
            let cur = poly as usize;
            if self.closed[cur] == gen || g_cur > self.g[cur] {
                continue;
            }
            self.closed[cur] = gen;
            expanded += 1;
            if self.goal_mark[cur] == gen {
                found = Some(cur);
                break;
            }
            let here = self.pos[cur];
            let pid = PolyId(poly);
            let nbs = mesh.neighbours(pid);
            for (i, nb) in nbs.iter().enumerate() {
                let Some(nb) = *nb else { continue };
                let j = nb.index();
                if self.closed[j] == gen {
                    continue;
                }
                let (a, b) = mesh.edge(pid, i);
                let entry = match portal {
                    PortalPoint::TowardGoal => portal_point(a, b, here, gp),
                    PortalPoint::Midpoint => (a + b) * 0.5,
                };
                let ng = self.g[cur] + here.distance(entry);
                if self.seen[j] != gen || ng < self.g[j] {
                    self.seen[j] = gen;
                    self.g[j] = ng;
                    self.pos[j] = entry;
                    self.parent[j] = poly;
                    self.heap.push(Open {
                        f: ng + entry.distance(gp),
                        g: ng,
                        poly: nb.0,
                    });
                }
            }
        }
        let Some(mut p) = found else {
            return Err(PathError::NoPath);
        };
        let mut channel = vec![PolyId(p as u32)];
        while self.parent[p] != u32::MAX {
            p = self.parent[p] as usize;
            channel.push(PolyId(p as u32));
        }
        channel.reverse();
        Ok((channel, expanded))
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
        let inside_obstacle = Vec2::new(200.0, 100.0);
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
        assert_eq!(
            p.points[0],
            Vec2::new(230.0, 100.0),
            "snapped to the nearest wall"
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
        let (start, wall) = (p.points[0], m.nearest_point(inside, 1000.0).unwrap().1);
        assert_eq!(start, wall);
        assert!(start.distance(inside) < 20.0);
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
