//! Conversions between [`Vec2`](crate::Vec2) and the point types of game engines and graphics crates, behind
//! optional cargo features.
//!
//! - `mint`: `Vec2` ↔ `mint::Vector2<f64>` and `mint::Point2<f64>` (the interchange types most
//!   math crates convert to and from), and from their `f32` forms.
//! - `glam`: `Vec2` ↔ `glam::DVec2`, and from `glam::Vec2` (f32, Bevy's type);
//!   [`Vec2::to_glam_f32`](crate::Vec2::to_glam_f32) goes back to f32, rounding.
//!
//! Every `From` is exact: f64 to f64, or f32 widened to f64. The one narrowing conversion is a
//! named method, so that a rounding never hides behind `.into()`.
//!
//! ```
//! # #[cfg(all(feature = "mint", feature = "glam"))] {
//! use portolan::Vec2;
//! let p: Vec2 = glam::Vec2::new(1.5, -2.0).into(); // e.g. a Bevy Transform's x and y
//! let back: glam::DVec2 = p.into();
//! assert_eq!(back, glam::DVec2::new(1.5, -2.0));
//! let m: mint::Point2<f64> = p.into();
//! assert_eq!(Vec2::from(m), p);
//! # }
//! ```

#[cfg(feature = "mint")]
mod mint_impls {
    use crate::geom::Vec2;

    impl From<mint::Vector2<f64>> for Vec2 {
        fn from(v: mint::Vector2<f64>) -> Vec2 {
            Vec2::new(v.x, v.y)
        }
    }

    impl From<Vec2> for mint::Vector2<f64> {
        fn from(v: Vec2) -> mint::Vector2<f64> {
            mint::Vector2 { x: v.x, y: v.y }
        }
    }

    impl From<mint::Point2<f64>> for Vec2 {
        fn from(p: mint::Point2<f64>) -> Vec2 {
            Vec2::new(p.x, p.y)
        }
    }

    impl From<Vec2> for mint::Point2<f64> {
        fn from(v: Vec2) -> mint::Point2<f64> {
            mint::Point2 { x: v.x, y: v.y }
        }
    }

    /// Widening: every f32 is an f64.
    impl From<mint::Vector2<f32>> for Vec2 {
        fn from(v: mint::Vector2<f32>) -> Vec2 {
            Vec2::new(f64::from(v.x), f64::from(v.y))
        }
    }

    /// Widening: every f32 is an f64.
    impl From<mint::Point2<f32>> for Vec2 {
        fn from(p: mint::Point2<f32>) -> Vec2 {
            Vec2::new(f64::from(p.x), f64::from(p.y))
        }
    }
}

#[cfg(feature = "glam")]
mod glam_impls {
    use crate::geom::Vec2;

    impl From<glam::DVec2> for Vec2 {
        fn from(v: glam::DVec2) -> Vec2 {
            Vec2::new(v.x, v.y)
        }
    }

    impl From<Vec2> for glam::DVec2 {
        fn from(v: Vec2) -> glam::DVec2 {
            glam::DVec2::new(v.x, v.y)
        }
    }

    /// Widening: every f32 is an f64.
    impl From<glam::Vec2> for Vec2 {
        fn from(v: glam::Vec2) -> Vec2 {
            Vec2::new(f64::from(v.x), f64::from(v.y))
        }
    }

    impl Vec2 {
        /// This point as glam's f32 `Vec2` (Bevy's type), each coordinate rounded to the nearest
        /// f32. Not a `From`: it loses precision.
        #[allow(clippy::cast_possible_truncation)] // the rounding is the point of the method
        pub fn to_glam_f32(self) -> glam::Vec2 {
            glam::Vec2::new(self.x as f32, self.y as f32)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::geom::Vec2;

    #[cfg(feature = "mint")]
    #[test]
    fn mint_round_trips_exactly() {
        let p = Vec2::new(0.1, -3.0e300);
        let v: mint::Vector2<f64> = p.into();
        assert_eq!((v.x, v.y), (0.1, -3.0e300));
        assert_eq!(Vec2::from(v), p);
        let q: mint::Point2<f64> = p.into();
        assert_eq!(Vec2::from(q), p);
        let small = mint::Vector2 {
            x: 0.1f32,
            y: 2.5f32,
        };
        assert_eq!(Vec2::from(small), Vec2::new(f64::from(0.1f32), 2.5));
        let small = mint::Point2 {
            x: -1.0f32,
            y: 7.0f32,
        };
        assert_eq!(Vec2::from(small), Vec2::new(-1.0, 7.0));
    }

    #[cfg(feature = "glam")]
    #[test]
    fn glam_round_trips_exactly_and_rounds_only_when_asked() {
        let p = Vec2::new(0.1, -3.0e300);
        let d: glam::DVec2 = p.into();
        assert_eq!(d, glam::DVec2::new(0.1, -3.0e300));
        assert_eq!(Vec2::from(d), p);
        let f = glam::Vec2::new(0.1, 2.5);
        let wide = Vec2::from(f);
        assert_eq!(wide, Vec2::new(f64::from(0.1f32), 2.5));
        assert_eq!(wide.to_glam_f32(), f);
        assert_eq!(
            Vec2::new(0.1, 1e300).to_glam_f32(),
            glam::Vec2::new(0.1, f32::INFINITY)
        );
    }

    /// A path found on a mesh, handed to an engine: the conversions compose with the library's
    /// own types.
    #[cfg(all(feature = "mint", feature = "glam"))]
    #[test]
    fn engine_points_go_into_a_query_and_come_back() {
        use crate::{build, BuildOptions, PathFinder, Scene, SearchOptions};
        let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
        let start = glam::Vec2::new(40.0, 60.0);
        let goal = mint::Point2 { x: 760.0, y: 390.0 };
        let path = PathFinder::new()
            .find_path(&mesh, start.into(), goal.into(), &SearchOptions::default())
            .unwrap();
        let waypoints: Vec<glam::DVec2> = path.points.iter().map(|&p| p.into()).collect();
        assert_eq!(waypoints[0], glam::DVec2::new(40.0, 60.0));
        assert_eq!(waypoints.last().map(|p| p.x), Some(760.0));
    }
}
