//! Every failure the API answers, and the one place where each becomes an HTTP status and a
//! stable `code`.
//!
//! Library errors arrive typed ([`PathError`], [`BuildError`]) and are mapped here; the server
//! does not check option values itself. An option the library calls invalid
//! ([`PathError::InvalidOption`], [`BuildError::BadOption`]) is the client's fault: `400`. A
//! request the library understood but cannot answer (a point off the mesh, a scene it refuses)
//! is `422`.

use super::routes::Reply;
use super::wire::ErrorBody;
use portolan::crowd::CrowdError;
use portolan::dynamic::EditError;
use portolan::{BuildError, PathError, SceneError};

/// Why a request failed.
#[derive(Debug)]
pub enum ApiError {
    /// The body is not JSON of the endpoint's shape (`400 bad-json`).
    BadJson(String),
    /// A header has a value the server cannot use (`400 bad-header`).
    BadHeader(String),
    /// The body could not be read (`400 bad-body`).
    BadBody(String),
    /// The body is over the cap (`413 body-too-large`).
    BodyTooLarge {
        /// The cap, in bytes.
        limit: usize,
    },
    /// No such resource (`404 not-found`).
    NotFound {
        /// The path asked for.
        path: String,
    },
    /// The resource exists but not for this method (`405 method-not-allowed`, with `Allow`).
    MethodNotAllowed {
        /// The method used.
        method: String,
        /// The path asked for.
        path: String,
        /// The methods it takes, as the `Allow` header lists them.
        allow: &'static str,
    },
    /// A scene edit on a server that serves a mesh file (`409 read-only`).
    ReadOnly,
    /// A scene edit based on a revision that is no longer the current one
    /// (`409 stale-revision`).
    Stale {
        /// The revision the edit was based on.
        base: u64,
        /// The current revision.
        current: u64,
    },
    /// A build over the work budget: `413 over-budget` when the input alone is over a limit
    /// (refused before building), `422 over-budget` when the mesh is.
    OverBudget {
        /// The limit's name in `capabilities.limits`.
        limit: &'static str,
        /// The measured value (counting stops a little past the limit).
        value: usize,
        /// The limit.
        max: usize,
        /// Whether the input was refused before building.
        before_build: bool,
    },
    /// The body did not arrive in time (`408 body-timeout`).
    BodyTimeout,
    /// The answer took longer than the request timeout (`503 timeout`); an edit is not applied.
    Timeout,
    /// A handler failed unexpectedly (`500 internal`).
    Internal(String),
    /// The path search refused or failed.
    Path(PathError),
    /// The builder refused the scene or the options.
    Build(BuildError),
    /// A tiled edit on a world that is not tiled (`409 not-tiled`).
    NotTiled,
    /// A tiled edit naming an obstacle id the server does not have (never added, or removed):
    /// `422 unknown-obstacle`.
    UnknownObstacle(u64),
    /// The dynamic mesh refused an edit ([`EditError`]); `obstacle` is the server's id of the
    /// obstacle edited, if it has one yet.
    Edit {
        /// The library's error.
        error: EditError,
        /// The obstacle at fault.
        obstacle: Option<u64>,
    },
    /// No crowd session has this id (never made, deleted or expired): `404 unknown-crowd`.
    UnknownCrowd(u64),
    /// As many crowd sessions as the server holds, none idle: `429 too-many-crowds`.
    TooManyCrowds {
        /// The cap.
        max: usize,
    },
    /// A crowd of no agents (`400 bad-agents`).
    BadAgents(String),
    /// The map has no room for that many agents (`422 no-room`).
    NoRoom {
        /// How many fitted.
        placed: usize,
        /// How many were asked for.
        wanted: usize,
    },
    /// A negative `snap` (`400 bad-snap`).
    BadSnap(f64),
    /// A crowd's `speed` that is not > 0: its agents could not move (`400 bad-speed`; the
    /// library allows 0, an agent that stands).
    BadSpeed(f64),
    /// The crowd refused an operation.
    Crowd(CrowdError),
}

impl From<PathError> for ApiError {
    fn from(e: PathError) -> ApiError {
        ApiError::Path(e)
    }
}

impl From<BuildError> for ApiError {
    fn from(e: BuildError) -> ApiError {
        ApiError::Build(e)
    }
}

impl ApiError {
    /// `422 over-budget` for a build stopped by `build_timeout_ms` (`timeout`), `started` ago.
    pub(crate) fn build_timeout(started: std::time::Instant, timeout: std::time::Duration) -> Self {
        Self::over_time("build_timeout_ms", started, timeout)
    }

    /// `422 over-budget` for work stopped by the time limit named `limit` (`timeout`),
    /// `started` ago.
    pub(crate) fn over_time(
        limit: &'static str,
        started: std::time::Instant,
        timeout: std::time::Duration,
    ) -> Self {
        let ms = |d: std::time::Duration| d.as_millis().try_into().unwrap_or(usize::MAX);
        ApiError::OverBudget {
            limit,
            value: ms(started.elapsed()),
            max: ms(timeout),
            before_build: false,
        }
    }

    /// The HTTP status, the `code` and the obstacles at fault.
    fn classify(&self) -> (u16, &'static str, Vec<usize>) {
        match self {
            ApiError::BadJson(_) => (400, "bad-json", vec![]),
            ApiError::BadBody(_) => (400, "bad-body", vec![]),
            ApiError::BadHeader(_) => (400, "bad-header", vec![]),
            ApiError::BodyTooLarge { .. } => (413, "body-too-large", vec![]),
            ApiError::NotFound { .. } => (404, "not-found", vec![]),
            ApiError::MethodNotAllowed { .. } => (405, "method-not-allowed", vec![]),
            ApiError::ReadOnly => (409, "read-only", vec![]),
            ApiError::Stale { .. } => (409, "stale-revision", vec![]),
            ApiError::OverBudget { before_build, .. } => {
                (if *before_build { 413 } else { 422 }, "over-budget", vec![])
            }
            ApiError::BodyTimeout => (408, "body-timeout", vec![]),
            ApiError::Timeout => (503, "timeout", vec![]),
            ApiError::Internal(_) => (500, "internal", vec![]),
            ApiError::Path(e) => {
                let (status, code) = path_status(e);
                (status, code, vec![])
            }
            ApiError::Build(e) => build_status(e),
            ApiError::UnknownCrowd(_) => (404, "unknown-crowd", vec![]),
            ApiError::TooManyCrowds { .. } => (429, "too-many-crowds", vec![]),
            ApiError::BadAgents(_) => (400, "bad-agents", vec![]),
            ApiError::NoRoom { .. } => (422, "no-room", vec![]),
            ApiError::BadSnap(_) => (400, "bad-snap", vec![]),
            ApiError::BadSpeed(_) => (400, "bad-speed", vec![]),
            ApiError::Crowd(e) => {
                let (status, code) = crowd_status(e);
                (status, code, vec![])
            }
            ApiError::NotTiled => (409, "not-tiled", vec![]),
            ApiError::UnknownObstacle(id) => (422, "unknown-obstacle", vec![*id as usize]),
            ApiError::Edit { error, obstacle } => {
                let culprit: Vec<usize> = obstacle.iter().map(|&id| id as usize).collect();
                let code = match error {
                    EditError::NonFinite { .. } => "non-finite",
                    EditError::Degenerate(_) => "bad-shape",
                    EditError::SelfIntersecting { .. } => "self-intersecting",
                    EditError::OutsideWorld { .. } => "outside-world",
                    EditError::CoordinateRange { .. } => "out-of-range",
                    EditError::UnknownObstacle(_) => "unknown-obstacle",
                    EditError::Build(e) => {
                        let (status, code, _) = build_status(e);
                        return (status, code, culprit);
                    }
                    _ => "edit-failed",
                };
                (422, code, culprit)
            }
        }
    }

    /// The vertex of the shape at fault, for a refused tiled edit.
    fn vertex(&self) -> Option<usize> {
        match self {
            ApiError::Edit { error, .. } => match error {
                EditError::NonFinite { vertex }
                | EditError::OutsideWorld { vertex, .. }
                | EditError::CoordinateRange { vertex, .. } => Some(*vertex),
                EditError::SelfIntersecting { first, .. } => Some(*first),
                _ => None,
            },
            _ => None,
        }
    }

    fn message(&self) -> String {
        match self {
            ApiError::BadJson(why) => {
                format!("the request body is not valid for this endpoint: {why}")
            }
            ApiError::BadBody(why) => format!("cannot read the request body: {why}"),
            ApiError::BadHeader(why) => why.clone(),
            ApiError::BodyTooLarge { limit } => {
                format!("the request body exceeds {limit} bytes")
            }
            ApiError::NotFound { path } => format!("no such resource: {path}"),
            ApiError::MethodNotAllowed {
                method,
                path,
                allow,
            } => format!("{method} is not allowed on {path}; use {allow}"),
            ApiError::ReadOnly => {
                "this server serves a mesh file: there is no scene to edit or rebuild".to_string()
            }
            ApiError::Stale { base, current } => format!(
                "the scene changed since revision {base} (it is at revision {current}): \
                 fetch it and edit that"
            ),
            ApiError::OverBudget {
                limit,
                value,
                max,
                before_build,
            } => {
                // Refused before building: the scene sent, or a crowd's agents or steps.
                let what = match (*before_build, limit.starts_with("max_crowd")) {
                    (false, _) => "mesh",
                    (true, true) => "crowd request",
                    (true, false) => "scene",
                };
                format!("the {what} is over the work budget: {limit} = {max}, this one has {value}")
            }
            ApiError::BodyTimeout => "the request body did not arrive in time".to_string(),
            ApiError::Timeout => "the answer took too long; nothing was changed".to_string(),
            ApiError::Internal(why) => format!("internal error: {why}"),
            ApiError::Path(e) => e.to_string(),
            ApiError::Build(e) => e.to_string(),
            ApiError::NotTiled => {
                "the world is not tiled: POST /api/tiles with a tile_size first".to_string()
            }
            ApiError::UnknownObstacle(id) => {
                format!("no obstacle {id} (never added, or removed)")
            }
            ApiError::Edit {
                error,
                obstacle: Some(id),
            } => format!("obstacle {id}: {error}"),
            ApiError::Edit { error, .. } => error.to_string(),
            ApiError::UnknownCrowd(id) => {
                format!("no crowd {id}: never made, deleted, or dropped after idling")
            }
            ApiError::TooManyCrowds { max } => format!(
                "the server holds {max} crowds already, all in use; try again when one idles"
            ),
            ApiError::BadAgents(why) => why.clone(),
            ApiError::NoRoom { placed, wanted } => {
                format!("this map has room for only {placed} of {wanted} agents of this radius")
            }
            ApiError::BadSnap(s) => format!("snap {s} must be ≥ 0 (or null)"),
            ApiError::BadSpeed(s) => {
                format!("speed {s} must be > 0: a crowd's agents must be able to move")
            }
            ApiError::Crowd(e) => e.to_string(),
        }
    }

    /// The JSON answer.
    pub fn reply(&self) -> Reply {
        let (status, code, obstacles) = self.classify();
        let mut reply = Reply::error_with(
            status,
            ErrorBody {
                error: self.message(),
                code,
                obstacles,
                limit: match self {
                    ApiError::OverBudget { limit, .. } => Some(limit),
                    _ => None,
                },
                revision: match self {
                    ApiError::Stale { current, .. } => Some(*current),
                    _ => None,
                },
                vertex: self.vertex(),
                placed: match self {
                    ApiError::NoRoom { placed, .. } => Some(*placed),
                    _ => None,
                },
            },
        );
        if let ApiError::MethodNotAllowed { allow, .. } = self {
            reply.allow = Some(allow);
        }
        reply
    }
}

impl From<ApiError> for Reply {
    fn from(e: ApiError) -> Reply {
        e.reply()
    }
}

/// Status and code of a crowd error: bad values are the client's fault (`400`), a goal off the
/// mesh or an agent the crowd does not have is a request it understood but cannot do (`422`).
fn crowd_status(e: &CrowdError) -> (u16, &'static str) {
    match e {
        CrowdError::NonFinite { .. } => (400, "non-finite"),
        CrowdError::NegativeRadius { .. } => (400, "bad-radius"),
        CrowdError::NegativeSpeed { .. } => (400, "bad-speed"),
        CrowdError::InvalidTimeStep { .. } => (400, "bad-dt"),
        CrowdError::InvalidOption { .. } => (400, "invalid-option"),
        CrowdError::RadiusTooLarge { .. } => (422, "bad-radius"),
        CrowdError::PositionOffMesh { .. } => (422, "start-off-mesh"),
        CrowdError::GoalOffMesh { .. } => (422, "goal-off-mesh"),
        CrowdError::UnknownAgent(_) => (422, "unknown-agent"),
        _ => (422, "crowd-error"),
    }
}

/// Status and code of a search error. [`PathError::NoPath`] never gets here: it is a `200`
/// answer with `"found": false`.
fn path_status(e: &PathError) -> (u16, &'static str) {
    match e {
        PathError::InvalidOption { option, .. } => match *option {
            "snap" => (400, "bad-snap"),
            "corner_offset" => (400, "bad-corner-offset"),
            _ => (400, "invalid-option"),
        },
        PathError::NonFinite { .. } => (422, "non-finite"),
        PathError::OutOfRange { .. } => (422, "out-of-range"),
        PathError::StartOffMesh(_) => (422, "start-off-mesh"),
        PathError::GoalOffMesh(_) => (422, "goal-off-mesh"),
        PathError::NoPath => (422, "no-path"),
        PathError::SearchLimit { .. } => (422, "search-limit"),
        PathError::Unsupported { .. } => (422, "unsupported"),
        PathError::ForeignData { .. } => (422, "foreign-data"),
        _ => (422, "path-error"),
    }
}

/// Status, code and culprits of a build error: 400 for an option out of range, 422 naming the
/// obstacles at fault for a scene the builder refuses.
fn build_status(e: &BuildError) -> (u16, &'static str, Vec<usize>) {
    let (code, obstacles) = match e {
        BuildError::BadOption { name, .. } => {
            let code = match *name {
                "agent_radius" => "bad-agent-radius",
                "arc_error" => "bad-arc-error",
                "tile_size" => "bad-tile-size",
                _ => "bad-option",
            };
            return (400, code, vec![]);
        }
        BuildError::Scene(SceneError::BadBounds { .. }) => ("bad-bounds", vec![]),
        BuildError::Scene(
            SceneError::NonFinite { obstacle, .. }
            | SceneError::TooFewVertices { obstacle, .. }
            | SceneError::DuplicateVertex { obstacle, .. }
            | SceneError::ZeroArea { obstacle }
            | SceneError::SelfIntersecting { obstacle, .. }
            | SceneError::OutsideBounds { obstacle, .. },
        ) => ("bad-obstacle", vec![*obstacle]),
        BuildError::NotConvex { obstacle, .. } => ("not-convex", vec![*obstacle]),
        BuildError::Overlap { first, second } => ("overlap", vec![*first, *second]),
        BuildError::Scene(SceneError::Boundary(_)) => ("bad-boundary", vec![]),
        BuildError::Scene(SceneError::Hole { obstacle, .. }) => ("bad-hole", vec![*obstacle]),
        BuildError::Scene(SceneError::HoleWithoutObstacle { .. }) => ("bad-hole", vec![]),
        BuildError::Unsupported(_) => ("unsupported", vec![]),
        BuildError::NoWalkableSpace => ("no-walkable-space", vec![]),
        // An internal mesh error, coordinates the triangulation cannot take, or variants added as
        // the builders grow: no obstacle to name.
        _ => ("build-failed", vec![]),
    };
    (422, code, obstacles)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status_and_code(e: ApiError) -> (u16, String) {
        let r = e.reply();
        let v: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
        (r.status, v["code"].as_str().unwrap().to_string())
    }

    #[test]
    fn invalid_options_are_the_clients_fault() {
        for (option, code) in [
            ("snap", "bad-snap"),
            ("corner_offset", "bad-corner-offset"),
            ("some_future_option", "invalid-option"),
        ] {
            let e = PathError::InvalidOption {
                option,
                value: -1.0,
                reason: "must not be negative",
            };
            assert_eq!(status_and_code(e.into()), (400, code.to_string()));
        }
        let e = BuildError::BadOption {
            name: "agent_radius",
            value: -1.0,
        };
        assert_eq!(
            status_and_code(e.into()),
            (400, "bad-agent-radius".to_string())
        );
        assert_eq!(
            status_and_code(PathError::StartOffMesh(portolan::Vec2::ZERO).into()),
            (422, "start-off-mesh".to_string())
        );
    }
}
