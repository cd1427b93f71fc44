//! The runner: one map built, its pairs drawn, every strategy and the oracle run on each.

use super::*;

pub(super) fn check(options: &EvalOptions) -> Result<(), EvalError> {
    let t = options.relative_tolerance;
    if !(t.is_finite() && t >= 0.0) {
        return Err(EvalError::BadTolerance(t));
    }
    if options.strategies.is_empty() {
        return Err(EvalError::NoStrategy);
    }
    options.scene.validate()?;
    Ok(())
}

pub(super) fn nanos_since(t: Instant) -> u64 {
    u64::try_from(t.elapsed().as_nanos()).unwrap_or(u64::MAX)
}

/// Evaluates map `map` of the options' sequence (independent of every other map).
pub fn evaluate_map(options: &EvalOptions, map: usize) -> Result<MapReport, EvalError> {
    check(options)?;
    let seed = Rng::derive(options.seed, map as u64);
    let scene = random_scene(seed, &options.scene)?;
    let mesh = build(&scene, &BuildOptions::trapezoid()).map_err(|source| EvalError::Build {
        map,
        seed,
        source,
    })?;
    let oracle =
        VisibilityGraph::new(&scene).map_err(|source| EvalError::Oracle { map, source })?;
    let mut rng = Rng::new(Rng::derive(seed, 1));
    let mut finder = PathFinder::new();
    // The corner search's graph is built per map (preprocessing, not timed with the queries),
    // without the build's timed choices: a seed gives one table, counts included (with them,
    // two runs kept the views on a map in one and not the other: 8.0 against 8.2 expanded).
    let mut graph = None;
    let per_map: Vec<SearchOptions> = options
        .strategies
        .iter()
        .map(|s| {
            let mut o = s.options.clone();
            if o.method == SearchMethod::Corner && o.corner_graph.is_none() {
                let g = graph.get_or_insert_with(|| Arc::new(CornerGraph::build_with_views(&mesh)));
                o.corner_graph = Some(Arc::clone(g));
            }
            o
        })
        .collect();
    let mut queries = Vec::new(); // (the caller's count may be any usize)
    for query in 0..options.queries_per_map {
        let mut draw = || {
            random_free_point(&mut rng, &scene, options.point_attempts).ok_or(
                EvalError::NoFreePoint {
                    map,
                    attempts: options.point_attempts,
                },
            )
        };
        let (start, goal) = (draw()?, draw()?);
        let outcome = compare(&per_map, &mesh, &oracle, &mut finder, start, goal);
        queries.push(QueryRecord {
            query,
            start,
            goal,
            outcome,
        });
    }
    Ok(MapReport {
        map,
        seed,
        polygons: mesh.polygon_count(),
        scene,
        queries,
    })
}

pub(super) fn compare(
    strategies: &[SearchOptions],
    mesh: &crate::NavMesh,
    oracle: &VisibilityGraph,
    finder: &mut PathFinder,
    start: Vec2,
    goal: Vec2,
) -> QueryOutcome {
    let same_polygon = match (
        resolve_endpoint(mesh, start, Snap::Reject, EndpointRole::Start),
        resolve_endpoint(mesh, goal, Snap::Reject, EndpointRole::Goal),
    ) {
        (Ok(s), Ok(g)) => s.polygons.iter().any(|p| g.polygons.contains(p)),
        // Free points off the mesh are a builder bug; the runs below will report it.
        _ => false,
    };
    if same_polygon {
        return QueryOutcome::SamePolygon;
    }
    let t = Instant::now();
    let optimum = match oracle.shortest_path(start, goal) {
        Ok(p) => p,
        Err(VisibilityError::NoPath) => return QueryOutcome::Unreachable,
        // Both points were drawn in free space; the oracle accepts every such point.
        Err(e) => unreachable!("the oracle refused a free point: {e}"),
    };
    let oracle_nanos = nanos_since(t);
    let runs = strategies
        .iter()
        .map(|s| {
            let t = Instant::now();
            let result = finder.find_path(mesh, start, goal, s);
            let nanos = nanos_since(t);
            let excess = result
                .as_ref()
                .ok()
                .map(|p| p.length / optimum.length - 1.0);
            Run {
                result,
                excess,
                nanos,
            }
        })
        .collect();
    QueryOutcome::Compared {
        optimum,
        oracle_nanos,
        runs,
    }
}
