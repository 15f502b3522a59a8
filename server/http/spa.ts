import { existsSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { noSuchEndpoint } from "./errors.ts";

/** Paths that belong to the server, never to the app's router. */
const SERVER_PATHS = /^\/(api|notifications|socket\.io)(\/|$)/;


/**
 * Serves the built app from `staticDir`. Every GET outside the server's own paths that is not
 * a file answers index.html, so the app's router handles /dashboard, /mcu, an unknown path …
 */
export async function serveApp(app: FastifyInstance, staticDir: string | undefined): Promise<void> {
  const index = staticDir && join(staticDir, "index.html");
  const built = Boolean(index && existsSync(index));
  if (built) {
    await app.register(fastifyStatic, {
      root: staticDir!,
      wildcard: false,
      index: false,
      setHeaders(res, path) {
        // Vite puts a content hash in every file name under assets/: cache those for a year.
        res.setHeader("Cache-Control", /[/\\]assets[/\\]/.test(path) ? "public, max-age=31536000, immutable" : "no-cache");
      },
    });
  }

  app.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split("?")[0]!;
    if (SERVER_PATHS.test(path) || (req.method !== "GET" && req.method !== "HEAD")) {
      return reply.status(404).send(noSuchEndpoint(req.method, path));
    }
    if (!built) {
      return reply.status(503).type("text/plain").send("The app is not built yet. Run `npm run build`, then reload.");
    }
    reply.header("Cache-Control", "no-cache");
    return reply.sendFile("index.html");
  });
}
