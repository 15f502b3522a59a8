import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServer, type TestServer } from "../test-support/test-server.ts";

/** A raw TCP client of the server; `closed` settles with what the server sent before it closed. */
function rawClient(port: number): Promise<{ socket: Socket; closed: Promise<{ afterMs: number; received: string }> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const started = Date.now();
    let received = "";
    socket.on("data", (d) => (received += d.toString("latin1")));
    const closed = new Promise<{ afterMs: number; received: string }>((done) => socket.once("close", () => done({ afterMs: Date.now() - started, received })));
    socket.once("error", () => undefined);
    socket.once("connect", () => resolve({ socket, closed }));
    socket.once("error", reject);
  });
}

describe("slow and hoarding clients", () => {
  let server: TestServer;
  let port: number;
  beforeAll(async () => {
    server = await createTestServer({ config: { connections: { headersMs: 800, requestMs: 1500, perAddress: 8 } } });
    await server.app.listen({ host: "127.0.0.1", port: 0 });
    port = (server.app.server.address() as { port: number }).port;
  });
  afterAll(() => server.close());

  const get = () => fetch(`http://127.0.0.1:${port}/api/clients/me`).then((r) => r.status);

  it("answers 408 and closes a request body that trickles in too slowly", async () => {
    const { socket, closed } = await rawClient(port);
    socket.write("POST /api/clients/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{");
    const trickle = setInterval(() => socket.write(" "), 200);
    const { afterMs, received } = await closed;
    clearInterval(trickle);
    expect(received).toMatch(/^HTTP\/1\.1 408/);
    expect(JSON.parse(received.slice(received.indexOf("\r\n\r\n") + 4))).toEqual({ code: "BAD_REQUEST", message: "The request took too long to arrive", reason: "request_too_slow" });
    expect(afterMs).toBeLessThan(5_000);
  });

  it("closes a connection whose headers never end", async () => {
    const { socket, closed } = await rawClient(port);
    socket.write("GET /api/clients/me HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    const trickle = setInterval(() => socket.write("X-Slow: 1\r\n"), 100);
    const { afterMs } = await closed;
    clearInterval(trickle);
    expect(afterMs).toBeLessThan(5_000);
  });

  it("refuses an address's connections beyond its cap, and serves it again once they close", async () => {
    const held = await Promise.all(Array.from({ length: 8 }, () => rawClient(port)));
    const extra = await rawClient(port);
    const { afterMs } = await extra.closed;
    expect(afterMs).toBeLessThan(1_000);
    for (const { socket } of held) socket.destroy();
    await Promise.all(held.map((h) => h.closed));
    expect(await get()).toBe(401);
  });
});
