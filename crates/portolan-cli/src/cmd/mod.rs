//! One module per subcommand.

pub mod build;
pub mod path;
pub mod render;
