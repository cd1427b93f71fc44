//! The funnel with two chains (`search/chain_funnel.rs`) against the chapter's simple funnel
//! (`search/funnel.rs`, then `simplify_collinear`, as `string_pull` does): the same path, point
//! for point, through the channels real queries take.
//!
//! Channels come from the funnel search and the exact search on random scenes (obstacles of any
//! angle), random blocked grids and mazes (grid maps: portals along one line, fans of portals
//! around one vertex, pinch vertices), with endpoints inside polygons, on cell corners (mesh
//! vertices) and on edges. Deterministic: fixed seeds, so a run cannot fail on a rare draw.

use portolan::io::movingai::GridMap;
use portolan::random::{random_free_point, random_scene, RandomSceneOptions, Rng};
use portolan::random_grid::{maze_grid, random_blocked_grid, MazeOptions};
use portolan::search::chain_funnel::ChainFunnel;
use portolan::search::funnel::{channel_portals, string_pull, Portal};
use portolan::testkit::{mirrored_portals, random_free_cell};
use portolan::{build, BuildOptions, NavMesh, PathFinder, SearchOptions, Vec2};

/// Compares the two funnels on the channels of the funnel search's and the exact search's paths
/// between the given pairs; returns the number of channels compared.
fn compare_on(mesh: &NavMesh, pairs: &[(Vec2, Vec2)], what: &str) -> usize {
    let mut finder = PathFinder::new();
    let mut chain = ChainFunnel::new();
    let mut got = Vec::new();
    let mut compared = 0;
    for (i, &(s, t)) in pairs.iter().enumerate() {
        for options in [SearchOptions::funnel(), SearchOptions::exact()] {
            let Ok(path) = finder.find_path(mesh, s, t, &options) else {
                continue;
            };
            let (a, b) = (path.points[0], *path.points.last().expect("a point"));
            let portals = channel_portals(mesh, &path.channel, a, b);
            let want = string_pull(&portals);
            chain.pull(&portals, &mut got);
            assert_eq!(
                got, want,
                "{what}, query {i}: {s} -> {t}, {:?}",
                options.method
            );
            compared += 1;
        }
    }
    compared
}

/// A free cell's corner, centre or edge midpoint.
fn grid_point(map: &GridMap, rng: &mut Rng) -> Vec2 {
    let (x, y) = random_free_cell(map, rng);
    let (dx, dy) = [(0.0, 0.0), (0.5, 0.5), (0.5, 0.0), (0.0, 0.5)][rng.range_usize(0, 3)];
    Vec2::new(x as f64 + dx, y as f64 + dy)
}

fn grid_pairs(map: &GridMap, seed: u64, n: usize) -> Vec<(Vec2, Vec2)> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| (grid_point(map, &mut rng), grid_point(map, &mut rng)))
        .collect()
}

#[test]
fn the_two_funnels_agree_on_grid_maps() {
    let mut compared = 0;
    for (seed, density) in [(1, 0.1), (2, 0.2), (3, 0.3), (4, 0.4)] {
        let map = random_blocked_grid(40, 32, density, seed).expect("a grid");
        let mesh = build(&map.to_scene(), &BuildOptions::cdt()).expect("the map builds");
        compared += compare_on(&mesh, &grid_pairs(&map, seed, 150), "random grid");
    }
    for (seed, corridor, wall) in [(5, 1, 1), (6, 2, 1), (7, 3, 2)] {
        let map = maze_grid(41, 33, &MazeOptions::new(corridor, wall), seed).expect("a maze");
        let mesh = build(&map.to_scene(), &BuildOptions::cdt()).expect("the map builds");
        compared += compare_on(&mesh, &grid_pairs(&map, seed, 150), "maze");
    }
    for n in [9, 20, 41] {
        let (map, a, b) = spiral(n);
        let mesh = build(&map.to_scene(), &BuildOptions::cdt()).expect("the map builds");
        let mut pairs = grid_pairs(&map, n as u64, 40);
        pairs.extend([(a, b), (b, a)]);
        compared += compare_on(&mesh, &pairs, "spiral");
    }
    // Most pairs are joined (both searches): the comparison is not vacuous.
    assert!(compared > 1500, "compared {compared}");
}

#[test]
fn the_two_funnels_agree_on_random_scenes() {
    let mut compared = 0;
    for seed in 0..12 {
        let scene = random_scene(seed, &RandomSceneOptions::default()).expect("a scene");
        for options in [BuildOptions::cdt(), BuildOptions::trapezoid()] {
            let mesh = build(&scene, &options).expect("the scene builds");
            let mut rng = Rng::new(seed);
            let pairs: Vec<_> = (0..60)
                .filter_map(|_| {
                    Some((
                        random_free_point(&mut rng, &scene, 100)?,
                        random_free_point(&mut rng, &scene, 100)?,
                    ))
                })
                .collect();
            compared += compare_on(&mesh, &pairs, "random scene");
        }
    }
    assert!(compared > 2000, "compared {compared}");
}

/// Hand-made channels with the degenerate cases the simple funnel's rules are for.
#[test]
fn the_two_funnels_agree_on_degenerate_portals() {
    let v = Vec2::new;
    let p = |l: Vec2, r: Vec2| Portal { left: l, right: r };
    let cases: Vec<Vec<Portal>> = vec![
        // A portal along the line from the apex (funnel.rs's regression).
        vec![
            Portal::point(v(232.0, 241.0)),
            p(v(236.0, 241.0), v(233.0, 241.0)),
            p(v(236.0, 240.0), v(233.0, 241.0)),
            p(v(236.0, 240.0), v(237.0, 237.0)),
            p(v(240.0, 236.0), v(237.0, 237.0)),
            Portal::point(v(240.0, 236.0)),
        ],
        // A fan around a right corner, then around a left one.
        vec![
            Portal::point(v(0.0, 0.0)),
            p(v(0.0, 2.0), v(2.0, 0.0)),
            p(v(1.0, 3.0), v(2.0, 0.0)),
            p(v(3.0, 3.0), v(2.0, 0.0)),
            p(v(3.0, 3.0), v(4.0, 1.0)),
            p(v(3.0, 3.0), v(5.0, 3.0)),
            p(v(3.0, 3.0), v(4.0, 5.0)),
            Portal::point(v(1.0, 5.0)),
        ],
        // A straight corridor whose walls are lines of collinear vertices.
        (0..12)
            .map(|i| {
                let x = f64::from(i);
                if i == 0 {
                    Portal::point(v(0.0, 0.5))
                } else if i == 11 {
                    Portal::point(v(x, 0.5))
                } else {
                    p(v(x, 1.0), v(x, 0.0))
                }
            })
            .collect(),
        // The start inside the first portal (the funnel a straight angle at it), the next
        // portal keeping its right end: straight to the goal.
        vec![
            Portal::point(v(4.5, 3.0)),
            p(v(4.0, 3.0), v(5.0, 3.0)),
            p(v(5.0, 4.0), v(5.0, 3.0)),
            Portal::point(v(5.5, 3.5)),
        ],
        // The start on a portal's end, and the goal on the last portal's end.
        vec![
            Portal::point(v(1.0, 1.0)),
            p(v(1.0, 1.0), v(1.0, -1.0)),
            p(v(2.0, 1.0), v(2.0, -1.0)),
            Portal::point(v(2.0, -1.0)),
        ],
        // Start and goal the same point.
        vec![Portal::point(v(1.0, 1.0)), Portal::point(v(1.0, 1.0))],
        vec![Portal::point(v(1.0, 1.0))],
        vec![],
    ];
    let mut chain = ChainFunnel::new();
    let mut mirrored_got = Vec::new();
    let mut got = Vec::new();
    for (i, portals) in cases.iter().enumerate() {
        chain.pull(portals, &mut got);
        assert_eq!(got, string_pull(portals), "case {i}");
        // Mirrored (x → −x, left and right swap): the other side's code.
        let mirrored = mirrored_portals(portals);
        chain.pull(&mirrored, &mut mirrored_got);
        assert_eq!(mirrored_got, string_pull(&mirrored), "case {i} mirrored");
        let back: Vec<Vec2> = mirrored_got.iter().map(|q| v(-q.x, q.y)).collect();
        assert_eq!(
            back, got,
            "case {i}: the mirror image's path is the path's mirror image"
        );
    }
}

/// A square spiral corridor one cell wide with walls one cell thick, carved by a turtle that
/// goes straight while the cell ahead is inside and the one beyond is not yet carved, else
/// turns right: the path from its outer end to its centre turns at every inner corner (the
/// simple funnel's worst case: it scans again after each turn). Returns the map and the
/// corridor's two ends (cell centres).
fn spiral(n: usize) -> (GridMap, Vec2, Vec2) {
    let mut free = vec![false; n * n];
    let (mut x, mut y) = (1i64, 1i64);
    free[n + 1] = true;
    let dirs = [(1, 0), (0, 1), (-1, 0), (0, -1)];
    let inside = |x: i64, y: i64| x >= 1 && y >= 1 && x <= n as i64 - 2 && y <= n as i64 - 2;
    let carved = |free: &[bool], x: i64, y: i64| {
        x >= 0 && y >= 0 && x < n as i64 && y < n as i64 && free[y as usize * n + x as usize]
    };
    let (mut k, mut turns) = (0, 0);
    while turns < 2 {
        let (dx, dy) = dirs[k % 4];
        let (ax, ay) = (x + dx, y + dy);
        if inside(ax, ay) && !carved(&free, ax, ay) && !carved(&free, ax + dx, ay + dy) {
            (x, y) = (ax, ay);
            free[y as usize * n + x as usize] = true;
            turns = 0;
        } else {
            k += 1;
            turns += 1;
        }
    }
    let blocked = free.iter().map(|f| !f).collect();
    let map = GridMap::new(n, n, blocked).expect("a map");
    (
        map,
        Vec2::new(1.5, 1.5),
        Vec2::new(x as f64 + 0.5, y as f64 + 0.5),
    )
}

/// Portals no mesh makes (NaN, infinities, portals out of order): an answer, never a panic,
/// whatever it is (the funnel's bounds do not depend on the coordinates).
#[test]
fn nonsense_portals_do_not_panic() {
    let v = Vec2::new;
    let mut rng = Rng::new(3);
    let mut chain = ChainFunnel::new();
    let mut got = Vec::new();
    let specials = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.0, 1.0, -1.0];
    for _ in 0..2000 {
        let n = rng.range_usize(0, 12);
        let mut coord = || {
            if rng.range_usize(0, 3) == 0 {
                specials[rng.range_usize(0, specials.len() - 1)]
            } else {
                f64::from(rng.range_usize(0, 4) as u32)
            }
        };
        let portals: Vec<Portal> = (0..n)
            .map(|_| Portal {
                left: v(coord(), coord()),
                right: v(coord(), coord()),
            })
            .collect();
        chain.pull(&portals, &mut got);
        assert_eq!(got.is_empty(), portals.is_empty());
    }
}
