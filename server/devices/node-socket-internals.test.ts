import { createServer, connect, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { interceptReads, socketInternalsBroken } from "./node-socket-internals.ts";

/** What each assertion checks, as the error the adapter itself would throw. */
const broken = (why: string) => socketInternalsBroken(why).message;

/** A server socket and the client connected to it; `received` is handed the server's side. */
async function pair(received: (socket: Socket) => void): Promise<{ server: Server; client: Socket }> {
  const server = createServer(received);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const client = connect((server.address() as { port: number }).port, "127.0.0.1");
  await new Promise<void>((resolve) => client.once("connect", resolve));
  return { server, client };
}

const until = async (ok: () => boolean) => {
  const deadline = Date.now() + 5000;
  while (!ok() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
};

/** The contract of node-socket-internals.ts with the running Node. */
describe("Node's net.Socket hands every chunk it reads to its own push", () => {
  let closing: (() => void)[] = [];
  afterEach(() => {
    for (const close of closing) close();
    closing = [];
  });

  it("in paused mode (read on 'readable', as the Aedes broker reads): the reader gets only what the interceptor hands on", async () => {
    const seen: string[] = [];
    const read: string[] = [];
    const { server, client } = await pair((socket) => {
      interceptReads(socket, (push) => (chunk, encoding) => {
        if (!Buffer.isBuffer(chunk)) return push(chunk, encoding);
        seen.push(chunk.toString());
        return push(Buffer.from(chunk.toString().replace("secret", "")), encoding);
      });
      socket.on("readable", () => {
        let b: Buffer | null;
        while ((b = socket.read() as Buffer | null) !== null) read.push(b.toString());
      });
    });
    closing.push(() => client.destroy(), () => server.close());
    client.write("a-secret-b");
    await until(() => read.join("") === "a--b");
    expect(seen.join(""), broken("a chunk read in paused mode did not pass through the socket's push")).toBe("a-secret-b");
    expect(read.join(""), broken("what push handed on is not what the reader got")).toBe("a--b");
  });

  it("in flowing mode (a pipe or 'data', as the MQTT client reads): a chunk taken whole never reaches the reader", async () => {
    const seen: string[] = [];
    const data: string[] = [];
    let incoming: Socket | undefined;
    const { server, client } = await pair((socket) => (incoming = socket));
    closing.push(() => client.destroy(), () => server.close());
    interceptReads(client, (push) => (chunk, encoding) => {
      if (!Buffer.isBuffer(chunk)) return push(chunk, encoding);
      seen.push(chunk.toString());
      return chunk.toString() === "taken" ? true : push(chunk, encoding);
    });
    client.on("data", (b: Buffer) => data.push(b.toString()));
    await until(() => incoming !== undefined);
    incoming!.write("taken");
    await until(() => seen.length === 1);
    incoming!.write("kept");
    await until(() => data.length === 1);
    expect(seen, broken("a chunk read in flowing mode did not pass through the socket's push")).toEqual(["taken", "kept"]);
    expect(data, broken("a chunk push did not hand on still reached the reader")).toEqual(["kept"]);
  });
});
