//! The input of mesh building: a walkable rectangle and the obstacles in it.
//!
//! # JSON format
//! ```json
//! {
//!   "bounds": { "min": [0, 0], "max": [800, 450] },
//!   "obstacles": [
//!     [[100, 100], [200, 100], [150, 180]],
//!     [[300, 50], [380, 50], [380, 300], [300, 300]]
//!   ]
//! }
//! ```
//! Obstacles are closed rings of `[x, y]` points in either orientation (the first point is not
//! repeated at the end). Coordinates are `f64`; see [`geom`](crate::geom) for the axis convention.
//! [`Scene::validate`] checks what every mesh builder needs; each builder checks its own extra
//! requirements (the trapezoid decomposition, for instance, wants convex obstacles that do not
//! overlap).

use crate::geom::{polygon_is_simple, Aabb, SimplicityError, Vec2};
use serde::{Deserialize, Serialize};

/// A map to build a navigation mesh from: the walkable rectangle minus the obstacles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scene {
    /// The walkable rectangle.
    pub bounds: Aabb,
    /// Obstacle polygons (closed rings, either orientation).
    #[serde(default)]
    pub obstacles: Vec<Vec<Vec2>>,
}

/// Why a scene cannot be used; each variant names the obstacle (and vertex) at fault.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
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
    /// Fewer than three vertices.
    #[error("obstacle {obstacle} has {count} vertices; a polygon needs at least 3")]
    TooFewVertices {
        /// Obstacle index.
        obstacle: usize,
        /// How many it has.
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
}

impl Scene {
    /// A scene with no obstacles.
    pub fn new(bounds: Aabb) -> Scene {
        Scene {
            bounds,
            obstacles: Vec::new(),
        }
    }

    /// Adds an obstacle (builder style).
    pub fn with_obstacle(mut self, ring: impl IntoIterator<Item = impl Into<Vec2>>) -> Scene {
        self.obstacles
            .push(ring.into_iter().map(Into::into).collect());
        self
    }

    /// Parses the JSON format above from a reader and validates it.
    pub fn from_json_reader(r: impl std::io::Read) -> Result<Scene, crate::io::ReadError> {
        let scene: Scene = serde_json::from_reader(r).map_err(crate::io::ReadError::from_json)?;
        scene.validate()?;
        Ok(scene)
    }

    /// Checks what every builder needs: finite, non-degenerate bounds; obstacles that are simple
    /// polygons (≥ 3 vertices, no repeated consecutive vertex, non-zero area, no self-intersection)
    /// lying inside the bounds.
    pub fn validate(&self) -> Result<(), SceneError> {
        let b = self.bounds;
        if !(b.min.is_finite() && b.max.is_finite() && b.min.x < b.max.x && b.min.y < b.max.y) {
            return Err(SceneError::BadBounds {
                min: b.min,
                max: b.max,
            });
        }
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
                    count: ring.len(),
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
        let s = base().with_obstacle([(1.0, 1.0), (3.0, 3.0), (3.0, 1.0), (1.0, 3.0)]);
        assert!(matches!(
            s.validate(),
            Err(SceneError::SelfIntersecting { obstacle: 0, .. })
        ));
        let s = base().with_obstacle([(1.0, 1.0), (1.0, 1.0), (3.0, 1.0), (1.0, 3.0)]);
        assert_eq!(
            s.validate(),
            Err(SceneError::DuplicateVertex {
                obstacle: 0,
                vertex: 1
            })
        );
        let s = base().with_obstacle([(1.0, 1.0), (11.0, 1.0), (1.0, 3.0)]);
        assert!(matches!(
            s.validate(),
            Err(SceneError::OutsideBounds {
                obstacle: 0,
                vertex: 1,
                ..
            })
        ));
        let s = Scene::new(Aabb {
            min: Vec2::new(0.0, 0.0),
            max: Vec2::new(0.0, 5.0),
        });
        assert!(matches!(s.validate(), Err(SceneError::BadBounds { .. })));
    }

    #[test]
    fn json_reader_reports_bad_files() {
        let ok =
            r#"{"bounds": {"min": [0, 0], "max": [10, 10]}, "obstacles": [[[1,1],[2,1],[2,2]]]}"#;
        assert_eq!(
            Scene::from_json_reader(ok.as_bytes())
                .unwrap()
                .obstacles
                .len(),
            1
        );
        let bad =
            r#"{"bounds": {"min": [0, 0], "max": [10, 10]}, "obstacles": [[[1,1],[2,1],[2,2]]"#;
        let err = Scene::from_json_reader(bad.as_bytes()).unwrap_err();
        assert!(err.to_string().contains("line 1"), "{err}");
        let invalid =
            r#"{"bounds": {"min": [0, 0], "max": [10, 10]}, "obstacles": [[[1,1],[2,1]]]}"#;
        let err = Scene::from_json_reader(invalid.as_bytes()).unwrap_err();
        assert!(err.to_string().contains("obstacle 0"), "{err}");
    }
}
