//! `build_compare`: Portolan's mesh builder (CDT + Hertel–Mehlhorn merge) against the `polyanya`
//! crate's `Triangulation` (spade CDT, then `Mesh::merge_polygons`) on the same scenes, in one
//! process: build time and polygon count.
//!
//! ```text
//! cargo run --release -p portolan-compare --bin build_compare -- [--reps N]
//! ```
//!
//! Scenes: the default map, and `n` disjoint convex quadrilaterals (one per cell of a square grid,
//! the scenes of `crates/portolan/benches/build.rs`) for n = 10 … 10,000; each with a point agent
//! and with radius 5. The `polyanya` side gets the map rectangle as its outer edge and the
//! obstacles as its inner polygons; it works in `f32`. Its documentation asks for at least one
//! `merge_polygons` call after the triangulation; both one call and calls until nothing merges are
//! reported. Times are the median of `--reps` runs (default 5), the two sides alternating.
//!
//! With a radius the two sides mesh different free spaces (each approximates the corner arcs
//! its own way), so a second table gives the `polyanya` side Portolan's own inflated free space
//! (`build::free_space`: the outer ring as its outer edges, the holes as obstacles, radius 0):
//! the same domain, and only the triangulation and merge differ.

use anyhow::{bail, Result};
use portolan::build::free_space;
use portolan::random::quad_grid_scene;
use portolan::{build, BuildOptions, Scene, Vec2};
use std::time::Instant;

/// The polyanya crate's pipeline: Triangulation → mesh → merge (once, then until nothing merges).
/// Returns (triangles, polygons after one merge, polygons at the fixpoint, time to one merge).
fn theirs(scene: &Scene, radius: f64) -> (usize, usize, usize, f64) {
    let b = scene.bounds;
    let t = Instant::now();
    let mut tri = polyanya::Triangulation::from_outer_edges(&[
        glam::vec2(b.min.x as f32, b.min.y as f32),
        glam::vec2(b.max.x as f32, b.min.y as f32),
        glam::vec2(b.max.x as f32, b.max.y as f32),
        glam::vec2(b.min.x as f32, b.max.y as f32),
    ]);
    tri.add_obstacles(scene.obstacles.iter().map(|o| {
        o.iter()
            .map(|p| glam::vec2(p.x as f32, p.y as f32))
            .collect::<Vec<_>>()
    }));
    if radius > 0.0 {
        tri.set_agent_radius(radius as f32);
    }
    let mut mesh = tri.as_navmesh();
    let triangles = mesh.layers[0].polygons.len();
    mesh.merge_polygons();
    let secs = t.elapsed().as_secs_f64();
    let once = mesh.layers[0].polygons.len();
    let mut rounds = 0;
    while mesh.merge_polygons() && rounds < 50 {
        rounds += 1;
    }
    (triangles, once, mesh.layers[0].polygons.len(), secs)
}

/// The `polyanya` crate's triangulation + merges of one polygon with holes (outer ring first):
/// (vertices, polygons after one merge, polygons at the fixpoint).
fn theirs_on_domain(rings: &[Vec<Vec2>]) -> (usize, usize, usize) {
    let f = |r: &Vec<Vec2>| {
        r.iter()
            .map(|p| glam::vec2(p.x as f32, p.y as f32))
            .collect::<Vec<_>>()
    };
    let mut tri = polyanya::Triangulation::from_outer_edges(&f(&rings[0]));
    tri.add_obstacles(rings[1..].iter().map(f));
    let mut mesh = tri.as_navmesh();
    mesh.merge_polygons();
    let once = mesh.layers[0].polygons.len();
    let mut rounds = 0;
    while mesh.merge_polygons() && rounds < 50 {
        rounds += 1;
    }
    (
        mesh.layers[0].vertices.len(),
        once,
        mesh.layers[0].polygons.len(),
    )
}

fn ours(scene: &Scene, radius: f64) -> Result<(usize, f64)> {
    let t = Instant::now();
    let mesh = build(scene, &BuildOptions::cdt().with_agent_radius(radius))?;
    Ok((mesh.polygon_count(), t.elapsed().as_secs_f64()))
}

fn median(mut v: Vec<f64>) -> f64 {
    portolan::testkit::median(&mut v)
}

fn ms(s: f64) -> String {
    if s < 0.01 {
        format!("{:.3} ms", s * 1e3)
    } else {
        format!("{:.1} ms", s * 1e3)
    }
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let reps = match args.as_slice() {
        [] => 5,
        [flag, n] if flag == "--reps" => n.parse()?,
        _ => bail!("usage: build_compare [--reps N]"),
    };
    let mut scenes = vec![("default map".to_string(), Scene::default_map())];
    for n in [10, 100, 1_000, 10_000] {
        scenes.push((format!("{n} quads"), quad_grid_scene(n, 7)));
    }
    println!("| scene | radius | portolan polygons | polyanya triangles | polyanya, 1 merge | polyanya, merged to the end | portolan build | polyanya build (1 merge) | speed-up |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (name, scene) in &scenes {
        for radius in [0.0, 5.0] {
            let mut our_t = Vec::new();
            let mut their_t = Vec::new();
            let mut counts = (0, 0, 0, 0);
            for rep in 0..reps.max(1) {
                let mut run_ours = || -> Result<()> {
                    let (p, s) = ours(scene, radius)?;
                    counts.0 = p;
                    our_t.push(s);
                    Ok(())
                };
                let mut run_theirs = || {
                    let (t3, once, end, s) = theirs(scene, radius);
                    (counts.1, counts.2, counts.3) = (t3, once, end);
                    their_t.push(s);
                };
                if rep % 2 == 0 {
                    run_ours()?;
                    run_theirs();
                } else {
                    run_theirs();
                    run_ours()?;
                }
            }
            let (o, t) = (median(our_t), median(their_t));
            println!(
                "| {name} | {radius} | {} | {} | {} | {} | {} | {} | {:.1}× |",
                counts.0,
                counts.1,
                counts.2,
                counts.3,
                ms(o),
                ms(t),
                t / o
            );
        }
    }
    println!();
    println!("Radius 5, the `polyanya` side given Portolan's free space (same domain):");
    println!();
    println!("| scene | free-space vertices | portolan polygons | polyanya, 1 merge | polyanya, merged to the end |");
    println!("| --- | --- | --- | --- | --- |");
    let options = BuildOptions::cdt().with_agent_radius(5.0);
    for (name, scene) in &scenes {
        let shapes = free_space(scene, &options)?;
        let ours = build(scene, &options)?.polygon_count();
        let vertices: usize = shapes.iter().flatten().map(Vec::len).sum();
        if let [shape] = shapes.as_slice() {
            let (_, once, end) = theirs_on_domain(shape);
            println!("| {name} | {vertices} | {ours} | {once} | {end} |");
        } else {
            println!(
                "| {name} | {vertices} | {ours} | ({} separate parts: not compared) | |",
                shapes.len()
            );
        }
    }
    Ok(())
}
