//! World state: the one scene every client shares, its mesh, and its revision.
//!
//! [`App`] holds the current [`World`] behind a lock that is held only to swap one `Arc` for
//! another, so a reader never waits for a build. Each rebuild bumps [`World::revision`]; path
//! answers carry the revision they were computed on, so a page can notice that another tab
//! changed the scene and fetch it again.
//!
//! A server started on a mesh file ([`App::from_mesh`]) has no scene to edit: scene edits are
//! answered `409 read-only`.

use super::errors::ApiError;
use super::wire::Defaults;
use portolan::{build, BuildError, BuildOptions, Decomposition, NavMesh, Scene, Vec2};
use std::sync::{Arc, RwLock};
use std::time::Instant;

/// How the server builds meshes from scenes: the build options a client may change.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BuildSettings {
    /// How free space is cut into convex polygons.
    pub decomposition: Decomposition,
    /// Agent radius ([`BuildOptions::agent_radius`]): finite and ≥ 0.
    pub agent_radius: f64,
}

impl BuildSettings {
    /// The chapter's trapezoid decomposition for a point agent: the figure the demo shows.
    pub fn trapezoid() -> BuildSettings {
        BuildSettings {
            decomposition: Decomposition::Trapezoid,
            agent_radius: 0.0,
        }
    }

    // Field by field, not a struct literal: options structs are to become `#[non_exhaustive]`
    // (issue 14), and this form compiles before and after.
    #[allow(clippy::field_reassign_with_default)]
    fn options(self) -> BuildOptions {
        let mut o = BuildOptions::default();
        o.decomposition = self.decomposition;
        o.agent_radius = self.agent_radius;
        o
    }
}

/// The current scene, its mesh and what the page needs to draw them.
#[derive(Debug)]
pub struct World {
    /// Bumped on every rebuild.
    pub revision: u64,
    /// The obstacles; for a mesh read from a file, only its bounds.
    pub scene: Scene,
    /// How the mesh was built from the scene; `None` for a mesh read from a file.
    pub build: Option<BuildSettings>,
    /// The mesh.
    pub mesh: NavMesh,
    /// A sensible start and goal for this scene.
    pub defaults: Defaults,
    /// How long the build took, in milliseconds (0 for a mesh read from a file).
    pub build_ms: f64,
}

impl World {
    /// Builds the mesh of `scene`.
    pub fn build(
        scene: Scene,
        settings: BuildSettings,
        revision: u64,
    ) -> Result<World, BuildError> {
        let t = Instant::now();
        let mesh = build(&scene, &settings.options())?;
        let build_ms = t.elapsed().as_secs_f64() * 1e3;
        let defaults = default_query(&scene, &mesh);
        Ok(World {
            revision,
            scene,
            build: Some(settings),
            mesh,
            defaults,
            build_ms,
        })
    }

    /// A world around a ready-made mesh: nothing to edit, only its bounds to draw.
    pub fn from_mesh(mesh: NavMesh) -> World {
        let scene = Scene::new(mesh.bounds());
        let defaults = default_query(&scene, &mesh);
        World {
            revision: 1,
            scene,
            build: None,
            mesh,
            defaults,
            build_ms: 0.0,
        }
    }
}

/// The default query of the default map when it is on the mesh and connected; elsewhere the
/// centres of the polygons nearest the lower-left and upper-right corners of the bounds, among
/// those of the largest (by area) connected part of the mesh, so that a path exists.
fn default_query(scene: &Scene, mesh: &NavMesh) -> Defaults {
    let part = mesh.connected_components();
    let part_of = |p: Vec2| mesh.locate(p).polygon().map(|id| part[id.index()]);
    let (s, g) = (Scene::DEFAULT_START, Scene::DEFAULT_GOAL);
    if *scene == Scene::default_map() && part_of(s).is_some() && part_of(s) == part_of(g) {
        return Defaults { start: s, goal: g };
    }
    let mut area = vec![0.0; mesh.polygon_count()];
    for p in mesh.polygons() {
        let ring: Vec<Vec2> = mesh.polygon_points(p).collect();
        area[part[p.index()] as usize] += portolan::geom::signed_area(&ring).abs();
    }
    let largest = (0..area.len())
        .max_by(|&a, &b| area[a].total_cmp(&area[b]))
        .unwrap_or(0);
    let b = mesh.bounds();
    let nearest = |corner: Vec2| {
        mesh.polygons()
            .filter(|p| part[p.index()] as usize == largest)
            .map(|p| mesh.centroid(p))
            .min_by(|a, c| a.distance(corner).total_cmp(&c.distance(corner)))
            // A mesh has at least one polygon (BuildError::NoWalkableSpace, ReadError
            // otherwise), and the largest part holds one.
            .unwrap_or(corner)
    };
    Defaults {
        start: nearest(b.min),
        goal: nearest(b.max),
    }
}

/// The server's state: the current world and the scene it started with (`None` when serving a
/// mesh file, which cannot be edited).
#[derive(Debug)]
pub struct App {
    pub(super) initial: Option<(Scene, BuildSettings)>,
    world: RwLock<Arc<World>>,
}

impl App {
    /// A server state starting from `scene` built with `settings`.
    pub fn new(scene: Scene, settings: BuildSettings) -> Result<App, BuildError> {
        let world = World::build(scene.clone(), settings, 1)?;
        Ok(App {
            initial: Some((scene, settings)),
            world: RwLock::new(Arc::new(world)),
        })
    }

    /// A server state serving a ready-made mesh (a Polyanya `.mesh` file, say): paths only, no
    /// scene edits.
    pub fn from_mesh(mesh: NavMesh) -> App {
        App {
            initial: None,
            world: RwLock::new(Arc::new(World::from_mesh(mesh))),
        }
    }

    /// The current world.
    pub fn world(&self) -> Arc<World> {
        // A poisoned lock only means a writer panicked between two whole assignments of an
        // `Arc`; the value inside is still a complete world.
        match self.world.read() {
            Ok(w) => Arc::clone(&w),
            Err(p) => Arc::clone(&p.into_inner()),
        }
    }

    /// `Err(ReadOnly)` when the server serves a mesh file.
    pub(super) fn editable(&self) -> Result<&(Scene, BuildSettings), ApiError> {
        self.initial.as_ref().ok_or(ApiError::ReadOnly)
    }

    /// Builds `scene` with `settings` and makes it the current world, with the next revision.
    pub(super) fn replace(
        &self,
        scene: Scene,
        settings: BuildSettings,
    ) -> Result<Arc<World>, ApiError> {
        let mut world = World::build(scene, settings, 0)?;
        let mut slot = match self.world.write() {
            Ok(w) => w,
            Err(p) => p.into_inner(),
        };
        // Numbered under the lock, so concurrent edits still get increasing revisions.
        world.revision = slot.revision + 1;
        let world = Arc::new(world);
        *slot = Arc::clone(&world);
        Ok(world)
    }
}
