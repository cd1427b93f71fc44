//! One module per subcommand.

pub mod build;
pub mod crowd;
pub mod edits;
pub mod eval;
pub mod gen_map;
pub mod index;
pub mod path;
pub mod render;
pub mod scen;
pub mod serve;
