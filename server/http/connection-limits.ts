import { STATUS_CODES, type Server } from "node:http";
import { BlockList, isIP, type Socket } from "node:net";
import type { ServerErrorBody } from "./errors.ts";

export interface ConnectionLimits {
  /** Time to receive a request's headers, then the whole request; a slower client gets 408 and is closed. */
  headersMs: number;
  requestMs: number;
  /** Open connections one address may hold (0: no cap, e.g. behind a proxy known by hops only, where every connection may be its). */
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

/** proxy-addr's named ranges, as Fastify's trustProxy reads them. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ["127.0.0.1/8", "::1/128"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

/**
 * Whether an address is one of a TRUST_PROXY list's proxies (addresses, CIDRs, IPv4 netmasks
 * and the named ranges, as readConfig checked them): the connections the per-address cap leaves
 * alone, since every client behind a proxy comes through its connections.
 */
export function trustedProxies(list: string): (address: string) => boolean {
  const proxies = new BlockList();
  for (const entry of list.split(",").flatMap((e) => NAMED_RANGES[e.trim()] ?? [e.trim()])) {
    const [address = "", range] = entry.split("/");
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (range === undefined) proxies.addAddress(address, family);
    else if (isIP(range) === 4) proxies.addSubnet(address, range.split(".").reduce((bits, octet) => bits + (Number(octet) >>> 0).toString(2).replace(/0/g, "").length, 0), family);
    else proxies.addSubnet(address, Number(range), family);
  }
  return (address) => isIP(address) !== 0 && proxies.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");
}

/**
 * Closes a connection at once when its address already holds `max` open ones: slow or idle
 * connections from one place cannot use up the server's file descriptors (which the MQTT
 * listener and everybody else need too). The trusted proxies' own connections (`exempt`) are not
 * counted: they carry everyone behind them.
 */
export function capConnectionsPerAddress(server: Server, max: number, exempt: (address: string) => boolean = () => false): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on("connection", (socket) => {
    const address = socket.remoteAddress ?? "";
    if (exempt(address)) return;
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

/** What Node reports before a request reaches Fastify (too slow, headers too large, not HTTP), answered as our errors are. */
const CLIENT_ERRORS: Record<string, { status: number; body: ServerErrorBody }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, body: { code: "BAD_REQUEST", message: "The request took too long to arrive", reason: "request_too_slow" } },
  HPE_HEADER_OVERFLOW: { status: 431, body: { code: "PAYLOAD_TOO_LARGE", message: "The request headers are too large", reason: "headers_too_large" } },
};
const MALFORMED = { status: 400, body: { code: "BAD_REQUEST", message: "The request was refused", reason: "request_refused" } satisfies ServerErrorBody };

/**
 * Fastify's `clientErrorHandler`: the answer to a request Node gave up on (the limits above, a
 * header too large, bytes that are not HTTP), with our code and reason where Fastify's own has
 * neither; then the connection closes. A connection already gone gets nothing.
 */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  const { status, body } = CLIENT_ERRORS[err.code ?? ""] ?? MALFORMED;
  if (socket.writable) {
    const json = JSON.stringify(body);
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`);
  }
  socket.destroy(err);
}
