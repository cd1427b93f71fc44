//! Cells: each view polygon's entries narrowed to what a point of one part of it can take, and
//! split into those it surely takes and those still to test.
//!
//! # Why
//! A view query's first step ([`CornerGraph::view_query`], step 2) tests every entry of each
//! endpoint's polygon: is its corner taut from the endpoint, and seen from it (its cones)? That
//! was the largest part of a view query on every map (a quarter to a third of it in `perf`), and
//! endpoints fall most often in the largest polygons, which see the most corners: 230 entries
//! per endpoint on AcrosstheCape's scenario against 75 per polygon on average. Both tests are
//! sides of lines through the corner, and over a small part of a polygon most of them come out
//! the same for every point: an entry whose corner is taut from no point of the part, or seen
//! from none, is never taken there; one taut from every point and seen from every point is
//! always taken, with no test.
//!
//! # The cells
//! A polygon with more than [`SPLIT_MIN`] entries is cut by its bounding box into [`COARSE`] ×
//! [`COARSE`] cells, or [`FINE`] × [`FINE`] past [`FINE_MIN`] entries where the budget leaves
//! room (see "Cost"), by grid lines kept as exact `f64` values (a point's cell is found by
//! comparing its coordinates with them, exactly, so a point always lies in the closed box of its
//! cell); a smaller polygon is one cell. Per cell, the entries are kept except those never taken
//! in it, the surely taken ones first. Each is decided exactly, on the points that bound the
//! part (the polygon's vertices, or the cell box's corners: the part lies in both hulls): the
//! tests are signs of affine functions of the point, so a sign shared by every vertex of a
//! convex set holds on all of it.
//! - *Never taken*: the corner is not a corner, or the part lies strictly inside one of the two
//!   open cones where the walls are on both sides of the line to the corner (not taut), or,
//!   for each of the entry's cones, strictly outside one of its two sides (not seen).
//! - *Surely taken*: the part lies in one of the two closed cones where both walls are on one
//!   side (taut), and the entry has no cones or the part lies inside one of them (seen).
//!
//! Anything else is tested per query as before. So the query takes exactly the entries it took
//! without cells, in another order within a polygon (the surely taken first): the length it
//! finds is the same, and so is the path unless several are shortest, where the first of equal
//! sums wins (the same one for every query on one index).
//!
//! # Cost
//! Measured on the dao maps and AcrosstheCape with their scenarios before this was written, a
//! 3 × 3 grid left 0.61–0.69 of the entries an endpoint reads, about a third of them taken
//! untested, so 0.44–0.46 of its tests; the figures per map and the query times are in
//! BENCHMARKS.md ("Fast search", "Session 24"). Cutting the polygons of more than [`FINE_MIN`]
//! entries 5 × 5 instead left 0.64–0.85 of the 3 × 3 grid's tests and saved 1–9% of a corner
//! query's time, for 6–22% more index ("Session 25", with the fit's choice forced equal on both
//! sides); finer grids did not clearly save more (an 8 × 8 grid on every cut polygon: 0–5%,
//! the fit's choice not forced). Memory: 2 bytes per (cell, entry) kept, 8 per cell, 8 per
//! polygon and 8 per grid line; the budget drops the cells after the edges' strips
//! ([`Views::fit_memory`]), and a query without them tests every entry of the polygon. A build
//! cuts finely where the strips still fit with the cells, coarsely where only that leaves them
//! room, and keeps the finest cells that fit, without the strips, where neither does
//! ([`Views::add_cells_and_strips`]). Build: per entry of a cut polygon,
//! its lines' signs at the polygon's vertices and at the grid's `(g + 1)²` points, in
//! parallel over a block of polygons at a time, stopped at the first block past the room.

use super::views::Views;
use super::{CornerGraph, NONE};
use crate::geom::{orient, Aabb, Orientation, Vec2};
use crate::mesh::{NavMesh, PolyId};

/// The cells per side of a cut polygon: [`COARSE`], or [`FINE`] for a polygon of more than
/// [`FINE_MIN`] entries where the budget leaves room for that
/// ([`Views::add_cells_and_strips`]).
pub(crate) const COARSE: usize = 3;

/// The cells per side of a polygon of more than [`FINE_MIN`] entries, cut finely.
pub(crate) const FINE: usize = 5;

/// Polygons with more entries than this are cut into [`FINE`] × [`FINE`] cells when cut finely.
pub(crate) const FINE_MIN: usize = 48;

/// The most cells per side a loaded index may give a polygon.
pub(crate) const MAX_GRID: usize = 16;

/// Polygons with more entries than this are cut into cells; the others are one cell.
pub(crate) const SPLIT_MIN: usize = 24;

/// The cells per side of a polygon of `entries` entries, cut finely or not.
fn grid_for(entries: usize, fine: bool) -> usize {
    if entries <= SPLIT_MIN {
        1
    } else if fine && entries > FINE_MIN {
        FINE
    } else {
        COARSE
    }
}

/// Per polygon its cells, per cell the entries kept (see the [module docs](self)).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Cells {
    /// Polygon `p`'s cells are `start[p]..start[p + 1]`: one, or `g²` row by row for a
    /// polygon cut by a grid of `g` cells per side.
    pub(super) start: Vec<u32>,
    /// Polygon `p`'s grid lines are `lines[line_at[p]..line_at[p + 1]]`: `g - 1` for `x`, then
    /// as many for `y`; none for a polygon that is one cell.
    pub(super) line_at: Vec<u32>,
    pub(super) lines: Vec<f64>,
    /// Cell `c` keeps `entries[at[c]..at[c + 1]]`: entries of its polygon, by their index
    /// among the polygon's (two bytes: a polygon with more than 65,536 entries leaves the views
    /// without cells), the surely taken ones `at[c]..sure[c]`, those to test after them.
    pub(super) at: Vec<u32>,
    pub(super) sure: Vec<u32>,
    pub(super) entries: Vec<u16>,
}

/// Orientation bits: which signs a line took at a set of points.
const CW: u8 = 1;
const CCW: u8 = 2;
const ON: u8 = 4;

fn bit(o: Orientation) -> u8 {
    match o {
        Orientation::Clockwise => CW,
        Orientation::CounterClockwise => CCW,
        Orientation::Collinear => ON,
    }
}

/// The signs of the lines an entry's tests use, at one set of points: (walls `u`, `w`, then
/// per cone its right and left sides), each the [`bit`]s of `orient(corner, through, point)`.
fn signs(from: Vec2, through: &[Vec2], points: &[Vec2], out: &mut Vec<u8>) {
    out.clear();
    out.extend(
        through
            .iter()
            .map(|&t| points.iter().fold(0, |m, &x| m | bit(orient(from, t, x)))),
    );
}

/// Whether an entry is never taken, or surely taken, on a part bounded by each of `sets` (the
/// signs of its lines at each set, in [`signs`]' order): `Some(false)` never, `Some(true)`
/// surely, `None` to test.
fn decide(sets: [&[u8]; 2], cones: usize) -> Option<bool> {
    // Some set whose points all took signs within `allowed`.
    let all = |line: usize, allowed: u8| sets.iter().any(|s| s[line] & !allowed == 0);
    // Not taut anywhere: strictly inside an open cone where the walls are on both sides.
    if (all(0, CW) && all(1, CCW)) || (all(0, CCW) && all(1, CW)) {
        return Some(false);
    }
    let cone = |k: usize| (2 + 2 * k, 3 + 2 * k);
    // Seen from nowhere: strictly outside a side of every cone.
    if cones > 0
        && (0..cones).all(|k| {
            let (r, l) = cone(k);
            all(r, CW) || all(l, CCW)
        })
    {
        return Some(false);
    }
    let taut = (all(0, CCW | ON) && all(1, CCW | ON)) || (all(0, CW | ON) && all(1, CW | ON));
    let seen = cones == 0
        || (0..cones).any(|k| {
            let (r, l) = cone(k);
            all(r, CCW | ON) && all(l, CW | ON)
        });
    (taut && seen).then_some(true)
}

impl Cells {
    /// [`Cells::build_within`] with no limit.
    #[cfg(test)]
    pub(super) fn build(mesh: &NavMesh, graph: &CornerGraph, views: &Views, fine: bool) -> Cells {
        Cells::build_within(mesh, graph, views, fine, usize::MAX).expect("no limit")
    }

    /// The cells of `views` on `mesh` (their entries' corners' walls from `graph`), the
    /// polygons of more than [`FINE_MIN`] entries cut finely or not, within `max_bytes` of
    /// memory: `None` once they pass it; no cells where a polygon has more entries than two
    /// bytes index. The polygons are cut a block at a time (in parallel within a block), and
    /// the cutting stops at the first block past the room, so cells that do not fit are not
    /// made whole first.
    pub(super) fn build_within(
        mesh: &NavMesh,
        graph: &CornerGraph,
        views: &Views,
        fine: bool,
        max_bytes: usize,
    ) -> Option<Cells> {
        const BLOCK: usize = 4096;
        let n = mesh.polygon_count();
        if (0..n).any(|p| views.entries(PolyId(p as u32)).len() > usize::from(u16::MAX) + 1) {
            return Some(Cells::default());
        }
        let polygon = |p: usize| polygon_cells(mesh, graph, views, PolyId(p as u32), fine);
        // What the cells will hold, counted block by block: cells, entries kept, grid lines;
        // their bytes as `memory_bytes` counts them, with the offsets those lengths give
        // (`start` and `line_at` per polygon, `at` and `sure` per cell).
        let (mut count, mut kept, mut lines) = (0, 0, 0);
        let bytes = |count: usize, kept: usize, lines: usize| {
            bytes_of(2 * (n + 1) + 2 * count + 1, kept, lines)
        };
        let mut per: Vec<(Vec<f64>, CellLists)> = Vec::with_capacity(n);
        for first in (0..n).step_by(BLOCK) {
            let block = first..(first + BLOCK).min(n);
            #[cfg(feature = "parallel")]
            let cut: Vec<(Vec<f64>, CellLists)> = {
                use rayon::prelude::*;
                block.into_par_iter().map(polygon).collect()
            };
            #[cfg(not(feature = "parallel"))]
            let cut: Vec<(Vec<f64>, CellLists)> = block.map(polygon).collect();
            for (l, list) in &cut {
                lines += l.len();
                count += list.len();
                kept += list.iter().map(|x| x.1.len()).sum::<usize>();
            }
            if bytes(count, kept, lines) > max_bytes {
                return None;
            }
            per.extend(cut);
        }
        // Allocated once at their sizes: the budget counts the lengths.
        let mut cells = Cells {
            start: Vec::with_capacity(n + 1),
            line_at: Vec::with_capacity(n + 1),
            lines: Vec::with_capacity(lines),
            at: Vec::with_capacity(count + 1),
            sure: Vec::with_capacity(count),
            entries: Vec::with_capacity(kept),
        };
        cells.start.push(0);
        cells.line_at.push(0);
        for (grid, list) in per {
            for (sure, entries) in list {
                cells.at.push(cells.entries.len() as u32);
                cells.sure.push(cells.entries.len() as u32 + sure);
                cells.entries.extend(entries);
            }
            cells.lines.extend(grid);
            cells.line_at.push(cells.lines.len() as u32);
            cells.start.push(cells.at.len() as u32);
        }
        cells.at.push(cells.entries.len() as u32);
        debug_assert_eq!(cells.memory_bytes(), bytes(count, kept, lines));
        Some(cells)
    }

    /// `true` without cells (dropped by the budget, or a polygon with more entries than two
    /// bytes index).
    pub(crate) fn is_empty(&self) -> bool {
        self.start.is_empty()
    }

    /// The entries of polygon `p` that `x`, a point of it, may take, by their index among the
    /// polygon's: (surely taken, to test); `None` without cells.
    #[inline]
    pub(super) fn lists(&self, p: PolyId, x: Vec2) -> Option<(&[u16], &[u16])> {
        let first = *self.start.get(p.index())? as usize;
        let (gx, gy) = self.lines_of(p);
        let ix: usize = gx.iter().map(|&g| usize::from(x.x >= g)).sum();
        let iy: usize = gy.iter().map(|&g| usize::from(x.y >= g)).sum();
        let c = first + iy * (gx.len() + 1) + ix;
        let (a, s, b) = (
            self.at[c] as usize,
            self.sure[c] as usize,
            self.at[c + 1] as usize,
        );
        Some((&self.entries[a..s], &self.entries[s..b]))
    }

    /// Polygon `p`'s grid lines, for `x` and for `y` (empty for a polygon that is one cell).
    #[inline]
    pub(super) fn lines_of(&self, p: PolyId) -> (&[f64], &[f64]) {
        let l = &self.lines[self.line_at[p.index()] as usize..self.line_at[p.index() + 1] as usize];
        l.split_at(l.len() / 2)
    }

    /// Whether cutting finely would cut some polygon of `views` otherwise than coarsely.
    pub(super) fn fine_differs(views: &Views, polygons: usize) -> bool {
        (0..polygons).any(|p| {
            let entries = views.entries(PolyId(p as u32)).len();
            grid_for(entries, true) != grid_for(entries, false)
        })
    }

    /// Heap memory held, in bytes.
    pub(crate) fn memory_bytes(&self) -> usize {
        let offsets = self.start.len() + self.line_at.len() + self.at.len() + self.sure.len();
        bytes_of(offsets, self.entries.len(), self.lines.len())
    }
}

/// The bytes of cells whose arrays hold `offsets` offsets in all (`start`, `line_at`, `at`,
/// `sure`: 4 bytes each), `entries` entries (2 bytes) and `lines` grid lines (8 bytes).
fn bytes_of(offsets: usize, entries: usize, lines: usize) -> usize {
    offsets * 4 + entries * 2 + lines * 8
}

/// A polygon's cells: per cell, how many entries are surely taken, and the entries kept (by
/// their index among the polygon's), those first.
type CellLists = Vec<(u32, Vec<u16>)>;

/// Polygon `p`'s grid lines and cells, cut finely or not.
fn polygon_cells(
    mesh: &NavMesh,
    graph: &CornerGraph,
    views: &Views,
    p: PolyId,
    fine: bool,
) -> (Vec<f64>, CellLists) {
    let ring: Vec<Vec2> = mesh.polygon_points(p).collect();
    let entries = views.entries(p);
    let side = grid_for(entries.len(), fine);
    let cut = side > 1;
    // (The vertices' least and greatest coordinates, exactly.)
    let Aabb { min: lo, max: hi } = mesh.polygon_bounds(p);
    // The grid's coordinates, the box's sides included (as they are, not computed: every point
    // of the polygon lies between them): `xs[i]..=xs[i + 1]` is column `i`.
    let at = |a: f64, b: f64, i: usize| {
        if i == 0 {
            a
        } else if i == side {
            b
        } else {
            a + (b - a) * (i as f64 / side as f64)
        }
    };
    let xs: Vec<f64> = (0..=side).map(|i| at(lo.x, hi.x, i)).collect();
    let ys: Vec<f64> = (0..=side).map(|i| at(lo.y, hi.y, i)).collect();
    let lines: Vec<f64> = xs[1..side].iter().chain(&ys[1..side]).copied().collect();
    let cells = side * side;
    let mut lists: Vec<(Vec<u16>, Vec<u16>)> = vec![Default::default(); cells];
    let vs = mesh.vertices();
    let (mut through, mut at_ring, mut at_grid) = (Vec::new(), Vec::new(), Vec::new());
    let grid: Vec<Vec2> = ys
        .iter()
        .flat_map(|&y| xs.iter().map(move |&x| Vec2::new(x, y)))
        .collect();
    let (mut at_point, mut box_signs) = (Vec::new(), Vec::new());
    for (local, e) in entries.enumerate() {
        // (At most 65,536 entries: `Cells::build_within`.)
        let local = local as u16;
        let c = views.corner[e] as usize;
        let [u, w] = graph.turns[c];
        if u == NONE {
            continue; // taut from nowhere
        }
        through.clear();
        through.extend([vs[u as usize], vs[w as usize]]);
        let cones = views.cones_of(e);
        through.extend(
            cones
                .iter()
                .flat_map(|&[r, l]| [vs[r as usize], vs[l as usize]]),
        );
        signs(vs[c], &through, &ring, &mut at_ring);
        if cut {
            // Each line's sign at each of the (side + 1)² grid points, once per entry; a cell
            // box's are its four corners'.
            at_grid.clear();
            for &x in &grid {
                signs(vs[c], &through, &[x], &mut at_point);
                at_grid.extend_from_slice(&at_point);
            }
        }
        let n = through.len();
        for (k, (sure, test)) in lists.iter_mut().enumerate() {
            let kept = if cut {
                let (i, j) = (k % side, k / side);
                box_signs.clear();
                box_signs.resize(n, 0);
                for (di, dj) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let g = (j + dj) * (side + 1) + i + di;
                    for (m, s) in box_signs.iter_mut().zip(&at_grid[g * n..(g + 1) * n]) {
                        *m |= s;
                    }
                }
                decide([&at_ring, &box_signs], cones.len())
            } else {
                decide([&at_ring, &at_ring], cones.len())
            };
            match kept {
                Some(false) => {}
                Some(true) => sure.push(local),
                None => test.push(local),
            }
        }
    }
    let list = lists
        .into_iter()
        .map(|(mut sure, test)| {
            let n = sure.len() as u32;
            sure.extend(test);
            (n, sure)
        })
        .collect();
    (lines, list)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::movingai::read_map;
    use crate::search::polyanya::for_each_polygon;
    use crate::{build, BuildOptions, Scene};

    /// At every point tried, a polygon's cell takes exactly what testing all of the polygon's
    /// entries takes: every entry it says is surely taken is taken (exact tests), and every
    /// entry taken is among those it keeps. Points: each polygon's vertices, its edges'
    /// midpoints, random points inside, and points exactly on its grid lines and at their
    /// crossings (where a point could belong to two cells), on the default map and den011d.
    #[test]
    fn a_cell_takes_exactly_what_its_polygon_takes() {
        let den = crate::testkit::data_map("movingai/dao/den011d.map").to_scene();
        let mut rng = crate::random::Rng::new(23);
        // Per cut (fine, coarse): points, of them on grid lines, entries sure, tested, taken;
        // and whether the fine cut cut some polygon 5 × 5.
        let mut counts = [[0usize; 5]; 2];
        let mut cut_finely = false;
        for scene in [Scene::default_map(), den] {
            let mesh = build(&scene, &BuildOptions::cdt()).expect("builds");
            let graph = CornerGraph::build_with_views(&mesh);
            let views = graph.views.as_ref().expect("views");
            assert!(!views.cells.start.is_empty(), "cells within the budget");
            // Cut finely and coarsely.
            for (pass, fine) in [true, false].into_iter().enumerate() {
                let cells = Cells::build(&mesh, &graph, views, fine);
                let [points, on_lines, sure, tested, taken] = &mut counts[pass];
                for p in mesh.polygons() {
                    cut_finely |= fine && cells.lines_of(p).0.len() == FINE - 1;
                    let ring: Vec<Vec2> = mesh
                        .polygon_vertices(p)
                        .iter()
                        .map(|&v| mesh.vertex(v))
                        .collect();
                    let mut xs = ring.clone();
                    for (k, &a) in ring.iter().enumerate() {
                        xs.push((a + ring[(k + 1) % ring.len()]) * 0.5);
                    }
                    let inside = |rng: &mut crate::random::Rng| {
                        let w: Vec<f64> = ring.iter().map(|_| rng.next_f64() + 1e-3).collect();
                        let sum: f64 = w.iter().sum();
                        ring.iter()
                            .zip(&w)
                            .fold(Vec2::new(0.0, 0.0), |q, (&v, wi)| q + v * (wi / sum))
                    };
                    for _ in 0..6 {
                        xs.push(inside(&mut rng));
                    }
                    // On the grid lines, where they cross the polygon, and at their crossings.
                    let (gx, gy) = cells.lines_of(p);
                    let mut lined = Vec::new();
                    for _ in 0..4 {
                        let q = inside(&mut rng);
                        lined.extend(gx.iter().map(|&x| Vec2::new(x, q.y)));
                        lined.extend(gy.iter().map(|&y| Vec2::new(q.x, y)));
                    }
                    lined.extend(
                        gx.iter()
                            .flat_map(|&x| gy.iter().map(move |&y| Vec2::new(x, y))),
                    );
                    let lines_from = xs.len();
                    xs.extend(lined);
                    for (k, x) in xs.into_iter().enumerate() {
                        // Every polygon a query at `x` reads (those of its location).
                        let Some(loc) = mesh.locate_in(p, x) else {
                            continue;
                        };
                        *points += 1;
                        *on_lines += usize::from(k >= lines_from);
                        for_each_polygon(&mesh, loc, |q| {
                            let first = views.entries(q).start;
                            let (s, t) = cells.lists(q, x).expect("cells");
                            let kept: Vec<usize> =
                                s.iter().chain(t).map(|&e| first + usize::from(e)).collect();
                            for e in views.entries(q) {
                                let c = views.corner[e];
                                if graph.taut_from(&mesh, x, c) && views.sees(&mesh, e, x) {
                                    assert!(kept.contains(&e), "{q:?} at {x:?}: entry {e} dropped");
                                    *taken += 1;
                                }
                            }
                            for &e in s {
                                let e = first + usize::from(e);
                                let c = views.corner[e];
                                assert!(
                                    graph.taut_from(&mesh, x, c) && views.sees(&mesh, e, x),
                                    "{q:?} at {x:?}: entry {e} said surely taken, but is not"
                                );
                            }
                            *sure += s.len();
                            *tested += t.len();
                        });
                    }
                }
            }
        }
        assert!(cut_finely, "no polygon cut finely");
        for [points, on_lines, sure, tested, taken] in counts {
            assert!(
                points > 8_000 && on_lines > 3_000 && sure > 50_000 && taken > sure + 20_000,
                "{points} points ({on_lines} on grid lines), {sure} sure, {tested} tested, \
                 {taken} taken"
            );
        }
    }

    /// What the cells save, per endpoint of the scenarios of three maps (BENCHMARKS.md, "Session
    /// 24", prints its table with `--nocapture`): the entries a query reads and tests with
    /// cells, against all of its polygons' entries without. Fewer than half are tested on each.
    #[test]
    fn cells_spare_most_tests_on_the_scenarios() {
        for (dir, name) in [
            ("movingai/dao", "lak303d"),
            ("movingai/dao", "den011d"),
            ("gppc", "AcrosstheCape"),
        ] {
            let dir = crate::testkit::data_dir().join(dir);
            let open = |f: String| std::fs::File::open(dir.join(f)).expect("data file");
            let map = read_map(open(format!("{name}.map"))).expect("valid map");
            let mesh = build(&map.to_scene(), &BuildOptions::cdt()).expect("builds");
            let graph = CornerGraph::build_with_views(&mesh);
            let views = graph.views.as_ref().expect("views");
            let queries =
                crate::io::scenario::read(open(format!("{name}.map.scen"))).expect("scenario");
            let (mut all, mut sure, mut tested) = (0, 0, 0);
            for x in queries.iter().flat_map(|q| [q.start, q.goal]) {
                for_each_polygon(&mesh, mesh.locate(x), |p| {
                    let (s, t) = views.cells.lists(p, x).expect("cells");
                    all += views.entries(p).len();
                    sure += s.len();
                    tested += t.len();
                });
            }
            let per = |k: usize| k as f64 / (2 * queries.len()) as f64;
            eprintln!(
                "{name}: {:.1} entries per endpoint without cells; with them {:.1} tested + {:.1} \
                 taken untested",
                per(all),
                per(tested),
                per(sure)
            );
            assert!(2 * tested < all && sure + tested < all, "{name}");
        }
    }

    /// The decisions on a corner at the origin with walls along −x and −y (the obstacle is the
    /// quadrant x < 0, y < 0), no cones: taut in the quadrants x > 0, y < 0 and x < 0, y > 0
    /// (closed), not in the open quadrant x > 0, y > 0 facing the walls.
    #[test]
    fn decisions_follow_the_signs_of_every_point() {
        let (c, u, w) = (
            Vec2::new(0.0, 0.0),
            Vec2::new(-1.0, 0.0),
            Vec2::new(0.0, -1.0),
        );
        let at = |pts: &[Vec2]| {
            let mut s = Vec::new();
            signs(c, &[u, w], pts, &mut s);
            s
        };
        let facing = at(&[Vec2::new(1.0, 1.0), Vec2::new(2.0, 3.0)]);
        assert_eq!(decide([&facing, &facing], 0), Some(false));
        let taut = at(&[Vec2::new(1.0, -1.0), Vec2::new(3.0, 0.0)]);
        assert_eq!(decide([&taut, &taut], 0), Some(true));
        // Across the line x = 0: some points taut, some not.
        let across = at(&[Vec2::new(1.0, 1.0), Vec2::new(-1.0, 1.0)]);
        assert_eq!(decide([&across, &across], 0), None);
        // Either set deciding is enough (the part lies in both hulls, here the second's).
        assert_eq!(decide([&across, &facing], 0), Some(false));
        let wide = at(&[
            Vec2::new(1.0, -1.0),
            Vec2::new(3.0, 0.0),
            Vec2::new(1.0, 1.0),
        ]);
        assert_eq!(decide([&wide, &wide], 0), None);
        assert_eq!(decide([&wide, &taut], 0), Some(true));
        // A cone between the rays to (1, −1) (its right side) and (1, 0) (its left): the points
        // with −x ≤ y ≤ 0, in the taut quadrant x > 0, y < 0.
        let mut s = Vec::new();
        let cone_lines = [u, w, Vec2::new(1.0, -1.0), Vec2::new(1.0, 0.0)];
        signs(
            c,
            &cone_lines,
            &[Vec2::new(2.0, -1.0), Vec2::new(3.0, 0.0)],
            &mut s,
        );
        assert_eq!(decide([&s, &s], 1), Some(true));
        signs(
            c,
            &cone_lines,
            &[Vec2::new(1.0, -2.0), Vec2::new(1.0, -3.0)],
            &mut s,
        );
        assert_eq!(decide([&s, &s], 1), Some(false));
        signs(
            c,
            &cone_lines,
            &[Vec2::new(2.0, -1.0), Vec2::new(1.0, -3.0)],
            &mut s,
        );
        assert_eq!(decide([&s, &s], 1), None);
    }
}
