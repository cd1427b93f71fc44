//! Routes: which method and path reach which handler, and the HTTP answer type.
//!
//! [`route`] is the one table of the API; a path it does not know is `404 not-found`, a method a
//! known path does not take is `405 method-not-allowed` with an `Allow` header. Statuses of
//! failures are decided in [`super::errors`].

use super::errors::ApiError;
use super::wire::ErrorBody;
use axum::body::Bytes;
use portolan::build::CancelToken;
use serde::Serialize;
use std::time::Instant;

/// An HTTP answer: status, content type and body.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// HTTP status code.
    pub status: u16,
    /// `Content-Type` header value.
    pub content_type: &'static str,
    /// The body (shared, not copied, when it is a cached scene answer).
    pub body: Bytes,
    /// `Allow` header value, for 405 answers.
    pub allow: Option<&'static str>,
    /// The scene revision the answer shows, sent as `ETag: "<revision>"` (scene answers).
    pub etag: Option<u64>,
}

/// What a handler needs from a request besides its route and body.
#[derive(Clone, Debug, Default)]
pub struct RequestMeta {
    /// The revision named by an `If-Match` header.
    pub if_match: Option<u64>,
    /// When the answer is due; an edit finished later is not applied.
    pub deadline: Option<Instant>,
    /// Cancelled when the request is dropped (timeout, client gone): a build checks it.
    pub cancel: Option<CancelToken>,
}

/// The revision of an `If-Match` header: `"3"`, `W/"3"` or `3`; `*` is no condition.
pub fn parse_if_match(value: &str) -> Result<Option<u64>, ApiError> {
    let v = value.trim();
    if v == "*" {
        return Ok(None);
    }
    let v = v.strip_prefix("W/").unwrap_or(v);
    let v = v
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or(v);
    v.parse().map(Some).map_err(|_| {
        ApiError::BadHeader(format!(
            "If-Match must name one scene revision, as in \"3\", not {value:?}"
        ))
    })
}

impl Reply {
    /// A JSON body with status 200.
    pub fn json(value: &impl Serialize) -> Reply {
        match serde_json::to_vec(value) {
            Ok(body) => Reply {
                status: 200,
                content_type: "application/json",
                body: body.into(),
                allow: None,
                etag: None,
            },
            // Our response types hold only finite numbers, strings and vectors.
            Err(e) => Reply::error(500, "internal", &format!("cannot encode the reply: {e}")),
        }
    }

    /// A JSON error `{"error": message, "code": code}`, for failures the HTTP layer finds
    /// itself (the API's own go through [`ApiError`]).
    pub fn error(status: u16, code: &'static str, message: &str) -> Reply {
        Reply::error_with(
            status,
            ErrorBody {
                error: message.to_string(),
                code,
                obstacles: Vec::new(),
                limit: None,
                revision: None,
                vertex: None,
                placed: None,
            },
        )
    }

    pub(super) fn error_with(status: u16, body: ErrorBody) -> Reply {
        let body: Vec<u8> = serde_json::to_vec(&body).unwrap_or_else(|_| {
            // Strings and integers always encode.
            br#"{"error":"internal error","code":"internal"}"#.to_vec()
        });
        Reply {
            status,
            content_type: "application/json",
            body: body.into(),
            allow: None,
            etag: None,
        }
    }

    /// A static asset.
    pub fn asset(content_type: &'static str, body: &'static str) -> Reply {
        Reply {
            status: 200,
            content_type,
            body: Bytes::from_static(body.as_bytes()),
            allow: None,
            etag: None,
        }
    }
}

/// Routes of the API and the pages.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// `GET /`, `/index.html`, `/app.js`, `/style.css`.
    Asset(&'static str, &'static str),
    /// `GET /api/scene`.
    GetScene,
    /// `POST /api/scene`.
    SetScene,
    /// `POST /api/scene/reset`.
    ResetScene,
    /// `POST /api/path`.
    Path,
    /// `POST /api/tiles...`: tiled mode ([`super::dynamic`]).
    Tiles(super::dynamic::TilesRoute),
    /// `/api/crowd…` ([`super::crowd`]).
    Crowd(super::crowd::CrowdRoute),
}

/// Maps a method and path (query string ignored) to a route, or the 404/405 answer.
pub fn route(method: &str, url: &str) -> Result<Route, Reply> {
    use crate::cmd::serve::assets;
    let path = url.split(['?', '#']).next().unwrap_or("");
    let (allow, route) = match path {
        "/" | "/index.html" => (
            "GET, HEAD",
            Route::Asset("text/html; charset=utf-8", assets::INDEX_HTML),
        ),
        "/app.js" => (
            "GET, HEAD",
            Route::Asset("text/javascript; charset=utf-8", assets::APP_JS),
        ),
        "/tiles.js" => (
            "GET, HEAD",
            Route::Asset("text/javascript; charset=utf-8", assets::TILES_JS),
        ),
        "/style.css" => (
            "GET, HEAD",
            Route::Asset("text/css; charset=utf-8", assets::STYLE_CSS),
        ),
        "/api/scene" => match method {
            "POST" => return Ok(Route::SetScene),
            _ => ("GET, HEAD, POST", Route::GetScene),
        },
        "/api/scene/reset" => ("POST", Route::ResetScene),
        "/api/path" => ("POST", Route::Path),
        p if p == "/api/tiles" || p.starts_with("/api/tiles/") => {
            return super::dynamic::route(method, p)
        }
        "/crowd.js" => (
            "GET, HEAD",
            Route::Asset("text/javascript; charset=utf-8", assets::CROWD_JS),
        ),
        p if p.starts_with("/api/crowd") => match super::crowd::route(method, p) {
            Some(Ok(r)) => return Ok(r),
            Some(Err(allow)) => {
                return Err(ApiError::MethodNotAllowed {
                    method: method.to_string(),
                    path: p.to_string(),
                    allow,
                }
                .reply())
            }
            None => {
                return Err(ApiError::NotFound {
                    path: p.to_string(),
                }
                .reply())
            }
        },
        _ => {
            return Err(ApiError::NotFound {
                path: path.to_string(),
            }
            .reply())
        }
    };
    let ok = match route {
        Route::Asset(..) | Route::GetScene => matches!(method, "GET" | "HEAD"),
        Route::SetScene | Route::ResetScene | Route::Path | Route::Tiles(_) | Route::Crowd(_) => {
            method == "POST"
        }
    };
    if ok {
        Ok(route)
    } else {
        Err(ApiError::MethodNotAllowed {
            method: method.to_string(),
            path: path.to_string(),
            allow,
        }
        .reply())
    }
}
