//! The JSON API of `portolan serve`, independent of HTTP plumbing.
//!
//! Four layers, each in its own module:
//! - [`wire`]: the request and answer shapes (serde), exactly as the README documents them;
//! - [`routes`]: which method and path reach which handler ([`route`]), 404 and 405, and the
//!   answer type [`Reply`];
//! - [`world`]: the state, one [`World`](world::World) (scene, mesh, revision) shared by every client, in an
//!   [`App`];
//! - [`handlers`]: [`App::handle`], one function per route;
//!
//! and [`errors`], the one place where a failure (a library error included) becomes a status and
//! a `code`; [`limits`], every limit of the server with its default; [`budget`], the work budget
//! of a build; [`dynamic`], tiled mode (a dynamic mesh edited obstacle by obstacle); [`crowd`],
//! the crowd sessions (routes, shapes and handlers in one module).

pub mod budget;
pub mod crowd;
pub mod dynamic;
pub mod errors;
pub mod handlers;
pub mod limits;
pub mod routes;
pub mod wire;
pub mod world;

pub use errors::ApiError;
// `MAX_BODY_BYTES` for the tests, which import it from here.
#[allow(unused_imports)]
pub use limits::{Limits, MAX_BODY_BYTES};
pub use routes::{parse_if_match, route, Reply, RequestMeta};
pub use world::{App, BuildSettings};

use portolan::{Decomposition, PortalPoint, SearchMethod};

/// Search methods offered to clients. Adding a [`SearchMethod`] variant breaks
/// [`method_is_listed`]: list it here and give it a branch in the path handler.
const METHODS: &[SearchMethod] = &[
    SearchMethod::Funnel,
    SearchMethod::Exact,
    SearchMethod::Corner,
];
/// Crossing-point estimates offered to clients.
const PORTAL_POINTS: &[PortalPoint] = &[PortalPoint::TowardGoal, PortalPoint::Midpoint];
/// Decompositions offered to clients (see [`METHODS`] for the exhaustiveness check).
const DECOMPOSITIONS: &[Decomposition] = &[Decomposition::Trapezoid, Decomposition::CdtMerged];

/// Compile-time reminder: a new variant must be added to the lists above.
fn method_is_listed(m: SearchMethod) -> bool {
    match m {
        SearchMethod::Funnel | SearchMethod::Exact | SearchMethod::Corner => METHODS.contains(&m),
    }
}
/// Compile-time reminder, as [`method_is_listed`].
fn decomposition_is_listed(d: Decomposition) -> bool {
    match d {
        Decomposition::Trapezoid | Decomposition::CdtMerged => DECOMPOSITIONS.contains(&d),
    }
}
