use serde::{Deserialize, Serialize};
use std::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};

/// A point or vector in the plane, in `f64`.
///
/// Serialises as a two-element array `[x, y]`, the form used by every JSON format of Portolan.
#[derive(Copy, Clone, Debug, Default, PartialEq, PartialOrd)]
pub struct Vec2 {
    /// The x coordinate (grows to the right).
    pub x: f64,
    /// The y coordinate (grows up in Portolan's convention; see the [module docs](super)).
    pub y: f64,
}

impl Vec2 {
    /// The origin.
    pub const ZERO: Vec2 = Vec2 { x: 0.0, y: 0.0 };

    /// A new point.
    #[inline]
    pub const fn new(x: f64, y: f64) -> Vec2 {
        Vec2 { x, y }
    }
    /// Dot product.
    #[inline]
    pub fn dot(self, o: Vec2) -> f64 {
        self.x * o.x + self.y * o.y
    }
    /// The z component of the 3D cross product (positive when `o` is counter-clockwise of `self`).
    #[inline]
    pub fn cross(self, o: Vec2) -> f64 {
        self.x * o.y - self.y * o.x
    }
    /// Euclidean length.
    #[inline]
    pub fn length(self) -> f64 {
        self.x.hypot(self.y)
    }
    /// Squared length.
    #[inline]
    pub fn length_squared(self) -> f64 {
        self.dot(self)
    }
    /// Euclidean distance to `o`.
    #[inline]
    pub fn distance(self, o: Vec2) -> f64 {
        (self - o).length()
    }
    /// This vector scaled to length 1, or `None` for the zero vector.
    #[inline]
    pub fn normalized(self) -> Option<Vec2> {
        let len = self.length();
        (len > 0.0 && len.is_finite()).then(|| self / len)
    }
    /// The vector rotated a quarter turn counter-clockwise: `(-y, x)`.
    #[inline]
    pub fn perp(self) -> Vec2 {
        Vec2::new(-self.y, self.x)
    }
    /// `self + (o - self) * t`.
    #[inline]
    pub fn lerp(self, o: Vec2, t: f64) -> Vec2 {
        self + (o - self) * t
    }
    /// Both coordinates are finite (not NaN, not infinite).
    #[inline]
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }
}

impl Add for Vec2 {
    type Output = Vec2;
    #[inline]
    fn add(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}
impl AddAssign for Vec2 {
    #[inline]
    fn add_assign(&mut self, o: Vec2) {
        *self = *self + o;
    }
}
impl Sub for Vec2 {
    type Output = Vec2;
    #[inline]
    fn sub(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x - o.x, self.y - o.y)
    }
}
impl SubAssign for Vec2 {
    #[inline]
    fn sub_assign(&mut self, o: Vec2) {
        *self = *self - o;
    }
}
impl Mul<f64> for Vec2 {
    type Output = Vec2;
    #[inline]
    fn mul(self, s: f64) -> Vec2 {
        Vec2::new(self.x * s, self.y * s)
    }
}
impl Div<f64> for Vec2 {
    type Output = Vec2;
    #[inline]
    fn div(self, s: f64) -> Vec2 {
        Vec2::new(self.x / s, self.y / s)
    }
}
impl Neg for Vec2 {
    type Output = Vec2;
    #[inline]
    fn neg(self) -> Vec2 {
        Vec2::new(-self.x, -self.y)
    }
}
impl From<[f64; 2]> for Vec2 {
    #[inline]
    fn from(a: [f64; 2]) -> Vec2 {
        Vec2::new(a[0], a[1])
    }
}
impl From<(f64, f64)> for Vec2 {
    #[inline]
    fn from(a: (f64, f64)) -> Vec2 {
        Vec2::new(a.0, a.1)
    }
}
impl From<Vec2> for [f64; 2] {
    #[inline]
    fn from(v: Vec2) -> [f64; 2] {
        [v.x, v.y]
    }
}

impl Serialize for Vec2 {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        [self.x, self.y].serialize(s)
    }
}
impl<'de> Deserialize<'de> for Vec2 {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Vec2, D::Error> {
        let [x, y] = <[f64; 2]>::deserialize(d)?;
        Ok(Vec2::new(x, y))
    }
}

impl std::fmt::Display for Vec2 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// An axis-aligned rectangle `[min, max]`.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Aabb {
    /// The corner with the smallest coordinates.
    pub min: Vec2,
    /// The corner with the largest coordinates.
    pub max: Vec2,
}

impl Aabb {
    /// A rectangle from two corners (in any order).
    pub fn new(a: Vec2, b: Vec2) -> Aabb {
        Aabb {
            min: Vec2::new(a.x.min(b.x), a.y.min(b.y)),
            max: Vec2::new(a.x.max(b.x), a.y.max(b.y)),
        }
    }
    /// The smallest rectangle holding every point, or `None` for no points.
    pub fn from_points(pts: impl IntoIterator<Item = Vec2>) -> Option<Aabb> {
        let mut it = pts.into_iter();
        let first = it.next()?;
        let mut b = Aabb {
            min: first,
            max: first,
        };
        for p in it {
            b.include(p);
        }
        Some(b)
    }
    /// Grows the rectangle to hold `p`.
    pub fn include(&mut self, p: Vec2) {
        self.min.x = self.min.x.min(p.x);
        self.min.y = self.min.y.min(p.y);
        self.max.x = self.max.x.max(p.x);
        self.max.y = self.max.y.max(p.y);
    }
    /// `true` when `p` is inside or on the border.
    pub fn contains(&self, p: Vec2) -> bool {
        p.x >= self.min.x && p.x <= self.max.x && p.y >= self.min.y && p.y <= self.max.y
    }
    /// Width and height.
    pub fn size(&self) -> Vec2 {
        self.max - self.min
    }
    /// Area.
    pub fn area(&self) -> f64 {
        let s = self.size();
        s.x * s.y
    }
    /// The four corners, counter-clockwise from `min`.
    pub fn corners(&self) -> [Vec2; 4] {
        [
            self.min,
            Vec2::new(self.max.x, self.min.y),
            self.max,
            Vec2::new(self.min.x, self.max.y),
        ]
    }
}

/// Euclidean distance with a plain square root. `f64::hypot` (which [`Vec2::length`] uses)
/// guards against overflow when squaring coordinates beyond about 1e154, at several times the
/// cost; mesh and crowd coordinates are far from there, and hot loops (the searches, the crowd
/// step) use this instead.
#[inline]
pub(crate) fn dist(a: Vec2, b: Vec2) -> f64 {
    norm(a - b)
}

/// Euclidean length with a plain square root (see [`dist`]).
#[inline]
pub(crate) fn norm(v: Vec2) -> f64 {
    v.length_squared().sqrt()
}

/// [`norm`] where the square is a normal number, `f64::hypot` where it is not (zero, subnormal
/// or overflowing): the plain square root's speed, with the length right to an ulp or two for
/// any finite vector.
#[inline]
pub(crate) fn norm_guarded(v: Vec2) -> f64 {
    let squared = v.length_squared();
    if squared.is_normal() {
        squared.sqrt()
    } else {
        v.x.hypot(v.y)
    }
}
