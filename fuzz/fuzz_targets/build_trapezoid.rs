//! Fuzz target for the chapter's trapezoid builder: any scene, however degenerate, either builds a mesh that
//! passes `check_invariants` or fails with a typed error that is not an internal one. Never a
//! panic, never a hang.
//!
//! Run: `RUSTC_BOOTSTRAP=1 cargo fuzz run build_trapezoid` (from this directory; see README.md here).
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use portolan::build::{BuildError, BuildOptions, Decomposition};
use portolan::geom::{Aabb, Vec2};
use portolan::Scene;

include!("common.rs");

fuzz_target!(|input: Input| {
    let (scene, radius) = scene_of(&input);
    check(&scene, Decomposition::Trapezoid, radius);
});
