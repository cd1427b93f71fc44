//! The input of mesh building: a walkable region and the obstacles in it.
//!
//! # JSON format
//! ```json
//! {
//!   "bounds": { "min": [0, 0], "max": [800, 450] },
//!   "boundary": [[0, 0], [800, 0], [800, 450], [400, 300], [0, 450]],
//!   "obstacles": [
//!     [[100, 100], [200, 100], [150, 180]],
//!     [[300, 50], [380, 50], [380, 300], [300, 300]]
//!   ],
//!   "holes": [
//!     { "obstacle": 1, "ring": [[320, 100], [360, 100], [360, 200], [320, 200]] }
//!   ]
//! }
//! ```
//! - `bounds` (required): the walkable rectangle.
//! - `boundary` (optional): an outer walkable polygon, possibly concave. When present, the
//!   walkable region is the boundary polygon clipped to `bounds`.
//! - `obstacles`: closed rings of `[x, y]` points in either orientation (the first point need not
//!   be repeated at the end). They may be concave, overlap, touch each other, and cross or touch
//!   the map border: the solid region is their union, and whatever lies outside the walkable
//!   region is cut off.
//! - `holes` (optional): walkable holes in obstacles. Each names the index of its obstacle and a
//!   ring; the solid part of obstacle `i` is its ring minus its holes. Another obstacle inside a
//!   hole is solid again (the union is taken after the holes are cut).
//!
//! A ring that crosses itself means what it means when an SVG path is filled with
//! `fill-rule="nonzero"`: every point it winds around is solid. Repeated consecutive vertices
//! and collinear runs are dropped. What cannot be repaired is an error naming the ring: a
//! non-finite coordinate, fewer than three distinct vertices, or all vertices on one line.
//!
//! Coordinates are `f64`; see [`geom`](crate::geom) for the axis convention. [`Scene::validate`]
//! checks what every mesh builder needs; each builder checks its own extra requirements (the
//! trapezoid decomposition wants the stricter [`Scene::validate_simple`], convex obstacles that
//! do not overlap, no boundary polygon and no holes).

use crate::geom::{polygon_is_simple, Aabb, SimplicityError, Vec2};
use serde::{Deserialize, Serialize};

/// A map to build a navigation mesh from: the walkable region minus the obstacles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    /// The walkable rectangle.
    pub bounds: Aabb,
    /// An optional outer walkable polygon (closed ring, either orientation, possibly concave);
    /// the walkable region is then this polygon clipped to [`Scene::bounds`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boundary: Option<Vec<Vec2>>,
    /// Obstacle polygons (closed rings, either orientation).
    #[serde(default)]
    pub obstacles: Vec<Vec<Vec2>>,
    /// Walkable holes cut out of obstacles.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holes: Vec<Hole>,
}

/// A walkable hole in an obstacle: the solid part of obstacle `obstacle` is its ring minus the
/// rings of all its holes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hole {
    /// Index of the obstacle in [`Scene::obstacles`].
    pub obstacle: usize,
    /// The hole's ring (either orientation).
    pub ring: Vec<Vec2>,
}

/// What is wrong with a ring (the boundary or a hole) that cannot be repaired.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RingFault {
    /// Vertex `vertex` has a NaN or infinite coordinate.
    NonFinite {
        /// Vertex index in the ring.
        vertex: usize,
    },
    /// Fewer than three distinct vertices once repeated consecutive vertices are dropped.
    TooFewVertices {
        /// How many distinct vertices remain.
        count: usize,
    },
    /// Every vertex lies on one line.
    ZeroArea,
}

impl std::fmt::Display for RingFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RingFault::NonFinite { vertex } => {
                write!(f, "vertex {vertex}: coordinate is not a finite number")
            }
            RingFault::TooFewVertices { count } => {
                write!(
                    f,
                    "{}; a polygon needs at least 3",
                    distinct_vertices(*count)
                )
            }
            RingFault::ZeroArea => write!(f, "zero area (every vertex on one line)"),
        }
    }
}

/// `1 distinct vertex`, `2 distinct vertices`: what is left of a ring without its repeats.
fn distinct_vertices(count: usize) -> String {
    match count {
        1 => "1 distinct vertex".to_owned(),
        n => format!("{n} distinct vertices"),
    }
}

/// Checks the repairable-input rules of one ring: finite, at least three distinct consecutive
/// vertices, not all on one line.
pub fn check_ring(ring: &[Vec2]) -> Result<(), RingFault> {
    if let Some(vertex) = ring.iter().position(|p| !p.is_finite()) {
        return Err(RingFault::NonFinite { vertex });
    }
    let distinct = crate::geom::dedup_ring(ring.to_vec());
    if distinct.len() < 3 {
        return Err(RingFault::TooFewVertices {
            count: distinct.len(),
        });
    }
    let (a, b) = (distinct[0], distinct[1]);
    if distinct[2..]
        .iter()
        .all(|&c| crate::geom::orient(a, b, c).is_collinear())
    {
        return Err(RingFault::ZeroArea);
    }
    Ok(())
}

/// Why a scene cannot be used; each variant names the obstacle (and vertex) at fault.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SceneError {
    /// The bounds are not finite or have no area.
    #[error("the bounds {min} – {max} must be finite with min < max on both axes")]
    BadBounds {
        /// The given min corner.
        min: Vec2,
        /// The given max corner.
        max: Vec2,
    },
    /// A coordinate is NaN or infinite.
    #[error("obstacle {obstacle}, vertex {vertex}: coordinate is not a finite number")]
    NonFinite {
        /// Obstacle index.
        obstacle: usize,
        /// Vertex index in the obstacle.
        vertex: usize,
    },
    /// Fewer than three distinct vertices once repeated consecutive vertices are dropped.
    #[error(
        "obstacle {obstacle} has {}; a polygon needs at least 3",
        distinct_vertices(*count)
    )]
    TooFewVertices {
        /// Obstacle index.
        obstacle: usize,
        /// How many distinct vertices remain.
        count: usize,
    },
    /// Two consecutive vertices are equal.
    #[error("obstacle {obstacle}: vertex {vertex} repeats the vertex before it")]
    DuplicateVertex {
        /// Obstacle index.
        obstacle: usize,
        /// Vertex index in the obstacle.
        vertex: usize,
    },
    /// All vertices on one line.
    #[error("obstacle {obstacle} has zero area")]
    ZeroArea {
        /// Obstacle index.
        obstacle: usize,
    },
    /// Two edges of the ring cross or touch.
    #[error("obstacle {obstacle} intersects itself: edge {first} meets edge {second}")]
    SelfIntersecting {
        /// Obstacle index.
        obstacle: usize,
        /// First edge (from vertex `first` to the next).
        first: usize,
        /// Second edge.
        second: usize,
    },
    /// A vertex lies outside the bounds.
    #[error("obstacle {obstacle}, vertex {vertex} at {point} lies outside the bounds")]
    OutsideBounds {
        /// Obstacle index.
        obstacle: usize,
        /// Vertex index in the obstacle.
        vertex: usize,
        /// The point.
        point: Vec2,
    },
    /// The boundary polygon cannot be used.
    #[error("the boundary polygon is invalid: {0}")]
    Boundary(RingFault),
    /// A hole ring cannot be used.
    #[error("hole {hole} (of obstacle {obstacle}) is invalid: {fault}")]
    Hole {
        /// Hole index in [`Scene::holes`].
        hole: usize,
        /// The obstacle it belongs to.
        obstacle: usize,
        /// What is wrong.
        fault: RingFault,
    },
    /// A hole names an obstacle that does not exist.
    #[error("hole {hole} names obstacle {obstacle}, but there are only {count} obstacles")]
    HoleWithoutObstacle {
        /// Hole index in [`Scene::holes`].
        hole: usize,
        /// The obstacle index it names.
        obstacle: usize,
        /// How many obstacles there are.
        count: usize,
    },
}

impl Scene {
    /// A scene with no obstacles.
    pub fn new(bounds: Aabb) -> Scene {
        Scene {
            bounds,
            boundary: None,
            obstacles: Vec::new(),
            holes: Vec::new(),
        }
    }

    /// Adds an obstacle (builder style).
    pub fn with_obstacle(mut self, ring: impl IntoIterator<Item = impl Into<Vec2>>) -> Scene {
        self.obstacles
            .push(ring.into_iter().map(Into::into).collect());
        self
    }

    /// Sets the outer walkable polygon (builder style).
    pub fn with_boundary(mut self, ring: impl IntoIterator<Item = impl Into<Vec2>>) -> Scene {
        self.boundary = Some(ring.into_iter().map(Into::into).collect());
        self
    }

    /// Adds a walkable hole to obstacle `obstacle` (builder style).
    pub fn with_hole(
        mut self,
        obstacle: usize,
        ring: impl IntoIterator<Item = impl Into<Vec2>>,
    ) -> Scene {
        self.holes.push(Hole {
            obstacle,
            ring: ring.into_iter().map(Into::into).collect(),
        });
        self
    }

    /// Checks what every builder needs: finite, non-degenerate bounds, and rings (obstacles,
    /// holes, boundary) that can be repaired into polygons: finite coordinates, at least three
    /// distinct vertices, not all on one line (see [`check_ring`]). Overlaps, self-intersections
    /// and vertices outside the bounds are allowed: the CDT builder unions and clips them.
    pub fn validate(&self) -> Result<(), SceneError> {
        self.check_bounds()?;
        for (oi, ring) in self.obstacles.iter().enumerate() {
            check_ring(ring).map_err(|f| match f {
                RingFault::NonFinite { vertex } => SceneError::NonFinite {
                    obstacle: oi,
                    vertex,
                },
                RingFault::TooFewVertices { count } => SceneError::TooFewVertices {
                    obstacle: oi,
                    count,
                },
                RingFault::ZeroArea => SceneError::ZeroArea { obstacle: oi },
            })?;
        }
        if let Some(b) = &self.boundary {
            check_ring(b).map_err(SceneError::Boundary)?;
        }
        for (hi, h) in self.holes.iter().enumerate() {
            if h.obstacle >= self.obstacles.len() {
                return Err(SceneError::HoleWithoutObstacle {
                    hole: hi,
                    obstacle: h.obstacle,
                    count: self.obstacles.len(),
                });
            }
            check_ring(&h.ring).map_err(|fault| SceneError::Hole {
                hole: hi,
                obstacle: h.obstacle,
                fault,
            })?;
        }
        Ok(())
    }

    fn check_bounds(&self) -> Result<(), SceneError> {
        let b = self.bounds;
        if !(b.min.is_finite() && b.max.is_finite() && b.min.x < b.max.x && b.min.y < b.max.y) {
            return Err(SceneError::BadBounds {
                min: b.min,
                max: b.max,
            });
        }
        Ok(())
    }

    /// The stricter check of the chapter's trapezoid decomposition: finite, non-degenerate
    /// bounds; obstacles that are simple polygons (≥ 3 vertices, no repeated consecutive vertex,
    /// non-zero area, no self-intersection) lying inside the bounds. (Boundary polygons and holes
    /// are checked by [`Scene::validate`]; the trapezoid builder rejects them separately.)
    pub fn validate_simple(&self) -> Result<(), SceneError> {
        self.validate()?;
        let b = self.bounds;
        for (oi, ring) in self.obstacles.iter().enumerate() {
            if let Some(vi) = ring.iter().position(|p| !p.is_finite()) {
                return Err(SceneError::NonFinite {
                    obstacle: oi,
                    vertex: vi,
                });
            }
            if let Some(vi) = ring.iter().position(|p| !b.contains(*p)) {
                return Err(SceneError::OutsideBounds {
                    obstacle: oi,
                    vertex: vi,
                    point: ring[vi],
                });
            }
            polygon_is_simple(ring).map_err(|e| match e {
                SimplicityError::TooFewVertices => SceneError::TooFewVertices {
                    obstacle: oi,
                    count: crate::geom::dedup_ring(ring.clone()).len(),
                },
                SimplicityError::DuplicateVertex { index } => SceneError::DuplicateVertex {
                    obstacle: oi,
                    vertex: (index + 1) % ring.len(),
                },
                SimplicityError::ZeroArea => SceneError::ZeroArea { obstacle: oi },
                SimplicityError::SelfIntersection { first, second } => {
                    SceneError::SelfIntersecting {
                        obstacle: oi,
                        first,
                        second,
                    }
                }
            })?;
        }
        Ok(())
    }

    /// The total area of the obstacles (assuming they do not overlap).
    pub fn obstacle_area(&self) -> f64 {
        self.obstacles
            .iter()
            .map(|o| crate::geom::signed_area(o).abs())
            .sum()
    }

    /// The built-in default map: 800 × 450 with convex obstacles, in the spirit of the chapter's
    /// figure 1.8. Its trapezoid decomposition has about 32 polygons, and on the default query
    /// ([`Scene::DEFAULT_START`] → [`Scene::DEFAULT_GOAL`]) the portal-midpoint polyline is about
    /// 1.8 times as long as the funnel path (the chapter: 1351 vs 741).
    pub fn default_map() -> Scene {
        let mut s = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(800.0, 450.0)));
        for ring in DEFAULT_OBSTACLES {
            s = s.with_obstacle(ring.iter().map(|&(x, y)| Vec2::new(x, y)));
        }
        s
    }

    /// Start of the default query on [`Scene::default_map`].
    pub const DEFAULT_START: Vec2 = Vec2::new(40.0, 60.0);
    /// Goal of the default query on [`Scene::default_map`].
    pub const DEFAULT_GOAL: Vec2 = Vec2::new(760.0, 390.0);
}

const DEFAULT_OBSTACLES: &[&[(f64, f64)]] = &[
    &[(7.0, 112.0), (160.0, 85.0), (132.0, 263.0)],
    &[(318.0, 0.0), (401.0, 0.0), (384.0, 252.0), (301.0, 249.0)],
    &[
        (159.0, 150.0),
        (262.0, 118.0),
        (293.0, 288.0),
        (244.0, 294.0),
    ],
    &[
        (120.0, 344.0),
        (297.0, 365.0),
        (279.0, 450.0),
        (101.0, 450.0),
    ],
    &[(668.0, 0.0), (739.0, 0.0), (700.0, 240.0), (628.0, 232.0)],
    &[(424.0, 0.0), (572.0, 0.0), (564.0, 89.0), (496.0, 93.0)],
    &[
        (322.0, 280.0),
        (551.0, 330.0),
        (510.0, 450.0),
        (280.0, 450.0),
    ],
];

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Scene {
        Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(10.0, 10.0)))
    }

    #[test]
    fn default_map_is_valid() {
        Scene::default_map().validate().unwrap();
    }

    #[test]
    fn each_bad_input_is_named() {
        let s = base().with_obstacle([(1.0, 1.0), (2.0, 1.0), (f64::NAN, 2.0)]);
        assert_eq!(
            s.validate(),
            Err(SceneError::NonFinite {
                obstacle: 0,
                vertex: 2
            })
        );
        let s = base()
            .with_obstacle([(1.0, 1.0), (2.0, 1.0), (2.0, 2.0)])
            .with_obstacle([(1.0, 1.0), (2.0, 1.0)]);
        assert_eq!(
            s.validate(),
            Err(SceneError::TooFewVertices {
                obstacle: 1,
                count: 2
            })
        );
        let s = base().with_obstacle([(1.0, 1.0), (2.0, 2.0), (3.0, 3.0)]);
        assert_eq!(s.validate(), Err(SceneError::ZeroArea { obstacle: 0 }));
        // Repairable input passes the general check but not the trapezoid's strict one.
        let s = base().with_obstacle([(1.0, 1.0), (3.0, 3.0), (3.0, 1.0), (1.0, 3.0)]);
        assert_eq!(s.validate(), Ok(()));
        assert!(matches!(
            s.validate_simple(),
            Err(SceneError::SelfIntersecting { obstacle: 0, .. })
        ));
        let s = base().with_obstacle([(1.0, 1.0), (1.0, 1.0), (3.0, 1.0), (1.0, 3.0)]);
        assert_eq!(s.validate(), Ok(()));
        assert_eq!(
            s.validate_simple(),
            Err(SceneError::DuplicateVertex {
                obstacle: 0,
                vertex: 1
            })
        );
        let s = base().with_obstacle([(1.0, 1.0), (11.0, 1.0), (1.0, 3.0)]);
        assert_eq!(s.validate(), Ok(()));
        assert!(matches!(
            s.validate_simple(),
            Err(SceneError::OutsideBounds {
                obstacle: 0,
                vertex: 1,
                ..
            })
        ));
        // Repeated vertices do not count towards the three a polygon needs, and the message
        // says so (it once read "has 1 vertices" for three equal points).
        let s = base().with_obstacle([(1.0, 1.0), (2.0, 1.0), (2.0, 1.0), (1.0, 1.0)]);
        assert_eq!(
            s.validate(),
            Err(SceneError::TooFewVertices {
                obstacle: 0,
                count: 2
            })
        );
        let s = base().with_obstacle([(1.0, 1.0), (1.0, 1.0), (1.0, 1.0)]);
        let e = s.validate().unwrap_err();
        assert_eq!(
            e.to_string(),
            "obstacle 0 has 1 distinct vertex; a polygon needs at least 3"
        );
        // Boundary and holes are named as such.
        let s = base().with_boundary([(0.0, 0.0), (5.0, 5.0), (10.0, 10.0)]);
        assert_eq!(s.validate(), Err(SceneError::Boundary(RingFault::ZeroArea)));
        let s = base().with_boundary([(0.0, 0.0), (f64::INFINITY, 5.0), (10.0, 10.0)]);
        assert_eq!(
            s.validate(),
            Err(SceneError::Boundary(RingFault::NonFinite { vertex: 1 }))
        );
        let s = base()
            .with_obstacle([(1.0, 1.0), (5.0, 1.0), (5.0, 5.0)])
            .with_hole(0, [(2.0, 1.5), (4.0, 1.5)]);
        assert_eq!(
            s.validate(),
            Err(SceneError::Hole {
                hole: 0,
                obstacle: 0,
                fault: RingFault::TooFewVertices { count: 2 }
            })
        );
        let s = base().with_hole(3, [(2.0, 1.5), (4.0, 1.5), (4.0, 2.0)]);
        assert_eq!(
            s.validate(),
            Err(SceneError::HoleWithoutObstacle {
                hole: 0,
                obstacle: 3,
                count: 0
            })
        );
        let s = Scene::new(Aabb {
            min: Vec2::new(0.0, 0.0),
            max: Vec2::new(0.0, 5.0),
        });
        assert!(matches!(s.validate(), Err(SceneError::BadBounds { .. })));
    }

    /// Issue 16, item 9: `"obstaclez"` was ignored and the scene read as an empty map. Unknown
    /// fields, at any level of the scene, are errors naming the field and its position.
    #[test]
    fn unknown_fields_are_errors() {
        for (text, field) in [
            (
                r#"{"bounds": {"min": [0, 0], "max": [10, 10]}, "obstaclez": []}"#,
                "obstaclez",
            ),
            (
                r#"{"bounds": {"min": [0, 0], "max": [10, 10], "mid": [5, 5]}}"#,
                "mid",
            ),
            (
                r#"{"bounds": {"min": [0, 0], "max": [10, 10]},
                    "obstacles": [[[1,1],[4,1],[4,4]]],
                    "holes": [{"obstacle": 0, "ring": [], "solid": true}]}"#,
                "solid",
            ),
        ] {
            let err = Scene::from_json_reader(text.as_bytes()).unwrap_err();
            let msg = err.to_string();
            assert!(msg.contains(&format!("unknown field `{field}`")), "{msg}");
            assert!(msg.starts_with("line "), "{msg}");
        }
    }
}
