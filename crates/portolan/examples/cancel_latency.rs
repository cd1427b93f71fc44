//! How soon a cancelled build returns: each scene is built whole once (its time `T`), then
//! again with a [`CancelToken`] that another thread cancels at `T / 10`; the table shows `T`
//! and the time from `cancel()` to [`BuildError::Cancelled`]. Then the corner graph of a
//! 512 × 512 random grid map (20% blocked, seed 1: `portolan gen-map random`'s defaults), built
//! whole and then with deadlines at tenths of that time
//! ([`CornerGraph::build_cancellable`]): how long after its deadline each build returned.
//!
//! ```text
//! cargo run --release -p portolan --example cancel_latency
//! cargo run --release -p portolan --example cancel_latency -- corner   # the corner graph only
//! ```

use portolan::build::{build, BuildError, BuildOptions, CancelToken};
use portolan::geom::Aabb;
use portolan::search::corner_graph::CornerGraph;
use portolan::{Scene, Vec2};
use std::time::{Duration, Instant};

/// A polygon of `n` vertices whose edges cross about n²/4 times (issue 16's 10k-vertex
/// self-intersecting obstacle, which built for 91 s).
fn tangled(n: usize) -> Scene {
    let step = n / 2 - 1;
    let ring: Vec<Vec2> = (0..n)
        .map(|i| {
            let a = std::f64::consts::TAU * ((i * step) % n) as f64 / n as f64;
            Vec2::new(500.0 + 400.0 * a.cos(), 500.0 + 400.0 * a.sin())
        })
        .collect();
    Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(1000.0, 1000.0))).with_obstacle(ring)
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("corner") {
        corner_graph();
        return;
    }
    let cases: Vec<(&str, Scene, BuildOptions)> = vec![
        (
            "40,000 quads, CDT, radius 0.5",
            portolan::random::quad_grid_scene(40_000, 1),
            BuildOptions::cdt().with_agent_radius(0.5),
        ),
        (
            "40,000 quads, trapezoids",
            portolan::random::quad_grid_scene(40_000, 1),
            BuildOptions::trapezoid(),
        ),
        (
            "tangled 1,500-vertex polygon, CDT",
            tangled(1_500),
            BuildOptions::cdt(),
        ),
    ];
    println!("| scene | whole build | cancelled at 10% | returned after cancel() |");
    println!("| --- | --- | --- | --- |");
    for (name, scene, options) in cases {
        let t = Instant::now();
        let whole = build(&scene, &options);
        let full = t.elapsed();
        let polygons = whole.map(|m| m.polygon_count()).unwrap_or(0);
        let token = CancelToken::new();
        let at = full / 10;
        let canceller = {
            let token = token.clone();
            std::thread::spawn(move || {
                std::thread::sleep(at);
                let when = Instant::now();
                token.cancel();
                when
            })
        };
        let result = build(&scene, &options.clone().with_cancel(token));
        let returned = Instant::now();
        let cancelled_at = canceller.join().unwrap_or(returned);
        let latency = returned.saturating_duration_since(cancelled_at);
        let outcome = match result {
            Err(BuildError::Cancelled) => ms(latency),
            Ok(_) => "finished first".to_string(),
            Err(e) => format!("error: {e}"),
        };
        println!(
            "| {name} ({polygons} polygons) | {} | {} | {outcome} |",
            ms(full),
            ms(at)
        );
    }
    corner_graph();
}

/// The corner graph part (see the module docs).
fn corner_graph() {
    let map = portolan::random_grid::random_blocked_grid(512, 512, 0.2, 1).expect("valid sizes");
    let mesh = build(&map.to_scene(), &BuildOptions::cdt()).expect("a random grid map builds");
    let t = Instant::now();
    let _ = CornerGraph::build(&mesh);
    let full = t.elapsed();
    println!();
    println!(
        "corner graph of a 512 x 512 random map, 20% blocked ({} polygons): whole build {}",
        mesh.polygon_count(),
        ms(full)
    );
    println!("| deadline | returned after the deadline |");
    println!("| --- | --- |");
    for tenth in [1u32, 3, 5, 7, 9] {
        let deadline = full * tenth / 10;
        let start = Instant::now();
        let token = CancelToken::new().with_deadline(start + deadline);
        let outcome = match CornerGraph::build_cancellable(&mesh, &token) {
            Err(BuildError::Cancelled) => ms(start.elapsed().saturating_sub(deadline)),
            Ok(_) => "finished first".to_string(),
            Err(e) => format!("error: {e}"),
        };
        println!("| {} ({tenth}/10) | {outcome} |", ms(deadline));
    }
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}
