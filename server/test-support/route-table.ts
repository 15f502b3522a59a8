/**
 * "METHOD /path" of every route Fastify serves, from `printRoutes`' tree: each line is a node, its
 * depth told by its indent (4 characters a level) and its path its parent's with its own part.
 */
export function routesOf(tree: string): string[] {
  const routes: string[] = [];
  const paths: string[] = [];
  for (const line of tree.split("\n")) {
    const m = /^(.*?)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    paths.length = depth;
    const path = (paths[depth - 1] ?? "") + m[2]!;
    paths[depth] = path;
    for (const method of m[3]?.split(", ") ?? []) if (method !== "HEAD" && method !== "OPTIONS") routes.push(`${method} ${path}`);
  }
  return routes;
}
