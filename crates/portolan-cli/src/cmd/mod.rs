//! One module per subcommand.

pub mod path;
pub mod render;
pub mod scen;
