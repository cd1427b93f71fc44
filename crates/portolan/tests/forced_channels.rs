//! Queries through a forced channel (no cycle of polygons between the start and the goal) are
//! answered by the funnel without a search (`search/polyanya/forced.rs`): their lengths must be
//! the plain Polyanya search's, on maps where every query is forced (perfect mazes, whose walls
//! all hang together) and on maps where some are (random blocked cells), with endpoints inside
//! polygons, on their edges and on their vertices, double corners (pinch vertices) included.
//!
//! The reference is the same mesh carrying one off-mesh link that no path takes (its cost is
//! far above any path's length): on a mesh with links the exact search neither prunes dead ends
//! nor takes forced channels, so it expands its nodes one by one as the paper's Polyanya does.
//! (The visibility-graph oracle refuses grid maps: their walls are one obstacle with holes.)
//!
//! Deterministic: fixed seeds, no random ones, so a run cannot fail on a rare draw.

use portolan::io::movingai::GridMap;
use portolan::random::Rng;
use portolan::random_grid::{maze_grid, random_blocked_grid, MazeOptions};
use portolan::testkit::random_free_cell;
use portolan::{build, BuildOptions, OffMeshLink, PathFinder, SearchOptions, Vec2};

/// A free cell's corner or centre: query points of both kinds (corners are mesh vertices, or
/// lie on edges, where the traced outlines pass).
fn free_point(map: &GridMap, rng: &mut Rng) -> Vec2 {
    let (x, y) = random_free_cell(map, rng);
    let corner = rng.next_u64().is_multiple_of(2);
    let (dx, dy) = if corner { (0.0, 0.0) } else { (0.5, 0.5) };
    Vec2::new(x as f64 + dx, y as f64 + dy)
}

/// Runs `queries` random queries on `map` and compares the exact search (and the funnel search
/// where `funnel_exact`: a perfect maze has one channel, so the chapter's funnel search is exact
/// there too) with the plain search. Returns (queries compared, of which answered without a search).
fn compare(map: &GridMap, seed: u64, queries: usize, funnel_exact: bool) -> (usize, usize) {
    let scene = map.to_scene();
    let mesh = build(&scene, &BuildOptions::cdt()).expect("the map builds");
    let mut rng = Rng::new(seed);
    let from = free_point(map, &mut rng);
    let to = std::iter::repeat_with(|| free_point(map, &mut rng))
        .find(|&p| p != from)
        .expect("two free points");
    let never = OffMeshLink::new(from, to, 1e12);
    let plain = mesh.clone().with_links([never]).expect("a valid link");
    let mut finder = PathFinder::new();
    let (mut compared, mut forced) = (0, 0);
    for i in 0..queries {
        let (s, t) = (free_point(map, &mut rng), free_point(map, &mut rng));
        // No path (another part of the map), or only through the link: skipped.
        let want = match finder.find_path(&plain, s, t, &SearchOptions::exact()) {
            Ok(want) if want.links.is_empty() => want,
            _ => continue,
        };
        assert!(
            want.expanded > 0 || want.points.len() <= 2,
            "the reference searched"
        );
        // The same length as the plain search's, to 1e-9.
        let mut same = |options: &SearchOptions, what: &str| {
            let got = finder
                .find_path(&mesh, s, t, options)
                .unwrap_or_else(|e| panic!("seed {seed} query {i} {s} -> {t}: {what}: {e}"));
            assert!(
                (got.length - want.length).abs() <= 1e-9 * want.length.max(1.0),
                "seed {seed} query {i} {s} -> {t}: {what} {} ({} nodes), plain search {}",
                got.length,
                got.expanded,
                want.length
            );
            got
        };
        let exact = same(&SearchOptions::exact(), "exact");
        forced += usize::from(exact.expanded == 0 && exact.points.len() > 2);
        if funnel_exact {
            same(&SearchOptions::funnel(), "funnel");
        }
        compared += 1;
    }
    (compared, forced)
}

#[test]
fn every_query_of_a_perfect_maze_is_forced_and_shortest() {
    let (mut compared, mut forced) = (0, 0);
    for (seed, size, corridor, wall) in [
        (1, 29, 1, 1),
        (2, 29, 2, 1),
        (3, 29, 3, 1),
        (4, 29, 1, 2),
        (5, 29, 2, 2),
        (6, 128, 3, 1),
    ] {
        let map =
            maze_grid(size, size - 6, &MazeOptions::new(corridor, wall), seed).expect("a maze");
        let (c, f) = compare(&map, seed, 60, true);
        compared += c;
        forced += f;
    }
    // Every pair of free points in a perfect maze is joined (one part), and most paths turn.
    assert_eq!(compared, 360);
    assert!(forced > 250, "forced {forced} of {compared}");
}

#[test]
fn forced_and_searched_queries_on_mixed_maps_are_shortest() {
    let (mut compared, mut forced) = (0, 0);
    // Random blocked cells: the denser, the more walls hang together.
    for (seed, density) in [(11, 0.2), (12, 0.35), (13, 0.45)] {
        let map = random_blocked_grid(24, 24, density, seed).expect("a grid");
        let (c, f) = compare(&map, seed, 60, false);
        compared += c;
        forced += f;
    }
    // A maze whose left third is a hall with a pillar every third cell: queries within the
    // maze are forced, those that reach the hall are searched.
    for seed in [21, 22] {
        let maze = maze_grid(30, 24, &MazeOptions::new(2, 1), seed).expect("a maze");
        let blocked = (0..maze.height())
            .flat_map(|y| (0..maze.width()).map(move |x| (x, y)))
            .map(|(x, y)| {
                let inner = (1..10).contains(&x) && (1..maze.height() - 1).contains(&y);
                if inner {
                    x % 3 == 2 && y % 3 == 2
                } else {
                    maze.is_blocked(x as i64, y as i64)
                }
            })
            .collect();
        let map = GridMap::new(maze.width(), maze.height(), blocked).expect("a map");
        let (c, f) = compare(&map, seed, 60, false);
        compared += c;
        forced += f;
    }
    // Both kinds are exercised.
    assert!(compared > 200, "compared {compared}");
    assert!(
        forced >= 15 && forced + 50 < compared,
        "forced {forced} of {compared}"
    );
}

#[test]
fn the_funnel_search_takes_forced_channels_once_the_dead_end_table_exists() {
    let map = maze_grid(29, 23, &MazeOptions::new(2, 1), 7).expect("a maze");
    let mesh = build(&map.to_scene(), &BuildOptions::cdt()).expect("the map builds");
    let (s, t) = (Vec2::new(1.5, 1.5), Vec2::new(26.5, 20.5));
    let mut finder = PathFinder::new();
    // A fresh mesh: the channel A* runs (the funnel search does not derive the O(n) table).
    let searched = finder
        .find_path(&mesh, s, t, &SearchOptions::funnel())
        .unwrap();
    assert!(searched.expanded > 0 && searched.bound.is_none());
    // Once derived, the same channel without a search, and the proof that it is the shortest.
    mesh.dead_ends();
    let forced = finder
        .find_path(&mesh, s, t, &SearchOptions::funnel())
        .unwrap();
    assert_eq!((forced.expanded, forced.bound), (0, Some(1.0)));
    assert_eq!(
        (&forced.points, &forced.channel),
        (&searched.points, &searched.channel)
    );
    let exact = finder
        .find_path(&mesh, s, t, &SearchOptions::exact())
        .unwrap();
    assert_eq!(forced.points, exact.points);
}
