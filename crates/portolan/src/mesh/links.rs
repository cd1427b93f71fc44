//! Off-mesh links: jumps, climbs, ladders, teleports — connections between two points of the mesh
//! that are not a shared edge (the chapter's "Off-Mesh Link", Detour's off-mesh connections).
//!
//! A link joins a point `from` to a point `to`, both on the mesh, with its own traversal `cost`
//! (used instead of the straight distance between its ends) and a `bidirectional` flag. The
//! channel A* treats it as one more edge out of every polygon holding `from`, landing in the
//! polygons holding `to`; the path is then funnelled run by run between the links it takes, and
//! [`Path::links`](crate::search::Path::links) says which segments are link traversals. The
//! exact search ([`SearchMethod::Exact`](crate::SearchMethod::Exact)) takes a link where its start is seen,
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
#[non_exhaustive]
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

impl LinkTable {
    /// Bytes of the links and their edges.
    pub(super) fn memory_bytes(&self) -> usize {
        std::mem::size_of_val(&self.links[..])
            + std::mem::size_of_val(&self.offsets[..])
            + std::mem::size_of_val(&self.edges[..])
    }
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

    use crate::scene::Scene;

    use crate::testkit::scenes::split_map;

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
