//! Crowd scenarios checked from the positions at every step (not from the crowd's own
//! counters): everyone arrives, nobody leaves the mesh, no pair overlaps by more than 5% of
//! their radii sum. Steps are deterministic: sequential against parallel, run against rerun.
//! Bad input gets typed errors. Every seed here is fixed.

use portolan::crowd::scenarios::{Scenario, ScenarioKind};
use portolan::crowd::{AgentField, AgentId, AgentParams, Crowd, CrowdError, CrowdOptions};
use portolan::{build, BuildOptions, Scene, Vec2};
use std::sync::Arc;

struct Outcome {
    steps_to_all_arrived: Option<usize>,
    left_mesh: usize,
    max_overlap_ratio: f64,
    positions: Vec<Vec<Vec2>>,
}

/// The largest overlap of any pair, as a fraction of their radii sum (0 when none touch).
fn max_overlap(points: &[Vec2], radii: &[f64]) -> f64 {
    let mut worst: f64 = 0.0;
    for i in 0..points.len() {
        for j in i + 1..points.len() {
            let sum = radii[i] + radii[j];
            let d = points[i].distance(points[j]);
            if d < sum {
                worst = worst.max((sum - d) / sum);
            }
        }
    }
    worst
}

fn run(s: &Scenario, options: CrowdOptions, max_steps: usize, keep: bool) -> Outcome {
    let mut crowd = s.crowd(options).unwrap();
    let radii: Vec<f64> = s.agents.iter().map(|a| a.radius).collect();
    let mut out = Outcome {
        steps_to_all_arrived: None,
        left_mesh: 0,
        max_overlap_ratio: 0.0,
        positions: Vec::new(),
    };
    for step in 1..=max_steps {
        crowd.step(s.dt).unwrap();
        let points: Vec<Vec2> = crowd.agents().iter().map(|a| a.position()).collect();
        out.left_mesh += points
            .iter()
            .filter(|&&p| s.mesh.locate(p).polygon().is_none())
            .count();
        out.max_overlap_ratio = out.max_overlap_ratio.max(max_overlap(&points, &radii));
        // Arrived: within half a radius of the goal, from the positions.
        let all = points
            .iter()
            .zip(&s.agents)
            .all(|(p, a)| p.distance(a.goal) <= 0.5 * a.radius);
        if keep {
            out.positions.push(points);
        }
        if all {
            out.steps_to_all_arrived = Some(step);
            break;
        }
    }
    out
}

fn check(kind: ScenarioKind, n: usize, seed: u64, max_steps: usize) {
    let s = Scenario::new(kind, n, seed).unwrap();
    let o = run(&s, CrowdOptions::default(), max_steps, false);
    eprintln!(
        "{kind} n={n}: all arrived at step {:?}, left mesh {}, max overlap {:.4}",
        o.steps_to_all_arrived, o.left_mesh, o.max_overlap_ratio
    );
    assert_eq!(o.left_mesh, 0, "{kind}: positions off the mesh");
    assert!(
        o.max_overlap_ratio <= 0.05,
        "{kind}: overlap {:.4} of the radii sum",
        o.max_overlap_ratio
    );
    assert!(
        o.steps_to_all_arrived.is_some(),
        "{kind}: not all arrived in {max_steps} steps"
    );
}

#[test]
fn circle_all_arrive_on_mesh_without_overlap() {
    check(ScenarioKind::Circle, 300, 1, 4000);
}

#[test]
fn crossing_all_arrive_on_mesh_without_overlap() {
    check(ScenarioKind::Crossing, 300, 2, 4000);
}

#[test]
fn bottleneck_all_arrive_on_mesh_without_overlap() {
    check(ScenarioKind::Bottleneck, 200, 3, 9000);
}

#[test]
fn random_all_arrive_on_mesh_without_overlap() {
    check(ScenarioKind::Random, 300, 4, 3000);
}

#[cfg(feature = "parallel")]
#[test]
fn sequential_parallel_and_rerun_give_identical_positions() {
    for kind in [
        ScenarioKind::Circle,
        ScenarioKind::Bottleneck,
        ScenarioKind::Random,
    ] {
        let s = Scenario::new(kind, 150, 11).unwrap();
        // 150 agents are below the default parallel threshold: force the pool on every step
        // (no tuning); `tuned` switches between the two ways as its timings say.
        let parallel = || {
            CrowdOptions::default()
                .with_parallel_min_agents(0)
                .with_parallel_tuning(false)
        };
        let seq = run(&s, CrowdOptions::default().with_parallel(false), 300, true);
        let par = run(&s, parallel(), 300, true);
        let again = run(&s, parallel(), 300, true);
        let tuned = run(
            &s,
            CrowdOptions::default()
                .with_parallel_min_agents(0)
                .with_parallel_tuning(true),
            300,
            true,
        );
        // On other thread counts too: a pool of 1 and of 3 threads.
        let pool = |n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap()
                .install(|| run(&s, parallel(), 300, true))
        };
        let one = pool(1);
        let three = pool(3);
        assert_eq!(seq.positions.len(), 300);
        for (name, other) in [
            ("parallel", &par),
            ("rerun", &again),
            ("tuned", &tuned),
            ("1 thread", &one),
            ("3 threads", &three),
        ] {
            assert!(
                seq.positions == other.positions,
                "{kind}: {name} differs from sequential"
            );
        }
        // Bit-for-bit, not merely equal as floats.
        let bits = |o: &Outcome| -> Vec<u64> {
            o.positions
                .iter()
                .flatten()
                .flat_map(|p| [p.x.to_bits(), p.y.to_bits()])
                .collect()
        };
        assert_eq!(bits(&seq), bits(&par));
    }
}

fn small_crowd(options: CrowdOptions) -> Crowd {
    let mesh = build(
        &Scene::default_map(),
        &BuildOptions::default().with_agent_radius(2.0),
    )
    .unwrap();
    Crowd::new(Arc::new(mesh), options)
}

/// Any finite time step > 0 is valid, however far it throws the agents: they stay on the mesh
/// and the step does not panic. A step of 1e300 s once put half the agents 1e301 off the map
/// (the far target's orientation tests overflowed to NaN, read as "on the line", so the target
/// was inside the agent's polygon), and the next step's neighbour grid panicked (session 36,
/// found through `POST /api/crowd/{id}/step`).
#[test]
fn extreme_time_steps_keep_every_agent_on_the_mesh() {
    for dt in [1e300, 1e100, 1e-300] {
        let s = Scenario::new(ScenarioKind::Random, 50, 1).unwrap();
        let mut crowd = s.crowd(CrowdOptions::default()).unwrap();
        for step in 0..3 {
            crowd.step(dt).unwrap();
            for a in crowd.agents() {
                assert!(
                    s.mesh.locate(a.position()).polygon().is_some(),
                    "dt {dt:e}, step {step}: agent {:?} at {:?} is off the mesh",
                    a.id(),
                    a.position()
                );
                assert!(a.velocity().is_finite(), "dt {dt:e}: {:?}", a.velocity());
            }
        }
    }
}

#[test]
fn bad_input_gets_typed_errors_naming_the_culprit() {
    let mut crowd = small_crowd(CrowdOptions::default());
    let (a, b) = (Vec2::new(20.0, 20.0), Vec2::new(700.0, 400.0));
    let ok = AgentParams::new(a, b, 1.0, 5.0);
    let with = |f: &dyn Fn(&mut AgentParams)| {
        let mut p = ok.clone();
        f(&mut p);
        p
    };
    let nan = f64::NAN;
    for (p, field) in [
        (with(&|p| p.position.x = nan), AgentField::Position),
        (with(&|p| p.goal.y = f64::INFINITY), AgentField::Goal),
        (with(&|p| p.radius = nan), AgentField::Radius),
        (with(&|p| p.max_speed = nan), AgentField::MaxSpeed),
    ] {
        assert_eq!(
            crowd.add_agent(p),
            Err(CrowdError::NonFinite { agent: None, field })
        );
    }
    assert_eq!(
        crowd.add_agent(with(&|p| p.radius = -0.5)),
        Err(CrowdError::NegativeRadius { radius: -0.5 })
    );
    assert_eq!(
        crowd.add_agent(with(&|p| p.max_speed = -1.0)),
        Err(CrowdError::NegativeSpeed { max_speed: -1.0 })
    );
    // Off the mesh: outside the map, and inside an obstacle.
    let off = Vec2::new(-30.0, 40.0);
    assert_eq!(
        crowd.add_agent(with(&|p| p.goal = off)),
        Err(CrowdError::GoalOffMesh {
            agent: None,
            goal: off
        })
    );
    assert_eq!(
        crowd.add_agent(with(&|p| p.position = off)),
        Err(CrowdError::PositionOffMesh { position: off })
    );
    let id = crowd.add_agent(ok.clone()).unwrap();
    assert_eq!(
        crowd.set_goal(id, off),
        Err(CrowdError::GoalOffMesh {
            agent: Some(id),
            goal: off
        })
    );
    assert_eq!(
        crowd.set_goal(id, Vec2::new(nan, 1.0)),
        Err(CrowdError::NonFinite {
            agent: Some(id),
            field: AgentField::Goal
        })
    );
    let ghost = AgentId(99);
    assert_eq!(
        crowd.set_goal(ghost, b),
        Err(CrowdError::UnknownAgent(ghost))
    );
    assert_eq!(
        crowd.remove_agent(ghost),
        Err(CrowdError::UnknownAgent(ghost))
    );
    assert!(matches!(crowd.agent(ghost), Err(CrowdError::UnknownAgent(g)) if g == ghost));
    crowd.remove_agent(id).unwrap();
    assert_eq!(crowd.set_goal(id, b), Err(CrowdError::UnknownAgent(id)));
    for dt in [0.0, -1.0, nan, f64::INFINITY] {
        assert!(matches!(
            crowd.step(dt),
            Err(CrowdError::InvalidTimeStep { .. })
        ));
    }
    // With snapping, the same goal is moved onto the mesh instead.
    let mut snapping = small_crowd(CrowdOptions::default().with_snap(Some(100.0)));
    let id = snapping.add_agent(with(&|p| p.goal = off)).unwrap();
    let goal = snapping.agent(id).unwrap().goal();
    assert!(snapping
        .mesh_of(id)
        .unwrap()
        .locate(goal)
        .polygon()
        .is_some());
    // A bad option is named.
    let mut o = CrowdOptions::default();
    o.time_horizon = -1.0;
    assert!(matches!(
        small_crowd(o).step(0.1),
        Err(CrowdError::InvalidOption {
            option: "time_horizon",
            ..
        })
    ));
}

#[test]
fn replanning_is_budgeted_oldest_first() {
    let mut crowd = small_crowd(CrowdOptions::default().with_max_replans_per_step(3));
    let ids: Vec<AgentId> = (0..7)
        .map(|k| {
            let p = Vec2::new(20.0 + 6.0 * k as f64, 20.0);
            crowd
                .add_agent(AgentParams::new(p, Vec2::new(700.0, 400.0), 1.0, 20.0))
                .unwrap()
        })
        .collect();
    let s = crowd.step(0.05).unwrap();
    assert_eq!((s.replans, s.pending_replans), (3, 4));
    use portolan::crowd::AgentState::{Moving, Planning};
    let states: Vec<_> = ids
        .iter()
        .map(|&i| crowd.agent(i).unwrap().state())
        .collect();
    assert_eq!(
        states,
        [Moving, Moving, Moving, Planning, Planning, Planning, Planning]
    );
    // A mass goal change spreads over steps too.
    for &i in &ids {
        crowd.set_goal(i, Vec2::new(780.0, 20.0)).unwrap();
    }
    let planned: Vec<usize> = (0..3).map(|_| crowd.step(0.05).unwrap().replans).collect();
    assert_eq!(planned, [3, 3, 1]);
}

#[test]
fn agents_of_two_radius_classes_move_on_their_own_meshes() {
    let scene = Scene::default_map();
    let radii = [1.0, 6.0];
    let meshes =
        portolan::build::build_per_radius(&scene, &BuildOptions::default(), &radii).unwrap();
    let classes = radii
        .iter()
        .copied()
        .zip(meshes.into_iter().map(Arc::new))
        .collect();
    let mut crowd = Crowd::with_radius_classes(classes, CrowdOptions::default()).unwrap();
    let small = crowd
        .add_agent(AgentParams::new(
            Vec2::new(20.0, 20.0),
            Vec2::new(760.0, 420.0),
            1.0,
            40.0,
        ))
        .unwrap();
    let big = crowd
        .add_agent(AgentParams::new(
            Vec2::new(760.0, 420.0),
            Vec2::new(20.0, 20.0),
            6.0,
            40.0,
        ))
        .unwrap();
    for _ in 0..2000 {
        crowd.step(0.05).unwrap();
        for id in [small, big] {
            let a = crowd.agent(id).unwrap();
            assert!(crowd
                .mesh_of(id)
                .unwrap()
                .locate(a.position())
                .polygon()
                .is_some());
        }
    }
    assert!(crowd.agent(small).unwrap().is_arrived());
    assert!(crowd.agent(big).unwrap().is_arrived());
    assert!(crowd.mesh_of(big).unwrap().area() < crowd.mesh_of(small).unwrap().area());
}

/// A 200 × 100 room in 50-unit tiles; agents of radius 1 on the mesh built for it.
fn tiled_room() -> portolan::dynamic::DynamicNavMesh {
    use portolan::geom::Aabb;
    let scene = Scene::new(Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(200.0, 100.0)));
    portolan::dynamic::DynamicNavMesh::new(scene, &BuildOptions::cdt().with_agent_radius(1.0), 50.0)
        .unwrap()
}

fn changed_boxes(
    new: &portolan::dynamic::Snapshot,
    old: &portolan::dynamic::Snapshot,
) -> Vec<portolan::geom::Aabb> {
    let g = new.grid();
    new.changed_tiles_since(old)
        .iter()
        .map(|&t| g.tile_bounds(t % g.columns(), t / g.columns()))
        .collect()
}

#[test]
fn a_local_mesh_change_replans_only_the_agents_whose_corridor_it_touches() {
    let mut nav = tiled_room();
    let old = nav.snapshot();
    let mut crowd = Crowd::new(old.mesh().clone(), CrowdOptions::default());
    // Five agents along the bottom, five along the top, all walking right.
    let mut low = Vec::new();
    let mut high = Vec::new();
    for k in 0..5 {
        let y = 5.0 + 6.0 * k as f64;
        let p = AgentParams::new(Vec2::new(5.0, y), Vec2::new(195.0, y), 1.0, 20.0);
        low.push(crowd.add_agent(p).unwrap());
        let y = 70.0 + 6.0 * k as f64;
        let p = AgentParams::new(Vec2::new(5.0, y), Vec2::new(195.0, y), 1.0, 20.0);
        high.push(crowd.add_agent(p).unwrap());
    }
    for _ in 0..5 {
        crowd.step(0.05).unwrap();
    }
    // A wall across the upper half at x = 100, from y = 55 to the top.
    let wall = [(98.0, 55.0), (102.0, 55.0), (102.0, 100.0), (98.0, 100.0)];
    nav.add_obstacle(wall).unwrap();
    nav.update().unwrap();
    let new = nav.snapshot();
    let boxes = changed_boxes(&new, &old);
    assert!(!boxes.is_empty());
    let points = |mesh: &portolan::NavMesh, ids: &[portolan::PolyId]| -> Vec<Vec<Vec2>> {
        ids.iter()
            .map(|&p| mesh.polygon_points(p).collect())
            .collect()
    };
    let before: Vec<Vec<Vec<Vec2>>> = low
        .iter()
        .map(|&id| points(old.mesh(), crowd.agent(id).unwrap().channel()))
        .collect();
    let replanning = crowd
        .set_mesh_changed(0, new.mesh().clone(), &boxes)
        .unwrap();
    assert_eq!(replanning, high.len(), "only the upper agents replan");
    // The lower agents kept their corridors: the same polygons, under the new mesh's ids.
    for (id, before) in low.iter().zip(&before) {
        let a = crowd.agent(*id).unwrap();
        assert!(!a.channel().is_empty());
        assert_eq!(&points(new.mesh(), a.channel()), before, "{id}");
        assert_eq!(a.state(), portolan::crowd::AgentState::Moving);
    }
    for id in &high {
        assert_eq!(
            crowd.agent(*id).unwrap().state(),
            portolan::crowd::AgentState::Planning
        );
    }
    assert_eq!(crowd.step(0.05).unwrap().replans, high.len());
    // Everyone arrives, on the new mesh at every step: the upper agents go round the wall.
    let inside_wall = |p: Vec2| p.x > 98.0 && p.x < 102.0 && p.y > 55.0;
    let mut arrived = false;
    for _ in 0..1500 {
        let stats = crowd.step(0.05).unwrap();
        for a in crowd.agents() {
            assert!(new.mesh().locate(a.position()).polygon().is_some());
            assert!(!inside_wall(a.position()), "{} in the wall", a.id());
        }
        if stats.arrived == low.len() + high.len() {
            arrived = true;
            break;
        }
    }
    assert!(arrived, "not all arrived after the change");
}

#[test]
fn a_renumbered_mesh_never_keeps_a_stale_corridor() {
    // The "change" claims no region, but the new mesh is another mesh (built for a larger
    // radius): no polygon matches, so every agent replans instead of following old ids.
    let mut crowd = small_crowd(CrowdOptions::default());
    for k in 0..4 {
        let p = AgentParams::new(
            Vec2::new(20.0 + 10.0 * k as f64, 20.0),
            Vec2::new(700.0, 400.0),
            1.0,
            30.0,
        );
        crowd.add_agent(p).unwrap();
    }
    crowd.step(0.1).unwrap();
    crowd.step(0.1).unwrap();
    let other = build(
        &Scene::default_map(),
        &BuildOptions::default().with_agent_radius(3.0),
    )
    .unwrap();
    assert_eq!(crowd.set_mesh_changed(0, Arc::new(other), &[]).unwrap(), 4);
    assert!(crowd.agents().iter().all(|a| a.channel().is_empty()));
    // Bad input: an unknown class, a box that is not finite.
    let mesh = Arc::new(build(&Scene::default_map(), &BuildOptions::default()).unwrap());
    assert!(matches!(
        crowd.set_mesh_changed(3, mesh.clone(), &[]),
        Err(CrowdError::InvalidOption {
            option: "class",
            ..
        })
    ));
    let nan = portolan::geom::Aabb {
        min: Vec2::new(f64::NAN, 0.0),
        max: Vec2::new(1.0, 1.0),
    };
    assert!(matches!(
        crowd.set_mesh_changed(0, mesh, &[nan]),
        Err(CrowdError::InvalidOption {
            option: "changed",
            ..
        })
    ));
}

/// The length of the route an agent walks from where it stands: the funnel through the
/// channel it keeps.
fn walked(mesh: &portolan::NavMesh, crowd: &Crowd, id: AgentId) -> f64 {
    use portolan::search::funnel::channel_portals;
    let a = crowd.agent(id).unwrap();
    let portals = channel_portals(mesh, a.channel(), a.position(), a.goal());
    let points = portolan::search::Funnel::new(&portals).finish();
    points.windows(2).map(|w| w[0].distance(w[1])).sum()
}

/// An agent walks the funnel through its channel, so the plan's channel is its route. On a
/// published cave map, on queries whose channel from the chapter's channel search (the
/// crowd's default) is longer than the shortest path, the default plan walks longer and the
/// exact and corner-graph plans walk the shortest route: one agent per crowd, planned in
/// one step of a millisecond. After a mesh change the class's graph is dropped (it belonged
/// to the old mesh) and the class plans exactly.
#[test]
fn exact_and_corner_plans_walk_shortest_routes() {
    use portolan::search::corner_graph::CornerGraph;
    use portolan::search::{PathFinder, SearchMethod, SearchOptions};
    use portolan::testkit::data_dir;
    let open = |p: &str| std::io::BufReader::new(std::fs::File::open(data_dir().join(p)).unwrap());
    let map = portolan::io::movingai::read_map(open("movingai/dao/den011d.map")).unwrap();
    let mesh = Arc::new(build(&map.to_scene(), &BuildOptions::cdt()).unwrap());
    let graph = Arc::new(CornerGraph::build(&mesh));
    let scen = portolan::io::scenario::read(open("movingai/dao/den011d.map.scen")).unwrap();
    let mut finder = PathFinder::new();
    let mut exact = |s: Vec2, g: Vec2| {
        finder
            .find_path(&mesh, s, g, &SearchOptions::exact())
            .unwrap()
            .length
    };
    let mut funnel = PathFinder::new();
    let longer: Vec<(Vec2, Vec2)> = scen
        .iter()
        .map(|q| (q.start, q.goal))
        .filter(|&(s, g)| {
            let f = funnel
                .find_path(&mesh, s, g, &SearchOptions::funnel())
                .unwrap();
            f.length > exact(s, g) * (1.0 + 1e-3)
        })
        .take(12)
        .collect();
    assert_eq!(longer.len(), 12, "queries the channel search answers long");
    for method in [
        SearchMethod::Funnel,
        SearchMethod::Exact,
        SearchMethod::Corner,
    ] {
        let mut shortest = 0;
        for &(s, g) in &longer {
            let options = CrowdOptions::default().with_search(method);
            let mut crowd = Crowd::new(mesh.clone(), options);
            if method == SearchMethod::Corner {
                crowd.set_corner_graph(0, Some(graph.clone())).unwrap();
            }
            let id = crowd.add_agent(AgentParams::new(s, g, 0.25, 1.0)).unwrap();
            assert_eq!(crowd.step(1e-3).unwrap().replans, 1);
            let a = crowd.agent(id).unwrap();
            let (route, best) = (walked(&mesh, &crowd, id), exact(a.position(), g));
            assert!(
                route >= best * (1.0 - 1e-9),
                "{method:?}: {s} -> {g}: {route} < {best}"
            );
            shortest += usize::from(route <= best * (1.0 + 1e-9));
        }
        let want = if method == SearchMethod::Funnel {
            0
        } else {
            longer.len()
        };
        assert_eq!(shortest, want, "{method:?}: routes that are shortest");
    }
    // A new mesh drops the graph of the old one; the class plans exactly until given another.
    let mut crowd = Crowd::new(
        mesh.clone(),
        CrowdOptions::default().with_search(SearchMethod::Corner),
    );
    crowd.set_corner_graph(0, Some(graph.clone())).unwrap();
    let (s, g) = longer[0];
    let id = crowd.add_agent(AgentParams::new(s, g, 0.25, 1.0)).unwrap();
    let same = Arc::new(build(&map.to_scene(), &BuildOptions::cdt()).unwrap());
    crowd.set_mesh(0, same.clone()).unwrap();
    assert!(crowd.corner_graph(0).is_none());
    assert_eq!(
        crowd.set_corner_graph(0, Some(graph.clone())),
        Err(CrowdError::ForeignGraph { class: 0 })
    );
    assert_eq!(
        crowd.set_corner_graph(3, None),
        Err(CrowdError::InvalidOption {
            option: "class",
            value: 3.0,
            reason: "no such radius class"
        })
    );
    crowd.step(1e-3).unwrap();
    let a = crowd.agent(id).unwrap();
    assert!(walked(&same, &crowd, id) <= exact(a.position(), g) * (1.0 + 1e-9));
    crowd
        .set_corner_graph(0, Some(Arc::new(CornerGraph::build(&same))))
        .unwrap();
    assert!(crowd.corner_graph(0).is_some());
}

/// An agent parked at its goal leaves room to pass it on either side (the scenarios keep goals
/// two radii from the mesh's walls). With one radius, on brc202d with 500 agents (seed 1) and
/// exact routes, one agent whose route ran along a wall stood behind a parked one from step
/// 4,500 on and never arrived: ORCA's closest velocity to the way ahead was zero.
#[test]
fn a_route_along_a_wall_passes_agents_parked_there() {
    use portolan::search::SearchMethod;
    let open = std::fs::File::open(portolan::testkit::data_dir().join("movingai/dao/brc202d.map"));
    let map = portolan::io::movingai::read_map(std::io::BufReader::new(open.unwrap())).unwrap();
    let s = Scenario::random_on(map.to_scene(), 500, 1, 0.25, 2.0).unwrap();
    let mut crowd = s
        .crowd(CrowdOptions::default().with_search(SearchMethod::Exact))
        .unwrap();
    // (Arrival only: the overlap and mesh checks of `run` are the other tests'.)
    let home = |crowd: &Crowd| {
        let near = |(a, p): &(&portolan::crowd::Agent, &AgentParams)| {
            a.position().distance(p.goal) <= 0.5 * p.radius
        };
        crowd.agents().iter().zip(&s.agents).filter(near).count()
    };
    let mut steps = 0;
    while home(&crowd) < 500 && steps < 12_000 {
        crowd.step(s.dt).unwrap();
        steps += 1;
    }
    assert_eq!(home(&crowd), 500, "arrived after {steps} steps");
}

/// One agent parked in a passage too narrow for two (3 radii wide: the centres have a band one
/// radius wide) and one that must go through: the parked one gives way (pushed ahead to where
/// there is room, stepping aside there), the other arrives, and the parked one walks back to its
/// place. Before agents gave way, the two held each other still for good: the mover crept
/// toward the far end ever more slowly (still 24 units short after 20,000 steps) while the
/// parked one walked back as hard as it was pushed.
#[test]
fn a_parked_agent_gives_way_in_a_passage_too_narrow_for_two() {
    use portolan::geom::Aabb;
    let scene = Scene::new(Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(100.0, 30.0)))
        .with_obstacle([(30.0, 0.0), (70.0, 0.0), (70.0, 13.5), (30.0, 13.5)])
        .with_obstacle([(30.0, 16.5), (70.0, 16.5), (70.0, 30.0), (30.0, 30.0)]);
    let mesh = Arc::new(build(&scene, &BuildOptions::default().with_agent_radius(1.0)).unwrap());
    let mut crowd = Crowd::new(mesh.clone(), CrowdOptions::default());
    let place = Vec2::new(50.0, 15.0);
    let parked = crowd
        .add_agent(AgentParams::new(place, place, 1.0, 3.0))
        .unwrap();
    let (start, goal) = (Vec2::new(10.0, 15.0), Vec2::new(90.0, 15.0));
    let mover = crowd
        .add_agent(AgentParams::new(start, goal, 1.0, 3.0))
        .unwrap();
    let at = |crowd: &Crowd, id: AgentId, p: Vec2| {
        crowd.agent(id).unwrap().position().distance(p) <= 0.5
    };
    let (mut passed, mut worst) = (None, 0.0f64);
    for step in 1..=4_000 {
        crowd.step(0.05).unwrap();
        let (a, b) = (crowd.agent(parked).unwrap(), crowd.agent(mover).unwrap());
        assert!(
            mesh.locate(a.position()).polygon().is_some()
                && mesh.locate(b.position()).polygon().is_some()
        );
        worst = worst.max(max_overlap(&[a.position(), b.position()], &[1.0, 1.0]));
        if passed.is_none() && at(&crowd, mover, goal) {
            passed = Some(step);
        }
        if passed.is_some() && at(&crowd, parked, place) {
            break;
        }
    }
    let passed = passed.expect("the mover gets through");
    assert!(
        at(&crowd, parked, place),
        "the parked agent is back (the mover through at step {passed})"
    );
    assert!(worst <= 0.05, "overlap {worst:.4} of the radii sum");
}
