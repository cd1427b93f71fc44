//! Seeded grid maps: random blocked cells, mazes, city blocks and scattered obstacles, as
//! [`GridMap`]s.
//!
//! The benchmarks of the exact search need grid maps that are not in the shared data: a 512 ×
//! 512 map with a fifth of its cells blocked at random, a 512 × 512 maze, open city blocks (the
//! kind whose index has the most labels for its size) and open ground with obstacles of many
//! sizes (whose index has the most corners in view per polygon). The generators
//! here return the same [`GridMap`] that [`read_map`](crate::io::movingai::read_map) returns for a
//! MovingAI `.map` file, so a generated map becomes a scene and a mesh exactly the way
//! `portolan build --map` builds a file ([`GridMap::to_scene`], then [`build`](fn@crate::build)),
//! and [`write_map`](crate::io::movingai::write_map) writes it as a `.map` file that reads back
//! equal.
//!
//! All draw from [`Rng`] (SplitMix64, integer arithmetic only), so a seed gives the same map on
//! every platform.
//!
//! # Random cells
//! [`random_blocked_grid`]: each cell is blocked, independently, with probability `density`.
//! At 20% the free cells form one large component with small pockets cut off by blocked cells.
//!
//! # Mazes
//! [`maze_grid`] lays a lattice of square *rooms* `corridor` cells wide, `wall` cells apart,
//! inside a blocked border `wall` cells thick, and carves a perfect maze through it (randomised
//! depth-first search: every room reachable, exactly one route between two rooms):
//!
//! ```text
//!   wall = 1, corridor = 2:     @@@@@@@@@@
//!                               @..@.....@
//!                               @..@.....@
//!                               @..@..@@@@
//!                               @.....@..@
//!                               @.....@..@
//!                               @@@@@@@@@@
//! ```
//!
//! Cells right of or below the last full room stay blocked. Every free cell is reachable from
//! every other one.
//!
//! # City blocks
//! [`city_blocks_grid`] cuts the map into rows of random height and each row into blocks of
//! random width, and fills each block but its top and left `street` cells: a grid of streets
//! `street` cells wide between blocks of buildings. A few notches cut into each block give it
//! ragged edges (and, where one crosses a block, an alley). The streets are one piece:
//!
//! ```text
//!   street = 1:   ............
//!                 .@@@@@.@@@@@
//!                 .@@..@.@@@@@
//!                 .@@@@@.@@.@@
//!                 ............
//!                 .@@@@@@@.@@@
//! ```
//!
//! # Scattered obstacles
//! [`scattered_obstacles_grid`] blocks `count` obstacles on open ground, each a disc (half of
//! them), a diamond (three in ten) or a square (one in five) of a random radius, at a random
//! centre; they may overlap and be cut by the map's edge.
//!
//! ```
//! use portolan::random_grid::{maze_grid, random_blocked_grid, MazeOptions};
//! use portolan::{build, BuildOptions};
//!
//! let map = random_blocked_grid(64, 64, 0.2, 7).unwrap();
//! assert_eq!(map, random_blocked_grid(64, 64, 0.2, 7).unwrap()); // same seed, same map
//! let blocked = 64 * 64 - map.passable_count();
//! assert!((600..1000).contains(&blocked)); // about 20% of 4,096
//!
//! let maze = maze_grid(64, 64, &MazeOptions::default(), 7).unwrap();
//! let mesh = build(&maze.to_scene(), &BuildOptions::default()).unwrap();
//! // A perfect maze: its free space is one piece.
//! let components = mesh.connected_components();
//! assert!(components.iter().all(|&c| c == components[0]));
//! ```
//!
//! ```
//! use portolan::random_grid::{city_blocks_grid, CityOptions};
//!
//! let city = city_blocks_grid(128, 128, &CityOptions::default(), 7).unwrap();
//! // The top row and the left column are street.
//! assert!((0..128).all(|i| !city.is_blocked(i, 0) && !city.is_blocked(0, i)));
//! ```

use crate::io::movingai::GridMap;
use crate::random::Rng;

/// Why a grid map cannot be generated; names the parameter.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum GridGenError {
    /// A parameter is out of its documented domain.
    #[error("grid map parameter `{field}`: {reason}")]
    BadParameter {
        /// The parameter's name.
        field: &'static str,
        /// What is wrong with it.
        reason: &'static str,
    },
}

fn bad(field: &'static str, reason: &'static str) -> GridGenError {
    GridGenError::BadParameter { field, reason }
}

/// The largest side accepted, so that `width × height` cells fit in memory comfortably.
pub const MAX_SIDE: usize = 1 << 14;

fn check_size(width: usize, height: usize) -> Result<(), GridGenError> {
    for (field, v) in [("width", width), ("height", height)] {
        if v == 0 {
            return Err(bad(field, "must be at least 1"));
        }
        if v > MAX_SIDE {
            return Err(bad(field, "must be at most MAX_SIDE (16,384)"));
        }
    }
    Ok(())
}

/// A `width × height` map whose cells are each blocked with probability `density`, drawn from
/// `seed` (row by row, from the top left).
///
/// Errors: a side of 0 or above [`MAX_SIDE`]; a `density` outside `[0, 1]` (or NaN).
///
/// ```
/// use portolan::random_grid::random_blocked_grid;
/// let map = random_blocked_grid(10, 4, 0.0, 1).unwrap();
/// assert_eq!(map.passable_count(), 40);
/// assert!(random_blocked_grid(10, 4, 1.5, 1).is_err());
/// ```
pub fn random_blocked_grid(
    width: usize,
    height: usize,
    density: f64,
    seed: u64,
) -> Result<GridMap, GridGenError> {
    check_size(width, height)?;
    if !(0.0..=1.0).contains(&density) {
        return Err(bad("density", "must be a number in [0, 1]"));
    }
    let mut rng = Rng::new(seed);
    let blocked = (0..width * height)
        .map(|_| rng.next_f64() < density)
        .collect();
    // The length is width × height by construction.
    Ok(GridMap::new(width, height, blocked).expect("sizes agree"))
}

/// The shape of a [`maze_grid`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MazeOptions {
    /// Width of the corridors, in cells (default 3).
    pub corridor: usize,
    /// Thickness of the walls between corridors and of the border, in cells (default 1).
    pub wall: usize,
}

impl Default for MazeOptions {
    fn default() -> MazeOptions {
        MazeOptions {
            corridor: 3,
            wall: 1,
        }
    }
}

impl MazeOptions {
    /// Options with the given corridor width and wall thickness.
    ///
    /// ```
    /// use portolan::random_grid::MazeOptions;
    /// assert_eq!(MazeOptions::new(3, 1), MazeOptions::default());
    /// ```
    pub fn new(corridor: usize, wall: usize) -> MazeOptions {
        MazeOptions { corridor, wall }
    }
}

/// A `width × height` perfect maze (see the [module docs](self)), drawn from `seed`.
///
/// Errors: a side of 0 or above [`MAX_SIDE`]; `corridor` or `wall` 0; a map too small for one
/// room (`wall + corridor + wall` cells on each side).
///
/// ```
/// use portolan::random_grid::{maze_grid, MazeOptions};
/// let maze = maze_grid(7, 7, &MazeOptions::new(2, 1), 3).unwrap();
/// // Rooms at 1..3 and 4..6 on each axis, all four joined by three openings of 2 cells:
/// assert_eq!(maze.passable_count(), 4 * 4 + 3 * 2);
/// assert!(maze_grid(3, 3, &MazeOptions::new(2, 1), 3).is_err());
/// ```
pub fn maze_grid(
    width: usize,
    height: usize,
    options: &MazeOptions,
    seed: u64,
) -> Result<GridMap, GridGenError> {
    check_size(width, height)?;
    let (c, w) = (options.corridor, options.wall);
    if c == 0 {
        return Err(bad("corridor", "must be at least 1"));
    }
    if w == 0 {
        return Err(bad("wall", "must be at least 1"));
    }
    // (Each at most MAX_SIDE, so `c + w` cannot overflow; the error names the one too wide.)
    if c > MAX_SIDE {
        return Err(bad("corridor", "must be at most MAX_SIDE"));
    }
    if w > MAX_SIDE {
        return Err(bad("wall", "must be at most MAX_SIDE"));
    }
    let pitch = c + w;
    // Rooms per axis: wall + n · pitch ≤ side.
    let rooms = |side: usize| side.saturating_sub(w) / pitch;
    let (rw, rh) = (rooms(width), rooms(height));
    if rw == 0 || rh == 0 {
        return Err(bad(
            "corridor",
            "the map is too small for one room (wall + corridor + wall cells on each side)",
        ));
    }
    let mut blocked = vec![true; width * height];
    let mut clear = |x0: usize, y0: usize, x1: usize, y1: usize| {
        for y in y0..y1 {
            blocked[y * width + x0..y * width + x1].fill(false);
        }
    };
    let origin = |i: usize| w + i * pitch;
    for ry in 0..rh {
        for rx in 0..rw {
            clear(origin(rx), origin(ry), origin(rx) + c, origin(ry) + c);
        }
    }
    // Randomised depth-first search over the rooms, with an explicit stack.
    let mut rng = Rng::new(seed);
    let mut seen = vec![false; rw * rh];
    let start = rng.range_usize(0, rw * rh - 1);
    seen[start] = true;
    let mut stack = vec![start];
    let mut options_buf = Vec::with_capacity(4);
    while let Some(&room) = stack.last() {
        let (x, y) = (room % rw, room / rw);
        options_buf.clear();
        if x > 0 && !seen[room - 1] {
            options_buf.push(room - 1);
        }
        if x + 1 < rw && !seen[room + 1] {
            options_buf.push(room + 1);
        }
        if y > 0 && !seen[room - rw] {
            options_buf.push(room - rw);
        }
        if y + 1 < rh && !seen[room + rw] {
            options_buf.push(room + rw);
        }
        if options_buf.is_empty() {
            stack.pop();
            continue;
        }
        let next = options_buf[rng.range_usize(0, options_buf.len() - 1)];
        seen[next] = true;
        // Knock out the wall between the two rooms.
        let (a, b) = (room.min(next), room.max(next));
        let (ax, ay) = (a % rw, a / rw);
        if b == a + 1 {
            // East of `a`.
            clear(
                origin(ax) + c,
                origin(ay),
                origin(ax) + pitch,
                origin(ay) + c,
            );
        } else {
            // South of `a`.
            clear(
                origin(ax),
                origin(ay) + c,
                origin(ax) + c,
                origin(ay) + pitch,
            );
        }
        stack.push(next);
    }
    // The length is width × height by construction.
    Ok(GridMap::new(width, height, blocked).expect("sizes agree"))
}

/// The most notches [`CityOptions::notches`] may ask per block (more would only clear the
/// blocks, slowly).
pub const MAX_NOTCHES: usize = 64;

/// The shape of a [`city_blocks_grid`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CityOptions {
    /// Width of the streets, in cells (default 3).
    pub street: usize,
    /// The least side of a block, streets included, in cells (default 8); more than `street`.
    pub min_block: usize,
    /// The greatest side of a block, streets included, in cells (default 50); at least
    /// `min_block`.
    pub max_block: usize,
    /// The most notches cut into one block (default 6, at most [`MAX_NOTCHES`]): each is 1 to 4
    /// cells on a side, at a random place in the block, so the blocks' edges are ragged.
    pub notches: usize,
}

impl Default for CityOptions {
    fn default() -> CityOptions {
        CityOptions {
            street: 3,
            min_block: 8,
            max_block: 50,
            notches: 6,
        }
    }
}

impl CityOptions {
    /// Options with the given street width and range of block sides, and the default notches.
    ///
    /// ```
    /// use portolan::random_grid::CityOptions;
    /// assert_eq!(CityOptions::new(3, 8, 50), CityOptions::default());
    /// ```
    pub fn new(street: usize, min_block: usize, max_block: usize) -> CityOptions {
        CityOptions {
            street,
            min_block,
            max_block,
            ..CityOptions::default()
        }
    }

    /// The same options with at most `notches` notches a block (0: blocks with straight
    /// edges).
    ///
    /// ```
    /// use portolan::random_grid::CityOptions;
    /// assert_eq!(CityOptions::default().with_notches(0).notches, 0);
    /// ```
    pub fn with_notches(mut self, notches: usize) -> CityOptions {
        self.notches = notches;
        self
    }
}

/// A `width × height` map of city blocks between streets (see the [module docs](self)), drawn
/// from `seed`.
///
/// Errors: a side of 0 or above [`MAX_SIDE`]; `street` 0; `min_block` not above `street`;
/// `max_block` below `min_block` or above [`MAX_SIDE`]; `notches` above [`MAX_NOTCHES`].
///
/// ```
/// use portolan::random_grid::{city_blocks_grid, CityOptions};
/// let options = CityOptions::new(2, 6, 6).with_notches(0);
/// let city = city_blocks_grid(12, 12, &options, 1).unwrap();
/// // Four blocks of 4 × 4 buildings behind streets 2 cells wide.
/// assert_eq!(city.passable_count(), 144 - 4 * 16);
/// assert!(city_blocks_grid(12, 12, &CityOptions::new(3, 3, 9), 1).is_err());
/// ```
pub fn city_blocks_grid(
    width: usize,
    height: usize,
    options: &CityOptions,
    seed: u64,
) -> Result<GridMap, GridGenError> {
    check_size(width, height)?;
    let CityOptions {
        street,
        min_block,
        max_block,
        notches,
    } = *options;
    if street == 0 {
        return Err(bad("street", "must be at least 1"));
    }
    if min_block <= street {
        return Err(bad("min_block", "must be more than street"));
    }
    if max_block < min_block {
        return Err(bad("max_block", "must be at least min_block"));
    }
    if max_block > MAX_SIDE {
        return Err(bad("max_block", "must be at most MAX_SIDE"));
    }
    if notches > MAX_NOTCHES {
        return Err(bad("notches", "must be at most MAX_NOTCHES (64)"));
    }
    let mut blocked = vec![false; width * height];
    // Sets the cells of `x0..x1 × y0..y1` clipped to the map.
    let mut set = |x0: usize, y0: usize, x1: usize, y1: usize, to: bool| {
        let (x1, y1) = (x1.min(width), y1.min(height));
        if x0 < x1 {
            for y in y0..y1 {
                blocked[y * width + x0..y * width + x1].fill(to);
            }
        }
    };
    // Two streams: the blocks' sides, then the notches, so that the notches leave the blocks
    // where they are without them.
    let (mut rng, mut cut) = (Rng::new(seed), Rng::new(Rng::derive(seed, 1)));
    let mut y = 0;
    while y < height {
        let bh = rng.range_usize(min_block, max_block);
        let mut x = 0;
        while x < width {
            let bw = rng.range_usize(min_block, max_block);
            // The buildings: the block but its streets, on its top and left.
            set(x + street, y + street, x + bw, y + bh, true);
            for _ in 0..cut.range_usize(0, notches) {
                let nx = cut.range_usize(x + street, x + bw - 1);
                let ny = cut.range_usize(y + street, y + bh - 1);
                let (nw, nh) = (cut.range_usize(1, 4), cut.range_usize(1, 4));
                set(nx, ny, nx + nw, ny + nh, false);
            }
            x += bw;
        }
        y += bh;
    }
    // The length is width × height by construction.
    Ok(GridMap::new(width, height, blocked).expect("sizes agree"))
}

/// The shape of a [`scattered_obstacles_grid`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ScatterOptions {
    /// How many obstacles (default 400, at most [`MAX_OBSTACLES`]).
    pub count: usize,
    /// The least radius, in cells (default 3, at least 1).
    pub min_radius: usize,
    /// The greatest radius, in cells (default 40; at least `min_radius`, at most [`MAX_SIDE`]).
    pub max_radius: usize,
}

/// The most obstacles a [`ScatterOptions`] may ask for.
pub const MAX_OBSTACLES: usize = 1 << 20;

/// The most cells a [`scattered_obstacles_grid`] may visit: `count` boxes of the greatest
/// radius, each clipped to the map (2³², a few seconds), so that no parameters within their
/// own bounds make it run for hours.
pub const MAX_SCATTER_CELLS: u64 = 1 << 32;

impl Default for ScatterOptions {
    fn default() -> ScatterOptions {
        ScatterOptions {
            count: 400,
            min_radius: 3,
            max_radius: 40,
        }
    }
}

impl ScatterOptions {
    /// `count` obstacles of radius `min_radius..=max_radius`.
    ///
    /// ```
    /// use portolan::random_grid::ScatterOptions;
    /// assert_eq!(ScatterOptions::new(400, 3, 40), ScatterOptions::default());
    /// ```
    pub fn new(count: usize, min_radius: usize, max_radius: usize) -> ScatterOptions {
        ScatterOptions {
            count,
            min_radius,
            max_radius,
        }
    }
}

/// A `width × height` map of obstacles scattered on open ground (see the [module docs](self)),
/// drawn from `seed`. An obstacle of radius `r` centred on cell `(cx, cy)` blocks the cells
/// `(x, y)` of its box, `x` in `cx - r..cx + r` and `y` in `cy - r..cy + r` (half-open), where
/// `(x - cx)² + (y - cy)² ≤ r²` (a disc), `|x - cx| + |y - cy| ≤ r` (a diamond), or always (a
/// square).
///
/// Errors: a side of 0 or above [`MAX_SIDE`]; `count` above [`MAX_OBSTACLES`]; `min_radius` 0;
/// `max_radius` below `min_radius` or above [`MAX_SIDE`]; `count` boxes of radius `max_radius`
/// (each clipped to the map) covering more than [`MAX_SCATTER_CELLS`] cells.
///
/// ```
/// use portolan::random_grid::{scattered_obstacles_grid, ScatterOptions};
/// let open = scattered_obstacles_grid(64, 64, &ScatterOptions::new(0, 1, 1), 1).unwrap();
/// assert_eq!(open.passable_count(), 64 * 64);
/// // One square or diamond or disc of radius 2: at most its 4 × 4 box.
/// let one = scattered_obstacles_grid(64, 64, &ScatterOptions::new(1, 2, 2), 1).unwrap();
/// assert!((64 * 64 - 16..64 * 64).contains(&one.passable_count()));
/// assert!(scattered_obstacles_grid(64, 64, &ScatterOptions::new(1, 0, 2), 1).is_err());
/// ```
pub fn scattered_obstacles_grid(
    width: usize,
    height: usize,
    options: &ScatterOptions,
    seed: u64,
) -> Result<GridMap, GridGenError> {
    check_size(width, height)?;
    let ScatterOptions {
        count,
        min_radius,
        max_radius,
    } = *options;
    if count > MAX_OBSTACLES {
        return Err(bad("count", "must be at most MAX_OBSTACLES (1,048,576)"));
    }
    if min_radius == 0 {
        return Err(bad("min_radius", "must be at least 1"));
    }
    if max_radius < min_radius {
        return Err(bad("max_radius", "must be at least min_radius"));
    }
    if max_radius > MAX_SIDE {
        return Err(bad("max_radius", "must be at most MAX_SIDE"));
    }
    // (Each factor is at most 2²⁰ or 2¹⁵: the product fits a u64.)
    let side = |n: usize| (2 * max_radius).min(n) as u64;
    if count as u64 * side(width) * side(height) > MAX_SCATTER_CELLS {
        return Err(bad(
            "count",
            "count boxes of max_radius would cover more than MAX_SCATTER_CELLS (2^32) cells",
        ));
    }
    let mut blocked = vec![false; width * height];
    let mut rng = Rng::new(seed);
    for _ in 0..count {
        let (cx, cy) = (
            rng.range_usize(0, width - 1) as i64,
            rng.range_usize(0, height - 1) as i64,
        );
        let r = rng.range_usize(min_radius, max_radius) as i64;
        let shape = rng.next_f64();
        let inside = |dx: i64, dy: i64| {
            if shape < 0.5 {
                dx * dx + dy * dy <= r * r
            } else if shape < 0.8 {
                dx.abs() + dy.abs() <= r
            } else {
                true
            }
        };
        for y in (cy - r).max(0)..(cy + r).min(height as i64) {
            for x in (cx - r).max(0)..(cx + r).min(width as i64) {
                if inside(x - cx, y - cy) {
                    blocked[y as usize * width + x as usize] = true;
                }
            }
        }
    }
    // The length is width × height by construction.
    Ok(GridMap::new(width, height, blocked).expect("sizes agree"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::movingai::{read_map, write_map};
    use crate::{build, BuildOptions};

    #[test]
    fn random_density_is_close_and_seeded() {
        let a = random_blocked_grid(200, 100, 0.2, 42).unwrap();
        let blocked = 200 * 100 - a.passable_count();
        // 20,000 Bernoulli(0.2) draws: mean 4,000, standard deviation 57.
        assert!((3700..4300).contains(&blocked), "{blocked}");
        assert_eq!(a, random_blocked_grid(200, 100, 0.2, 42).unwrap());
        assert_ne!(a, random_blocked_grid(200, 100, 0.2, 43).unwrap());
        assert_eq!(
            random_blocked_grid(5, 5, 1.0, 0).unwrap().passable_count(),
            0
        );
    }

    #[test]
    fn bad_parameters_are_named() {
        let field = |e: GridGenError| match e {
            GridGenError::BadParameter { field, .. } => field,
        };
        assert_eq!(
            field(random_blocked_grid(0, 5, 0.2, 0).unwrap_err()),
            "width"
        );
        assert_eq!(
            field(random_blocked_grid(5, 0, 0.2, 0).unwrap_err()),
            "height"
        );
        assert_eq!(
            field(random_blocked_grid(MAX_SIDE + 1, 5, 0.2, 0).unwrap_err()),
            "width"
        );
        assert_eq!(
            field(random_blocked_grid(5, 5, f64::NAN, 0).unwrap_err()),
            "density"
        );
        assert_eq!(
            field(random_blocked_grid(5, 5, -0.1, 0).unwrap_err()),
            "density"
        );
        let o = MazeOptions::default();
        assert_eq!(field(maze_grid(0, 5, &o, 0).unwrap_err()), "width");
        assert_eq!(
            field(maze_grid(9, 9, &MazeOptions::new(0, 1), 0).unwrap_err()),
            "corridor"
        );
        assert_eq!(
            field(maze_grid(9, 9, &MazeOptions::new(2, 0), 0).unwrap_err()),
            "wall"
        );
        assert_eq!(field(maze_grid(4, 9, &o, 0).unwrap_err()), "corridor");
        assert!(maze_grid(5, 5, &o, 0).is_ok());
        let city =
            |street, min, max| city_blocks_grid(40, 30, &CityOptions::new(street, min, max), 0);
        assert_eq!(field(city(0, 8, 50).unwrap_err()), "street");
        assert_eq!(field(city(3, 3, 50).unwrap_err()), "min_block");
        assert_eq!(field(city(3, 8, 7).unwrap_err()), "max_block");
        assert_eq!(field(city(3, 8, MAX_SIDE + 1).unwrap_err()), "max_block");
        assert_eq!(
            field(city_blocks_grid(40, 0, &CityOptions::default(), 0).unwrap_err()),
            "height"
        );
        assert!(city(1, 2, 2).is_ok());
        let scatter = |count, min, max| {
            scattered_obstacles_grid(40, 30, &ScatterOptions::new(count, min, max), 0)
        };
        assert_eq!(
            field(scatter(MAX_OBSTACLES + 1, 1, 2).unwrap_err()),
            "count"
        );
        assert_eq!(field(scatter(5, 0, 2).unwrap_err()), "min_radius");
        assert_eq!(field(scatter(5, 3, 2).unwrap_err()), "max_radius");
        assert_eq!(
            field(scatter(5, 3, MAX_SIDE + 1).unwrap_err()),
            "max_radius"
        );
        assert!(scatter(5, 1, 1).is_ok());
        // Hours of work within each parameter's own bounds: refused at once.
        let huge = ScatterOptions::new(MAX_OBSTACLES, MAX_SIDE, MAX_SIDE);
        let e = scattered_obstacles_grid(MAX_SIDE, MAX_SIDE, &huge, 0).unwrap_err();
        assert_eq!(field(e), "count");
        let o = CityOptions::default().with_notches(usize::MAX);
        assert_eq!(
            field(city_blocks_grid(40, 30, &o, 0).unwrap_err()),
            "notches"
        );
    }

    #[test]
    fn maze_is_one_piece_with_walls_where_expected() {
        let o = MazeOptions::new(3, 2);
        let map = maze_grid(63, 50, &o, 9).unwrap();
        // Rooms: (63 - 2) / 5 = 12 across, (50 - 2) / 5 = 9 down; 108 rooms of 9 cells, and a
        // spanning tree's 107 openings of 3 × 2 cells.
        assert_eq!(map.passable_count(), 108 * 9 + 107 * 6);
        // The border and the strip right of the last room are blocked.
        for y in 0..50 {
            assert!(map.is_blocked(0, y) && map.is_blocked(1, y));
            assert!(map.is_blocked(62, y) && map.is_blocked(61, y));
        }
        let mesh = build(&map.to_scene(), &BuildOptions::default()).unwrap();
        let comps = mesh.connected_components();
        assert!(comps.iter().all(|&c| c == comps[0]));
        assert_eq!(map, maze_grid(63, 50, &o, 9).unwrap());
    }

    #[test]
    fn city_streets_are_one_piece_around_blocks_of_the_sizes_asked() {
        let o = CityOptions::new(2, 6, 20).with_notches(0);
        let map = city_blocks_grid(97, 83, &o, 4).unwrap();
        // The top row and the left column are street; so is every cell of a row (column) that
        // begins a row of blocks (a block), which no run of blocked cells crosses.
        assert!((0..97).all(|x| !map.is_blocked(x, 0) && !map.is_blocked(x, 1)));
        assert!((0..83).all(|y| !map.is_blocked(0, y) && !map.is_blocked(1, y)));
        // Runs of blocked cells along a row are at most max_block - street long.
        for y in 0..83 {
            let mut run = 0;
            for x in 0..97 {
                run = if map.is_blocked(x, y) { run + 1 } else { 0 };
                assert!(run <= 18, "a block wider than 20 at ({x}, {y})");
            }
        }
        // Without notches there are no pockets: the free space is one piece.
        let mesh = build(&map.to_scene(), &BuildOptions::default()).unwrap();
        let comps = mesh.connected_components();
        assert!(comps.iter().all(|&c| c == comps[0]));
        assert_eq!(map, city_blocks_grid(97, 83, &o, 4).unwrap());
        assert_ne!(map, city_blocks_grid(97, 83, &o, 5).unwrap());
        // Notches only clear cells.
        let ragged = city_blocks_grid(97, 83, &CityOptions::new(2, 6, 20), 4).unwrap();
        assert!(ragged.passable_count() > map.passable_count());
        for y in 0..83 {
            for x in 0..97 {
                assert!(map.is_blocked(x, y) || !ragged.is_blocked(x, y));
            }
        }
    }

    #[test]
    fn scattered_obstacles_block_their_shapes_and_are_seeded() {
        // One obstacle on a map just its size: a disc, a diamond or a square of radius 5.
        let mut shapes = std::collections::BTreeSet::new();
        for seed in 0..40 {
            let map =
                scattered_obstacles_grid(200, 150, &ScatterOptions::new(1, 5, 5), seed).unwrap();
            let blocked = 200 * 150 - map.passable_count();
            // Clipped by the map's edge, or whole: disc 79, diamond 59, square 100 cells (in
            // the box of x from cx - 5 to cx + 4, y likewise).
            assert!(blocked <= 100, "{blocked}");
            shapes.insert(blocked);
            assert_eq!(
                map,
                scattered_obstacles_grid(200, 150, &ScatterOptions::new(1, 5, 5), seed).unwrap()
            );
        }
        // The three shapes, whole, among 40 seeds.
        for whole in [59, 79, 100] {
            assert!(shapes.contains(&whole), "{shapes:?}");
        }
        let dense = scattered_obstacles_grid(300, 300, &ScatterOptions::default(), 3).unwrap();
        assert_ne!(
            dense,
            scattered_obstacles_grid(300, 300, &ScatterOptions::default(), 4).unwrap()
        );
    }

    #[test]
    fn generated_maps_round_trip_through_map_files() {
        for map in [
            random_blocked_grid(33, 17, 0.3, 5).unwrap(),
            maze_grid(40, 21, &MazeOptions::default(), 5).unwrap(),
            city_blocks_grid(45, 38, &CityOptions::default(), 5).unwrap(),
            scattered_obstacles_grid(45, 38, &ScatterOptions::new(9, 2, 8), 5).unwrap(),
        ] {
            let mut bytes = Vec::new();
            write_map(&map, &mut bytes).unwrap();
            assert_eq!(read_map(&bytes[..]).unwrap(), map);
        }
    }
}
