//! The work budget of a build: a scene is measured before it is built, so that one the limits
//! refuse is answered at once, and the mesh is measured after.
//!
//! The builders cannot be stopped half-way, so the input checks are what keep a build short:
//! - vertices, counting the points the agent radius adds where it rounds a corner (a corner
//!   turning by `t` gets at most `t / θ + 1` more, θ the chord angle of the arc error);
//! - obstacles;
//! - edge crossings (overlapping or self-intersecting obstacles): each crossing adds vertices
//!   and polygons to the CDT, and a few thousand edges can cross millions of times. They are
//!   counted by a sweep over the edges sorted by `x`, which stops at the limit; it looks at
//!   `O(n log n + k)` pairs, `k` the pairs whose `x` ranges overlap, at most
//!   `MAX_SCENE_VERTICES²/2` (0.2 · 10⁹ cheap tests in the worst case, well under a second).

use super::errors::ApiError;
use super::limits::Limits;
use super::world::BuildSettings;
use portolan::{NavMesh, Scene, Vec2};

/// Every ring of the scene: obstacles, boundary, holes.
fn rings(scene: &Scene) -> impl Iterator<Item = &[Vec2]> {
    scene
        .obstacles
        .iter()
        .map(Vec::as_slice)
        .chain(scene.boundary.as_deref())
        .chain(scene.holes.iter().map(|h| h.ring.as_slice()))
}

/// Refuses, before any building, a scene whose size alone is over the budget.
pub fn check_input(
    scene: &Scene,
    settings: BuildSettings,
    limits: &Limits,
) -> Result<(), ApiError> {
    let over = |limit, value, max| ApiError::OverBudget {
        limit,
        value,
        max,
        before_build: true,
    };
    if scene.obstacles.len() > limits.max_scene_obstacles {
        return Err(over(
            "max_scene_obstacles",
            scene.obstacles.len(),
            limits.max_scene_obstacles,
        ));
    }
    let plain: usize = rings(scene).map(<[Vec2]>::len).sum();
    if plain > limits.max_scene_vertices {
        return Err(over("max_scene_vertices", plain, limits.max_scene_vertices));
    }
    let vertices = plain + arc_points(scene, settings);
    if vertices > limits.max_scene_vertices {
        return Err(over(
            "max_scene_vertices",
            vertices,
            limits.max_scene_vertices,
        ));
    }
    let crossings = count_crossings(scene, limits.max_crossings);
    if crossings > limits.max_crossings {
        return Err(over("max_crossings", crossings, limits.max_crossings));
    }
    Ok(())
}

/// Refuses a mesh over the polygon budget (the scene is then not taken).
pub fn check_output(mesh: &NavMesh, limits: &Limits) -> Result<(), ApiError> {
    if mesh.polygon_count() > limits.max_mesh_polygons {
        return Err(ApiError::OverBudget {
            limit: "max_mesh_polygons",
            value: mesh.polygon_count(),
            max: limits.max_mesh_polygons,
            before_build: false,
        });
    }
    Ok(())
}

/// An upper bound on the points rounding the corners by the agent radius adds.
fn arc_points(scene: &Scene, settings: BuildSettings) -> usize {
    if settings.agent_radius <= 0.0 || settings.agent_radius.is_nan() {
        return 0;
    }
    let ratio = settings.arc_error;
    if !(ratio > 0.0 && ratio <= 1.0) {
        // The builder refuses it (`BuildError::BadOption`, a 400): nothing to bound.
        return 0;
    }
    let theta = 2.0 * (1.0 - ratio).acos();
    let mut points = 0.0;
    for ring in rings(scene) {
        let n = ring.len();
        for i in 0..n {
            let (a, b, c) = (ring[(i + n - 1) % n], ring[i], ring[(i + 1) % n]);
            let (u, v) = (b - a, c - b);
            let turn = u.cross(v).atan2(u.dot(v)).abs();
            points += if turn.is_finite() { turn / theta } else { 0.0 } + 1.0;
        }
    }
    points.ceil() as usize
}

/// Pairs of edges that cross at a point inside both (edges of a ring that share a corner do not
/// count), up to `cap + 1`.
fn count_crossings(scene: &Scene, cap: usize) -> usize {
    // (left x, right x, a, b, ring, index in ring, ring length)
    let mut edges: Vec<(f64, f64, Vec2, Vec2, usize, usize, usize)> = Vec::new();
    for (r, ring) in rings(scene).enumerate() {
        let n = ring.len();
        for i in 0..n {
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            edges.push((a.x.min(b.x), a.x.max(b.x), a, b, r, i, n));
        }
    }
    edges.sort_by(|p, q| p.0.total_cmp(&q.0));
    let mut count = 0;
    let mut active: Vec<usize> = Vec::new();
    for j in 0..edges.len() {
        let e = edges[j];
        active.retain(|&i| edges[i].1 >= e.0);
        for &i in &active {
            let f = edges[i];
            let neighbours =
                f.4 == e.4 && ((f.5 + 1) % f.6 == e.5 || (e.5 + 1) % e.6 == f.5 || f.5 == e.5);
            if !neighbours && crosses(f.2, f.3, e.2, e.3) {
                count += 1;
                if count > cap {
                    return count;
                }
            }
        }
        active.push(j);
    }
    count
}

/// Whether the segments `a b` and `c d` cross at a point inside both (a floating-point
/// estimate: this only sizes the work).
fn crosses(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> bool {
    let side = |p: Vec2, q: Vec2, r: Vec2| (q - p).cross(r - p);
    let (d1, d2) = (side(a, b, c), side(a, b, d));
    let (d3, d4) = (side(c, d, a), side(c, d, b));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}
