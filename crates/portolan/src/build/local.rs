//! Local free space: every solid thing of a scene (an obstacle, an inflation piece, the outside of
//! the walkable region) put on the tiles it touches, so that a tile's free space is computed from
//! what is in or near it and nothing else.
//!
//! A tile's free space is `(region ∩ tile) − ∪ solids`, where each solid is an obstacle grown by
//! the agent radius (grown *before* anything is cut, so clearance is right across tile borders).
//! The obstacles of a grid map are few and huge (one traced outline with holes can span the whole
//! map), so handing every tile the whole solids that touch it costs O(map) per tile. Instead each
//! solid (a *unit*: the rings of one obstacle with its holes, or one inflation piece, whose
//! non-zero fill is solid) is *placed* once:
//!
//! 1. **Pre-cut.** Every edge crossing an inner tile border gets a vertex there, computed from
//!    the edge's two ends alone (x or y set to the border's exactly). The overlays later only meet
//!    these points, never compute their own, so both sides of a border are cut at identical points
//!    whatever else is in their tiles.
//! 2. **Whole or split.** A small unit (vertices × tiles touched at most [`WHOLE_LIMIT`]) is handed
//!    whole to every tile its box touches (shared, not copied). A large one is split per tile by
//!    recursive halving: intersect with the left and right halves of its tile range, recurse into
//!    each, down to single tiles (O(n log t) for n vertices over t tiles, rather than O(n t)).
//! 3. **Per tile**, one overlay: region piece minus the solids placed there, then CDT + merge.
//!
//! The walkable region is placed the same way, always split (it is the overlay's subject and must
//! lie in the tile); without a boundary polygon it is the tile's rectangle and costs nothing.
//!
//! Every overlay runs on the grid of one frame (the map's bounds grown by the agent radius), so a
//! point has the same integer coordinates in every tile. A unit reaching outside the frame is first
//! clipped to it (on its own grid: only a static scene's border-crossing obstacles do that).
//!
//! Cost of a tile: O((m + k) log m) for the m vertices placed on it and k intersections there,
//! independent of the map's size. [`DynamicNavMesh`](crate::dynamic::DynamicNavMesh) places an
//! added obstacle the same way and rebuilds the tiles it was placed on; measured costs are in
//! BENCHMARKS.md ("Tiled builds" and "Dynamic obstacles").

use super::free_space::{self, Shapes};
use super::inflate;
use super::tiles::TileGrid;
use super::{cdt, merge, BuildError};
use crate::geom::{dedup_ring, orient_if_convex, Aabb, Vec2};
use crate::scene::Scene;
use i_overlay::core::overlay_rule::OverlayRule;
use std::sync::Arc;

/// Rings whose non-zero fill is solid (outer rings counter-clockwise, holes clockwise).
pub(crate) type Solid = Vec<Vec<Vec2>>;

/// A unit whose vertex count times the number of tiles its box touches is at most this is given
/// whole to each of those tiles; larger ones are split per tile.
pub(crate) const WHOLE_LIMIT: usize = 256;

/// The tiles and the overlay frame of one tiled scene.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Layout {
    pub grid: TileGrid,
    /// Every overlay's grid: the map's bounds grown by the agent radius.
    pub frame: Aabb,
}

/// Tiles `[i0, i1) × [j0, j1)`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct TileRange {
    pub i0: usize,
    pub i1: usize,
    pub j0: usize,
    pub j1: usize,
}

impl TileRange {
    pub fn len(&self) -> usize {
        (self.i1 - self.i0) * (self.j1 - self.j0)
    }
}

impl Layout {
    /// The layout of `grid` over `bounds` for an agent of radius `radius`. Checks what the
    /// stitch relies on: every inner tile border lies on the grid of the frame's overlays
    /// ([`TileGrid`]). Not expected to fail for a radius the build takes; where it does, or where
    /// the overlay cannot hold the frame, [`BuildError::CoordinateRange`] names the frame.
    pub fn new(grid: TileGrid, bounds: Aabb, radius: f64) -> Result<Layout, BuildError> {
        let r = Vec2::new(radius, radius);
        let frame = Aabb::new(bounds.min - r, bounds.max + r);
        let range = || BuildError::CoordinateRange {
            at: super::CoordinateSite::Overlay,
            min: frame.min,
            max: frame.max,
        };
        let (_, step) = free_space::overlay_grid(frame).ok_or_else(range)?;
        let on_grid = |v: f64| v % step == 0.0;
        let borders_on_grid = (1..grid.columns()).all(|i| on_grid(grid.x(i)))
            && (1..grid.rows()).all(|j| on_grid(grid.y(j)));
        if !borders_on_grid {
            return Err(range());
        }
        Ok(Layout { grid, frame })
    }

    /// The index of tile `(i, j)`: row-major from the map's lower left.
    pub fn index(&self, i: usize, j: usize) -> usize {
        j * self.grid.columns() + i
    }

    /// The tiles whose closed rectangles share a point with the closed box `b`; `None` if none.
    pub fn range_of(&self, b: Aabb) -> Option<TileRange> {
        let (g, o) = (&self.grid, self.grid.origin());
        let (i0, i1) = span(b.min.x, b.max.x, g.columns(), |i| g.x(i), g.size(), o.x)?;
        let (j0, j1) = span(b.min.y, b.max.y, g.rows(), |j| g.y(j), g.size(), o.y)?;
        Some(TileRange { i0, i1, j0, j1 })
    }

    /// The rectangle of the tiles of `r`.
    pub fn range_rect(&self, r: TileRange) -> Aabb {
        let g = &self.grid;
        Aabb::new(
            Vec2::new(g.x(r.i0), g.y(r.j0)),
            Vec2::new(g.x(r.i1), g.y(r.j1)),
        )
    }

    /// Every tile of `r`, by index.
    pub fn tiles(&self, r: TileRange) -> impl Iterator<Item = usize> + '_ {
        (r.j0..r.j1).flat_map(move |j| (r.i0..r.i1).map(move |i| self.index(i, j)))
    }

    fn tile_rect(&self, tile: usize) -> Aabb {
        let c = self.grid.columns();
        self.grid.tile_bounds(tile % c, tile / c)
    }

    /// Places `unit` (see the module docs): its part on each tile it touches. `split` forces the
    /// per-tile split (the walkable region, which must lie in its tile).
    pub fn place(&self, unit: Solid, split: bool) -> Result<Vec<(usize, Arc<Solid>)>, BuildError> {
        let mut unit: Solid = unit.into_iter().filter(|r| r.len() >= 3).collect();
        let Some(mut bbox) = Aabb::from_points(unit.iter().flatten().copied()) else {
            return Ok(Vec::new());
        };
        if !inside(bbox, self.frame) {
            if !overlaps(bbox, self.frame) {
                return Ok(Vec::new());
            }
            let mut grid = bbox;
            grid.include(self.frame.min);
            grid.include(self.frame.max);
            unit = clip(grid, &unit, self.frame)?;
            let Some(b) = Aabb::from_points(unit.iter().flatten().copied()) else {
                return Ok(Vec::new());
            };
            bbox = b;
        }
        let Some(range) = self.range_of(bbox) else {
            return Ok(Vec::new());
        };
        let unit = self.precut(unit, range);
        let n: usize = unit.iter().map(Vec::len).sum();
        let mut out = Vec::new();
        if !split && (range.len() == 1 || n.saturating_mul(range.len()) <= WHOLE_LIMIT) {
            let unit = Arc::new(unit);
            out.extend(self.tiles(range).map(|t| (t, Arc::clone(&unit))));
        } else {
            self.split(unit, range, &mut out)?;
        }
        Ok(out)
    }

    /// Inserts a vertex wherever an edge crosses an inner border of `range` (see the module docs).
    fn precut(&self, unit: Solid, range: TileRange) -> Solid {
        let g = &self.grid;
        let xs: Vec<f64> = (range.i0 + 1..range.i1).map(|i| g.x(i)).collect();
        let ys: Vec<f64> = (range.j0 + 1..range.j1).map(|j| g.y(j)).collect();
        if xs.is_empty() && ys.is_empty() {
            return unit;
        }
        let mut cuts: Vec<(f64, Vec2)> = Vec::new();
        unit.into_iter()
            .map(|ring| {
                let n = ring.len();
                let mut out = Vec::with_capacity(n + 4);
                for k in 0..n {
                    let (a, b) = (ring[k], ring[(k + 1) % n]);
                    out.push(a);
                    cuts.clear();
                    let (lo, hi) = (a.x.min(b.x), a.x.max(b.x));
                    let start = xs.partition_point(|&x| x <= lo);
                    for &x in xs[start..].iter().take_while(|&&x| x < hi) {
                        let t = (x - a.x) / (b.x - a.x);
                        cuts.push((t, Vec2::new(x, a.y + t * (b.y - a.y))));
                    }
                    let (lo, hi) = (a.y.min(b.y), a.y.max(b.y));
                    let start = ys.partition_point(|&y| y <= lo);
                    for &y in ys[start..].iter().take_while(|&&y| y < hi) {
                        let t = (y - a.y) / (b.y - a.y);
                        cuts.push((t, Vec2::new(a.x + t * (b.x - a.x), y)));
                    }
                    cuts.sort_by(|p, q| p.0.total_cmp(&q.0));
                    out.extend(cuts.iter().map(|c| c.1));
                }
                out
            })
            .collect()
    }

    /// Splits a pre-cut unit over `range` by recursive halving.
    fn split(
        &self,
        unit: Solid,
        range: TileRange,
        out: &mut Vec<(usize, Arc<Solid>)>,
    ) -> Result<(), BuildError> {
        if range.len() == 1 {
            let part = clip(self.frame, &unit, self.range_rect(range))?;
            if !part.is_empty() {
                out.push((self.index(range.i0, range.j0), Arc::new(part)));
            }
            return Ok(());
        }
        let halves = if range.i1 - range.i0 >= range.j1 - range.j0 {
            let mid = (range.i0 + range.i1) / 2;
            [
                TileRange { i1: mid, ..range },
                TileRange { i0: mid, ..range },
            ]
        } else {
            let mid = (range.j0 + range.j1) / 2;
            [
                TileRange { j1: mid, ..range },
                TileRange { j0: mid, ..range },
            ]
        };
        for half in halves {
            let part = clip(self.frame, &unit, self.range_rect(half))?;
            if !part.is_empty() {
                self.split(part, half, out)?;
            }
        }
        Ok(())
    }

    /// The free space of tile `tile`: its part of the walkable region (`None`: the whole tile)
    /// minus `solids`.
    pub fn free_space(
        &self,
        tile: usize,
        region: Option<&[&Solid]>,
        solids: &[&Solid],
    ) -> Result<Shapes, BuildError> {
        let rect = self.tile_rect(tile);
        let subject: Vec<Vec<Vec2>> = match region {
            None if solids.is_empty() => return Ok(vec![vec![rect.corners().to_vec()]]),
            None => vec![rect.corners().to_vec()],
            Some(pieces) => pieces.iter().flat_map(|s| s.iter().cloned()).collect(),
        };
        if subject.is_empty() {
            return Ok(Vec::new());
        }
        let clip: Vec<Vec<Vec2>> = solids.iter().flat_map(|s| s.iter().cloned()).collect();
        free_space::run_overlay(self.frame, &subject, &clip, OverlayRule::Difference)
    }
}

/// The convex polygons of one tile's free space (CDT + merge), as points.
pub(crate) fn mesh_free_space(
    free: &Shapes,
    cancel: &super::CancelToken,
) -> Result<Vec<Vec<Vec2>>, BuildError> {
    if free.is_empty() {
        return Ok(Vec::new());
    }
    let triangles = cdt::triangulate(free, cancel)?;
    let merged = merge::merge_with_adjacency(&triangles, cancel)?;
    Ok((0..merged.len())
        .map(|p| {
            merged
                .polygon(p)
                .iter()
                .map(|v| triangles.vertices[v.index()])
                .collect()
        })
        .collect())
}

/// The solid units of one obstacle (ring and holes, any orientation), grown by `radius`: the
/// repaired obstacle (one unit) and, for a non-convex one, its inflation pieces (one unit each).
/// The same repair and inflation as [`free_space::free_space`].
pub(crate) fn obstacle_units(
    ring: &[Vec2],
    holes: &[&[Vec2]],
    radius: f64,
    max_angle: f64,
) -> Result<Vec<Solid>, BuildError> {
    let mut hole_rings: Vec<Vec<Vec2>> = Vec::new();
    for h in holes {
        let mut h = dedup_ring(h.to_vec());
        if orient_if_convex(&mut h) {
            hole_rings.push(h);
        } else if let Some(bbox) = Aabb::from_points(h.iter().copied()) {
            hole_rings.extend(free_space::oriented(free_space::run_overlay(
                bbox,
                &[h],
                &[],
                OverlayRule::Subject,
            )?));
        }
    }
    let mut ring = dedup_ring(ring.to_vec());
    if hole_rings.is_empty() && orient_if_convex(&mut ring) {
        if radius > 0.0 {
            ring = inflate::inflate_convex(&ring, radius, max_angle);
        }
        return Ok(vec![vec![ring]]);
    }
    let Some(bbox) = Aabb::from_points(ring.iter().chain(hole_rings.iter().flatten()).copied())
    else {
        return Ok(Vec::new());
    };
    let rings: Vec<Vec<Vec2>> = free_space::oriented(free_space::run_overlay(
        bbox,
        &[ring],
        &hole_rings,
        OverlayRule::Difference,
    )?)
    .collect();
    let mut pieces = Vec::new();
    if radius > 0.0 {
        for r in &rings {
            inflate::ring_pieces(r, radius, max_angle, &mut pieces);
        }
    }
    let mut units = Vec::with_capacity(1 + pieces.len());
    if !rings.is_empty() {
        units.push(rings);
    }
    units.extend(pieces.into_iter().map(|p| vec![p]));
    Ok(units)
}

/// The walkable region of a scene with a boundary polygon (the boundary clipped to the bounds),
/// or `None` for the bounds themselves; and the solid units its outside contributes for an
/// agent of radius `radius`.
pub(crate) fn region_units(
    scene: &Scene,
    radius: f64,
    max_angle: f64,
) -> Result<(Option<Solid>, Vec<Solid>), BuildError> {
    let b = scene.bounds;
    let region: Option<Solid> = match &scene.boundary {
        None => None,
        Some(ring) => {
            let ring = dedup_ring(ring.clone());
            let mut bbox = b;
            for &p in &ring {
                bbox.include(p);
            }
            let shapes = free_space::run_overlay(
                bbox,
                &[ring],
                &[b.corners().to_vec()],
                OverlayRule::Intersect,
            )?;
            Some(free_space::oriented(shapes).collect())
        }
    };
    let mut pieces = Vec::new();
    if radius > 0.0 {
        let rings = match &region {
            Some(r) => r.clone(),
            None => vec![b.corners().to_vec()],
        };
        for ring in &rings {
            let rev: Vec<Vec2> = ring.iter().rev().copied().collect();
            inflate::ring_pieces(&rev, radius, max_angle, &mut pieces);
        }
    }
    Ok((region, pieces.into_iter().map(|p| vec![p]).collect()))
}

/// `unit ∩ rect` on the grid of `grid`, as oriented rings.
fn clip(grid: Aabb, unit: &Solid, rect: Aabb) -> Result<Solid, BuildError> {
    let shapes = free_space::run_overlay(
        grid,
        unit,
        &[rect.corners().to_vec()],
        OverlayRule::Intersect,
    )?;
    Ok(free_space::oriented(shapes).collect())
}

/// The tiles `[first, last + 1)` along one axis whose closed spans `[at(i), at(i + 1)]` meet
/// `[lo, hi]`; `None` if none do.
fn span(
    lo: f64,
    hi: f64,
    count: usize,
    at: impl Fn(usize) -> f64,
    size: f64,
    origin: f64,
) -> Option<(usize, usize)> {
    if hi < at(0) || lo > at(count) {
        return None;
    }
    let guess = |v: f64| (((v - origin) / size).floor().max(0.0) as usize).min(count - 1);
    // First tile whose right end reaches lo.
    let mut first = guess(lo);
    while first > 0 && at(first) >= lo {
        first -= 1;
    }
    while first + 1 < count && at(first + 1) < lo {
        first += 1;
    }
    // Last tile whose left end is at most hi.
    let mut last = guess(hi);
    while last + 1 < count && at(last + 1) <= hi {
        last += 1;
    }
    while last > first && at(last) > hi {
        last -= 1;
    }
    Some((first, last + 1))
}

fn inside(a: Aabb, b: Aabb) -> bool {
    a.min.x >= b.min.x && a.min.y >= b.min.y && a.max.x <= b.max.x && a.max.y <= b.max.y
}

fn overlaps(a: Aabb, b: Aabb) -> bool {
    a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout() -> Layout {
        let b = Aabb::new(Vec2::ZERO, Vec2::new(100.0, 50.0));
        Layout::new(TileGrid::new(b, 32.0).unwrap(), b, 0.0).unwrap()
    }

    #[test]
    fn ranges_include_tiles_touched_at_a_border() {
        let l = layout();
        let r = |a: (f64, f64), b: (f64, f64)| l.range_of(Aabb::new(a.into(), b.into()));
        assert_eq!(
            r((1.0, 1.0), (2.0, 2.0)),
            Some(TileRange {
                i0: 0,
                i1: 1,
                j0: 0,
                j1: 1
            })
        );
        // x = 32 is the border between columns 0 and 1: both touch.
        assert_eq!(
            r((32.0, 1.0), (40.0, 2.0)),
            Some(TileRange {
                i0: 0,
                i1: 2,
                j0: 0,
                j1: 1
            })
        );
        assert_eq!(
            r((1.0, 1.0), (96.0, 50.0)),
            Some(TileRange {
                i0: 0,
                i1: 4,
                j0: 0,
                j1: 2
            })
        );
        assert_eq!(r((101.0, 1.0), (102.0, 2.0)), None);
        assert_eq!(r((-10.0, -10.0), (0.0, 0.0)).map(|t| t.len()), Some(1));
    }

    /// A big unit split per tile and the same unit given whole cover the same solid in each
    /// tile, and the split parts lie in their tiles.
    #[test]
    fn split_and_whole_cover_the_same_solid() {
        let l = layout();
        let ring = vec![
            Vec2::new(5.0, 5.0),
            Vec2::new(95.0, 10.0),
            Vec2::new(60.0, 45.0),
            Vec2::new(30.0, 20.0),
            Vec2::new(10.0, 40.0),
        ];
        let whole = l.place(vec![ring.clone()], false).unwrap();
        let split = l.place(vec![ring], true).unwrap();
        assert!(split.len() > 1);
        for (tile, part) in &split {
            let rect = l.tile_rect(*tile);
            assert!(part.iter().flatten().all(|p| rect.contains(*p)));
            let (_, w) = whole.iter().find(|(t, _)| t == tile).unwrap();
            let area = |s: &Solid| -> f64 {
                free_space::oriented(
                    free_space::run_overlay(
                        l.frame,
                        s,
                        &[rect.corners().to_vec()],
                        OverlayRule::Intersect,
                    )
                    .unwrap(),
                )
                .map(|r| crate::geom::signed_area(&r))
                .sum()
            };
            assert_eq!(area(part), area(w), "tile {tile}");
        }
    }
}
