import type { FastifyInstance } from "fastify";

/**
 * The app's Content-Security-Policy: scripts only from this origin (no inline script, no eval),
 * connections only to this origin (its socket included: CSP's 'self' covers ws:/wss: to the same
 * host) and to Google's APIs for push notifications when they are configured; images and
 * workers from here, data: and blob:; no plugins, no framing, no foreign form targets.
 * Styles allow inline attributes (React sets style attributes; no style is user input).
 */
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self' https://*.googleapis.com",
  "worker-src 'self' blob:",
  "manifest-src 'self'",
  "media-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join("; ");

/**
 * Security headers on every response: the API's, the app's files and index.html (however it is
 * reached: by name, as the router's fallback, or from the service worker's precache, which keeps
 * the headers it was served with). HSTS only over HTTPS.
 */
export function installSecurityHeaders(app: FastifyInstance, { https }: { https: boolean }): void {
  app.addHook("onSend", async (_req, reply) => {
    reply.header("Content-Security-Policy", CSP);
    reply.header("X-Content-Type-Options", "nosniff");
    reply.header("Referrer-Policy", "same-origin");
    reply.header("X-Frame-Options", "DENY");
    reply.header("Cross-Origin-Opener-Policy", "same-origin");
    reply.header("Cross-Origin-Resource-Policy", "same-origin");
    // The QR scanner needs the camera; nothing needs the rest.
    reply.header("Permissions-Policy", "camera=(self), microphone=(), geolocation=(), payment=(), usb=()");
    if (https) reply.header("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  });
}
