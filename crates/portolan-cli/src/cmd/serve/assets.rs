//! The demo page, embedded in the binary so it works offline with no build step.
//!
//! Sources live in `crates/portolan-cli/web/`; edit them there and rebuild.

/// `web/index.html`.
pub const INDEX_HTML: &str = include_str!("../../../web/index.html");
/// `web/app.js`.
pub const APP_JS: &str = include_str!("../../../web/app.js");
/// `web/style.css`.
pub const STYLE_CSS: &str = include_str!("../../../web/style.css");
/// `web/tiles.js`: tiled mode (tile grid, dynamic edits, doors).
pub const TILES_JS: &str = include_str!("../../../web/tiles.js");
/// `web/crowd.js`: the crowd mode.
pub const CROWD_JS: &str = include_str!("../../../web/crowd.js");
