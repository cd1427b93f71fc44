//! Tests of the searches that cross modules (the finder with landmarks, links on the mesh):
//! kept here, above every search module, so no module below depends on the façade in its
//! tests.

mod channel;
mod landmarks;
mod links;
