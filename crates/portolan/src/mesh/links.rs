//! Off-mesh links: jumps, climbs, ladders, teleports — connections between two points of the mesh
//! that are not a shared edge (the chapter's "Off-Mesh Link", Detour's off-mesh connections).
//!
//! A link joins a point `from` to a point `to`, both on the mesh, with its own traversal `cost`
//! (used instead of the straight distance between its ends) and a `bidirectional` flag. The
//! channel A* treats it as one more edge out of every polygon holding `from`, landing in the
//! polygons holding `to`; the path is then funnelled run by run between the links it takes, and
//! [`Path::links`](crate::search::Path::links) says which segments are link traversals. The
//! exact search ([`polyanya`](crate::search::polyanya)) takes a link where its start is seen,
//! and goes on from its end as from a start point.
//!
//! ```text
//!    ┌──────────┬──┬──────────┐
//!    │  s       │██│       g  │   a wall splits the map; the link
//!    │   ╲      │██│      ╱   │   from → to lets the agent across
//!    │  from ═══╪██╪═══► to   │   at its own cost
//!    └──────────┴──┴──────────┘
//! ```
//!
//! A [`NavMesh`] stays immutable: [`NavMesh::with_links`] consumes a mesh and returns one that
//! carries the links (replacing any it had), after checking each link's ends are on the mesh.
//! Links are not part of the mesh's serialised form ([`NavMeshData`](super::NavMeshData)): store
//! the [`OffMeshLink`]s beside it (they serialise) and call `with_links` after loading.
//!
//! Cost model: a path's cost is its length on the mesh plus the `cost` of each link it takes
//! ([`Path::length`](crate::search::Path::length) stays the polyline's length). A link cheaper
//! than the straight distance from its start to the goal region makes the channel A*'s
//! straight-line heuristic inadmissible; that search still works but may miss a cheaper route, as
//! in Detour. The exact search bounds the cost through the links per query and always returns
//! the cheapest path.
//!
//! ```
//! use portolan::{build, BuildOptions, PathFinder, Scene, SearchOptions, Vec2};
//! use portolan::geom::Aabb;
//! use portolan::mesh::OffMeshLink;
//!
//! // A wall across the whole map: no path without a link.
//! let scene = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(10.0, 10.0)))
//!     .with_obstacle([(4.0, 0.0), (6.0, 0.0), (6.0, 10.0), (4.0, 10.0)]);
//! let mesh = build(&scene, &BuildOptions::trapezoid()).unwrap()
//!     .with_links([OffMeshLink::new(Vec2::new(3.0, 5.0), Vec2::new(7.0, 5.0), 2.5)])
//!     .unwrap();
//! let path = PathFinder::new()
//!     .find_path(&mesh, Vec2::new(1.0, 1.0), Vec2::new(9.0, 1.0), &SearchOptions::default())
//!     .unwrap();
//! assert_eq!(path.links.len(), 1);
//! let jump = path.links[0].segment;
//! assert_eq!((path.points[jump], path.points[jump + 1]), (Vec2::new(3.0, 5.0), Vec2::new(7.0, 5.0)));
//! ```

use super::{Location, NavMesh, PolyId};
use crate::geom::Vec2;
use serde::{Deserialize, Serialize};

/// A special connection between two points of the mesh (a jump, a climb, a door, a teleport).
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OffMeshLink {
    /// Where the agent takes the link.
    pub from: Vec2,
    /// Where it arrives.
    pub to: Vec2,
    /// The cost of traversing it, in the same unit as path length (finite, ≥ 0). It replaces the
    /// straight distance between `from` and `to`.
    pub cost: f64,
    /// `true` when the link can also be taken from `to` back to `from` (at the same cost).
    #[serde(default)]
    pub bidirectional: bool,
}

impl OffMeshLink {
    /// A one-way link.
    pub fn new(from: Vec2, to: Vec2, cost: f64) -> OffMeshLink {
        OffMeshLink {
            from,
            to,
            cost,
            bidirectional: false,
        }
    }
    /// The same link, usable both ways.
    pub fn bidirectional(self) -> OffMeshLink {
        OffMeshLink {
            bidirectional: true,
            ..self
        }
    }
}

/// Index of a link in [`NavMesh::links`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct LinkId(pub u32);

impl LinkId {
    /// The id as a `usize` index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl std::fmt::Display for LinkId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "link {}", self.0)
    }
}

/// Which end of a link.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LinkEnd {
    /// [`OffMeshLink::from`].
    From,
    /// [`OffMeshLink::to`].
    To,
}

impl std::fmt::Display for LinkEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LinkEnd::From => "start",
            LinkEnd::To => "end",
        })
    }
}

/// Why a set of links cannot be put on a mesh; each variant names the link (its index in the
/// input).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LinkError {
    /// An end point is NaN or infinite.
    #[error("link {link}: its {end} point is not finite")]
    NonFinite {
        /// The link's index in the input.
        link: usize,
        /// Which end.
        end: LinkEnd,
    },
    /// An end point is not on the mesh.
    #[error("link {link}: its {end} point {point} is not on the navigation mesh")]
    OffMesh {
        /// The link's index in the input.
        link: usize,
        /// Which end.
        end: LinkEnd,
        /// The point.
        point: Vec2,
    },
    /// The cost is negative, NaN or infinite.
    #[error("link {link}: cost {cost} must be finite and not negative")]
    BadCost {
        /// The link's index in the input.
        link: usize,
        /// The cost given.
        cost: f64,
    },
    /// Both ends are the same point.
    #[error("link {link} starts and ends at the same point")]
    ZeroLength {
        /// The link's index in the input.
        link: usize,
    },
    /// More links than 32-bit ids can hold.
    #[error("too many links: {0}")]
    TooMany(usize),
}

/// One direction of a link, as the search sees it: leave polygon `polygon` at `from`, arrive in
/// `to_polygon` at `to`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct LinkEdge {
    /// The link.
    pub link: LinkId,
    /// `true` when this is the link taken from its `to` end back to its `from` end.
    pub reversed: bool,
    /// Where the agent takes it (in the polygon whose edges these are).
    pub from: Vec2,
    /// Where it arrives.
    pub to: Vec2,
    /// A polygon holding `to`.
    pub to_polygon: PolyId,
    /// The traversal cost.
    pub cost: f64,
}

/// The links of a mesh, with their directed edges grouped by departure polygon.
#[derive(Clone, Debug, Default)]
pub(super) struct LinkTable {
    links: Vec<OffMeshLink>,
    /// Edges out of polygon `p` are `edges[offsets[p]..offsets[p + 1]]`; empty when no links.
    offsets: Vec<u32>,
    edges: Vec<LinkEdge>,
}

/// Every polygon holding `p` (one, or several when `p` is on an edge or a vertex).
fn holders(mesh: &NavMesh, p: Vec2) -> Vec<PolyId> {
    match mesh.locate(p) {
        Location::InPolygon(poly) => vec![poly],
        Location::OnEdge {
            polygon, neighbour, ..
        } => std::iter::once(polygon).chain(neighbour).collect(),
        Location::OnVertex { vertex, .. } => mesh.vertex_polygons(vertex).to_vec(),
        Location::Outside => Vec::new(),
    }
}

impl NavMesh {
    /// This mesh carrying the given off-mesh links (replacing any it had); see [`mesh::links`](crate::mesh::links).
    ///
    /// Each link's ends must be finite points on the mesh, distinct, with a finite cost ≥ 0; the
    /// first bad link is named in the error. Cost: one point location per link end.
    pub fn with_links(
        mut self,
        links: impl IntoIterator<Item = OffMeshLink>,
    ) -> Result<NavMesh, LinkError> {
        let links: Vec<OffMeshLink> = links.into_iter().collect();
        u32::try_from(links.len()).map_err(|_| LinkError::TooMany(links.len()))?;
        // (departure polygon, edge) pairs, then grouped.
        let mut directed: Vec<(PolyId, LinkEdge)> = Vec::new();
        for (i, l) in links.iter().enumerate() {
            for (end, p) in [(LinkEnd::From, l.from), (LinkEnd::To, l.to)] {
                if !p.is_finite() {
                    return Err(LinkError::NonFinite { link: i, end });
                }
            }
            if !(l.cost.is_finite() && l.cost >= 0.0) {
                return Err(LinkError::BadCost {
                    link: i,
                    cost: l.cost,
                });
            }
            if l.from == l.to {
                return Err(LinkError::ZeroLength { link: i });
            }
            let at_from = holders(&self, l.from);
            if at_from.is_empty() {
                return Err(LinkError::OffMesh {
                    link: i,
                    end: LinkEnd::From,
                    point: l.from,
                });
            }
            let at_to = holders(&self, l.to);
            if at_to.is_empty() {
                return Err(LinkError::OffMesh {
                    link: i,
                    end: LinkEnd::To,
                    point: l.to,
                });
            }
            let id = LinkId(i as u32);
            let mut add = |deps: &[PolyId], arrivals: &[PolyId], from, to, reversed| {
                for &d in deps {
                    for &a in arrivals {
                        directed.push((
                            d,
                            LinkEdge {
                                link: id,
                                reversed,
                                from,
                                to,
                                to_polygon: a,
                                cost: l.cost,
                            },
                        ));
                    }
                }
            };
            add(&at_from, &at_to, l.from, l.to, false);
            if l.bidirectional {
                add(&at_to, &at_from, l.to, l.from, true);
            }
        }
        let n = self.polygon_count();
        let mut table = LinkTable {
            links,
            offsets: Vec::new(),
            edges: Vec::new(),
        };
        if !directed.is_empty() {
            // Stable by departure polygon, so edges keep link order within a polygon.
            directed.sort_by_key(|(p, _)| *p);
            table.offsets = vec![0; n + 1];
            for (p, _) in &directed {
                table.offsets[p.index() + 1] += 1;
            }
            for i in 0..n {
                table.offsets[i + 1] += table.offsets[i];
            }
            table.edges = directed.into_iter().map(|(_, e)| e).collect();
        }
        self.links = table;
        Ok(self)
    }

    /// The off-mesh links this mesh carries, indexed by [`LinkId`].
    pub fn links(&self) -> &[OffMeshLink] {
        &self.links.links
    }

    /// The link directions that can be taken from polygon `p` (empty for a mesh without links).
    #[inline]
    pub fn links_from(&self, p: PolyId) -> &[LinkEdge] {
        let t = &self.links;
        if t.offsets.is_empty() {
            return &[];
        }
        &t.edges[t.offsets[p.index()] as usize..t.offsets[p.index() + 1] as usize]
    }

    /// `true` when the mesh carries at least one link.
    #[inline]
    pub fn has_links(&self) -> bool {
        !self.links.links.is_empty()
    }
}

#[cfg(test)]
mod tests {
    /// Issue 16, item 9: a misspelt `bidirectonal` was ignored and the link read as one-way.
    #[test]
    fn unknown_link_fields_are_errors() {
        let text = r#"[{"from": [1, 1], "to": [2, 2], "cost": 1, "bidirectonal": true}]"#;
        let err = serde_json::from_str::<Vec<OffMeshLink>>(text).unwrap_err();
        assert!(
            err.to_string().contains("unknown field `bidirectonal`"),
            "{err}"
        );
        let ok = r#"[{"from": [1, 1], "to": [2, 2], "cost": 1, "bidirectional": true}]"#;
        assert!(serde_json::from_str::<Vec<OffMeshLink>>(ok).unwrap()[0].bidirectional);
    }

    use super::*;
    use crate::build::{build, BuildOptions};
    use crate::geom::Aabb;
    use crate::scene::Scene;
    use crate::search::counted_property::check_counted;
    use crate::search::test_scenes::{grid_point, mesh_of, random_scene, split_map};
    use crate::search::{LinkTraversal, Path, PathError, PathFinder, SearchOptions};

    #[test]
    fn links_are_grouped_by_departure_polygon() {
        let m = split_map().with_links([
            OffMeshLink::new(Vec2::new(1.0, 1.0), Vec2::new(9.0, 1.0), 3.0),
            OffMeshLink::new(Vec2::new(2.0, 2.0), Vec2::new(8.0, 8.0), 1.0).bidirectional(),
        ]);
        let m = m.unwrap();
        assert!(m.has_links());
        assert_eq!(m.links().len(), 2);
        let left = m.locate(Vec2::new(1.0, 1.0)).polygon().unwrap();
        let right = m.locate(Vec2::new(9.0, 1.0)).polygon().unwrap();
        let out_left: Vec<_> = m.links_from(left).iter().map(|e| e.link).collect();
        assert_eq!(out_left, vec![LinkId(0), LinkId(1)]);
        let out_right = m.links_from(right);
        assert_eq!(out_right.len(), 1);
        assert!(out_right[0].reversed);
        assert_eq!(out_right[0].to, Vec2::new(2.0, 2.0));
        assert_eq!(out_right[0].to_polygon, left);
        // Replacing the links.
        let m = m.with_links([]).unwrap();
        assert!(!m.has_links());
        assert!(m.links_from(left).is_empty());
    }

    #[test]
    fn a_link_end_on_a_portal_or_vertex_leaves_from_every_polygon_there() {
        let m = build(&Scene::default_map(), &BuildOptions::trapezoid()).unwrap();
        // (301, 249) is an obstacle corner shared by several polygons.
        let corner = Vec2::new(301.0, 249.0);
        let Location::OnVertex { vertex, .. } = m.locate(corner) else {
            panic!("expected a vertex")
        };
        let k = m.vertex_polygons(vertex).len();
        assert!(k >= 2);
        let m = m
            .with_links([OffMeshLink::new(corner, Vec2::new(780.0, 20.0), 1.0)])
            .unwrap();
        let count: usize = m.polygons().map(|p| m.links_from(p).len()).sum();
        assert_eq!(count, k);
    }

    fn find(m: &NavMesh, a: Vec2, b: Vec2) -> Result<Path, PathError> {
        PathFinder::new().find_path(m, a, b, &SearchOptions::default())
    }

    #[test]
    fn a_split_map_is_crossed_only_through_the_link() {
        let (a, b) = (Vec2::new(1.0, 1.0), Vec2::new(9.0, 1.0));
        assert_eq!(find(&split_map(), a, b), Err(PathError::NoPath));
        let link = OffMeshLink::new(Vec2::new(3.0, 8.0), Vec2::new(7.0, 8.0), 4.0);
        let m = split_map().with_links([link]).unwrap();
        let p = find(&m, a, b).unwrap();
        assert!(p.is_complete());
        assert_eq!(
            p.points,
            vec![a, link.from, link.to, b],
            "funnel runs joined by the link"
        );
        assert_eq!(
            p.links,
            vec![LinkTraversal {
                link: LinkId(0),
                segment: 1,
                reversed: false
            }]
        );
        // The channel goes from the left part to the right part through the link.
        assert_eq!(m.locate(a).polygon(), p.channel.first().copied());
        assert_eq!(m.locate(b).polygon(), p.channel.last().copied());
        // One-way: no way back; a bidirectional link is taken reversed.
        assert_eq!(find(&m, b, a), Err(PathError::NoPath));
        let m2 = split_map().with_links([link.bidirectional()]).unwrap();
        let back = find(&m2, b, a).unwrap();
        assert_eq!(back.points, vec![b, link.to, link.from, a]);
        assert!(back.links[0].reversed);
        // Corner offsets move turning points within runs, never the link's ends.
        let opts = SearchOptions {
            corner_offset: 0.5,
            ..SearchOptions::default()
        };
        let q = PathFinder::new().find_path(&m, a, b, &opts).unwrap();
        assert_eq!(q.points, p.points, "no turning points inside these runs");
    }

    #[test]
    fn link_cost_decides_between_the_link_and_a_detour() {
        // A wall with a gap at the far end: a long detour exists.
        let s = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(10.0, 100.0))).with_obstacle([
            (4.0, 0.0),
            (6.0, 0.0),
            (6.0, 90.0),
            (4.0, 90.0),
        ]);
        let base = build(&s, &BuildOptions::trapezoid()).unwrap();
        let (a, b) = (Vec2::new(1.0, 1.0), Vec2::new(9.0, 1.0));
        let detour = find(&base, a, b).unwrap();
        assert!(detour.length > 170.0);
        let jump = |cost| OffMeshLink::new(Vec2::new(3.0, 1.0), Vec2::new(7.0, 1.0), cost);
        let cheap = base.clone().with_links([jump(20.0)]).unwrap();
        let p = find(&cheap, a, b).unwrap();
        assert_eq!(
            p.links.len(),
            1,
            "a cost of 20 beats a walk of {}",
            detour.length
        );
        let dear = base.clone().with_links([jump(500.0)]).unwrap();
        let p = find(&dear, a, b).unwrap();
        assert!(p.links.is_empty(), "a cost of 500 loses to the walk");
        assert_eq!(p, detour);
        // A filter closing the landing polygon closes the link too.
        let mut filter = crate::search::PolygonFilter::new();
        filter.exclude(cheap.locate(Vec2::new(7.0, 1.0)).polygon().unwrap());
        let opts = SearchOptions {
            filter: Some(std::sync::Arc::new(filter)),
            allow_partial: true,
            ..SearchOptions::default()
        };
        let r = PathFinder::new().find_path(&cheap, a, b, &opts).unwrap();
        assert!(!r.is_complete());
        assert!(r.links.is_empty());
    }

    #[test]
    fn the_exact_search_takes_links_at_their_cost() {
        use crate::search::SearchMethod;
        let exact = SearchOptions {
            method: SearchMethod::Exact,
            ..SearchOptions::default()
        };
        let s = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(10.0, 100.0))).with_obstacle([
            (4.0, 0.0),
            (6.0, 0.0),
            (6.0, 90.0),
            (4.0, 90.0),
        ]);
        let base = build(&s, &BuildOptions::trapezoid()).unwrap();
        let mut f = PathFinder::new();
        let (a, b) = (Vec2::new(1.0, 1.0), Vec2::new(9.0, 1.0));
        let detour = f.find_path(&base, a, b, &exact).unwrap();
        assert!(detour.length > 170.0);
        let (from, to) = (Vec2::new(3.0, 1.0), Vec2::new(7.0, 1.0));
        let jump = |cost| OffMeshLink::new(from, to, cost);
        let cheap = base.clone().with_links([jump(20.0)]).unwrap();
        let p = f.find_path(&cheap, a, b, &exact).unwrap();
        assert_eq!(p.points, vec![a, from, to, b]);
        assert_eq!(
            p.links,
            vec![LinkTraversal {
                link: LinkId(0),
                segment: 1,
                reversed: false
            }]
        );
        // Dearer than the walk: the exact search walks, as without the link.
        let dear = base.clone().with_links([jump(500.0)]).unwrap();
        let walk = f.find_path(&dear, a, b, &exact).unwrap();
        assert_eq!(walk.points, detour.points);
        assert!(walk.links.is_empty());
        // Backwards only on a bidirectional link.
        let back = f.find_path(&cheap, b, a, &exact).unwrap();
        assert!(back.links.is_empty());
        let both = base
            .clone()
            .with_links([jump(20.0).bidirectional()])
            .unwrap();
        let back = f.find_path(&both, b, a, &exact).unwrap();
        assert_eq!(back.points, vec![b, to, from, a]);
        assert!(back.links[0].reversed);
        // A closed landing polygon closes the link; the partial path walks toward the goal.
        let mut filter = crate::search::PolygonFilter::new();
        filter.exclude(cheap.locate(to).polygon().unwrap());
        let closed = SearchOptions {
            filter: Some(std::sync::Arc::new(filter)),
            allow_partial: true,
            ..exact.clone()
        };
        let r = f.find_path(&cheap, a, b, &closed).unwrap();
        assert!(!r.is_complete() && r.links.is_empty());
        // Corner offsets leave the link's ends where they are.
        let offset = SearchOptions {
            corner_offset: 0.5,
            ..exact.clone()
        };
        let up = Vec2::new(1.0, 20.0);
        let p = f.find_path(&cheap, up, b, &offset).unwrap();
        assert_eq!(p.links.len(), 1);
        let k = p.links[0].segment;
        assert_eq!((p.points[k], p.points[k + 1]), (from, to));
        // Landmarks measure the mesh without its links: refused rather than wrong.
        let lm = crate::search::landmarks::Landmarks::build(&cheap, 2);
        let with_lm = SearchOptions {
            landmarks: Some(std::sync::Arc::new(lm)),
            ..exact.clone()
        };
        assert!(matches!(
            f.find_path(&cheap, a, b, &with_lm),
            Err(PathError::Unsupported {
                method: "exact",
                ..
            })
        ));
    }

    #[test]
    fn free_link_cycles_end_and_landing_on_a_vertex_keeps_the_channel_joined() {
        use crate::search::SearchMethod;
        let exact = SearchOptions {
            method: SearchMethod::Exact,
            ..SearchOptions::default()
        };
        // A wall with a gap at the top; links of cost 0 back and forth on one side (a cycle
        // of free links: the search used to land on it again and again, without end).
        let s = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(20.0, 10.0))).with_obstacle([
            (9.0, 0.0),
            (11.0, 0.0),
            (11.0, 8.0),
            (9.0, 8.0),
        ]);
        let base = build(&s, &BuildOptions::trapezoid()).unwrap();
        let (a, b) = (Vec2::new(1.0, 1.0), Vec2::new(19.0, 1.0));
        let (p, q) = (Vec2::new(2.0, 2.0), Vec2::new(3.0, 2.0));
        // a → p, free to q, over the wall's two top corners, down to b.
        let want = 2f64.sqrt() + 72f64.sqrt() + 2.0 + 113f64.sqrt();
        // (A budget turns a relapse into a failure instead of a hang.)
        let budget = SearchOptions {
            max_expanded: Some(100_000),
            ..exact.clone()
        };
        for links in [
            vec![OffMeshLink::new(p, q, 0.0).bidirectional()],
            vec![OffMeshLink::new(p, q, 0.0), OffMeshLink::new(q, p, 0.0)],
        ] {
            let m = base.clone().with_links(links).unwrap();
            let got = PathFinder::new().find_path(&m, a, b, &budget).unwrap();
            assert_eq!(got.points[..3], [a, p, q]);
            let cost = got.cost(&m);
            assert!((cost - want).abs() < 1e-9, "{cost} vs {want}: {got:?}");
        }
        // Free jumps landing on mesh vertices where several polygons meet (the corners of a
        // block in a triangulated map): consecutive channel polygons share an edge, or the link
        // joins them. (The landing node names one polygon holding the landing point, which
        // need not be the one the path goes on in.)
        let s = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(20.0, 20.0))).with_obstacle([
            (8.0, 8.0),
            (12.0, 8.0),
            (12.0, 12.0),
            (8.0, 12.0),
        ]);
        let m = build(&s, &BuildOptions::default()).unwrap();
        let from = Vec2::new(1.0, 10.0);
        let (mut checked, mut linked) = (0, 0);
        for to in [
            (8.0, 8.0),
            (12.0, 8.0),
            (12.0, 12.0),
            (8.0, 12.0),
            (20.0, 0.0),
        ] {
            let to = Vec2::new(to.0, to.1);
            let m = m
                .clone()
                .with_links([OffMeshLink::new(from, to, 0.0)])
                .unwrap();
            for goal in [
                (19.0, 1.0),
                (19.0, 19.0),
                (10.0, 19.0),
                (10.0, 1.0),
                (15.0, 10.0),
            ] {
                let goal = Vec2::new(goal.0, goal.1);
                let path = PathFinder::new().find_path(&m, from, goal, &exact).unwrap();
                linked += path.links.len();
                for w in path.channel.windows(2) {
                    let joined = m.shared_edge(w[0], w[1]).is_some()
                        || (m.locate_in(w[0], from).is_some() && m.locate_in(w[1], to).is_some());
                    assert!(joined, "{:?} then {:?} in {:?}", w[0], w[1], path.channel);
                    checked += 1;
                }
            }
        }
        assert!(
            checked > 25 && linked > 10,
            "{checked} pairs, {linked} links taken"
        );
    }

    #[test]
    fn a_cheap_link_beats_the_straight_line_inside_one_polygon() {
        // Start and goal in the one polygon of an empty map; a teleport of cost 1 between
        // points near them beats the straight walk of 80.
        let m = build(
            &Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(100.0, 10.0))),
            &BuildOptions::trapezoid(),
        )
        .unwrap();
        let (s, g) = (Vec2::new(5.0, 5.0), Vec2::new(85.0, 5.0));
        let (from, to) = (Vec2::new(5.0, 6.0), Vec2::new(85.0, 6.0));
        let m = m.with_links([OffMeshLink::new(from, to, 1.0)]).unwrap();
        let exact = SearchOptions {
            method: crate::search::SearchMethod::Exact,
            ..SearchOptions::default()
        };
        let p = PathFinder::new().find_path(&m, s, g, &exact).unwrap();
        assert_eq!(p.points, vec![s, from, to, g]);
        assert_eq!(p.links.len(), 1);
        // Backwards there is no link: the straight line.
        let p = PathFinder::new().find_path(&m, g, s, &exact).unwrap();
        assert_eq!(p.points, vec![g, s]);
    }

    #[test]
    fn linked_paths_are_walkable_runs_joined_by_links() {
        use proptest::prelude::*;
        let input = (
            random_scene(),
            proptest::collection::vec((grid_point(), grid_point()), 6),
            proptest::collection::vec(0.0..30.0f64, 6),
            proptest::collection::vec((grid_point(), grid_point()), 12),
        );
        let paths = std::cell::Cell::new(0usize);
        let exact_compared = std::cell::Cell::new(0usize);
        let linked = check_counted(file!(), 256, input, |(scene, ends, costs, queries)| {
            let base = mesh_of(&scene);
            let links: Vec<OffMeshLink> = ends
                .iter()
                .zip(&costs)
                .enumerate()
                .filter(|(_, ((a, b), _))| {
                    a != b
                        && base.locate(*a).polygon().is_some()
                        && base.locate(*b).polygon().is_some()
                })
                .map(|(i, ((a, b), &c))| {
                    let l = OffMeshLink::new(*a, *b, c);
                    if i % 2 == 0 {
                        l.bidirectional()
                    } else {
                        l
                    }
                })
                .collect();
            let m = base.with_links(links.clone()).unwrap();
            let mut f = PathFinder::new();
            let mut linked = 0;
            let exact = SearchOptions {
                method: crate::search::SearchMethod::Exact,
                ..SearchOptions::default()
            };
            let cost = |p: &Path| p.cost(&m);
            for (a, b) in queries {
                let Ok(funnel) = f.find_path(&m, a, b, &SearchOptions::default()) else {
                    // Same graph, links included: the exact search finds no path either.
                    prop_assert!(f.find_path(&m, a, b, &exact).is_err());
                    continue;
                };
                paths.set(paths.get() + 1);
                linked += usize::from(!funnel.links.is_empty());
                let exact_path = match f.find_path(&m, a, b, &exact) {
                    Ok(e) => Some(e),
                    Err(e) => {
                        return Err(proptest::test_runner::TestCaseError::fail(format!(
                            "{a} -> {b}: the funnel found a path, the exact search {e:?}"
                        )))
                    }
                };
                exact_compared.set(exact_compared.get() + usize::from(exact_path.is_some()));
                if let Some(e) = &exact_path {
                    prop_assert!(
                        cost(e) <= cost(&funnel) * (1.0 + 1e-9) + 1e-9,
                        "exact {} > funnel {}",
                        cost(e),
                        cost(&funnel)
                    );
                    // Its channel: neighbours, or two polygons joined by a link it takes.
                    for w in e.channel.windows(2) {
                        let jumped = e.links.iter().any(|t| {
                            let (x, y) = (e.points[t.segment], e.points[t.segment + 1]);
                            m.locate_in(w[0], x).is_some() && m.locate_in(w[1], y).is_some()
                        });
                        prop_assert!(
                            m.shared_edge(w[0], w[1]).is_some() || jumped,
                            "{:?} then {:?} in {:?}",
                            w[0],
                            w[1],
                            e.channel
                        );
                    }
                }
                for p in std::iter::once(&funnel).chain(&exact_path) {
                    prop_assert_eq!(p.points[0], a);
                    prop_assert_eq!(*p.points.last().unwrap(), b);
                    let link_segments: Vec<usize> = p.links.iter().map(|t| t.segment).collect();
                    for t in &p.links {
                        let l = links[t.link.index()];
                        let (x, y) = if t.reversed {
                            (l.to, l.from)
                        } else {
                            (l.from, l.to)
                        };
                        prop_assert!(l.bidirectional || !t.reversed);
                        prop_assert_eq!((p.points[t.segment], p.points[t.segment + 1]), (x, y));
                    }
                    for (i, w) in p.points.windows(2).enumerate() {
                        if !link_segments.contains(&i) {
                            let clear = crate::search::raycast::raycast(&m, w[0], w[1])
                                .unwrap()
                                .is_clear();
                            prop_assert!(clear, "segment {} of {:?}", i, p.points);
                        }
                    }
                }
            }
            Ok(linked)
        });
        // Points inside obstacles and walled-off goals are skipped; enough paths must remain,
        // and enough of them must take a link, for the property to say something.
        // (~2,770 paths of 3,072 queries, ~200 of them through a link.)
        assert!(
            paths.get() >= 2000,
            "only {} of 3,072 queries found a path",
            paths.get()
        );
        assert!(linked >= 100, "only {linked} paths took a link");
        assert!(
            exact_compared.get() * 10 >= paths.get() * 9,
            "the exact search answered only {} of {} queries",
            exact_compared.get(),
            paths.get()
        );
    }

    #[test]
    fn bad_links_are_named() {
        let ok = OffMeshLink::new(Vec2::new(1.0, 1.0), Vec2::new(9.0, 1.0), 3.0);
        let bad = |l: OffMeshLink| split_map().with_links([ok, l]).unwrap_err();
        assert_eq!(
            bad(OffMeshLink::new(
                Vec2::new(5.0, 5.0),
                Vec2::new(9.0, 1.0),
                1.0
            )),
            LinkError::OffMesh {
                link: 1,
                end: LinkEnd::From,
                point: Vec2::new(5.0, 5.0)
            }
        );
        assert_eq!(
            bad(OffMeshLink::new(
                Vec2::new(1.0, 1.0),
                Vec2::new(11.0, 1.0),
                1.0
            )),
            LinkError::OffMesh {
                link: 1,
                end: LinkEnd::To,
                point: Vec2::new(11.0, 1.0)
            }
        );
        assert_eq!(
            bad(OffMeshLink::new(
                Vec2::new(f64::NAN, 1.0),
                Vec2::new(9.0, 1.0),
                1.0
            )),
            LinkError::NonFinite {
                link: 1,
                end: LinkEnd::From
            }
        );
        assert!(matches!(
            bad(OffMeshLink::new(
                Vec2::new(1.0, 1.0),
                Vec2::new(9.0, 1.0),
                -1.0
            )),
            LinkError::BadCost { link: 1, .. }
        ));
        assert!(matches!(
            bad(OffMeshLink::new(
                Vec2::new(1.0, 1.0),
                Vec2::new(9.0, 1.0),
                f64::NAN
            )),
            LinkError::BadCost { link: 1, .. }
        ));
        assert_eq!(
            bad(OffMeshLink::new(
                Vec2::new(1.0, 1.0),
                Vec2::new(1.0, 1.0),
                1.0
            )),
            LinkError::ZeroLength { link: 1 }
        );
        let msg = bad(OffMeshLink::new(
            Vec2::new(5.0, 5.0),
            Vec2::new(9.0, 1.0),
            1.0,
        ))
        .to_string();
        assert!(msg.contains("link 1") && msg.contains("start"), "{msg}");
    }
}
