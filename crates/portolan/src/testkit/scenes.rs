//! Test-only helpers shared by the agent-facing search modules: random scenes on an integer grid
//! (so that rays through vertices and along edges are common) and an exact brute-force
//! segment-versus-obstacle test on the scene.

use crate::build::{build, BuildOptions};
use crate::geom::{orient, Aabb, Orientation, Vec2};
use crate::mesh::NavMesh;
use crate::scene::Scene;
use proptest::prelude::*;

/// The trapezoid mesh of a 10 × 10 map with one obstacle, the rectangle `[x0, x1] × [y0, y1]`.
fn map10_with_box(x0: f64, x1: f64, y0: f64, y1: f64) -> NavMesh {
    let s = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(10.0, 10.0))).with_obstacle([
        (x0, y0),
        (x1, y0),
        (x1, y1),
        (x0, y1),
    ]);
    build(&s, &BuildOptions::trapezoid()).unwrap()
}

/// The chapter's default map, its trapezoid mesh and the funnel path of its default query
/// ([`Scene::DEFAULT_START`] to [`Scene::DEFAULT_GOAL`], default options): the fixture of the
/// tests that draw or post-process that path.
pub fn default_query() -> (Scene, NavMesh, crate::search::Path) {
    let scene = Scene::default_map();
    let mesh = build(&scene, &BuildOptions::trapezoid()).unwrap();
    let path = crate::search::PathFinder::new()
        .find_path(
            &mesh,
            Scene::DEFAULT_START,
            Scene::DEFAULT_GOAL,
            &crate::search::SearchOptions::default(),
        )
        .unwrap();
    (scene, mesh, path)
}

/// A `side × side` square with its lower left corner at the origin, counter-clockwise.
pub fn square(side: f64) -> Vec<Vec2> {
    vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(side, 0.0),
        Vec2::new(side, side),
        Vec2::new(0.0, side),
    ]
}

/// A 10 × 10 map cut in two by a wall over its full height (x from 4 to 6): the left and right
/// halves are not connected.
pub fn split_map() -> NavMesh {
    map10_with_box(4.0, 6.0, 0.0, 10.0)
}

/// A 10 × 10 map with a square obstacle [4, 6]² in the middle; four trapezoids around it (left,
/// below, above, right).
pub fn square_map() -> NavMesh {
    map10_with_box(4.0, 6.0, 4.0, 6.0)
}

/// Two unit squares touching only at the vertex (1, 1), a pinch: vertices and polygons, for
/// tests to extend.
pub fn pinched_squares() -> (Vec<Vec2>, Vec<Vec<u32>>) {
    let v = [
        (0.0, 0.0),
        (1.0, 0.0),
        (1.0, 1.0),
        (0.0, 1.0),
        (2.0, 1.0),
        (2.0, 2.0),
        (1.0, 2.0),
    ];
    (
        v.iter().map(|&p| p.into()).collect(),
        vec![vec![0, 1, 2, 3], vec![2, 4, 5, 6]],
    )
}

/// Side of the square map of [`random_scene`].
pub const SIZE: f64 = 24.0;
const CELLS: usize = 3;
const CELL: f64 = SIZE / CELLS as f64;

/// Convex hull (counter-clockwise, no collinear points) by Andrew's monotone chain with exact
/// orientation; `None` when the points do not span an area.
pub fn convex_hull(mut pts: Vec<Vec2>) -> Option<Vec<Vec2>> {
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup();
    if pts.len() < 3 {
        return None;
    }
    let mut hull: Vec<Vec2> = Vec::with_capacity(pts.len() * 2);
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &Vec2>> = if pass == 0 {
            Box::new(pts.iter())
        } else {
            Box::new(pts.iter().rev())
        };
        for &p in iter {
            while hull.len() >= start + 2
                && orient(hull[hull.len() - 2], hull[hull.len() - 1], p)
                    != Orientation::CounterClockwise
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    (hull.len() >= 3).then_some(hull)
}

/// A strategy for random scenes: a 24 × 24 map cut into 3 × 3 cells, each holding at most one
/// convex obstacle with integer vertices (cells keep obstacles at least 2 apart; obstacles in
/// border cells may touch the map's sides).
///
/// The vertices of an obstacle lie on three vertical lines 2 apart, so every edge spans 0, 2 or
/// 4 in x and the trapezoid decomposition's intersection points (at integer x) are dyadic
/// fractions computed exactly: the mesh covers exactly the scene's free space, and a brute-force
/// test on the scene is an exact reference for the mesh.
pub fn random_scene() -> impl Strategy<Value = Scene> {
    let cell = (0u8..=4, prop::collection::vec((0u8..=2, 0u8..=8), 0..7));
    prop::collection::vec(cell, CELLS * CELLS).prop_map(|cells| {
        let mut scene = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(SIZE, SIZE)));
        for (ci, (offset, pts)) in cells.into_iter().enumerate() {
            let (cx, cy) = ((ci % CELLS) as f64 * CELL, (ci / CELLS) as f64 * CELL);
            let lo = if cx == 0.0 { 0.0 } else { 1.0 };
            let hi = if cx + CELL == SIZE { 4.0 } else { 3.0 };
            let x0 = cx + (offset as f64).clamp(lo, hi);
            let clamp_y = |v: u8| {
                let lo = if cy == 0.0 { 0.0 } else { cy + 1.0 };
                let hi = if cy + CELL == SIZE {
                    SIZE
                } else {
                    cy + CELL - 1.0
                };
                (cy + v as f64).clamp(lo, hi)
            };
            let pts: Vec<Vec2> = pts
                .into_iter()
                .map(|(xi, y)| Vec2::new(x0 + 2.0 * xi as f64, clamp_y(y)))
                .collect();
            if let Some(h) = convex_hull(pts) {
                scene.obstacles.push(h);
            }
        }
        scene
    })
}

/// Every wall of the mesh lies exactly on a side of the map or an edge of an obstacle (exact
/// orientation tests): the premise of comparing the mesh with the scene exactly.
pub fn walls_are_exact(scene: &Scene, mesh: &NavMesh) -> bool {
    let mut lines: Vec<(Vec2, Vec2)> = scene
        .obstacles
        .iter()
        .flat_map(|o| (0..o.len()).map(move |i| (o[i], o[(i + 1) % o.len()])))
        .collect();
    let c = scene.bounds.corners();
    lines.extend((0..4).map(|i| (c[i], c[(i + 1) % 4])));
    mesh.polygons().all(|p| {
        (0..mesh.polygon_vertices(p).len()).all(|i| {
            if mesh.neighbours(p)[i].is_some() {
                return true;
            }
            let (a, b) = mesh.edge(p, i);
            lines
                .iter()
                .any(|&(x, y)| crate::geom::on_segment(a, x, y) && crate::geom::on_segment(b, x, y))
        })
    })
}

/// The trapezoid mesh of a random scene (the generator only makes valid scenes).
pub fn mesh_of(scene: &Scene) -> NavMesh {
    let mesh =
        build(scene, &BuildOptions::trapezoid()).expect("random scenes are valid by construction");
    assert!(walls_are_exact(scene, &mesh), "inexact walls: {scene:?}");
    mesh
}

/// A query point: on the integer grid, on the half-integer grid, or anywhere.
pub fn grid_point() -> impl Strategy<Value = Vec2> {
    prop_oneof![
        3 => (0u8..=24, 0u8..=24).prop_map(|(x, y)| Vec2::new(x as f64, y as f64)),
        1 => (0u8..=48, 0u8..=48).prop_map(|(x, y)| Vec2::new(x as f64 / 2.0, y as f64 / 2.0)),
        1 => (0.0..SIZE, 0.0..SIZE).prop_map(|(x, y)| Vec2::new(x, y)),
    ]
}

/// A random `n × n` MovingAI grid map (each cell blocked with probability `blocked`: diagonal
/// pinches between blocked cells everywhere) as its `.map` text, with `pairs` query pairs at
/// cell centres and on grid vertices (pinch vertices among them).
pub fn random_grid_case(
    n: usize,
    blocked: f64,
    pairs: usize,
) -> impl Strategy<Value = (String, Vec<(Vec2, Vec2)>)> {
    let cells = prop::collection::vec(prop::bool::weighted(blocked), n * n);
    let point = (0..n as u32 * 2 + 1, 0..n as u32 * 2 + 1)
        .prop_map(|(x, y)| Vec2::new(f64::from(x) * 0.5, f64::from(y) * 0.5));
    let pairs = prop::collection::vec((point.clone(), point), pairs);
    (cells, pairs).prop_map(move |(cells, pairs)| {
        let mut text = format!("type octile\nheight {n}\nwidth {n}\nmap\n");
        for row in cells.chunks(n) {
            text.extend(row.iter().map(|&b| if b { '@' } else { '.' }));
            text.push('\n');
        }
        (text, pairs)
    })
}

/// The mesh of a [`random_grid_case`]'s map as `portolan build --map` makes it (CDT); `None`
/// when nothing is walkable.
pub fn grid_case_mesh(text: &str) -> Option<NavMesh> {
    let map = crate::io::movingai::read_map(text.as_bytes()).expect("a generated map reads");
    build(&map.to_scene(), &BuildOptions::cdt()).ok()
}

/// A ray end: a [`grid_point`], or an integer point up to 2 outside the map.
pub fn ray_end() -> impl Strategy<Value = Vec2> {
    prop_oneof![
        4 => grid_point(),
        1 => (-2i8..=26, -2i8..=26).prop_map(|(x, y)| Vec2::new(x as f64, y as f64)),
    ]
}

/// Exact: does the closed segment `s e` meet the open interior of the convex CCW polygon?
///
/// Separating-axis test: they are disjoint iff one of the polygon's edge lines has the segment on
/// its closed outer side, or the segment's line has the whole polygon on one closed side.
pub fn segment_meets_interior(s: Vec2, e: Vec2, ring: &[Vec2]) -> bool {
    let n = ring.len();
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        if !orient(a, b, s).is_ccw() && !orient(a, b, e).is_ccw() {
            return false;
        }
    }
    if s != e {
        let all_not_left = ring.iter().all(|&x| !orient(s, e, x).is_ccw());
        let all_not_right = ring.iter().all(|&x| !orient(s, e, x).is_cw());
        if all_not_left || all_not_right {
            return false;
        }
    }
    true
}

/// Brute force on the scene: the closed segment lies in the closure of the open free space (what
/// a mesh covers): inside the map, out of every obstacle's interior, and not on a piece of an
/// obstacle's edge that lies along the map's side (free space on neither side of it).
pub fn segment_is_free(scene: &Scene, s: Vec2, e: Vec2) -> bool {
    scene.bounds.contains(s)
        && scene.bounds.contains(e)
        && scene.obstacles.iter().all(|o| {
            !segment_meets_interior(s, e, o)
                && (0..o.len()).all(|i| {
                    let n = o.len();
                    let (a, b, c) = (o[i], o[(i + 1) % n], o[(i + 2) % n]);
                    let side_ab = on_map_side(scene, a, b);
                    // A map corner filled by the obstacle (edges along both sides meet there).
                    let dead_corner =
                        side_ab && on_map_side(scene, b, c) && (a.x == b.x) != (b.x == c.x);
                    !(side_ab && segment_uses_edge(s, e, a, b))
                        && !(dead_corner && (s == b || e == b))
                })
        })
}

/// Both endpoints on the same side of the map.
fn on_map_side(scene: &Scene, a: Vec2, b: Vec2) -> bool {
    let (lo, hi) = (scene.bounds.min, scene.bounds.max);
    (a.x == b.x && (a.x == lo.x || a.x == hi.x)) || (a.y == b.y && (a.y == lo.y || a.y == hi.y))
}

/// The segment `s e` shares a piece of positive length with `a b`, or has an endpoint strictly
/// inside it.
fn segment_uses_edge(s: Vec2, e: Vec2, a: Vec2, b: Vec2) -> bool {
    let strictly_inside = |p: Vec2| p != a && p != b && crate::geom::on_segment(p, a, b);
    if strictly_inside(s) || strictly_inside(e) {
        return true;
    }
    if s == e || !orient(s, e, a).is_collinear() || !orient(s, e, b).is_collinear() {
        return false;
    }
    // Collinear: overlap of positive length iff an endpoint of one is strictly inside the other,
    // or they coincide.
    let strictly_in_se = |p: Vec2| p != s && p != e && crate::geom::on_segment(p, s, e);
    strictly_in_se(a) || strictly_in_se(b) || (s == a && e == b) || (s == b && e == a)
}

/// Is `p` in the closed free space of the scene?
pub fn point_is_free(scene: &Scene, p: Vec2) -> bool {
    segment_is_free(scene, p, p)
}

#[test]
fn brute_force_segment_test_cases() {
    let sq = [
        Vec2::new(0.0, 0.0),
        Vec2::new(2.0, 0.0),
        Vec2::new(2.0, 2.0),
        Vec2::new(0.0, 2.0),
    ];
    let t = |a: (f64, f64), b: (f64, f64)| segment_meets_interior(a.into(), b.into(), &sq);
    assert!(t((-1.0, 1.0), (3.0, 1.0)), "straight through");
    assert!(!t((-1.0, 0.0), (3.0, 0.0)), "along an edge");
    assert!(t((-1.0, -1.0), (3.0, 3.0)), "the diagonal cuts through");
    assert!(!t((-1.0, 1.0), (1.0, 3.0)), "touching a vertex only");
    assert!(t((1.0, 1.0), (1.0, 1.0)), "a point inside");
    assert!(!t((2.0, 1.0), (2.0, 1.0)), "a point on the boundary");
    assert!(!t((3.0, 3.0), (4.0, 5.0)), "far away");
    assert!(t((2.0, 1.0), (1.0, 1.0)), "from the boundary inwards");
    assert!(!t((2.0, 1.0), (3.0, 1.0)), "from the boundary outwards");
}
