/**
 * The renderer's Content-Security-Policy, sent as a header with every app:// response.
 * Scripts only from the app itself ('wasm-unsafe-eval' lets on-device OCR compile its
 * WebAssembly; no 'unsafe-inline', no 'unsafe-eval'); the renderer talks to the host over
 * IPC, so it connects nowhere but its own origin. Camera frames arrive as a MediaStream,
 * which needs no media-src entry.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "media-src 'self' blob:",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
].join('; ');
