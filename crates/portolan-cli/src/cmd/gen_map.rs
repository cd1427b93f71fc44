//! `portolan gen-map`: a seeded MovingAI `.map` grid file, random blocked cells, a maze, city
//! blocks or scattered obstacles ([`portolan::random_grid`]), for benchmarks and tests that need
//! maps not in the shared data.

use crate::output::AtomicFile;
use anyhow::{Context, Result};
use portolan::random_grid::{
    city_blocks_grid, maze_grid, random_blocked_grid, scattered_obstacles_grid, CityOptions,
    MazeOptions, ScatterOptions,
};
use std::path::PathBuf;

/// `gen-map` kinds.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Each cell blocked, independently, with probability --density.
    Random,
    /// A perfect maze: corridors --corridor cells wide between walls --wall cells thick.
    Maze,
    /// City blocks: streets --street cells wide between blocks of --min-block to --max-block
    /// cells on a side, with ragged edges.
    City,
    /// Open ground with --count discs, diamonds and squares of radius --min-radius to
    /// --max-radius cells.
    Scatter,
}

/// Arguments of `portolan gen-map`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  portolan gen-map random --size 512 --density 0.2 --seed 1 -o random-20.map
  portolan gen-map maze --size 512 --corridor 3 --wall 1 --seed 1 -o maze.map
  portolan gen-map city --size 1024 --street 3 --seed 1 -o city.map
  portolan gen-map scatter --size 1024 --count 400 --seed 1 -o scatter.map
  portolan build --map maze.map -o maze.mesh     # the mesh, as for any .map file

The same kind, size, parameters and seed give the same file on every platform.")]
pub struct Args {
    /// What to generate.
    #[arg(value_enum)]
    pub kind: Kind,
    /// Width and height in cells (overridden by --width / --height).
    #[arg(long, default_value_t = 512)]
    pub size: usize,
    /// Width in cells (default: --size).
    #[arg(long)]
    pub width: Option<usize>,
    /// Height in cells (default: --size).
    #[arg(long)]
    pub height: Option<usize>,
    /// random: the probability that a cell is blocked, in [0, 1].
    #[arg(long, default_value_t = 0.2)]
    pub density: f64,
    /// maze: corridor width in cells.
    #[arg(long, default_value_t = 3)]
    pub corridor: usize,
    /// maze: wall thickness in cells.
    #[arg(long, default_value_t = 1)]
    pub wall: usize,
    /// city: street width in cells.
    #[arg(long, default_value_t = 3)]
    pub street: usize,
    /// city: the least side of a block, its streets included, in cells.
    #[arg(long, default_value_t = 8)]
    pub min_block: usize,
    /// city: the greatest side of a block, its streets included, in cells.
    #[arg(long, default_value_t = 50)]
    pub max_block: usize,
    /// scatter: how many obstacles.
    #[arg(long, default_value_t = 400)]
    pub count: usize,
    /// scatter: the least radius of an obstacle, in cells.
    #[arg(long, default_value_t = 3)]
    pub min_radius: usize,
    /// scatter: the greatest radius of an obstacle, in cells.
    #[arg(long, default_value_t = 40)]
    pub max_radius: usize,
    /// The seed of the generator.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output `.map` file.
    #[arg(short, long)]
    pub output: PathBuf,
}

/// Runs `portolan gen-map`.
pub fn run(args: Args) -> Result<()> {
    let (w, h) = (
        args.width.unwrap_or(args.size),
        args.height.unwrap_or(args.size),
    );
    let map = match args.kind {
        Kind::Random => random_blocked_grid(w, h, args.density, args.seed)?,
        Kind::Maze => maze_grid(w, h, &MazeOptions::new(args.corridor, args.wall), args.seed)?,
        Kind::City => {
            let options = CityOptions::new(args.street, args.min_block, args.max_block);
            city_blocks_grid(w, h, &options, args.seed)?
        }
        Kind::Scatter => {
            let options = ScatterOptions::new(args.count, args.min_radius, args.max_radius);
            scattered_obstacles_grid(w, h, &options, args.seed)?
        }
    };
    let mut out = AtomicFile::create(&args.output)?;
    portolan::io::movingai::write_map(&map, &mut *out.writer())
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    out.commit()?;
    eprintln!(
        "{w} × {h} cells, {} passable -> {}",
        map.passable_count(),
        args.output.display()
    );
    Ok(())
}
