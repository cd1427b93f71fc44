//! Endpoint resolution: where a query's start and goal lie on the mesh.
//!
//! Every search starts here. A query point is checked (finite), located
//! ([`NavMesh::locate`]), and, when it is off the mesh and [`Snap::Within`] allows it, moved to
//! the nearest point of the mesh ([`NavMesh::nearest_point`]). The result names every polygon
//! holding the point: one inside a polygon, two on a portal, all of a vertex's polygons on a
//! vertex (the exact search starts from all of them; the channel search from any).
//!
//! Errors name the endpoint with an [`EndpointRole`], never a string.

use super::{PathError, Snap};
use crate::geom::point_in_range;
use crate::geom::Vec2;
use crate::mesh::{Location, NavMesh, PolyId};

/// Which end of a query a point is: used in errors that name the culprit.
///
/// ```
/// use portolan::search::EndpointRole;
/// assert_eq!(EndpointRole::Start.to_string(), "start");
/// assert_eq!(EndpointRole::Goal.to_string(), "goal");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndpointRole {
    /// The query's start point.
    Start,
    /// The query's goal point.
    Goal,
}

impl EndpointRole {
    /// The lower-case name used in messages: `"start"` or `"goal"`.
    ///
    /// ```
    /// use portolan::search::EndpointRole;
    /// assert_eq!(EndpointRole::Goal.as_str(), "goal");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            EndpointRole::Start => "start",
            EndpointRole::Goal => "goal",
        }
    }
}

impl std::fmt::Display for EndpointRole {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A start or goal resolved to the mesh: the (possibly snapped) point and the polygons holding it.
///
/// ```
/// use portolan::search::{resolve_endpoint, EndpointRole, Snap};
/// use portolan::{build, BuildOptions, Scene, Vec2};
/// let mesh = build(&Scene::default_map(), &BuildOptions::trapezoid()).unwrap();
/// let e = resolve_endpoint(&mesh, Scene::DEFAULT_START, Snap::Reject, EndpointRole::Start).unwrap();
/// assert_eq!(e.point, Scene::DEFAULT_START);
/// assert!(!e.polygons.is_empty());
/// ```
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
    role: EndpointRole,
) -> Result<(Vec2, Location), PathError> {
    if !p.is_finite() {
        return Err(PathError::NonFinite { role, point: p });
    }
    if !point_in_range(p) {
        return Err(PathError::OutOfRange { role, point: p });
    }
    let off = || match role {
        EndpointRole::Start => PathError::StartOffMesh(p),
        EndpointRole::Goal => PathError::GoalOffMesh(p),
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

/// Finds the polygons holding `p`, snapping it first if allowed (the first step of every
/// search, exposed for tools that show where a query point lands).
///
/// ```
/// use portolan::search::{resolve_endpoint, EndpointRole, Snap};
/// use portolan::{build, BuildOptions, PathError, Scene, Vec2};
/// let mesh = build(&Scene::default_map(), &BuildOptions::trapezoid()).unwrap();
/// let far = Vec2::new(-50.0, 20.0);
/// assert_eq!(
///     resolve_endpoint(&mesh, far, Snap::Reject, EndpointRole::Goal),
///     Err(PathError::GoalOffMesh(far))
/// );
/// let snapped = resolve_endpoint(&mesh, far, Snap::Within(100.0), EndpointRole::Goal).unwrap();
/// assert_eq!(snapped.point, Vec2::new(0.0, 20.0));
/// ```
pub fn resolve_endpoint(
    mesh: &NavMesh,
    p: Vec2,
    snap: Snap,
    role: EndpointRole,
) -> Result<Endpoint, PathError> {
    let (point, loc) = locate_endpoint(mesh, p, snap, role)?;
    let polygons = match loc {
        Location::InPolygon(poly) => vec![poly],
        Location::OnEdge {
            polygon, neighbour, ..
        } => std::iter::once(polygon).chain(neighbour).collect(),
        Location::OnVertex { vertex, .. } => mesh.vertex_polygons(vertex).to_vec(),
        // `locate_endpoint` never returns `Outside` (it snaps or fails).
        Location::Outside => unreachable!("locate_endpoint never returns Outside"),
    };
    Ok(Endpoint { point, polygons })
}
