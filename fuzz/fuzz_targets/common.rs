// Shared by the fuzz targets (`include!`d): the arbitrary scene and how it becomes a `Scene`.

/// Coordinates on a small lattice (so that the fuzzer hits collinear, repeated and touching
/// points often), plus the occasional raw f64 (NaN, huge, tiny).
#[derive(Arbitrary, Debug)]
enum Coord {
    Lattice(i8),
    Raw(f64),
}

impl Coord {
    fn value(&self) -> f64 {
        match *self {
            Coord::Lattice(k) => k as f64 / 4.0,
            Coord::Raw(x) => x,
        }
    }
}

#[derive(Arbitrary, Debug)]
struct Input {
    obstacles: Vec<Vec<(Coord, Coord)>>,
    boundary: Option<Vec<(Coord, Coord)>>,
    holes: Vec<(u8, Vec<(Coord, Coord)>)>,
    radius: u8,
}

fn ring(points: &[(Coord, Coord)]) -> Vec<Vec2> {
    points
        .iter()
        .take(64)
        .map(|(x, y)| Vec2::new(x.value(), y.value()))
        .collect()
}

/// The scene an input stands for, and the agent radius.
fn scene_of(input: &Input) -> (Scene, f64) {
    let mut scene = Scene::new(Aabb::new(Vec2::new(-16.0, -16.0), Vec2::new(16.0, 16.0)));
    for o in input.obstacles.iter().take(32) {
        scene.obstacles.push(ring(o));
    }
    scene.boundary = input.boundary.as_deref().map(ring);
    for (i, h) in input.holes.iter().take(8) {
        scene = scene.with_hole(*i as usize % 40, ring(h));
    }
    (scene, input.radius as f64 / 32.0)
}

/// The property: a mesh that passes `check_invariants`, or a typed error that is not internal.
fn check(scene: &Scene, decomposition: Decomposition, radius: f64) {
    let options = BuildOptions::default()
        .with_decomposition(decomposition)
        .with_agent_radius(radius);
    match portolan::build(scene, &options) {
        Ok(mesh) => {
            if let Err(e) = mesh.check_invariants() {
                panic!("mesh breaks an invariant: {e}\n{scene:?}");
            }
        }
        Err(BuildError::Mesh(e)) => panic!("internal error: {e}\n{scene:?}"),
        Err(BuildError::Triangulation(e)) => panic!("triangulation failed: {e}\n{scene:?}"),
        Err(_) => {}
    }
}
