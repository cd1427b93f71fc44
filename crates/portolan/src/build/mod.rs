//! Building a [`NavMesh`] from a [`Scene`].
//!
//! ```text
//! Scene ─validate─► repair + union + clip + inflate (free_space) ─► CDT (cdt) ─► merge ─► NavMesh
//!                   └──── convex, disjoint obstacles only ────► trapezoids (trapezoid) ─┘
//! ```
//! Decompositions:
//! - [`Decomposition::CdtMerged`] (the default): free space as clean polygons with holes
//!   ([`free_space`](fn@free_space): any obstacles — concave, with holes, overlapping, touching, crossing the
//!   border — and an optional concave outer boundary), a constrained Delaunay triangulation
//!   (`cdt.rs`, [`cdt_triangle_count`]), and a Hertel–Mehlhorn merge into convex polygons
//!   (`merge.rs`).
//! - [`Decomposition::Trapezoid`]: the chapter's vertical-slab decomposition (`trapezoid.rs`);
//!   convex, non-overlapping obstacles inside a rectangle only.
//!
//! Both take an agent radius ([`BuildOptions::agent_radius`]): obstacles grow and the border
//! shrinks by it, corners rounded (`inflate.rs`). [`build_per_radius`] makes one mesh per agent
//! size.
//!
//! ```
//! use portolan::{build, BuildOptions, Scene};
//! let scene = Scene::default_map();
//! let cdt = build(&scene, &BuildOptions::default()).unwrap();
//! let trapezoids = build(&scene, &BuildOptions::trapezoid()).unwrap();
//! cdt.check_invariants().unwrap();
//! assert!(cdt.polygon_count() < trapezoids.polygon_count());
//! ```

// The stages are crate-private: users call `build`, and the stages' signatures may change with
// the algorithms. `free_space` and `cdt_triangle_count` below expose the two intermediate
// results that tools measure.
mod cancel;
pub(crate) mod cdt;
pub(crate) mod free_space;
pub(crate) mod inflate;
pub(crate) mod local;
pub(crate) mod merge;
pub(crate) mod order;
pub mod tiles;
pub(crate) mod trapezoid;

pub use cancel::CancelToken;
pub(crate) use cancel::CHECK_EVERY;

use crate::geom::Vec2;
use crate::mesh::{MeshError, NavMesh};
use crate::scene::{Scene, SceneError};

/// How free space is cut into convex polygons.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decomposition {
    /// The chapter's trapezoid decomposition: vertical lines at every obstacle vertex, slabs,
    /// trapezoids merged when bounded by the same edge pair. Needs convex obstacles that do not
    /// overlap; makes many tall, thin polygons.
    Trapezoid,
    /// Constrained Delaunay triangulation of free space, triangles merged into convex polygons
    /// (Hertel–Mehlhorn). Takes any obstacles; far fewer polygons than trapezoids.
    #[default]
    CdtMerged,
}

/// Options for [`build`]: start from [`BuildOptions::default`] (CDT), [`BuildOptions::cdt`] or
/// [`BuildOptions::trapezoid`], then the `with_*` setters. `#[non_exhaustive]`: new options can
/// come without breaking callers.
///
/// ```
/// use portolan::{build, BuildOptions, Scene};
/// let options = BuildOptions::cdt().with_agent_radius(5.0).with_arc_error(0.25);
/// let mesh = build(&Scene::default_map(), &options).unwrap();
/// assert!(mesh.polygon_count() > 0);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct BuildOptions {
    /// How to cut free space into convex polygons. Default: [`Decomposition::CdtMerged`].
    pub decomposition: Decomposition,
    /// Radius of the (disc-shaped) agent the mesh is for: obstacles grow and the walkable border
    /// shrinks by it, so a path on the mesh keeps the agent's centre at least this far from every
    /// obstacle (less [`BuildOptions::arc_error`]). Finite and ≥ 0. Default: 0 (a point agent).
    pub agent_radius: f64,
    /// The largest distance between a rounded corner and the polyline that stands for it, as a
    /// fraction of [`BuildOptions::agent_radius`]: every point of an inflated obstacle's outline is
    /// between `agent_radius · (1 − arc_error)` and `agent_radius` from the original obstacle.
    /// From [`MIN_ARC_ERROR`] to 1. Default: 0.01 (1% of the radius: 23 segments per full
    /// circle). Segments per full circle grow as `1 / sqrt(arc_error)`: 2,222 at the minimum.
    pub arc_error: f64,
    /// A signal that stops the build half-way with [`BuildError::Cancelled`] (see
    /// [`CancelToken`]). Default: `None` (the build runs to its end).
    pub cancel: Option<CancelToken>,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions {
            decomposition: Decomposition::default(),
            agent_radius: 0.0,
            arc_error: 0.01,
            cancel: None,
        }
    }
}

impl BuildOptions {
    /// Options for the chapter's trapezoid decomposition.
    pub fn trapezoid() -> BuildOptions {
        BuildOptions {
            decomposition: Decomposition::Trapezoid,
            ..BuildOptions::default()
        }
    }

    /// Options for the merged constrained Delaunay triangulation (the default).
    pub fn cdt() -> BuildOptions {
        BuildOptions::default()
    }

    /// The same options for an agent of radius `r` ([`BuildOptions::agent_radius`], default 0).
    ///
    /// ```
    /// use portolan::BuildOptions;
    /// assert_eq!(BuildOptions::cdt().with_agent_radius(4.0).agent_radius, 4.0);
    /// ```
    pub fn with_agent_radius(mut self, r: f64) -> BuildOptions {
        self.agent_radius = r;
        self
    }

    /// Sets [`BuildOptions::decomposition`] (default [`Decomposition::CdtMerged`]).
    ///
    /// ```
    /// use portolan::{BuildOptions, Decomposition};
    /// let o = BuildOptions::default().with_decomposition(Decomposition::Trapezoid);
    /// assert_eq!(o, BuildOptions::trapezoid());
    /// ```
    pub fn with_decomposition(mut self, decomposition: Decomposition) -> BuildOptions {
        self.decomposition = decomposition;
        self
    }

    /// Sets [`BuildOptions::arc_error`] (see the field for its default and range).
    ///
    /// ```
    /// use portolan::BuildOptions;
    /// assert_eq!(BuildOptions::cdt().with_arc_error(0.1).arc_error, 0.1);
    /// ```
    pub fn with_arc_error(mut self, arc_error: f64) -> BuildOptions {
        self.arc_error = arc_error;
        self
    }

    /// Sets [`BuildOptions::cancel`] (default `None`): the build checks `token` between its
    /// stages and inside its long loops, and returns [`BuildError::Cancelled`] once it is
    /// cancelled or past its deadline.
    ///
    /// ```
    /// use portolan::build::{build, BuildOptions, CancelToken};
    /// use portolan::Scene;
    /// let token = CancelToken::new();
    /// let options = BuildOptions::cdt().with_cancel(token.clone());
    /// assert!(build(&Scene::default_map(), &options).is_ok()); // not cancelled: runs to the end
    /// ```
    pub fn with_cancel(mut self, token: CancelToken) -> BuildOptions {
        self.cancel = Some(token);
        self
    }

    /// The token to check: the one set, or one that is never cancelled.
    pub(crate) fn cancel_token(&self) -> CancelToken {
        self.cancel.clone().unwrap_or_default()
    }

    /// Checks the option values.
    pub fn validate(&self) -> Result<(), BuildError> {
        if !(self.agent_radius.is_finite() && self.agent_radius >= 0.0) {
            return Err(BuildError::BadOption {
                name: "agent_radius",
                value: self.agent_radius,
            });
        }
        if !(MIN_ARC_ERROR..=1.0).contains(&self.arc_error) {
            return Err(BuildError::BadOption {
                name: "arc_error",
                value: self.arc_error,
            });
        }
        Ok(())
    }
}

/// Why a mesh could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The scene is invalid.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// An option is out of its range.
    #[error("build option {name} = {} is out of range", short_number(*.value))]
    BadOption {
        /// The option's field name.
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// Obstacle `obstacle` is not convex at vertex `vertex` (the trapezoid decomposition needs
    /// convex obstacles).
    #[error("obstacle {obstacle} is not convex at vertex {vertex}; the trapezoid decomposition needs convex obstacles")]
    NotConvex {
        /// Obstacle index.
        obstacle: usize,
        /// Vertex index.
        vertex: usize,
    },
    /// Two obstacles overlap or touch (the trapezoid decomposition needs disjoint obstacles).
    #[error("obstacles {first} and {second} overlap or touch; the trapezoid decomposition needs disjoint obstacles")]
    Overlap {
        /// One obstacle.
        first: usize,
        /// The other.
        second: usize,
    },
    /// The scene has something the trapezoid decomposition does not handle (a boundary polygon,
    /// holes); the CDT decomposition does.
    #[error("the trapezoid decomposition does not support {0}; use the CDT decomposition")]
    Unsupported(&'static str),
    /// A coordinate is out of the supported range. [`build`] checks every input coordinate first
    /// (the same rule for both decompositions, [`coordinate_in_range`]): each must be 0 or have a
    /// magnitude from [`MIN_COORDINATE`] (2⁻³⁰⁰) to [`MAX_COORDINATE`] (2³⁰⁰); sub-normal and
    /// huge values are refused here, naming the first culprit in `at`. Input in that range can
    /// still be refused by the CDT decomposition, with [`CoordinateSite::Overlay`] or
    /// [`CoordinateSite::Triangulation`], where a point it computes cannot be represented: the
    /// triangulation takes magnitudes up to 2²⁰¹ and non-zero ones from 2⁻¹⁴², and the overlay
    /// grid's step is about 2⁻²⁹ of the map's extent.
    #[error("{}", coordinate_range_message(.at, .min, .max))]
    CoordinateRange {
        /// Where the coordinate is.
        at: CoordinateSite,
        /// Lower corner of the box of the refused coordinates (for a vertex, the vertex).
        min: Vec2,
        /// Upper corner (for a vertex, the vertex again).
        max: Vec2,
    },
    /// The triangulation cannot be used: more triangles than 32-bit ids hold. (Coordinates out of
    /// the triangulation's range are [`BuildError::CoordinateRange`].)
    #[error("triangulation failed: {0}")]
    Triangulation(String),
    /// Nothing walkable is left.
    #[error("no walkable space is left after removing the obstacles")]
    NoWalkableSpace,
    /// The trapezoid decomposition computes slab corners in `f64`; on near-degenerate input
    /// (slabs thinner than rounding) a corner can round onto a neighbour's edge. Its output is checked, and refused rather than returned broken; the CDT
    /// decomposition handles such input.
    #[error("the trapezoid decomposition is numerically degenerate on this scene ({0}); use the CDT decomposition")]
    Degenerate(crate::mesh::InvariantError),
    /// The build was stopped by [`BuildOptions::cancel`]: its [`CancelToken`] was cancelled or
    /// its deadline passed.
    #[error("the build was cancelled")]
    Cancelled,
    /// The polygons produced do not form a valid mesh (a bug: please report it with the scene).
    #[error("internal error, the decomposition produced an invalid mesh: {0}")]
    Mesh(crate::mesh::InvariantError),
}

/// Where a coordinate out of range is ([`BuildError::CoordinateRange`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CoordinateSite {
    /// A corner of [`Scene::bounds`].
    Bounds,
    /// Vertex `vertex` of [`Scene::boundary`].
    Boundary {
        /// Vertex index.
        vertex: usize,
    },
    /// Vertex `vertex` of obstacle `obstacle`.
    Obstacle {
        /// Obstacle index.
        obstacle: usize,
        /// Vertex index.
        vertex: usize,
    },
    /// Vertex `vertex` of hole `hole` ([`Scene::holes`]).
    Hole {
        /// Hole index.
        hole: usize,
        /// Vertex index.
        vertex: usize,
    },
    /// Points whose box the overlay grid of the CDT decomposition (or of reading a `.poly` file)
    /// cannot hold: an extent below 2⁻⁹⁹³ (the grid step would be sub-normal) or a magnitude
    /// above 2⁵⁰⁰.
    Overlay,
    /// Points the triangulation cannot take (magnitude above 2²⁰¹, or non-zero below 2⁻¹⁴²).
    Triangulation,
}

impl std::fmt::Display for CoordinateSite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CoordinateSite::Bounds => write!(f, "the bounds"),
            CoordinateSite::Boundary { vertex } => write!(f, "boundary vertex {vertex}"),
            CoordinateSite::Obstacle { obstacle, vertex } => {
                write!(f, "obstacle {obstacle}, vertex {vertex}")
            }
            CoordinateSite::Hole { hole, vertex } => write!(f, "hole {hole}, vertex {vertex}"),
            CoordinateSite::Overlay => write!(f, "the overlay grid"),
            CoordinateSite::Triangulation => write!(f, "the triangulation"),
        }
    }
}

/// `value` as Rust writes it where that is short (`0.01`, `-5`, `NaN`), in scientific notation
/// where it is not (`1e-300`, not three hundred digits).
fn short_number(value: f64) -> String {
    let plain = value.to_string();
    if plain.len() <= 16 {
        plain
    } else {
        format!("{value:e}")
    }
}

fn coordinate_range_message(at: &CoordinateSite, min: &Vec2, max: &Vec2) -> String {
    const RULE: &str = "each coordinate must be 0 or of magnitude 2^-300 to 2^300";
    // `{:?}` of an f64 is the shortest round-trip form, in exponent notation for sub-normal and
    // huge values (`Display` spells 5e-324 out in 300 digits).
    let (min, max) = (
        format!("({:?}, {:?})", min.x, min.y),
        format!("({:?}, {:?})", max.x, max.y),
    );
    match at {
        CoordinateSite::Bounds => {
            format!("the bounds {min} to {max} are out of the supported coordinate range ({RULE})")
        }
        CoordinateSite::Overlay => format!(
            "coordinates from {min} to {max} are out of the range the overlay grid can \
             represent (a box at least 2^-993 wide, coordinates of magnitude at most 2^500)"
        ),
        CoordinateSite::Triangulation => format!(
            "coordinates from {min} to {max} are out of the range the triangulation can \
             represent (each coordinate 0 or of magnitude 2^-142 to 2^201)"
        ),
        _ => format!("{at} {min} is out of the supported coordinate range ({RULE})"),
    }
}

pub use crate::geom::{coordinate_in_range, MAX_COORDINATE, MIN_COORDINATE};

/// The least [`BuildOptions::arc_error`]: a rounded corner's chords then stray at most a
/// millionth of the radius from the circle, 2,222 of them per full circle. (Below it, the
/// chord angle fell to 0 in `f64` near 1e-16, and a build with `--arc-error 1e-300` looped,
/// adding chords until the system killed it.)
///
/// ```
/// use portolan::build::{BuildError, MIN_ARC_ERROR};
/// use portolan::{build, BuildOptions, Scene};
/// let options = BuildOptions::cdt().with_agent_radius(5.0);
/// assert!(build(&Scene::default_map(), &options.clone().with_arc_error(MIN_ARC_ERROR)).is_ok());
/// assert!(matches!(
///     build(&Scene::default_map(), &options.with_arc_error(MIN_ARC_ERROR / 2.0)),
///     Err(BuildError::BadOption { name: "arc_error", .. })
/// ));
/// ```
pub const MIN_ARC_ERROR: f64 = 1e-6;

/// Checks every coordinate of the scene against [`coordinate_in_range`] — the bounds, the
/// boundary, the obstacles, the holes, in that order — and names the first one out of range.
/// The one range check, shared by both decompositions ([`build`] and the trapezoid module's own
/// entry points call it).
pub(crate) fn check_coordinates(scene: &Scene) -> Result<(), BuildError> {
    let ok = |p: &Vec2| crate::geom::point_in_range(*p);
    let b = scene.bounds;
    if !(ok(&b.min) && ok(&b.max)) {
        return Err(BuildError::CoordinateRange {
            at: CoordinateSite::Bounds,
            min: b.min,
            max: b.max,
        });
    }
    let vertex = |at: CoordinateSite, p: Vec2| BuildError::CoordinateRange { at, min: p, max: p };
    if let Some(ring) = &scene.boundary {
        if let Some(v) = ring.iter().position(|p| !ok(p)) {
            return Err(vertex(CoordinateSite::Boundary { vertex: v }, ring[v]));
        }
    }
    for (o, ring) in scene.obstacles.iter().enumerate() {
        if let Some(v) = ring.iter().position(|p| !ok(p)) {
            let at = CoordinateSite::Obstacle {
                obstacle: o,
                vertex: v,
            };
            return Err(vertex(at, ring[v]));
        }
    }
    for (h, hole) in scene.holes.iter().enumerate() {
        if let Some(v) = hole.ring.iter().position(|p| !ok(p)) {
            return Err(vertex(
                CoordinateSite::Hole { hole: h, vertex: v },
                hole.ring[v],
            ));
        }
    }
    Ok(())
}

impl From<MeshError> for BuildError {
    fn from(e: MeshError) -> BuildError {
        BuildError::Mesh(crate::mesh::InvariantError::Structure(e))
    }
}

/// The map's rectangle shrunk by the agent radius `r` on every side (`min`, `max`), where the
/// agent's centre may be whatever the obstacles; `None` when it keeps no area. Every builder
/// asks this before growing anything, so that a radius far beyond the map is
/// [`BuildError::NoWalkableSpace`] at once instead of an overlay of pieces a billion times the
/// map's size (which ran for minutes); the trapezoid builder also clips to it.
pub(crate) fn shrunk_bounds(bounds: crate::geom::Aabb, r: f64) -> Option<(Vec2, Vec2)> {
    let (min, max) = (bounds.min + Vec2::new(r, r), bounds.max - Vec2::new(r, r));
    (min.x < max.x && min.y < max.y).then_some((min, max))
}

/// Builds a navigation mesh from a scene.
///
/// # Coordinate range
/// Every coordinate of the scene (bounds, boundary, obstacles, holes) must be 0 or have a
/// magnitude from 2⁻³⁰⁰ to 2³⁰⁰ ([`coordinate_in_range`]), for both decompositions; anything
/// else (sub-normal or huge values) is [`BuildError::CoordinateRange`], naming the first culprit,
/// before any geometry is done. Within that range the CDT decomposition can still refuse, with
/// the same error, points it cannot represent (see [`BuildError::CoordinateRange`]); every build
/// ends, with a mesh or an error.
pub fn build(scene: &Scene, options: &BuildOptions) -> Result<NavMesh, BuildError> {
    options.validate()?;
    scene.validate()?;
    check_coordinates(scene)?;
    let max_angle = inflate::chord_angle(options.arc_error);
    let cancel = options.cancel_token();
    cancel.check()?;
    match options.decomposition {
        Decomposition::Trapezoid => {
            trapezoid::build_inflated(scene, options.agent_radius, max_angle, &cancel)
        }
        Decomposition::CdtMerged => {
            let free = free_space::free_space(scene, options.agent_radius, max_angle, &cancel)?;
            cancel.check()?;
            let triangles = cdt::triangulate(&free, &cancel)?;
            if triangles.triangles.is_empty() {
                return Err(BuildError::NoWalkableSpace);
            }
            cancel.check()?;
            let merged = merge::merge_with_adjacency(&triangles, &cancel)?;
            cancel.check()?;
            // Numbered along a space-filling curve, for the searches' caches (`order.rs`).
            let (merged, vertices) = order::spatial_order(merged, triangles.vertices);
            NavMesh::from_known_adjacency(vertices, merged.offsets, merged.ring, merged.neighbours)
                .map_err(BuildError::Mesh)
        }
    }
}

/// The free space the CDT decomposition triangulates: the walkable region after repair, union,
/// clipping to the boundary and inflation by [`BuildOptions::agent_radius`], as shapes (each an
/// outer ring, counter-clockwise, then its holes). The input is checked as [`build`] checks it;
/// [`BuildOptions::decomposition`] is ignored.
///
/// ```
/// use portolan::build::{free_space, BuildOptions};
/// use portolan::Scene;
/// let shapes = free_space(&Scene::default_map(), &BuildOptions::cdt()).unwrap();
/// assert_eq!(shapes.len(), 1); // one connected walkable region...
/// assert!(shapes[0].len() > 1); // ...with the obstacles as holes
/// ```
pub fn free_space(
    scene: &Scene,
    options: &BuildOptions,
) -> Result<Vec<Vec<Vec<Vec2>>>, BuildError> {
    options.validate()?;
    scene.validate()?;
    check_coordinates(scene)?;
    let max_angle = inflate::chord_angle(options.arc_error);
    free_space::free_space(
        scene,
        options.agent_radius,
        max_angle,
        &options.cancel_token(),
    )
}

/// The number of triangles of the constrained Delaunay triangulation of [`free_space`](fn@free_space),
/// before they are merged into convex polygons (what the CDT decomposition saves is this
/// against [`NavMesh::polygon_count`]).
///
/// ```
/// use portolan::build::{build, cdt_triangle_count, BuildOptions};
/// use portolan::Scene;
/// let scene = Scene::default_map();
/// let triangles = cdt_triangle_count(&scene, &BuildOptions::cdt()).unwrap();
/// assert!(build(&scene, &BuildOptions::cdt()).unwrap().polygon_count() < triangles);
/// ```
pub fn cdt_triangle_count(scene: &Scene, options: &BuildOptions) -> Result<usize, BuildError> {
    let free = free_space(scene, options)?;
    Ok(cdt::triangulate(&free, &options.cancel_token())?
        .triangles
        .len())
}

/// Builds one mesh per agent radius (the chapter: "one mesh per agent size"), with the other
/// options as given. The result is in the order of `radii`.
///
/// ```
/// use portolan::build::{build_per_radius, BuildOptions};
/// use portolan::Scene;
/// let meshes = build_per_radius(&Scene::default_map(), &BuildOptions::default(), &[0.0, 5.0, 10.0]).unwrap();
/// // Bigger agents have less room.
/// assert!(meshes[0].area() > meshes[1].area() && meshes[1].area() > meshes[2].area());
/// ```
pub fn build_per_radius(
    scene: &Scene,
    options: &BuildOptions,
    radii: &[f64],
) -> Result<Vec<NavMesh>, BuildError> {
    radii
        .iter()
        .map(|&r| build(scene, &options.clone().with_agent_radius(r)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Aabb;

    fn square(max: f64) -> Scene {
        Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(max, max)))
    }

    /// Issue 16, item 1: `POST /api/scene` with bounds up to 5e-324 and the CDT decomposition
    /// spun forever (the overlay grid's power of two underflowed to 0 and was doubled until it
    /// reached the extent). The trapezoids refused it; now both do, before any geometry.
    #[test]
    fn regression_subnormal_bounds_are_a_range_error_not_a_hang() {
        for max in [5e-324, 1e-310] {
            let s = square(max);
            for options in [
                BuildOptions::cdt(),
                BuildOptions::cdt().with_agent_radius(1e-320),
                BuildOptions::trapezoid(),
            ] {
                assert_eq!(
                    build(&s, &options).unwrap_err(),
                    BuildError::CoordinateRange {
                        at: CoordinateSite::Bounds,
                        min: Vec2::ZERO,
                        max: Vec2::new(max, max),
                    },
                    "{max:?} {options:?}"
                );
            }
        }
    }

    /// A radius far beyond the map is "no walkable space" at once, for every builder. The CDT
    /// builder used to grow the obstacles first and overlay pieces a billion times the map's
    /// size: 2 s on this 8 × 7 map at 1e9, minutes on a 12 × 12 one (found by a sweep of
    /// `portolan build --radius`).
    #[test]
    fn regression_a_radius_beyond_the_map_is_no_walkable_space_not_a_hang() {
        let map = "type octile\nheight 7\nwidth 8\nmap\n@..@..@.\n........\n.@.....@\n...@....\n........\n@......@\n.@......\n";
        let scene = crate::io::movingai::read_map(map.as_bytes())
            .expect("a valid map")
            .to_scene();
        // (The trapezoid builder refuses a grid map's touching outlines, and shrank the
        // rectangle first anyway.)
        for r in [3.5, 1e7, 1e8, 1e9, 1e10, 1e300] {
            let options = BuildOptions::cdt().with_agent_radius(r);
            assert_eq!(
                build(&scene, &options).unwrap_err(),
                BuildError::NoWalkableSpace,
                "r {r}"
            );
            assert_eq!(
                free_space(&scene, &options).unwrap_err(),
                BuildError::NoWalkableSpace,
                "free space, r {r}"
            );
            assert_eq!(
                crate::build::tiles::build_tiled(&scene, &options, 4.0).unwrap_err(),
                BuildError::NoWalkableSpace,
                "tiled, r {r}"
            );
        }
    }

    /// The one rule names the first coordinate out of range, wherever it is, for both
    /// decompositions: sub-normal, below 2⁻³⁰⁰, above 2³⁰⁰. (The CDT used to build the first
    /// scene, rounding 1e-310 to 0, and to answer "no walkable space" for the second: its overlay
    /// grid, sized to the box out to 1e95, collapsed the map.)
    #[test]
    fn out_of_range_coordinates_are_named_for_both_decompositions() {
        let base = || square(10.0);
        let vertex = |at: CoordinateSite, x: f64, y: f64| BuildError::CoordinateRange {
            at,
            min: Vec2::new(x, y),
            max: Vec2::new(x, y),
        };
        let obstacle = |obstacle, vertex| CoordinateSite::Obstacle { obstacle, vertex };
        let huge = Aabb::new(Vec2::new(-1e300, 0.0), Vec2::new(1e300, 10.0));
        let cases = [
            (
                base()
                    .with_obstacle([(2.0, 2.0), (4.0, 2.0), (3.0, 4.0)])
                    .with_obstacle([(5.0, 5.0), (6.0, 5.0), (6.0, 1e-310)]),
                vertex(obstacle(1, 2), 6.0, 1e-310),
            ),
            (
                base().with_obstacle([(2.0, 2.0), (4.0, 2.0), (1e95, 4.0)]),
                vertex(obstacle(0, 2), 1e95, 4.0),
            ),
            (
                base().with_obstacle([(-1e300, 2.0), (4.0, 2.0), (3.0, 4.0)]),
                vertex(obstacle(0, 0), -1e300, 2.0),
            ),
            (
                base().with_obstacle([(1e-95, 2.0), (4.0, 2.0), (3.0, 4.0)]),
                vertex(obstacle(0, 0), 1e-95, 2.0),
            ),
            (
                base()
                    .with_obstacle([(1.0, 1.0), (9.0, 1.0), (9.0, 9.0), (1.0, 9.0)])
                    .with_hole(0, [(3.0, 3.0), (5e-324, 3.0), (5.0, 5.0)]),
                vertex(CoordinateSite::Hole { hole: 0, vertex: 1 }, 5e-324, 3.0),
            ),
            (
                base().with_boundary([(0.0, 0.0), (10.0, 0.0), (5.0, 1e-320)]),
                vertex(CoordinateSite::Boundary { vertex: 2 }, 5.0, 1e-320),
            ),
            (
                Scene::new(huge),
                BuildError::CoordinateRange {
                    at: CoordinateSite::Bounds,
                    min: huge.min,
                    max: huge.max,
                },
            ),
        ];
        for (scene, want) in cases {
            for options in [BuildOptions::cdt(), BuildOptions::trapezoid()] {
                assert_eq!(build(&scene, &options).unwrap_err(), want, "{options:?}");
            }
        }
    }

    /// The rule's edges: 0, ±2⁻³⁰⁰ and ±2³⁰⁰ are in, the next values out and in are not.
    #[test]
    fn coordinate_range_edges() {
        assert_eq!(MIN_COORDINATE, 2f64.powi(-300));
        assert_eq!(MAX_COORDINATE, 2f64.powi(300));
        for v in [0.0, -0.0, MIN_COORDINATE, -MAX_COORDINATE, 1.0, 800.0] {
            assert!(coordinate_in_range(v), "{v}");
        }
        for v in [
            5e-324,
            f64::MIN_POSITIVE,
            MIN_COORDINATE * (1.0 - f64::EPSILON),
            MAX_COORDINATE * (1.0 + f64::EPSILON),
            f64::MAX,
            f64::INFINITY,
            f64::NAN,
        ] {
            assert!(!coordinate_in_range(v), "{v}");
            assert!(!coordinate_in_range(-v), "{v}");
        }
    }

    /// A cancelled token, or one past its deadline, stops every decomposition before any work.
    #[test]
    fn a_cancelled_build_is_an_error_for_every_decomposition() {
        let scene = Scene::default_map();
        let cancelled = CancelToken::new();
        cancelled.cancel();
        let past = CancelToken::new().with_deadline(std::time::Instant::now());
        for token in [cancelled, past] {
            for options in [
                BuildOptions::cdt(),
                BuildOptions::trapezoid(),
                BuildOptions::cdt().with_agent_radius(3.0),
                BuildOptions::trapezoid().with_agent_radius(3.0),
            ] {
                let options = options.with_cancel(token.clone());
                assert_eq!(build(&scene, &options).err(), Some(BuildError::Cancelled));
                assert_eq!(free_space(&scene, &options), Err(BuildError::Cancelled));
            }
            let options = BuildOptions::cdt().with_cancel(token);
            assert_eq!(
                tiles::build_tiled(&scene, &options, 200.0).err(),
                Some(BuildError::Cancelled)
            );
        }
    }

    /// Stopped at each of its checkpoints in turn, a build returns `Cancelled`; allowed them
    /// all, the same mesh as without a token. On a scene of 1,500 quads (and with an agent
    /// radius, 1,500 inflated rings) the checkpoints inside the loops are reached, not only
    /// those between the stages.
    #[test]
    fn a_build_stops_at_each_checkpoint() {
        let scene = crate::random::quad_grid_scene(1500, 3);
        for options in [
            BuildOptions::cdt(),
            BuildOptions::cdt().with_agent_radius(0.5),
            BuildOptions::trapezoid(),
        ] {
            let whole = build(&scene, &options).unwrap();
            let mut checks = 0;
            loop {
                let o = options
                    .clone()
                    .with_cancel(CancelToken::after_checks(checks));
                match build(&scene, &o) {
                    Err(BuildError::Cancelled) => checks += 1,
                    Ok(mesh) => {
                        assert_eq!(mesh.polygon_count(), whole.polygon_count());
                        break;
                    }
                    Err(e) => panic!("{options:?}: {e}"),
                }
                assert!(checks < 10_000, "{options:?}: never finishes");
            }
            assert!(checks >= 6, "{options:?}: {checks} checkpoints");
        }
    }

    /// An option out of range is written short: 1e-300, not three hundred digits.
    #[test]
    fn a_bad_option_is_written_short() {
        let e = |value| BuildError::BadOption {
            name: "arc_error",
            value,
        };
        assert_eq!(
            e(1e-300).to_string(),
            "build option arc_error = 1e-300 is out of range"
        );
        assert_eq!(
            e(0.0).to_string(),
            "build option arc_error = 0 is out of range"
        );
        assert_eq!(
            e(1.5).to_string(),
            "build option arc_error = 1.5 is out of range"
        );
        assert_eq!(
            e(f64::NAN).to_string(),
            "build option arc_error = NaN is out of range"
        );
    }

    /// The message names the culprit and the rule.
    #[test]
    fn coordinate_range_message_names_the_culprit() {
        let e = build(&square(5e-324), &BuildOptions::cdt()).unwrap_err();
        let m = e.to_string();
        assert!(
            m.contains("the bounds (0.0, 0.0) to (5e-324, 5e-324)"),
            "{m}"
        );
        assert!(m.contains("2^-300 to 2^300"), "{m}");
        let s = square(10.0).with_obstacle([(2.0, 2.0), (4.0, 2.0), (3.0, 1e-310)]);
        let m = build(&s, &BuildOptions::cdt()).unwrap_err().to_string();
        assert!(
            m.starts_with("obstacle 0, vertex 2 (3.0, 1e-310) is out"),
            "{m}"
        );
    }
}
