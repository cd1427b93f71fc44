//! The Polyanya `.poly` obstacle format (version 1).
//!
//! ```text
//! poly
//! 1
//! 2                          ← number of polygons
//! 4 0 0 10 0 10 10 0 10      ← M, then M points x y
//! 3 2 2 4 2 3 4
//! ```
//! Numbers are separated by any whitespace. The walkable area is the symmetric difference of all
//! the polygons (usually the first is the map's outline and the others obstacles inside it; an
//! obstacle inside an obstacle is walkable again).
//!
//! [`PolyMap::to_scene`] turns that into a [`Scene`]: the bounds are the box around all points and
//! the obstacles are the parts of the box that are not walkable, with holes where needed, found
//! with one even-odd overlay.
//!
//! ```
//! use portolan::io::poly::read_poly;
//! let text = "poly\n1\n2\n4 0 0 10 0 10 10 0 10\n3 2 2 4 2 3 4\n";
//! let scene = read_poly(text.as_bytes()).unwrap().to_scene().unwrap();
//! assert_eq!(scene.obstacles.len(), 1);
//! ```

use super::{words, ReadError};
use crate::build::BuildError;
use crate::geom::{Aabb, Vec2};
use crate::scene::{Hole, Scene};
use std::io::Read;

/// The polygons of a `.poly` file.
#[derive(Clone, Debug, PartialEq)]
pub struct PolyMap {
    /// The polygons, as given.
    pub polygons: Vec<Vec<Vec2>>,
}

impl PolyMap {
    /// The scene whose walkable region is the symmetric difference of the polygons.
    pub fn to_scene(&self) -> Result<Scene, BuildError> {
        let bounds = Aabb::from_points(self.polygons.iter().flatten().copied())
            .ok_or(BuildError::NoWalkableSpace)?;
        let mut scene = Scene::new(bounds);
        if !(bounds.min.x < bounds.max.x && bounds.min.y < bounds.max.y) {
            return Err(BuildError::NoWalkableSpace);
        }
        let solid = crate::build::free_space::complement_of_even_odd(bounds, &self.polygons)?;
        for shape in solid {
            let obstacle = scene.obstacles.len();
            let mut rings = shape.into_iter();
            let Some(outer) = rings.next() else {
                continue;
            };
            scene.obstacles.push(outer);
            scene
                .holes
                .extend(rings.map(|ring| Hole { obstacle, ring }));
        }
        Ok(scene)
    }
}

/// Reads a `.poly` file (version 1). Errors name the line and column of the offending token.
pub fn read_poly(mut r: impl Read) -> Result<PolyMap, ReadError> {
    let mut text = String::new();
    r.read_to_string(&mut text)?;
    let mut tokens = Tokens::new(&text);
    let (line, column, header) = tokens.next_token("the header \"poly\"")?;
    if header != "poly" {
        return Err(ReadError::syntax(
            line,
            column,
            format!("expected the header \"poly\", found {header:?}"),
        ));
    }
    let version: usize = tokens.number("the version")?;
    if version != 1 {
        let (line, column) = tokens.last;
        return Err(ReadError::syntax(
            line,
            column,
            format!("version {version} is not supported (only 1)"),
        ));
    }
    let count: usize = tokens.number("the number of polygons")?;
    let mut polygons = Vec::with_capacity(count.min(1 << 20));
    for _ in 0..count {
        let m: usize = tokens.number("a polygon's point count")?;
        if m < 3 {
            let (line, column) = tokens.last;
            return Err(ReadError::syntax(
                line,
                column,
                format!("a polygon needs at least 3 points, this one has {m}"),
            ));
        }
        let mut ring = Vec::with_capacity(m.min(1 << 20));
        for _ in 0..m {
            let x: f64 = tokens.number("an x coordinate")?;
            let y: f64 = tokens.number("a y coordinate")?;
            if !(x.is_finite() && y.is_finite()) {
                let (line, column) = tokens.last;
                return Err(ReadError::syntax(
                    line,
                    column,
                    "coordinates must be finite numbers",
                ));
            }
            ring.push(Vec2::new(x, y));
        }
        polygons.push(ring);
    }
    if let Ok((line, column, extra)) = tokens.next_token("") {
        return Err(ReadError::syntax(
            line,
            column,
            format!("unexpected {extra:?} after the last polygon"),
        ));
    }
    Ok(PolyMap { polygons })
}

/// Whitespace-separated tokens with their 1-based line and column.
struct Tokens<'a> {
    lines: std::iter::Peekable<std::iter::Enumerate<std::str::Lines<'a>>>,
    current: Vec<(usize, &'a str)>,
    line: usize,
    last: (usize, usize),
}

impl<'a> Tokens<'a> {
    fn new(text: &'a str) -> Tokens<'a> {
        Tokens {
            lines: text.lines().enumerate().peekable(),
            current: Vec::new(),
            line: 0,
            last: (1, 0),
        }
    }

    fn next_token(&mut self, what: &str) -> Result<(usize, usize, &'a str), ReadError> {
        while self.current.is_empty() {
            let Some((i, l)) = self.lines.next() else {
                return Err(ReadError::syntax(
                    self.line + 1,
                    0,
                    format!("the file ends where {what} was expected"),
                ));
            };
            self.line = i + 1;
            self.current = words(l).collect();
            self.current.reverse();
        }
        let (column, word) = self.current.pop().expect("refilled above");
        self.last = (self.line, column);
        Ok((self.line, column, word))
    }

    fn number<T: std::str::FromStr>(&mut self, what: &str) -> Result<T, ReadError> {
        let (line, column, word) = self.next_token(what)?;
        word.parse().map_err(|_| {
            ReadError::syntax(line, column, format!("expected {what}, found {word:?}"))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::signed_area;

    #[test]
    fn outline_and_obstacles() {
        let text = "poly\n1\n3\n4 0 0 10 0 10 10 0 10\n4 1 1 3 1 3 3 1 3\n4 5 5 8 5 8 8 5 8\n";
        let p = read_poly(text.as_bytes()).unwrap();
        assert_eq!(p.polygons.len(), 3);
        let s = p.to_scene().unwrap();
        assert_eq!(s.bounds, Aabb::new(Vec2::ZERO, Vec2::new(10.0, 10.0)));
        let area: f64 = s.obstacles.iter().map(|o| signed_area(o)).sum();
        assert_eq!(area, 4.0 + 9.0);
    }

    #[test]
    fn nested_polygons_alternate() {
        // Outline, an obstacle, and a walkable island inside the obstacle.
        let text = "poly 1 3\n4 0 0 10 0 10 10 0 10\n4 2 2 8 2 8 8 2 8\n4 4 4 6 4 6 6 4 6";
        let s = read_poly(text.as_bytes()).unwrap().to_scene().unwrap();
        assert_eq!(s.obstacles.len(), 1);
        assert_eq!(s.holes.len(), 1);
        assert_eq!(signed_area(&s.obstacles[0]), 36.0);
        assert_eq!(signed_area(&s.holes[0].ring), -4.0);
    }

    /// Issue 16: a file whose points span a sub-normal box hung `to_scene` (its even-odd overlay
    /// searched for a grid step that had underflowed to 0). Now a range error. Sub-normal points
    /// in a map of ordinary size are rounded to the overlay's grid, as every point is, and the
    /// scene builds.
    #[test]
    fn regression_subnormal_coordinates_are_a_range_error_not_a_hang() {
        for tiny in ["5e-324", "1e-310"] {
            let text = format!("poly\n1\n1\n4 0 0 {tiny} 0 {tiny} {tiny} 0 {tiny}\n");
            let p = read_poly(text.as_bytes()).unwrap();
            let e = p.to_scene().unwrap_err();
            assert!(
                matches!(
                    e,
                    BuildError::CoordinateRange {
                        at: crate::build::CoordinateSite::Overlay,
                        ..
                    }
                ),
                "{e}"
            );
        }
        let text = "poly\n1\n2\n4 0 0 10 0 10 10 0 10\n3 2 2 6 1e-310 4 6\n";
        let s = read_poly(text.as_bytes()).unwrap().to_scene().unwrap();
        assert!(s
            .obstacles
            .iter()
            .flatten()
            .any(|p| *p == Vec2::new(6.0, 0.0)));
        crate::build::build(&s, &crate::build::BuildOptions::cdt())
            .unwrap()
            .check_invariants()
            .unwrap();
    }

    #[test]
    fn bad_files_name_the_place() {
        let e = read_poly("mesh\n1\n".as_bytes()).unwrap_err();
        assert!(e.to_string().contains("line 1, column 1"), "{e}");
        let e = read_poly("poly\n2\n".as_bytes()).unwrap_err();
        assert!(e.to_string().contains("version 2"), "{e}");
        let e = read_poly("poly\n1\n1\n3 0 0 1 0 x 1\n".as_bytes()).unwrap_err();
        assert!(e.to_string().contains("line 4, column 11"), "{e}");
        let e = read_poly("poly\n1\n1\n3 0 0 1 0\n".as_bytes()).unwrap_err();
        assert!(e.to_string().contains("ends"), "{e}");
        let e = read_poly("poly\n1\n1\n2 0 0 1 0\n".as_bytes()).unwrap_err();
        assert!(e.to_string().contains("at least 3"), "{e}");
        let e = read_poly("poly\n1\n1\n3 0 0 1 0 1 1 7\n".as_bytes()).unwrap_err();
        assert!(e.to_string().contains("after the last"), "{e}");
    }
}
