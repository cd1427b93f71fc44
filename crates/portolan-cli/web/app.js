// The demo page; talks to /api/scene and /api/path.
