import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { readConfig } from "../config.ts";
import { createTestServer, type TestServer } from "../test-support/test-server.ts";

/** A connection from `from` that asks for one page and stays open: "answered", or "closed" when the server shut it at once. */
function openConnection(port: number, from: string, sockets: Socket[]): Promise<"answered" | "closed"> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port, localAddress: from });
    sockets.push(socket);
    socket.on("error", () => undefined);
    socket.once("connect", () => socket.write("GET /api/clients/me HTTP/1.1\r\nHost: farm\r\n\r\n"));
    socket.once("data", () => resolve("answered"));
    socket.once("close", () => resolve("closed"));
  });
}

describe("the per-address connection cap with TRUST_PROXY listing the proxy", () => {
  let server: TestServer;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.destroy();
    await server.close();
  });

  it("leaves the proxy's connections uncapped (they carry everyone behind it) and still caps anyone else", async () => {
    server = await createTestServer({ config: { trustProxy: readConfig({ TRUST_PROXY: "127.0.0.1" }).trustProxy, connections: { perAddress: 2 } } });
    await server.app.listen({ host: "127.0.0.1", port: 0 });
    const { port } = server.app.server.address() as { port: number };
    const viaProxy: string[] = [];
    for (let i = 0; i < 5; i++) viaProxy.push(await openConnection(port, "127.0.0.1", sockets));
    expect(viaProxy).toEqual(Array(5).fill("answered"));
    const direct: string[] = [];
    for (let i = 0; i < 3; i++) direct.push(await openConnection(port, "127.0.0.2", sockets));
    expect(direct).toEqual(["answered", "answered", "closed"]);
  });
});
