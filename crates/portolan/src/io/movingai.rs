//! MovingAI grid maps (`.map`), turned into scenes with traced obstacle outlines.
//!
//! # Format
//! ```text
//! type octile
//! height 3
//! width 4
//! map
//! ..@.
//! .TT.
//! ....
//! ```
//! `.`, `G` and `S` are passable; `@`, `O`, `T` and `W` are blocked (water is not walkable for a
//! ground agent). The header keys may come in any order; `type` is optional.
//!
//! # Geometry (the GPPC any-angle rules)
//! Cell `(x, y)` (column x, row y, rows counted from the top) is the unit square from `(x, y)` to
//! `(x + 1, y + 1)`: x grows east and y grows **south**, so the scene is in screen coordinates,
//! and query points are cell corners. Outside the map is blocked (the scene's bounds are the map
//! rectangle). A corner where two blocked cells touch only diagonally (a *double corner*) cannot
//! be cut through: the outlines below touch there at one point, so the mesh's polygons on the two
//! free sides share that vertex but no edge, and no path crosses it.
//!
//! # Outlines
//! [`GridMap::to_scene`] does not make one square per cell. It walks the edges between blocked
//! and free cells with the blocked cell on the left, turning left at a double corner (so each
//! outline hugs one 4-connected group of blocked cells), and keeps a vertex only where the
//! direction changes. Each group's outer loop (counter-clockwise) becomes an obstacle and each of
//! its inner loops (clockwise) a [`Hole`] of it. Cost: O(W · H).
//!
//! ```
//! use portolan::io::movingai::read_map;
//! let map = read_map("type octile\nheight 2\nwidth 3\nmap\n.@@\n.@.\n".as_bytes()).unwrap();
//! let scene = map.to_scene();
//! // The three blocked cells make one L-shaped obstacle with six corners.
//! assert_eq!(scene.obstacles.len(), 1);
//! assert_eq!(scene.obstacles[0].len(), 6);
//! ```

use super::ReadError;
use crate::geom::{Aabb, Vec2};
use crate::scene::{Hole, Scene};
use std::io::{BufRead, BufReader, Read};

/// A grid map: `width × height` cells, each blocked or passable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridMap {
    width: usize,
    height: usize,
    /// Row-major, row 0 at the top.
    blocked: Vec<bool>,
}

impl GridMap {
    /// A map from row-major cells (`true` = blocked); `None` when the sizes disagree or a side
    /// is 0 (a map without cells has no space to build a mesh on).
    ///
    /// ```
    /// use portolan::io::movingai::GridMap;
    /// assert!(GridMap::new(2, 1, vec![false, true]).is_some());
    /// assert!(GridMap::new(2, 2, vec![false, true]).is_none());
    /// assert!(GridMap::new(0, 0, vec![]).is_none());
    /// ```
    pub fn new(width: usize, height: usize, blocked: Vec<bool>) -> Option<GridMap> {
        (width > 0 && height > 0 && width.checked_mul(height) == Some(blocked.len())).then_some(
            GridMap {
                width,
                height,
                blocked,
            },
        )
    }
    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }
    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }
    /// Whether cell `(x, y)` is blocked; cells outside the map are.
    pub fn is_blocked(&self, x: i64, y: i64) -> bool {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            return true;
        }
        self.blocked[y as usize * self.width + x as usize]
    }
    /// Number of passable cells.
    pub fn passable_count(&self) -> usize {
        self.blocked.iter().filter(|&&b| !b).count()
    }

    /// The scene of this map: bounds `[0, width] × [0, height]` and the traced outlines of the
    /// blocked cells as obstacles with holes (see the module docs).
    pub fn to_scene(&self) -> Scene {
        let mut scene = Scene::new(Aabb::new(
            Vec2::ZERO,
            Vec2::new(self.width as f64, self.height as f64),
        ));
        let (loops, component_of_loop) = self.trace();
        let mut obstacle_of_component: Vec<Option<usize>> = vec![None; self.blocked.len()];
        let mut holes: Vec<(usize, Vec<Vec2>)> = Vec::new();
        for (ring, comp) in loops.into_iter().zip(component_of_loop) {
            if crate::geom::signed_area(&ring) > 0.0 {
                obstacle_of_component[comp] = Some(scene.obstacles.len());
                scene.obstacles.push(ring);
            } else {
                holes.push((comp, ring));
            }
        }
        for (comp, ring) in holes {
            // Every group has its outer loop; a hole without one cannot occur, and is dropped.
            if let Some(obstacle) = obstacle_of_component[comp] {
                scene.holes.push(Hole { obstacle, ring });
            }
        }
        scene
    }

    /// The outline loops (blocked on the left) and, for each, the 4-connected component (named by
    /// its smallest cell index) of the blocked cells it hugs.
    fn trace(&self) -> (Vec<Vec<Vec2>>, Vec<usize>) {
        let (w, h) = (self.width as i64, self.height as i64);
        // Within the map only: for tracing, outside counts as free so loops close on the border.
        let solid = |x: i64, y: i64| x >= 0 && y >= 0 && x < w && y < h && self.is_blocked(x, y);
        let comp = self.components();
        // Corners (W + 1) × (H + 1); up to two outgoing unit edges each, as direction codes
        // 0 = +x, 1 = +y, 2 = −x, 3 = −y (a quarter turn counter-clockwise adds 1).
        let cw = (w + 1) as usize;
        let corner = |x: i64, y: i64| y as usize * cw + x as usize;
        let mut out: Vec<[u8; 2]> = vec![[u8::MAX; 2]; cw * (h + 1) as usize];
        // The blocked cell on the left of each outgoing edge, for the component label.
        let mut left_cell: Vec<[usize; 2]> = vec![[0; 2]; out.len()];
        let mut add = |x: i64, y: i64, dir: u8, cell: usize| {
            let c = corner(x, y);
            let slot = usize::from(out[c][0] != u8::MAX);
            out[c][slot] = dir;
            left_cell[c][slot] = cell;
        };
        for y in 0..h {
            for x in 0..w {
                if !solid(x, y) {
                    continue;
                }
                let cell = y as usize * self.width + x as usize;
                if !solid(x, y - 1) {
                    add(x, y, 0, cell); // (x, y) → (x+1, y), cell on the +y side
                }
                if !solid(x + 1, y) {
                    add(x + 1, y, 1, cell); // (x+1, y) → (x+1, y+1)
                }
                if !solid(x, y + 1) {
                    add(x + 1, y + 1, 2, cell); // (x+1, y+1) → (x, y+1)
                }
                if !solid(x - 1, y) {
                    add(x, y + 1, 3, cell); // (x, y+1) → (x, y)
                }
            }
        }
        const STEP: [(i64, i64); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
        // Each incoming edge has exactly one successor (the only outgoing edge, or at a double
        // corner the left turn), so the successor map is a permutation and every walk returns to
        // the edge it started from.
        let successor = |c: usize, dir: u8| -> usize {
            match out[c] {
                [_, u8::MAX] => 0,
                [a, _] => usize::from(a != (dir + 1) % 4),
            }
        };
        let mut used: Vec<[bool; 2]> = vec![[false; 2]; out.len()];
        let mut loops = Vec::new();
        let mut comps = Vec::new();
        for y0 in 0..=h {
            for x0 in 0..=w {
                for slot0 in 0..2 {
                    let c0 = corner(x0, y0);
                    if out[c0][slot0] == u8::MAX || used[c0][slot0] {
                        continue;
                    }
                    comps.push(comp[left_cell[c0][slot0]]);
                    let mut ring = Vec::new();
                    let (mut x, mut y, mut slot) = (x0, y0, slot0);
                    let mut prev_dir: Option<u8> = None;
                    loop {
                        let c = corner(x, y);
                        let dir = out[c][slot];
                        used[c][slot] = true;
                        if prev_dir != Some(dir) {
                            ring.push(Vec2::new(x as f64, y as f64));
                        }
                        prev_dir = Some(dir);
                        x += STEP[dir as usize].0;
                        y += STEP[dir as usize].1;
                        slot = successor(corner(x, y), dir);
                        if used[corner(x, y)][slot] {
                            break; // back on the first edge
                        }
                    }
                    // The start corner is mid-edge when the loop comes back into it in the
                    // direction it left.
                    if ring.len() > 2 && prev_dir == Some(out[c0][slot0]) {
                        ring.remove(0);
                    }
                    loops.push(ring);
                }
            }
        }
        (loops, comps)
    }

    /// 4-connected components of blocked cells, each named by its smallest cell index.
    fn components(&self) -> Vec<usize> {
        let n = self.blocked.len();
        let mut label = vec![usize::MAX; n];
        let mut stack = Vec::new();
        for start in 0..n {
            if !self.blocked[start] || label[start] != usize::MAX {
                continue;
            }
            label[start] = start;
            stack.push(start);
            while let Some(c) = stack.pop() {
                let (x, y) = ((c % self.width) as i64, (c / self.width) as i64);
                for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    let (nx, ny) = (x + dx, y + dy);
                    if nx < 0 || ny < 0 || nx >= self.width as i64 || ny >= self.height as i64 {
                        continue;
                    }
                    let nc = ny as usize * self.width + nx as usize;
                    if self.blocked[nc] && label[nc] == usize::MAX {
                        label[nc] = start;
                        stack.push(nc);
                    }
                }
            }
        }
        label
    }
}

/// Writes `map` as a MovingAI `.map` file (`type octile`, `.` free, `@` blocked), which
/// [`read_map`] reads back equal.
///
/// ```
/// use portolan::io::movingai::{read_map, write_map, GridMap};
/// let map = GridMap::new(3, 2, vec![false, true, false, false, false, true]).unwrap();
/// let mut bytes = Vec::new();
/// write_map(&map, &mut bytes).unwrap();
/// assert_eq!(String::from_utf8(bytes.clone()).unwrap(), "type octile\nheight 2\nwidth 3\nmap\n.@.\n..@\n");
/// assert_eq!(read_map(&bytes[..]).unwrap(), map);
/// ```
pub fn write_map(map: &GridMap, mut w: impl std::io::Write) -> std::io::Result<()> {
    write!(
        w,
        "type octile\nheight {}\nwidth {}\nmap\n",
        map.height, map.width
    )?;
    let mut row = Vec::with_capacity(map.width + 1);
    for cells in map.blocked.chunks(map.width.max(1)) {
        row.clear();
        row.extend(cells.iter().map(|&b| if b { b'@' } else { b'.' }));
        row.push(b'\n');
        w.write_all(&row)?;
    }
    Ok(())
}

/// Reads a MovingAI `.map` file.
pub fn read_map(r: impl Read) -> Result<GridMap, ReadError> {
    let mut lines = BufReader::new(r).lines();
    let mut line_no = 0;
    // Each header value with the line it came from: a key given twice is an error, not "the
    // last one wins".
    // (value, line) for width and height; the line of `type`.
    let mut width: Option<(usize, usize)> = None;
    let mut height: Option<(usize, usize)> = None;
    let mut kind: Option<usize> = None;
    loop {
        line_no += 1;
        let Some(line) = lines.next() else {
            return Err(ReadError::syntax(line_no, 0, "missing the \"map\" line"));
        };
        let line = line?;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let mut words = super::words(line);
        let key = words.next().map_or("", |(_, w)| w);
        let value = words.next().map(|(_, w)| w);
        let number = |v: Option<&str>| -> Result<usize, ReadError> {
            v.and_then(|v| v.parse().ok()).ok_or_else(|| {
                ReadError::syntax(
                    line_no,
                    key.len() + 2,
                    format!("{key} needs a whole number"),
                )
            })
        };
        let once = |first: Option<usize>| match first {
            Some(first) => Err(ReadError::syntax(
                line_no,
                1,
                format!("{key} is given twice (first on line {first})"),
            )),
            None => Ok(()),
        };
        if key != "type" && key != "map" {
            if let Some((column, extra)) = words.next() {
                return Err(ReadError::syntax(
                    line_no,
                    column,
                    format!("unexpected {extra:?} after the {key} value"),
                ));
            }
        }
        match key {
            "type" => {
                once(kind)?;
                kind = Some(line_no);
            }
            "height" => {
                once(height.map(|h| h.1))?;
                height = Some((number(value)?, line_no));
            }
            "width" => {
                once(width.map(|w| w.1))?;
                width = Some((number(value)?, line_no));
            }
            "map" => break,
            _ => {
                return Err(ReadError::syntax(
                    line_no,
                    1,
                    format!("unknown header line {line:?}"),
                ))
            }
        }
    }
    let (Some((width, width_line)), Some((height, height_line))) = (width, height) else {
        return Err(ReadError::syntax(
            line_no,
            0,
            "the header needs width and height",
        ));
    };
    // A map without cells has no space to build on; its bounds would be a single point.
    if let Some((side, line)) = [
        ("width", width, width_line),
        ("height", height, height_line),
    ]
    .into_iter()
    .find_map(|(side, n, line)| (n == 0).then_some((side, line)))
    {
        return Err(ReadError::syntax(
            line,
            0,
            format!("a {width} × {height} map has no cells ({side} 0)"),
        ));
    }
    let cells = width
        .checked_mul(height)
        .filter(|&n| n <= 1 << 32)
        .ok_or_else(|| {
            ReadError::syntax(line_no, 0, format!("a {width} × {height} map is too large"))
        })?;
    let mut blocked = Vec::with_capacity(cells);
    for row in 0..height {
        line_no += 1;
        let line = match lines.next() {
            Some(l) => l?,
            None => {
                return Err(ReadError::syntax(
                    line_no,
                    0,
                    format!("expected {height} map rows, found {row}"),
                ))
            }
        };
        let line = line.trim_end_matches(['\r', '\n']);
        let count = line.chars().count();
        if count != width {
            // A row longer than the header's width used to be cropped silently.
            return Err(ReadError::syntax(
                line_no,
                count.min(width) + 1,
                format!("row {row} has {count} cells, but the header says width {width}"),
            ));
        }
        for (col, ch) in line.chars().take(width).enumerate() {
            blocked.push(match ch {
                '.' | 'G' | 'S' => false,
                '@' | 'O' | 'T' | 'W' => true,
                _ => {
                    return Err(ReadError::syntax(
                        line_no,
                        col + 1,
                        format!("unknown terrain {ch:?} (expected one of . G S @ O T W)"),
                    ))
                }
            });
        }
    }
    // Nothing but blank lines may follow the last row: more rows than the header's height
    // used to be ignored.
    for line in lines {
        line_no += 1;
        if !line?.trim().is_empty() {
            return Err(ReadError::syntax(
                line_no,
                1,
                format!("more map rows than the header's height {height}"),
            ));
        }
    }
    Ok(GridMap {
        width,
        height,
        blocked,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::signed_area;

    fn map(rows: &[&str]) -> GridMap {
        let text = format!(
            "type octile\nheight {}\nwidth {}\nmap\n{}\n",
            rows.len(),
            rows[0].len(),
            rows.join("\n")
        );
        read_map(text.as_bytes()).unwrap()
    }

    #[test]
    fn solid_block_is_one_rectangle() {
        let s = map(&["....", ".@@.", ".@@.", "...."]).to_scene();
        assert_eq!(s.obstacles.len(), 1);
        assert_eq!(s.obstacles[0].len(), 4);
        assert_eq!(signed_area(&s.obstacles[0]), 4.0);
        assert!(s.holes.is_empty());
    }

    #[test]
    fn ring_of_cells_has_a_hole() {
        let s = map(&["@@@", "@.@", "@@@"]).to_scene();
        assert_eq!(s.obstacles.len(), 1);
        assert_eq!(signed_area(&s.obstacles[0]), 9.0);
        assert_eq!(s.holes.len(), 1);
        assert_eq!(signed_area(&s.holes[0].ring), -1.0);
    }

    #[test]
    fn double_corners_make_separate_outlines() {
        // Two blocked cells touching only diagonally: two obstacles sharing a corner.
        let s = map(&["@.", ".@"]).to_scene();
        assert_eq!(s.obstacles.len(), 2);
        for o in &s.obstacles {
            assert_eq!(o.len(), 4);
            assert!(o.contains(&Vec2::new(1.0, 1.0)));
        }
    }

    #[test]
    fn total_area_matches_blocked_cells() {
        let rows = [
            "TTTT......",
            "TTT.......",
            "TT....TTT.",
            "T...TTT.T.",
            "T.T.T...T.",
            "TTT.T.T.T.",
            "....T...T.",
            ".TT.TTTTT.",
            ".TT.......",
            "..........",
        ];
        let m = map(&rows);
        let s = m.to_scene();
        let area: f64 = s.obstacles.iter().map(|o| signed_area(o)).sum::<f64>()
            + s.holes.iter().map(|h| signed_area(&h.ring)).sum::<f64>();
        let blocked = rows
            .iter()
            .flat_map(|r| r.chars())
            .filter(|&c| c == 'T')
            .count();
        assert_eq!(area, blocked as f64);
        s.validate().unwrap();
    }

    #[test]
    fn bad_files_name_the_line() {
        let e = read_map("type octile\nheight 2\nwidth 2\nmap\n..\n.x\n".as_bytes()).unwrap_err();
        assert!(e.to_string().contains("line 6, column 2"), "{e}");
        let e = read_map("type octile\nheight 3\nwidth 2\nmap\n..\n..\n".as_bytes()).unwrap_err();
        assert!(e.to_string().contains("expected 3 map rows"), "{e}");
        let e = read_map("type octile\nheight 2\nwidth two\nmap\n".as_bytes()).unwrap_err();
        assert!(e.to_string().contains("line 3"), "{e}");
        let e = read_map("type octile\nheight 1\nwidth 3\nmap\n..\n".as_bytes()).unwrap_err();
        assert!(
            e.to_string()
                .contains("row 0 has 2 cells, but the header says width 3"),
            "{e}"
        );
        let e = read_map("type octile\nheight 1\n".as_bytes()).unwrap_err();
        assert!(e.to_string().contains("map"), "{e}");
    }

    /// Issue 16, item 9: a header smaller than the rows cropped the map, and a repeated key
    /// silently took the last value. Each is now an error naming its line.
    #[test]
    fn headers_must_match_the_rows_and_say_each_thing_once() {
        let err = |text: &str| read_map(text.as_bytes()).unwrap_err().to_string();
        // Rows wider than the width.
        let e = err("type octile\nheight 2\nwidth 2\nmap\n..@\n...\n");
        assert_eq!(
            e,
            "line 5, column 3: row 0 has 3 cells, but the header says width 2"
        );
        // More rows than the height (blank lines after the last row are fine).
        let e = err("type octile\nheight 1\nwidth 2\nmap\n..\n@@\n");
        assert_eq!(
            e,
            "line 6, column 1: more map rows than the header's height 1"
        );
        assert!(read_map("type octile\nheight 1\nwidth 2\nmap\n..\n\n\n".as_bytes()).is_ok());
        // A key given twice.
        let e = err("type octile\nheight 2\nwidth 2\nheight 1\nmap\n..\n");
        assert_eq!(
            e,
            "line 4, column 1: height is given twice (first on line 2)"
        );
        let e = err("type octile\nwidth 2\nheight 1\nwidth 2\nmap\n..\n");
        assert!(e.contains("width is given twice (first on line 2)"), "{e}");
        let e = err("type octile\ntype octile\nheight 1\nwidth 2\nmap\n..\n");
        assert!(e.contains("type is given twice"), "{e}");
        // A value with something after it.
        let e = err("type octile\nheight 1 1\nwidth 2\nmap\n..\n");
        assert_eq!(
            e,
            "line 2, column 10: unexpected \"1\" after the height value"
        );
    }

    /// A map with no cells was read, and its build then refused "the bounds (0, 0) – (0, 0)",
    /// a scene the user never wrote; the reader now names the side that is 0.
    #[test]
    fn a_map_without_cells_is_refused_at_its_zero_side() {
        let err = |text: &str| read_map(text.as_bytes()).unwrap_err().to_string();
        assert_eq!(
            err("type octile\nheight 0\nwidth 0\nmap\n"),
            "line 3: a 0 × 0 map has no cells (width 0)"
        );
        assert_eq!(
            err("type octile\nheight 0\nwidth 3\nmap\n"),
            "line 2: a 3 × 0 map has no cells (height 0)"
        );
        assert_eq!(
            err("type octile\nheight 2\nwidth 0\nmap\n\n\n"),
            "line 3: a 0 × 2 map has no cells (width 0)"
        );
        assert!(read_map("type octile\nheight 1\nwidth 1\nmap\n.\n".as_bytes()).is_ok());
    }
}
