//! Routes: which method and path reach which handler, and the HTTP answer type.
//!
//! [`route`] is the one table of the API; a path it does not know is `404 not-found`, a method a
//! known path does not take is `405 method-not-allowed` with an `Allow` header. Statuses of
//! failures are decided in [`super::errors`].

use super::errors::ApiError;
use super::wire::ErrorBody;
use serde::Serialize;

/// An HTTP answer: status, content type and body.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// HTTP status code.
    pub status: u16,
    /// `Content-Type` header value.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
    /// `Allow` header value, for 405 answers.
    pub allow: Option<&'static str>,
}

impl Reply {
    /// A JSON body with status 200.
    pub fn json(value: &impl Serialize) -> Reply {
        match serde_json::to_vec(value) {
            Ok(body) => Reply {
                status: 200,
                content_type: "application/json",
                body,
                allow: None,
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
            },
        )
    }

    pub(super) fn error_with(status: u16, body: ErrorBody) -> Reply {
        let body = serde_json::to_vec(&body).unwrap_or_else(|_| {
            // Strings and integers always encode.
            br#"{"error":"internal error","code":"internal"}"#.to_vec()
        });
        Reply {
            status,
            content_type: "application/json",
            body,
            allow: None,
        }
    }

    /// A static asset.
    pub fn asset(content_type: &'static str, body: &'static str) -> Reply {
        Reply {
            status: 200,
            content_type,
            body: body.as_bytes().to_vec(),
            allow: None,
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
}

impl Route {
    /// Whether the route reads a request body.
    pub fn takes_body(self) -> bool {
        matches!(self, Route::SetScene | Route::Path)
    }
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
        _ => {
            return Err(ApiError::NotFound {
                path: path.to_string(),
            }
            .reply())
        }
    };
    let ok = match route {
        Route::Asset(..) | Route::GetScene => matches!(method, "GET" | "HEAD"),
        Route::SetScene | Route::ResetScene | Route::Path => method == "POST",
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
