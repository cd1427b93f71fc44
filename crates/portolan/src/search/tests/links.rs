//! Searches on meshes with off-mesh links: the channel A* and the exact search take links at
//! their cost, and paths are walkable runs joined by links.

use crate::build::{build, BuildOptions};
use crate::geom::{Aabb, Vec2};
use crate::mesh::{LinkId, NavMesh, OffMeshLink};
use crate::scene::Scene;
use crate::search::{LinkTraversal, Path, PathError, PathFinder, SearchOptions};
use crate::testkit::check_counted;
use crate::testkit::scenes::{grid_point, mesh_of, random_scene, split_map};

fn find(m: &NavMesh, a: Vec2, b: Vec2) -> Result<Path, PathError> {
    PathFinder::new().find_path(m, a, b, &SearchOptions::default())
}

#[test]
fn a_split_map_is_crossed_only_through_the_link() {
    let (a, b) = (Vec2::new(1.0, 1.0), Vec2::new(9.0, 1.0));
    assert_eq!(find(&split_map(), a, b), Err(PathError::NoPath));
    let link = OffMeshLink::new(Vec2::new(3.0, 8.0), Vec2::new(7.0, 8.0), 4.0);
    let m = split_map().with_links([link]).unwrap();
    let p = find(&m, a, b).unwrap();
    assert!(p.is_complete());
    assert_eq!(
        p.points,
        vec![a, link.from, link.to, b],
        "funnel runs joined by the link"
    );
    assert_eq!(
        p.links,
        vec![LinkTraversal {
            link: LinkId(0),
            segment: 1,
            reversed: false
        }]
    );
    // The channel goes from the left part to the right part through the link.
    assert_eq!(m.locate(a).polygon(), p.channel.first().copied());
    assert_eq!(m.locate(b).polygon(), p.channel.last().copied());
    // One-way: no way back; a bidirectional link is taken reversed.
    assert_eq!(find(&m, b, a), Err(PathError::NoPath));
    let m2 = split_map().with_links([link.bidirectional()]).unwrap();
    let back = find(&m2, b, a).unwrap();
    assert_eq!(back.points, vec![b, link.to, link.from, a]);
    assert!(back.links[0].reversed);
    // Corner offsets move turning points within runs, never the link's ends.
    let opts = SearchOptions::default().with_corner_offset(0.5);
    let q = PathFinder::new().find_path(&m, a, b, &opts).unwrap();
    assert_eq!(q.points, p.points, "no turning points inside these runs");
}

#[test]
fn link_cost_decides_between_the_link_and_a_detour() {
    // A wall with a gap at the far end: a long detour exists.
    let s = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(10.0, 100.0))).with_obstacle([
        (4.0, 0.0),
        (6.0, 0.0),
        (6.0, 90.0),
        (4.0, 90.0),
    ]);
    let base = build(&s, &BuildOptions::trapezoid()).unwrap();
    let (a, b) = (Vec2::new(1.0, 1.0), Vec2::new(9.0, 1.0));
    let detour = find(&base, a, b).unwrap();
    assert!(detour.length > 170.0);
    let jump = |cost| OffMeshLink::new(Vec2::new(3.0, 1.0), Vec2::new(7.0, 1.0), cost);
    let cheap = base.clone().with_links([jump(20.0)]).unwrap();
    let p = find(&cheap, a, b).unwrap();
    assert_eq!(
        p.links.len(),
        1,
        "a cost of 20 beats a walk of {}",
        detour.length
    );
    let dear = base.clone().with_links([jump(500.0)]).unwrap();
    let p = find(&dear, a, b).unwrap();
    assert!(p.links.is_empty(), "a cost of 500 loses to the walk");
    assert_eq!(p, detour);
    // A filter closing the landing polygon closes the link too.
    let mut filter = crate::search::PolygonFilter::new();
    filter.exclude(cheap.locate(Vec2::new(7.0, 1.0)).polygon().unwrap());
    let opts = SearchOptions::default()
        .with_filter(Some(std::sync::Arc::new(filter)))
        .with_allow_partial(true);
    let r = PathFinder::new().find_path(&cheap, a, b, &opts).unwrap();
    assert!(!r.is_complete());
    assert!(r.links.is_empty());
}

#[test]
fn the_exact_search_takes_links_at_their_cost() {
    let exact = SearchOptions::exact();
    let s = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(10.0, 100.0))).with_obstacle([
        (4.0, 0.0),
        (6.0, 0.0),
        (6.0, 90.0),
        (4.0, 90.0),
    ]);
    let base = build(&s, &BuildOptions::trapezoid()).unwrap();
    let mut f = PathFinder::new();
    let (a, b) = (Vec2::new(1.0, 1.0), Vec2::new(9.0, 1.0));
    let detour = f.find_path(&base, a, b, &exact).unwrap();
    assert!(detour.length > 170.0);
    let (from, to) = (Vec2::new(3.0, 1.0), Vec2::new(7.0, 1.0));
    let jump = |cost| OffMeshLink::new(from, to, cost);
    let cheap = base.clone().with_links([jump(20.0)]).unwrap();
    let p = f.find_path(&cheap, a, b, &exact).unwrap();
    assert_eq!(p.points, vec![a, from, to, b]);
    assert_eq!(
        p.links,
        vec![LinkTraversal {
            link: LinkId(0),
            segment: 1,
            reversed: false
        }]
    );
    // Dearer than the walk: the exact search walks, as without the link.
    let dear = base.clone().with_links([jump(500.0)]).unwrap();
    let walk = f.find_path(&dear, a, b, &exact).unwrap();
    assert_eq!(walk.points, detour.points);
    assert!(walk.links.is_empty());
    // Backwards only on a bidirectional link.
    let back = f.find_path(&cheap, b, a, &exact).unwrap();
    assert!(back.links.is_empty());
    let both = base
        .clone()
        .with_links([jump(20.0).bidirectional()])
        .unwrap();
    let back = f.find_path(&both, b, a, &exact).unwrap();
    assert_eq!(back.points, vec![b, to, from, a]);
    assert!(back.links[0].reversed);
    // A closed landing polygon closes the link; the partial path walks toward the goal.
    let mut filter = crate::search::PolygonFilter::new();
    filter.exclude(cheap.locate(to).polygon().unwrap());
    let closed = exact
        .clone()
        .with_filter(Some(std::sync::Arc::new(filter)))
        .with_allow_partial(true);
    let r = f.find_path(&cheap, a, b, &closed).unwrap();
    assert!(!r.is_complete() && r.links.is_empty());
    // Corner offsets leave the link's ends where they are.
    let offset = exact.clone().with_corner_offset(0.5);
    let up = Vec2::new(1.0, 20.0);
    let p = f.find_path(&cheap, up, b, &offset).unwrap();
    assert_eq!(p.links.len(), 1);
    let k = p.links[0].segment;
    assert_eq!((p.points[k], p.points[k + 1]), (from, to));
    // Landmarks measure the mesh without its links: refused rather than wrong.
    let lm = crate::search::landmarks::Landmarks::build(&cheap, 2);
    let with_lm = exact.clone().with_landmarks(Some(std::sync::Arc::new(lm)));
    assert!(matches!(
        f.find_path(&cheap, a, b, &with_lm),
        Err(PathError::Unsupported {
            method: "exact",
            ..
        })
    ));
}

#[test]
fn free_link_cycles_end_and_landing_on_a_vertex_keeps_the_channel_joined() {
    let exact = SearchOptions::exact();
    // A wall with a gap at the top; links of cost 0 back and forth on one side (a cycle
    // of free links: the search used to land on it again and again, without end).
    let s = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(20.0, 10.0))).with_obstacle([
        (9.0, 0.0),
        (11.0, 0.0),
        (11.0, 8.0),
        (9.0, 8.0),
    ]);
    let base = build(&s, &BuildOptions::trapezoid()).unwrap();
    let (a, b) = (Vec2::new(1.0, 1.0), Vec2::new(19.0, 1.0));
    let (p, q) = (Vec2::new(2.0, 2.0), Vec2::new(3.0, 2.0));
    // a → p, free to q, over the wall's two top corners, down to b.
    let want = 2f64.sqrt() + 72f64.sqrt() + 2.0 + 113f64.sqrt();
    // (A budget turns a relapse into a failure instead of a hang.)
    let budget = exact.clone().with_max_expanded(Some(100_000));
    for links in [
        vec![OffMeshLink::new(p, q, 0.0).bidirectional()],
        vec![OffMeshLink::new(p, q, 0.0), OffMeshLink::new(q, p, 0.0)],
    ] {
        let m = base.clone().with_links(links).unwrap();
        let got = PathFinder::new().find_path(&m, a, b, &budget).unwrap();
        assert_eq!(got.points[..3], [a, p, q]);
        let cost = got.cost(&m);
        assert!((cost - want).abs() < 1e-9, "{cost} vs {want}: {got:?}");
    }
    // Free jumps landing on mesh vertices where several polygons meet (the corners of a
    // block in a triangulated map): consecutive channel polygons share an edge, or the link
    // joins them. (The landing node names one polygon holding the landing point, which
    // need not be the one the path goes on in.)
    let s = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(20.0, 20.0))).with_obstacle([
        (8.0, 8.0),
        (12.0, 8.0),
        (12.0, 12.0),
        (8.0, 12.0),
    ]);
    let m = build(&s, &BuildOptions::default()).unwrap();
    let from = Vec2::new(1.0, 10.0);
    let (mut checked, mut linked) = (0, 0);
    for to in [
        (8.0, 8.0),
        (12.0, 8.0),
        (12.0, 12.0),
        (8.0, 12.0),
        (20.0, 0.0),
    ] {
        let to = Vec2::new(to.0, to.1);
        let m = m
            .clone()
            .with_links([OffMeshLink::new(from, to, 0.0)])
            .unwrap();
        for goal in [
            (19.0, 1.0),
            (19.0, 19.0),
            (10.0, 19.0),
            (10.0, 1.0),
            (15.0, 10.0),
        ] {
            let goal = Vec2::new(goal.0, goal.1);
            let path = PathFinder::new().find_path(&m, from, goal, &exact).unwrap();
            linked += path.links.len();
            for w in path.channel.windows(2) {
                let joined = m.shared_edge(w[0], w[1]).is_some()
                    || (m.locate_in(w[0], from).is_some() && m.locate_in(w[1], to).is_some());
                assert!(joined, "{:?} then {:?} in {:?}", w[0], w[1], path.channel);
                checked += 1;
            }
        }
    }
    assert!(
        checked > 25 && linked > 10,
        "{checked} pairs, {linked} links taken"
    );
}

#[test]
fn a_cheap_link_beats_the_straight_line_inside_one_polygon() {
    // Start and goal in the one polygon of an empty map; a teleport of cost 1 between
    // points near them beats the straight walk of 80.
    let m = build(
        &Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(100.0, 10.0))),
        &BuildOptions::trapezoid(),
    )
    .unwrap();
    let (s, g) = (Vec2::new(5.0, 5.0), Vec2::new(85.0, 5.0));
    let (from, to) = (Vec2::new(5.0, 6.0), Vec2::new(85.0, 6.0));
    let m = m.with_links([OffMeshLink::new(from, to, 1.0)]).unwrap();
    let exact = SearchOptions::exact();
    let p = PathFinder::new().find_path(&m, s, g, &exact).unwrap();
    assert_eq!(p.points, vec![s, from, to, g]);
    assert_eq!(p.links.len(), 1);
    // Backwards there is no link: the straight line.
    let p = PathFinder::new().find_path(&m, g, s, &exact).unwrap();
    assert_eq!(p.points, vec![g, s]);
}

#[test]
fn linked_paths_are_walkable_runs_joined_by_links() {
    use proptest::prelude::*;
    let input = (
        random_scene(),
        proptest::collection::vec((grid_point(), grid_point()), 6),
        proptest::collection::vec(0.0..30.0f64, 6),
        proptest::collection::vec((grid_point(), grid_point()), 12),
    );
    let paths = std::cell::Cell::new(0usize);
    let exact_compared = std::cell::Cell::new(0usize);
    let linked = check_counted(file!(), 256, input, |(scene, ends, costs, queries)| {
        let base = mesh_of(&scene);
        let links: Vec<OffMeshLink> = ends
            .iter()
            .zip(&costs)
            .enumerate()
            .filter(|(_, ((a, b), _))| {
                a != b && base.locate(*a).polygon().is_some() && base.locate(*b).polygon().is_some()
            })
            .map(|(i, ((a, b), &c))| {
                let l = OffMeshLink::new(*a, *b, c);
                if i % 2 == 0 {
                    l.bidirectional()
                } else {
                    l
                }
            })
            .collect();
        let m = base.with_links(links.clone()).unwrap();
        let mut f = PathFinder::new();
        let mut linked = 0;
        let exact = SearchOptions::exact();
        let cost = |p: &Path| p.cost(&m);
        for (a, b) in queries {
            let Ok(funnel) = f.find_path(&m, a, b, &SearchOptions::default()) else {
                // Same graph, links included: the exact search finds no path either.
                prop_assert!(f.find_path(&m, a, b, &exact).is_err());
                continue;
            };
            paths.set(paths.get() + 1);
            linked += usize::from(!funnel.links.is_empty());
            let exact_path = match f.find_path(&m, a, b, &exact) {
                Ok(e) => Some(e),
                Err(e) => {
                    return Err(proptest::test_runner::TestCaseError::fail(format!(
                        "{a} -> {b}: the funnel found a path, the exact search {e:?}"
                    )))
                }
            };
            exact_compared.set(exact_compared.get() + usize::from(exact_path.is_some()));
            if let Some(e) = &exact_path {
                prop_assert!(
                    cost(e) <= cost(&funnel) * (1.0 + 1e-9) + 1e-9,
                    "exact {} > funnel {}",
                    cost(e),
                    cost(&funnel)
                );
                // Its channel: neighbours, or two polygons joined by a link it takes.
                for w in e.channel.windows(2) {
                    let jumped = e.links.iter().any(|t| {
                        let (x, y) = (e.points[t.segment], e.points[t.segment + 1]);
                        m.locate_in(w[0], x).is_some() && m.locate_in(w[1], y).is_some()
                    });
                    prop_assert!(
                        m.shared_edge(w[0], w[1]).is_some() || jumped,
                        "{:?} then {:?} in {:?}",
                        w[0],
                        w[1],
                        e.channel
                    );
                }
            }
            for p in std::iter::once(&funnel).chain(&exact_path) {
                prop_assert_eq!(p.points[0], a);
                prop_assert_eq!(*p.points.last().unwrap(), b);
                let link_segments: Vec<usize> = p.links.iter().map(|t| t.segment).collect();
                for t in &p.links {
                    let l = links[t.link.index()];
                    let (x, y) = if t.reversed {
                        (l.to, l.from)
                    } else {
                        (l.from, l.to)
                    };
                    prop_assert!(l.bidirectional || !t.reversed);
                    prop_assert_eq!((p.points[t.segment], p.points[t.segment + 1]), (x, y));
                }
                for (i, w) in p.points.windows(2).enumerate() {
                    if !link_segments.contains(&i) {
                        let clear = crate::search::raycast::raycast(&m, w[0], w[1])
                            .unwrap()
                            .is_clear();
                        prop_assert!(clear, "segment {} of {:?}", i, p.points);
                    }
                }
            }
        }
        Ok(linked)
    });
    // Points inside obstacles and walled-off goals are skipped; enough paths must remain,
    // and enough of them must take a link, for the property to say something.
    // (~2,770 paths of 3,072 queries, ~200 of them through a link.)
    assert!(
        paths.get() >= 2000,
        "only {} of 3,072 queries found a path",
        paths.get()
    );
    assert!(linked >= 100, "only {linked} paths took a link");
    assert!(
        exact_compared.get() * 10 >= paths.get() * 9,
        "the exact search answered only {} of {} queries",
        exact_compared.get(),
        paths.get()
    );
}
