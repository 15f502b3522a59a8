/**
 * `GET /api/clients/me` every 100 ms from its own process (so that the latency measured is the
 * server's, not that of a bench process busy decoding a socket's readings). On SIGTERM it prints
 * {"latenciesMs": [...], "errors": n} and exits.
 *
 *   tsx bench/api-poller.ts URL COOKIE
 */
const [url, cookie] = process.argv.slice(2);
if (!url || !cookie) {
  console.error("usage: tsx bench/api-poller.ts URL COOKIE");
  process.exit(2);
}
const latenciesMs: number[] = [];
let errors = 0;
let running = true;
process.on("SIGTERM", () => (running = false));
while (running) {
  const t0 = performance.now();
  try {
    const res = await fetch(`${url}/api/clients/me`, { headers: { cookie } });
    await res.arrayBuffer();
    if (!res.ok) errors++;
  } catch {
    errors++;
  }
  latenciesMs.push(+(performance.now() - t0).toFixed(2));
  await new Promise((r) => setTimeout(r, Math.max(0, 100 - (performance.now() - t0))));
}
console.log(JSON.stringify({ latenciesMs, errors }));
export {};
