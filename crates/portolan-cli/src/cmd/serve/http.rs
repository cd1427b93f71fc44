//! HTTP plumbing for `portolan serve`: a `tiny_http` listener and a few worker threads, each with
//! its own [`PathFinder`], answering through [`App::handle`].
//!
//! Robustness rules:
//! - request bodies are capped at [`MAX_BODY_BYTES`], checked against `Content-Length` before
//!   reading and while reading chunked bodies (413); a declared length beyond [`DRAIN_CAP`] is
//!   dropped unanswered, to dodge a `tiny_http` 0.12 defect described there;
//! - bodies `tiny_http` has not already buffered are read on a thread of their own, so a slow
//!   client never holds up the workers that answer the page's queries;
//! - a panic in a handler becomes a 500 answer and the worker carries on with a fresh
//!   `PathFinder`; I/O errors on one connection never stop the server.

use super::api::{route, ApiError, App, Reply, MAX_BODY_BYTES};
use anyhow::{anyhow, Context, Result};
use portolan::PathFinder;
use std::io::Read;
use std::net::{SocketAddr, TcpListener};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use tiny_http::{Header, Request, Response};

/// Why [`RunningServer::wait`] returned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// Someone asked the server to stop (Ctrl-C).
    Stop,
    /// The listener failed and accepts no more connections (`tiny_http` ends its accept loop on
    /// the first accept error, e.g. when out of file descriptors).
    Failed(String),
}

/// A running server. Dropping it does not stop it; call [`RunningServer::shutdown`].
pub struct RunningServer {
    addr: SocketAddr,
    server: Arc<tiny_http::Server>,
    stop: Arc<AtomicBool>,
    workers: Vec<JoinHandle<()>>,
    events: (Sender<Event>, Receiver<Event>),
}

impl RunningServer {
    /// Binds `addr` (port 0 picks a free port) and starts `workers` threads answering with `app`.
    pub fn start(app: Arc<App>, addr: SocketAddr, workers: usize) -> Result<RunningServer> {
        let listener =
            TcpListener::bind(addr).with_context(|| format!("cannot listen on {addr}"))?;
        let addr = listener
            .local_addr()
            .context("cannot read the bound address")?;
        let server = tiny_http::Server::from_listener(listener, None)
            .map_err(|e| anyhow!("cannot start the HTTP server on {addr}: {e}"))?;
        let server = Arc::new(server);
        let stop = Arc::new(AtomicBool::new(false));
        let events = mpsc::channel();
        let workers = (0..workers.max(1))
            .map(|i| {
                let (server, stop, app) =
                    (Arc::clone(&server), Arc::clone(&stop), Arc::clone(&app));
                let events = events.0.clone();
                std::thread::Builder::new()
                    .name(format!("portolan-http-{i}"))
                    .spawn(move || worker(&server, &stop, &app, &events))
                    .context("cannot start a worker thread")
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(RunningServer {
            addr,
            server,
            stop,
            workers,
            events,
        })
    }

    /// A sender that makes [`RunningServer::wait`] return (for a Ctrl-C handler).
    pub fn notifier(&self) -> Sender<Event> {
        self.events.0.clone()
    }

    /// Blocks until a [`notifier`](RunningServer::notifier) sends an event or the listener
    /// fails; the server keeps running.
    pub fn wait(&self) -> Event {
        // The sender half lives in `self`, so the channel is never disconnected.
        self.events.1.recv().unwrap_or(Event::Stop)
    }

    /// The address actually bound.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's URL.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr())
    }

    /// Stops the server: each worker finishes the request it is answering and returns; the
    /// listener closes a moment later, when `tiny_http`'s accept thread notices.
    pub fn shutdown(self) {
        self.stop.store(true, Ordering::SeqCst);
        for _ in 0..self.workers.len() {
            // Each call wakes one worker blocked in `recv`.
            self.server.unblock();
        }
        for w in self.workers {
            // A worker only ends by returning; panics inside requests are caught there.
            let _ = w.join();
        }
    }
}

fn worker(server: &tiny_http::Server, stop: &AtomicBool, app: &Arc<App>, events: &Sender<Event>) {
    let mut finder = PathFinder::new();
    loop {
        match server.recv() {
            Ok(request) if body_is_buffered(&request) => {
                if !guarded(|| serve_one(app, &mut finder, request)) {
                    finder = PathFinder::new();
                }
            }
            Ok(request) => match request.body_length() {
                // Settled here without reading: see `DRAIN_CAP`.
                Some(n) if n > DRAIN_CAP => reject_oversized(request, n),
                _ => {
                    // Reading this body may block on a slow or lying client: do it on a thread
                    // of its own so the workers stay free for the page's queries.
                    let app = Arc::clone(app);
                    let spawned = std::thread::Builder::new()
                        .name("portolan-http-body".into())
                        .spawn(move || {
                            guarded(|| serve_one(&app, &mut PathFinder::new(), request));
                        });
                    if let Err(e) = spawned {
                        eprintln!("portolan serve: cannot start a thread for a request body: {e}");
                    }
                }
            },
            Err(_) if stop.load(Ordering::SeqCst) => return,
            Err(e) => {
                // `tiny_http` reports an accept error once and then stops accepting.
                let _ = events.send(Event::Failed(format!(
                    "the listener failed and accepts no more connections: {e}"
                )));
                return;
            }
        }
        if stop.load(Ordering::SeqCst) {
            return;
        }
    }
}

/// Runs `f`, turning a panic into a log line; `false` when it panicked. A request dropped while
/// unwinding is answered 500 by `tiny_http`.
fn guarded(f: impl FnOnce()) -> bool {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(()) => true,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            eprintln!("portolan serve: a request handler panicked: {what}");
            false
        }
    }
}

/// `true` when reading the body cannot block: no body, or a small one `tiny_http` has already
/// read (it buffers bodies of at most 1024 bytes sent without `Expect: 100-continue`).
fn body_is_buffered(request: &Request) -> bool {
    let has = |name: &'static str| request.headers().iter().any(|h| h.field.equiv(name));
    match request.body_length() {
        Some(n) => n == 0 || (n <= 1024 && !has("Expect")),
        None => !has("Transfer-Encoding"),
    }
}

/// Largest declared body length answered with a 413. `tiny_http` 0.12 drains the unread rest of
/// a body when a request is dropped, into one buffer of the declared size
/// (`vec![0; remaining]` in `EqualReader::drop`; upstream tiny-http PR #290), so answering a
/// request that declares, say, a terabyte would abort the process. Such requests get no answer.
const DRAIN_CAP: usize = 16 << 20;

fn too_large() -> Reply {
    ApiError::BodyTooLarge {
        limit: MAX_BODY_BYTES,
    }
    .reply()
}

/// Answers 413 to a request whose `Content-Length` exceeds the limit, without reading the body
/// (reading it to an early end of stream would also trigger the drain described at
/// [`DRAIN_CAP`]).
fn reject_oversized(request: Request, declared: usize) {
    if declared > DRAIN_CAP {
        eprintln!(
            "portolan serve: dropping a request that declares a {declared}-byte body, unanswered"
        );
        // Leaks one socket and one `tiny_http` connection thread; see `DRAIN_CAP` for why.
        std::mem::forget(request);
        return;
    }
    respond(request, too_large());
}

/// Reads the whole body (at most [`MAX_BODY_BYTES`]); `Err` with a 413 reply when it is larger.
fn read_body(request: &mut Request) -> std::result::Result<Vec<u8>, Reply> {
    let mut body = Vec::new();
    let limit = MAX_BODY_BYTES as u64 + 1;
    match request.as_reader().take(limit).read_to_end(&mut body) {
        Ok(_) if body.len() > MAX_BODY_BYTES => Err(too_large()),
        Ok(_) => Ok(body),
        Err(e) => Err(ApiError::BadBody(e.to_string()).reply()),
    }
}

fn serve_one(app: &App, finder: &mut PathFinder, mut request: Request) {
    if let Some(n) = request.body_length().filter(|&n| n > MAX_BODY_BYTES) {
        return reject_oversized(request, n);
    }
    let method = request.method().as_str().to_ascii_uppercase();
    let reply = match route(&method, request.url()) {
        Err(reply) => reply,
        Ok(r) if r.takes_body() => match read_body(&mut request) {
            Ok(body) => app.handle(finder, r, &body),
            Err(reply) => reply,
        },
        Ok(r) => app.handle(finder, r, &[]),
    };
    respond(request, reply);
}

fn respond(request: Request, reply: Reply) {
    // Every body is in memory, so its length is known: always a Content-Length, never the
    // chunked encoding tiny_http would switch to above 32 KiB (app.js, big meshes).
    let mut response = Response::from_data(reply.body)
        .with_chunked_threshold(usize::MAX)
        .with_status_code(reply.status)
        .with_header(header("Content-Type", reply.content_type))
        .with_header(header("Cache-Control", "no-store"))
        .with_header(header("X-Content-Type-Options", "nosniff"));
    if let Some(allow) = reply.allow {
        response.add_header(header("Allow", allow));
    }
    // The client may have gone away; nothing to do about it.
    let _ = request.respond(response);
}

fn header(name: &str, value: &str) -> Header {
    // Both are ASCII constants from this file or `Reply`.
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("ASCII header")
}
