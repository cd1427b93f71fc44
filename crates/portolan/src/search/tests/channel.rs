//! [`SearchOptions::channel`]: without the channel every search gives the same answer point for
//! point (or the same error), with an empty channel; the funnel's trace is the same either way.
//! (The corner search's own checks are in `tests/corner_search.rs`, on every published query.)

use crate::geom::Vec2;
use crate::mesh::{NavMesh, OffMeshLink, PolyId};
use crate::search::{PathFinder, PolygonFilter, SearchOptions};
use crate::testkit::scenes::{grid_point, mesh_of, random_scene, split_map};
use crate::testkit::{check_counted, same_without_channel};
use proptest::prelude::*;
use std::sync::Arc;

/// Whether `options` with and without the channel agree on `s → g`
/// ([`same_without_channel`]); `Ok(true)` where there is a path.
fn agrees(
    finder: &mut PathFinder,
    mesh: &NavMesh,
    (s, g): (Vec2, Vec2),
    options: &SearchOptions,
) -> Result<bool, String> {
    let with = finder.find_path(mesh, s, g, options);
    same_without_channel(finder, mesh, (s, g), options, &with).map(|()| with.is_ok())
}

/// Every search method and the options that change how it ends (partial paths, budgets,
/// filters), on random scenes.
#[test]
fn without_the_channel_every_search_gives_the_same_path() {
    let pairs = prop::collection::vec((grid_point(), grid_point()), 6);
    let checked = check_counted(file!(), 32, (random_scene(), pairs), |(scene, pairs)| {
        let mesh = mesh_of(&scene);
        let mut closed = PolygonFilter::new();
        closed.exclude(PolyId(0));
        let closed = Arc::new(closed);
        let all = [
            SearchOptions::funnel(),
            SearchOptions::midpoint(),
            SearchOptions::exact(),
            SearchOptions::exact().with_corner_offset(0.5),
            SearchOptions::exact()
                .with_max_expanded(Some(3))
                .with_allow_partial(true),
            SearchOptions::funnel()
                .with_max_expanded(Some(3))
                .with_allow_partial(true),
            SearchOptions::exact().with_filter(Some(Arc::clone(&closed))),
            SearchOptions::funnel().with_filter(Some(Arc::clone(&closed))),
        ];
        let mut finder = PathFinder::new();
        let mut found = 0;
        for &(s, g) in &pairs {
            for options in &all {
                let ok = agrees(&mut finder, &mesh, (s, g), options);
                prop_assert!(ok.is_ok(), "{s} -> {g}, {options:?}: {}", ok.unwrap_err());
                found += usize::from(ok.unwrap());
            }
        }
        Ok(found)
    });
    assert!(checked >= 500, "only {checked} paths compared");
}

#[test]
fn without_the_channel_a_path_through_a_link_is_the_same() {
    let link = OffMeshLink::new(Vec2::new(3.0, 8.0), Vec2::new(7.0, 8.0), 4.0);
    let mesh = split_map().with_links([link]).unwrap();
    let mut finder = PathFinder::new();
    let (a, b) = (Vec2::new(1.0, 1.0), Vec2::new(9.0, 1.0));
    for options in [SearchOptions::funnel(), SearchOptions::exact()] {
        assert_eq!(agrees(&mut finder, &mesh, (a, b), &options), Ok(true));
    }
}

#[test]
fn a_trace_without_the_channel_is_the_trace_with_it() {
    let mesh = crate::build::build(
        &crate::Scene::default_map(),
        &crate::BuildOptions::trapezoid(),
    )
    .unwrap();
    let (s, g) = (crate::Scene::DEFAULT_START, crate::Scene::DEFAULT_GOAL);
    let mut finder = PathFinder::new();
    let options = SearchOptions::funnel();
    let (path, trace) = finder.find_path_traced(&mesh, s, g, &options).unwrap();
    let (bare, bare_trace) = finder
        .find_path_traced(&mesh, s, g, &options.clone().with_channel(false))
        .unwrap();
    assert!(path.channel.len() >= 2 && bare.channel.is_empty());
    assert_eq!((bare.points, bare.length), (path.points, path.length));
    assert_eq!(bare_trace, trace);
}
