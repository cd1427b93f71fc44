//! Reading and writing files: parsers take any [`std::io::Read`], writers any [`std::io::Write`];
//! the library itself never opens a file.

pub mod movingai;
pub mod poly;
pub mod polyanya_mesh;
pub mod scenario;
pub mod svg;

/// Why a file could not be read; names the line where that is known.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The underlying reader failed.
    #[error("read failed: {0}")]
    Io(std::io::Error),
    /// The text is not valid for the format. Displayed as `line L, column C: message`, or
    /// `line L: message` where the column is unknown.
    #[error("line {line}{}: {message}", at_column(*column))]
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column (0 when unknown).
        column: usize,
        /// What was wrong or expected.
        message: String,
    },
    /// The file parsed, but the scene it describes is invalid.
    #[error("invalid scene: {0}")]
    Scene(crate::scene::SceneError),
    /// The file parsed, but the mesh it describes is invalid.
    #[error("invalid mesh: {0}")]
    Mesh(crate::mesh::MeshError),
}

// The messages above already include the inner error, so it is not also given as the error's
// `source`: a caller printing the chain (anyhow's `{:#}`) printed each message twice.
impl From<std::io::Error> for ReadError {
    fn from(e: std::io::Error) -> ReadError {
        ReadError::Io(e)
    }
}

impl From<crate::scene::SceneError> for ReadError {
    fn from(e: crate::scene::SceneError) -> ReadError {
        ReadError::Scene(e)
    }
}

impl From<crate::mesh::MeshError> for ReadError {
    fn from(e: crate::mesh::MeshError) -> ReadError {
        ReadError::Mesh(e)
    }
}

/// `, column C` for a known (non-zero) column of a [`ReadError::Syntax`], nothing otherwise.
fn at_column(column: usize) -> String {
    if column == 0 {
        String::new()
    } else {
        format!(", column {column}")
    }
}

impl ReadError {
    /// A [`ReadError::Syntax`] at 1-based `line` and `column` (0 when unknown).
    pub(crate) fn syntax(line: usize, column: usize, message: impl Into<String>) -> ReadError {
        ReadError::Syntax {
            line,
            column,
            message: message.into(),
        }
    }

    /// Converts a serde_json error, keeping its line and column.
    pub fn from_json(e: serde_json::Error) -> ReadError {
        if e.is_io() {
            return ReadError::Io(e.into());
        }
        // serde_json ends its message with the place, which the error's own display gives.
        let place = format!(" at line {} column {}", e.line(), e.column());
        let text = e.to_string();
        let message = text.strip_suffix(&place).unwrap_or(&text).to_owned();
        ReadError::Syntax {
            line: e.line(),
            column: e.column(),
            message,
        }
    }
}

// Reading a scene is defined here, not in `scene.rs`, so that the dependency runs one way:
// `io` knows scenes and meshes; `scene` knows nothing about files or their errors.
impl crate::scene::Scene {
    /// Parses the JSON scene format ([`Scene`](crate::scene::Scene)'s serde form) from a reader
    /// and validates it.
    ///
    /// ```
    /// use portolan::Scene;
    /// let json = r#"{"bounds": {"min": [0, 0], "max": [10, 10]}, "obstacles": [[[2, 2], [4, 2], [4, 4]]]}"#;
    /// let scene = Scene::from_json_reader(json.as_bytes()).unwrap();
    /// assert_eq!(scene.obstacles.len(), 1);
    /// ```
    pub fn from_json_reader(r: impl std::io::Read) -> Result<crate::scene::Scene, ReadError> {
        let scene: crate::scene::Scene =
            serde_json::from_reader(r).map_err(ReadError::from_json)?;
        scene.validate()?;
        Ok(scene)
    }
}

/// The whitespace-separated words of one line of text, each with its 1-based column (counted in
/// characters), as the text parsers report them in errors.
fn words(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut chars = line.char_indices().enumerate().peekable();
    std::iter::from_fn(move || {
        let (column, start) = loop {
            let (ci, (bi, c)) = chars.next()?;
            if !c.is_whitespace() {
                break (ci + 1, bi);
            }
        };
        let mut end = line.len();
        while let Some(&(_, (bi, c))) = chars.peek() {
            if c.is_whitespace() {
                end = bi;
                break;
            }
            chars.next();
        }
        Some((column, &line[start..end]))
    })
}

/// `word`, found at `line` and `column`, as a finite number; else an error saying that `what`
/// was expected there.
fn finite_number(word: &str, line: usize, column: usize, what: &str) -> Result<f64, ReadError> {
    match word.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(ReadError::syntax(
            line,
            column,
            format!("expected {what} (a finite number), found {word:?}"),
        )),
    }
}

/// The line, column and message of a [`ReadError::Syntax`]; panics (failing the test) on
/// anything else.
#[cfg(test)]
fn syntax_parts<T: std::fmt::Debug>(result: Result<T, ReadError>) -> (usize, usize, String) {
    match result {
        Err(ReadError::Syntax {
            line,
            column,
            message,
        }) => (line, column, message),
        other => panic!("expected a syntax error, got {other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::{words, ReadError};
    use crate::scene::Scene;

    #[test]
    fn a_json_error_gives_its_place_once() {
        let e = serde_json::from_str::<Scene>("{\"bounds\": 3}").unwrap_err();
        let shown = ReadError::from_json(e).to_string();
        assert!(
            shown.starts_with("line 1, column 12: invalid type"),
            "{shown}"
        );
        assert_eq!(shown.matches("line 1").count(), 1, "{shown}");
    }

    #[test]
    fn an_unknown_column_is_left_out_of_the_message() {
        assert_eq!(
            ReadError::syntax(8, 0, "unexpected end of file").to_string(),
            "line 8: unexpected end of file"
        );
        assert_eq!(
            ReadError::syntax(3, 9, "unexpected \"9\"").to_string(),
            "line 3, column 9: unexpected \"9\""
        );
    }

    #[test]
    fn words_have_their_columns_in_characters() {
        let w: Vec<(usize, &str)> = words("  ab\tc  é d\u{a0}e ").collect();
        assert_eq!(w, [(3, "ab"), (6, "c"), (9, "é"), (11, "d"), (13, "e")]);
        assert_eq!(words("").count(), 0);
        assert_eq!(words(" \t ").count(), 0);
        assert_eq!(words("x").collect::<Vec<_>>(), [(1, "x")]);
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

    #[test]
    fn boundary_and_holes_round_trip_through_json() {
        let text = r#"{"bounds": {"min": [0, 0], "max": [10, 10]},
            "boundary": [[0,0],[10,0],[10,10],[5,6],[0,10]],
            "obstacles": [[[1,1],[4,1],[4,4],[1,4]]],
            "holes": [{"obstacle": 0, "ring": [[2,2],[3,2],[3,3],[2,3]]}]}"#;
        let s = Scene::from_json_reader(text.as_bytes()).unwrap();
        assert_eq!(s.boundary.as_ref().map(Vec::len), Some(5));
        assert_eq!(s.holes.len(), 1);
        let back: Scene = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
        assert_eq!(back, s);
        // Scenes without the new fields still read, and write without them.
        let plain = serde_json::to_string(&Scene::default_map()).unwrap();
        assert!(!plain.contains("boundary") && !plain.contains("holes"));
    }
}
