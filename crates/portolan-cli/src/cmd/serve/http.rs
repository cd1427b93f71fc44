//! HTTP for `portolan serve`: hyper's HTTP/1.1 server on a tokio runtime, with an axum router
//! whose one handler reads the body, finds the route ([`route`]) and answers through
//! [`App::handle`] on tokio's blocking pool, each thread with its own [`PathFinder`].
//!
//! Every limit is a named constant in [`super::api::limits`] (documented there, reported by
//! `GET /api/scene` under `capabilities.limits`). Here they are enforced:
//! - the request head is capped by hyper ([`Limits::max_header_bytes`], `431`), and must arrive
//!   within [`Limits::idle_timeout`] of the server starting to wait for it: an idle keep-alive
//!   connection and a slow header are closed alike (hyper's header-read timer);
//! - bodies are capped at [`Limits::max_body_bytes`] (`413`), checked against `Content-Length`
//!   before reading and while reading; an oversized body is drained (up to [`DRAIN_CAP`], within
//!   the body timeout) before the answer, so that a client still writing gets its `413` rather
//!   than a reset connection;
//! - a body must arrive within [`Limits::body_timeout`] (`408`): a client sending a byte a
//!   second is cut off;
//! - a whole answer is due within [`Limits::request_timeout`] (`503`); an edit finished later is
//!   not applied;
//! - at most [`Limits::max_connections`] connections are served at once; at the cap a new
//!   client makes room by closing the oldest connection that is not answering a request (idle
//!   keep-alive, or a slow client still sending its head), so slow clients cannot lock others
//!   out; when all are busy it waits in the listen backlog. An accept error (out of file
//!   descriptors) is logged, waited out and never ends the server;
//! - handlers run on the blocking pool, so a build never stalls the runtime's threads; a panic
//!   there becomes a `500` answer and the thread carries on with a fresh `PathFinder`.
//!
//! hyper refuses malformed framing itself, e.g. two different `Content-Length` headers (`400`).

use super::api::{parse_if_match, route, ApiError, App, Limits, Reply, RequestMeta};
use anyhow::{Context, Result};
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, Method, Response, StatusCode, Uri};
use axum::Router;
use http_body_util::BodyExt;
use hyper_util::rt::{TokioIo, TokioTimer};
use portolan::build::CancelToken;
use portolan::PathFinder;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::net::{SocketAddr, TcpListener as StdListener};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::sync::{watch, Notify, Semaphore};

/// Why [`RunningServer::wait`] returned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// Someone asked the server to stop (Ctrl-C).
    Stop,
}

/// The most of an oversized body read (and thrown away) before answering `413`; past it the
/// connection is closed after the answer.
pub const DRAIN_CAP: usize = 16 << 20;

/// A running server. Dropping it does not stop it; call [`RunningServer::shutdown`].
pub struct RunningServer {
    addr: SocketAddr,
    runtime: tokio::runtime::Runtime,
    stop: watch::Sender<bool>,
    events: (Sender<Event>, Receiver<Event>),
}

impl RunningServer {
    /// Binds `addr` (port 0 picks a free port) and starts serving `app` on `workers` runtime
    /// threads, with the app's limits.
    pub fn start(app: Arc<App>, addr: SocketAddr, workers: usize) -> Result<RunningServer> {
        let listener =
            StdListener::bind(addr).with_context(|| format!("cannot listen on {addr}"))?;
        let addr = listener
            .local_addr()
            .context("cannot read the bound address")?;
        listener
            .set_nonblocking(true)
            .context("cannot set up the listener")?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(workers.max(1))
            .thread_name("portolan-http")
            .enable_all()
            .build()
            .context("cannot start the HTTP runtime")?;
        let listener = {
            let _in_runtime = runtime.enter();
            TcpListener::from_std(listener).context("cannot set up the listener")?
        };
        let (stop, stopped) = watch::channel(false);
        runtime.spawn(accept_loop(listener, app, stopped));
        Ok(RunningServer {
            addr,
            runtime,
            stop,
            events: mpsc::channel(),
        })
    }

    /// A sender that makes [`RunningServer::wait`] return (for a Ctrl-C handler).
    pub fn notifier(&self) -> Sender<Event> {
        self.events.0.clone()
    }

    /// Blocks until a [`notifier`](RunningServer::notifier) sends an event; the server keeps
    /// running.
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

    /// Stops the server: the listener closes at once, connections finish the request they are
    /// answering (for up to two seconds) and close.
    pub fn shutdown(self) {
        // Fails only when every receiver is gone, i.e. nothing is left to stop.
        let _ = self.stop.send(true);
        self.runtime.shutdown_timeout(Duration::from_secs(2));
    }
}

/// One served connection, as the accept loop sees it: how many of its requests are being
/// answered (body included), and the signal that closes it.
#[derive(Default)]
struct ConnState {
    busy: AtomicUsize,
    shed: AtomicBool,
    close: Notify,
}

/// Counts a request as being answered until dropped (with the response body, once sent).
struct Busy(Arc<ConnState>);

impl Busy {
    fn enter(state: &Arc<ConnState>) -> Busy {
        state.busy.fetch_add(1, Ordering::SeqCst);
        Busy(Arc::clone(state))
    }

    /// Keeps the guard alive inside a closure that owns it.
    fn hold(&self) {}
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.busy.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The connections being served, oldest first.
type Served = Arc<Mutex<VecDeque<(u64, Arc<ConnState>)>>>;

/// At the connection cap, with a client waiting: closes the oldest connection that is not
/// answering a request (an idle keep-alive, or one still sending its request head: a slow
/// client), so that a thousand slow clients cannot keep the others out until their header
/// timeout. Nothing in flight is cut: a connection answering a request is never shed.
fn shed_one_idle(served: &Served) {
    let list = match served.lock() {
        Ok(l) => l,
        Err(p) => p.into_inner(),
    };
    if let Some((_, c)) = list
        .iter()
        .find(|(_, c)| c.busy.load(Ordering::SeqCst) == 0 && !c.shed.load(Ordering::SeqCst))
    {
        c.shed.store(true, Ordering::SeqCst);
        c.close.notify_one();
    }
}

/// Accepts connections until told to stop, at most `max_connections` at once; at the cap, a
/// new client makes room by closing the oldest idle connection ([`shed_one_idle`]), or waits
/// for one to finish when all are busy.
async fn accept_loop(listener: TcpListener, app: Arc<App>, mut stopped: watch::Receiver<bool>) {
    let limits = *app.limits();
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let served: Served = Arc::default();
    let mut next_id = 0u64;
    let router = Router::new().fallback(dispatch).with_state(app);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of file descriptors, say: wait for connections to close, carry on.
                    eprintln!("portolan serve: cannot accept a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = stopped.changed() => return,
        };
        let slot = match Arc::clone(&slots).try_acquire_owned() {
            Ok(slot) => slot,
            Err(_) => {
                shed_one_idle(&served);
                tokio::select! {
                    slot = Arc::clone(&slots).acquire_owned() => match slot {
                        Ok(slot) => slot,
                        Err(_) => return, // the semaphore is never closed
                    },
                    _ = stopped.changed() => return,
                }
            }
        };
        let _ = stream.set_nodelay(true);
        let state = Arc::new(ConnState::default());
        let id = next_id;
        next_id += 1;
        {
            let mut list = match served.lock() {
                Ok(l) => l,
                Err(p) => p.into_inner(),
            };
            list.push_back((id, Arc::clone(&state)));
        }
        let inner = hyper_util::service::TowerToHyperService::new(router.clone());
        let counted = Arc::clone(&state);
        let service = hyper::service::service_fn(move |req| {
            let busy = Busy::enter(&counted);
            let answer = hyper::service::Service::call(&inner, req);
            async move {
                let response = answer.await?;
                // Busy until the body is sent (or the connection drops it).
                Ok::<_, std::convert::Infallible>(response.map(|body| {
                    body.map_frame(move |frame| {
                        busy.hold();
                        frame
                    })
                }))
            }
        });
        let mut stopped = stopped.clone();
        let served = Arc::clone(&served);
        tokio::spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .max_buf_size(limits.max_header_bytes.max(8192) + 8192)
                .max_header_size(limits.max_header_bytes)
                .header_read_timeout(limits.idle_timeout)
                // A client may shut its sending side once its request is out and wait for the
                // answer (`nc -N`, `curl --no-keepalive` on some systems). Without this, hyper
                // closes the connection when it reads that end of input, and such a request
                // went unanswered whenever the end arrived before the answer was written.
                .half_close(true)
                .keep_alive(true);
            let conn = builder.serve_connection(TokioIo::new(stream), service);
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                // Shed: dropping the connection closes its socket.
                _ = state.close.notified() => {}
                _ = stopped.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(Duration::from_secs(1), conn).await;
                }
            }
            {
                let mut list = match served.lock() {
                    Ok(l) => l,
                    Err(p) => p.into_inner(),
                };
                list.retain(|(i, _)| *i != id);
            }
            drop(slot);
        });
    }
}

/// The one handler: every request comes here, is routed by [`route`] and answered.
async fn dispatch(
    State(app): State<Arc<App>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Body,
) -> Response<Body> {
    let limits = *app.limits();
    let deadline = Instant::now() + limits.request_timeout;
    // Dropped with this future: when the answer is sent, when the request timeout fires, or
    // when the client goes away. A build still running on the blocking pool then stops.
    let cancel = CancelOnDrop(CancelToken::new());
    let answer = async {
        let route = match route(method.as_str(), uri.path()) {
            Ok(r) => r,
            Err(reply) => return (reply, false),
        };
        let if_match = match headers.get(header::IF_MATCH).map(HeaderValue::to_str) {
            None => None,
            Some(Ok(v)) => match parse_if_match(v) {
                Ok(r) => r,
                Err(e) => return (e.reply(), false),
            },
            Some(Err(_)) => {
                let e = ApiError::BadHeader("If-Match is not ASCII".into());
                return (e.reply(), false);
            }
        };
        let declared = headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
        let body = match read_body(body, declared, &limits).await {
            Ok(b) => b,
            Err((e, close)) => return (e.reply(), close),
        };
        let meta = RequestMeta {
            if_match,
            deadline: Some(deadline),
            cancel: Some(cancel.0.clone()),
        };
        let app = Arc::clone(&app);
        let handled = tokio::task::spawn_blocking(move || {
            FINDER.with(|f| {
                let run = catch_unwind(AssertUnwindSafe(|| {
                    app.handle(&mut f.borrow_mut(), route, &body, &meta)
                }));
                run.unwrap_or_else(|payload| {
                    // The finder may be half-way through a search: start afresh.
                    *f.borrow_mut() = PathFinder::new();
                    let what = payload
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| payload.downcast_ref::<String>().cloned())
                        .unwrap_or_default();
                    eprintln!("portolan serve: a request handler panicked: {what}");
                    ApiError::Internal("the handler failed".into()).reply()
                })
            })
        })
        .await;
        match handled {
            Ok(reply) => (reply, false),
            Err(e) => (ApiError::Internal(e.to_string()).reply(), false),
        }
    };
    let (reply, close) = match tokio::time::timeout(limits.request_timeout, answer).await {
        Ok(r) => r,
        Err(_) => (ApiError::Timeout.reply(), true),
    };
    respond(reply, close)
}

/// Cancels its token when dropped.
struct CancelOnDrop(CancelToken);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

thread_local! {
    /// Each blocking-pool thread keeps its search context between requests.
    static FINDER: RefCell<PathFinder> = RefCell::new(PathFinder::new());
}

/// Reads the whole body within the body timeout; over the cap, drains what the client still
/// sends (up to [`DRAIN_CAP`]) and answers `413`. The `bool` asks to close the connection.
async fn read_body(
    body: Body,
    declared: Option<u64>,
    limits: &Limits,
) -> Result<Bytes, (ApiError, bool)> {
    let cap = limits.max_body_bytes;
    let too_large = ApiError::BodyTooLarge { limit: cap };
    let read = async {
        let mut body = body;
        if declared.is_some_and(|n| n > DRAIN_CAP as u64) {
            // Not worth reading: answer, then close.
            return Err((too_large, true));
        }
        let mut buf = Vec::new();
        let mut seen = 0usize;
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|e| (ApiError::BadBody(e.to_string()), true))?;
            if let Ok(data) = frame.into_data() {
                seen = seen.saturating_add(data.len());
                if seen > DRAIN_CAP {
                    return Err((too_large, true));
                }
                if seen <= cap {
                    buf.extend_from_slice(&data);
                }
            }
        }
        if seen > cap || declared.is_some_and(|n| n > cap as u64) {
            return Err((too_large, false));
        }
        Ok(Bytes::from(buf))
    };
    match tokio::time::timeout(limits.body_timeout, read).await {
        Ok(r) => r,
        Err(_) => Err((ApiError::BodyTimeout, true)),
    }
}

fn respond(reply: Reply, close: bool) -> Response<Body> {
    let mut response = Response::new(Body::from(reply.body));
    *response.status_mut() =
        StatusCode::from_u16(reply.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(reply.content_type),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if let Some(allow) = reply.allow {
        h.insert(header::ALLOW, HeaderValue::from_static(allow));
    }
    if let Some(revision) = reply.etag {
        if let Ok(v) = HeaderValue::from_str(&format!("\"{revision}\"")) {
            h.insert(header::ETAG, v);
        }
    }
    if close {
        h.insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    response
}
