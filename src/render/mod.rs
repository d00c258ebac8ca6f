//! Rendering in Chromium (below).
