//! MovingAI-style scenario files (`.scen`): one query per line.
//!
//! ```text
//! version 1
//! bucket  map              width  height  start-x  start-y  goal-x  goal-y  cost
//! 0       maps/arena.map   49     49      1        11       1       12      1
//! ```
//!
//! The same layout serves grid benchmarks (`*.map.scen`, N. Sturtevant's MovingAI format) and mesh
//! benchmarks (`*.mesh.scen`, ShortestPathLab; the Polyanya test suite). Fields are separated by
//! any whitespace; the `version` line is optional; blank lines are skipped. What the last column
//! means depends on the file, and this parser does not guess:
//!
//! - grid `.map.scen` (MovingAI): the **octile** (8-connected grid) optimum, only an upper bound of
//!   the any-angle length; query points are cell corners with y growing **south**;
//! - `.mesh.scen` and the Polyanya tests: the Euclidean optimum in mesh coordinates, `-1` when
//!   there is no path (read as [`Scenario::expected`] = `None`);
//! - the GPPC any-angle kit: the Euclidean optimum on the grid.
//!
//! ```
//! use portolan::io::scenario;
//! let text = "version 1\n0\tscene.mesh\t224\t238\t-73.0625\t-4.8125\t-72.9375\t-4.6875\t0.17677\n";
//! let qs = scenario::read(text.as_bytes()).unwrap();
//! assert_eq!(qs[0].start.x, -73.0625);
//! assert_eq!(qs[0].expected, Some(0.17677));
//! assert_eq!(qs[0].line, 2);
//! ```

use super::{finite_number, words, ReadError};
use crate::geom::Vec2;
use std::io::{BufRead, BufReader, Read};

/// One query of a scenario file.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// The bucket (a difficulty class in MovingAI files).
    pub bucket: u32,
    /// The map (or mesh) file the query is meant for, as written.
    pub map: String,
    /// The map's width and height as written (grid cells for grid maps).
    pub map_size: (u32, u32),
    /// Start point, in the file's coordinates.
    pub start: Vec2,
    /// Goal point.
    pub goal: Vec2,
    /// The file's last column; `None` where it is `-1` (no path). Its meaning depends on the file
    /// (see the [module docs](self)).
    pub expected: Option<f64>,
    /// The 1-based line of the query in the file.
    pub line: usize,
}

/// Reads every query of a scenario file.
pub fn read(r: impl Read) -> Result<Vec<Scenario>, ReadError> {
    let mut out = Vec::new();
    let mut versioned = false;
    for (i, line) in BufReader::new(r).lines().enumerate() {
        let line = line?;
        let no = i + 1;
        let fields: Vec<(usize, &str)> = words(&line).collect();
        if fields.is_empty() {
            continue;
        }
        if fields[0].1 == "version" {
            check_version(no, &fields, versioned || !out.is_empty())?;
            versioned = true;
            continue;
        }
        out.push(parse_query(no, &fields)?);
    }
    Ok(out)
}

/// Checks a `version N` line (`fields`, line `no`): one number and nothing after it, and no
/// version line or query before it (`late`); each fault named at its own column.
fn check_version(no: usize, fields: &[(usize, &str)], late: bool) -> Result<(), ReadError> {
    let (at, word) = fields[0];
    if late {
        return Err(ReadError::syntax(
            no,
            at,
            "a `version N` line is only allowed once, before the queries".to_owned(),
        ));
    }
    match fields.get(1) {
        None => Err(ReadError::syntax(
            no,
            at + word.chars().count(),
            "expected a version number after `version`".to_owned(),
        )),
        Some(&(c, n)) if n.parse::<f64>().map_or(true, |v| !v.is_finite()) => Err(
            ReadError::syntax(no, c, format!("expected a version number, found {n:?}")),
        ),
        Some(_) => match fields.get(2) {
            Some(&(c, extra)) => Err(ReadError::syntax(
                no,
                c,
                format!("expected the end of the line after the version number, found {extra:?}"),
            )),
            None => Ok(()),
        },
    }
}

const FIELDS: [&str; 9] = [
    "the bucket (an integer)",
    "the map name",
    "the map width (an integer)",
    "the map height (an integer)",
    "the start x",
    "the start y",
    "the goal x",
    "the goal y",
    "the path cost (-1 for no path)",
];

fn parse_query(no: usize, f: &[(usize, &str)]) -> Result<Scenario, ReadError> {
    if f.len() < FIELDS.len() {
        let col = f.last().map_or(0, |&(c, s)| c + s.chars().count());
        return Err(ReadError::syntax(
            no,
            col,
            format!(
                "expected 9 fields (bucket, map, width, height, start x, start y, goal x, goal y, cost), found {}: {} is missing",
                f.len(),
                FIELDS[f.len()]
            ),
        ));
    }
    if f.len() > FIELDS.len() {
        return Err(ReadError::syntax(
            no,
            f[9].0,
            format!(
                "expected the end of the line after the cost, found {:?}",
                f[9].1
            ),
        ));
    }
    let int = |i: usize| -> Result<u32, ReadError> {
        f[i].1.parse::<u32>().map_err(|_| {
            ReadError::syntax(
                no,
                f[i].0,
                format!("expected {}, found {:?}", FIELDS[i], f[i].1),
            )
        })
    };
    let num = |i: usize| finite_number(f[i].1, no, f[i].0, FIELDS[i]);
    let cost = num(8)?;
    let expected = if cost == -1.0 {
        None
    } else if cost >= 0.0 {
        Some(cost)
    } else {
        return Err(ReadError::syntax(
            no,
            f[8].0,
            format!("expected a path cost ≥ 0 or -1 for no path, found {cost}"),
        ));
    };
    Ok(Scenario {
        bucket: int(0)?,
        map: f[1].1.to_owned(),
        map_size: (int(2)?, int(3)?),
        start: Vec2::new(num(4)?, num(5)?),
        goal: Vec2::new(num(6)?, num(7)?),
        expected,
        line: no,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn syntax(text: &str) -> (usize, usize, String) {
        super::super::syntax_parts(read(text.as_bytes()))
    }

    #[test]
    fn reads_grid_and_mesh_lines() {
        let text = "version 1\n\
                    0\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1\n\
                    \n\
                    0\tmeshes/bad-ambig.mesh\t3\t3\t1.00\t1.00\t1.00\t1.00\t-1\n\
                    0 meshes/x.mesh 7 2 1.0 0.0 4.0 3.0 6\n";
        let q = read(text.as_bytes()).unwrap();
        assert_eq!(q.len(), 3);
        assert_eq!(q[0].map, "maps/dao/arena.map");
        assert_eq!(q[0].map_size, (49, 49));
        assert_eq!(q[0].start, Vec2::new(1.0, 11.0));
        assert_eq!(q[0].goal, Vec2::new(1.0, 12.0));
        assert_eq!(q[0].expected, Some(1.0));
        assert_eq!(q[1].expected, None);
        assert_eq!(q[1].line, 4);
        assert_eq!(q[2].goal, Vec2::new(4.0, 3.0));
    }

    #[test]
    fn header_is_optional_but_only_first() {
        assert_eq!(read("0 m 1 1 0 0 1 1 1.5\n".as_bytes()).unwrap().len(), 1);
        let (l, c, m) = syntax("0 m 1 1 0 0 1 1 1.5\nversion 1\n");
        assert_eq!((l, c), (2, 1));
        assert!(m.contains("version"), "{m}");
    }

    /// A malformed version line is named for what is wrong with it, at its own column (it
    /// was once "only allowed once, before the queries" for every fault, a line of nine
    /// fields whose first read `version 1` among them).
    #[test]
    fn a_bad_version_line_says_what_is_wrong() {
        let (l, c, m) = syntax("version 1\t\t0.5\t0.5\n0 m 1 1 0 0 1 1 1.5\n");
        assert_eq!((l, c), (1, 12));
        assert!(
            m.contains("end of the line after the version number"),
            "{m}"
        );
        assert!(m.contains("\"0.5\""), "{m}");
        let (l, c, m) = syntax("version\n");
        assert_eq!((l, c), (1, 8));
        assert!(m.contains("expected a version number"), "{m}");
        let (l, c, m) = syntax("version one\n");
        assert_eq!((l, c), (1, 9));
        assert!(m.contains("\"one\""), "{m}");
        let (_, _, m) = syntax("version inf\n");
        assert!(m.contains("\"inf\""), "{m}");
        // Twice before any query: the second is refused, as one after a query is.
        let (l, c, m) = syntax("version 1\nversion 1\n0 m 1 1 0 0 1 1 1.5\n");
        assert_eq!((l, c), (2, 1));
        assert!(m.contains("only allowed once"), "{m}");
    }

    #[test]
    fn missing_and_extra_fields() {
        let (l, c, m) = syntax("version 1\n0\tm\t3\t3\t1\t1\t2\t2\n");
        assert_eq!((l, c), (2, 16));
        assert!(m.contains("path cost"), "{m}");
        let (l, c, m) = syntax("0 m 3 3 1 1 2 2 5 extra\n");
        assert_eq!((l, c), (1, 19));
        assert!(m.contains("end of the line"), "{m}");
    }

    #[test]
    fn bad_numbers_name_their_field() {
        let (l, c, m) = syntax("0 m 3 3 1 y 2 2 5\n");
        assert_eq!((l, c), (1, 11));
        assert!(m.contains("start y"), "{m}");
        let (_, _, m) = syntax("x m 3 3 1 1 2 2 5\n");
        assert!(m.contains("bucket"), "{m}");
        let (_, _, m) = syntax("0 m 3.5 3 1 1 2 2 5\n");
        assert!(m.contains("width"), "{m}");
        let (_, _, m) = syntax("0 m 3 3 1 1 NaN 2 5\n");
        assert!(m.contains("goal x"), "{m}");
        let (_, c, m) = syntax("0 m 3 3 1 1 2 2 -2\n");
        assert_eq!(c, 17);
        assert!(m.contains("-1 for no path"), "{m}");
    }
}
