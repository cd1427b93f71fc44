//! Reading and writing files: parsers take any [`std::io::Read`], writers any [`std::io::Write`];
//! the library itself never opens a file.

pub mod movingai;
pub mod poly;
pub mod polyanya_mesh;
pub mod scenario;
pub mod svg;

/// Why a file could not be read; names the line where that is known.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The underlying reader failed.
    #[error("read failed: {0}")]
    Io(#[from] std::io::Error),
    /// The text is not valid for the format.
    #[error("line {line}, column {column}: {message}")]
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
    Scene(#[from] crate::scene::SceneError),
    /// The file parsed, but the mesh it describes is invalid.
    #[error("invalid mesh: {0}")]
    Mesh(#[from] crate::mesh::MeshError),
}

impl ReadError {
    /// Converts a serde_json error, keeping its line and column.
    pub fn from_json(e: serde_json::Error) -> ReadError {
        if e.is_io() {
            return ReadError::Io(e.into());
        }
        ReadError::Syntax {
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        }
    }
}
