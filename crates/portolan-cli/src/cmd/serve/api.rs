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
//! a `code`.

pub mod errors;
pub mod handlers;
pub mod routes;
pub mod wire;
pub mod world;

pub use errors::ApiError;
pub use routes::{route, Reply};
pub use world::{App, BuildSettings};

use portolan::{Decomposition, PortalPoint, SearchMethod};

/// Largest request body accepted, in bytes (a scene of tens of thousands of vertices fits).
pub const MAX_BODY_BYTES: usize = 1 << 20;

/// Search methods offered to clients. Adding a [`SearchMethod`] variant breaks
/// [`method_is_listed`]: list it here and give it a branch in the path handler.
const METHODS: &[SearchMethod] = &[SearchMethod::Funnel, SearchMethod::Exact];
/// Crossing-point estimates offered to clients.
const PORTAL_POINTS: &[PortalPoint] = &[PortalPoint::TowardGoal, PortalPoint::Midpoint];
/// Decompositions offered to clients (see [`METHODS`] for the exhaustiveness check).
const DECOMPOSITIONS: &[Decomposition] = &[Decomposition::Trapezoid, Decomposition::CdtMerged];

/// Compile-time reminder: a new variant must be added to the lists above.
fn method_is_listed(m: SearchMethod) -> bool {
    match m {
        SearchMethod::Funnel | SearchMethod::Exact => METHODS.contains(&m),
    }
}
/// Compile-time reminder, as [`method_is_listed`].
fn decomposition_is_listed(d: Decomposition) -> bool {
    match d {
        Decomposition::Trapezoid | Decomposition::CdtMerged => DECOMPOSITIONS.contains(&d),
    }
}
