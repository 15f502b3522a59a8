import type { Server } from "node:http";

export interface ConnectionLimits {
  /** Time to receive a request's headers, then the whole request; a slower client gets 408 and is closed. */
  headersMs: number;
  requestMs: number;
  /** Open connections one address may hold (0: no cap, e.g. behind a proxy, where every connection comes from it). */
  perAddress: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { headersMs: 10_000, requestMs: 15_000, perAddress: 256 };

/**
 * Node's own HTTP options for these limits; it checks them every `connectionsCheckingInterval`,
 * so that runs at a fraction of the shortest (Node's default of 30 s would let a slow client
 * hold its connection three times as long as the limit says).
 */
export function httpServerOptions(limits: ConnectionLimits) {
  return {
    headersTimeout: limits.headersMs,
    requestTimeout: limits.requestMs,
    connectionsCheckingInterval: Math.max(250, Math.min(5_000, Math.floor(limits.headersMs / 4))),
  };
}

/**
 * Closes a connection at once when its address already holds `max` open ones: slow or idle
 * connections from one place cannot use up the server's file descriptors (which the MQTT
 * listener and everybody else need too).
 */
export function capConnectionsPerAddress(server: Server, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on("connection", (socket) => {
    const address = socket.remoteAddress ?? "";
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
