import type { Socket } from "node:net";
import type { Aedes, Client, PublishPacket } from "aedes";

/**
 * What the embedded broker relies on of Aedes (1.x) beyond its typed, documented API, and nowhere
 * else. `checkAedes` checks a broker when it starts, `checkAedesClient` the first device given
 * the telemetry lane; the contract test beside this file checks each behaves as assumed. An
 * upgrade that changes one of them fails there, with the member named, rather than silently.
 */

type Done = (err?: Error) => void;

/** A publish as Aedes' protocol handlers make it: with the client that sent it (null: the server's own). */
export type AedesPublish = (packet: PublishPacket, client: Client | null, done?: Done) => void;

interface BrokerInternals {
  /** The connected clients by client id. */
  clients: Record<string, Client | undefined>;
  persistence: { createRetainedStream(pattern: string): AsyncIterable<PublishPacket> };
  /** Aedes' publish takes the client that sent the packet between the packet and the callback (its typings show two arguments). */
  publish(packet: PublishPacket, client: Client | null | Done, done?: Done): void;
}

interface ClientInternals {
  /** Set at CONNECT when the client asked for a keepalive (a Node Timeout), else null; Aedes refreshes it on every packet it reads. */
  _keepaliveTimer: { refresh(): unknown } | null;
}

/** The error when Aedes no longer has `member` as the embedded broker relies on it. */
export const aedesInternalsBroken = (member: string, why: string) =>
  new Error(`Aedes no longer has \`${member}\`: ${why} (the embedded broker relies on it: server/devices/aedes-internals.ts)`);

const internals = (broker: Aedes) => broker as unknown as BrokerInternals;

/** Throws when the broker lacks what this file relies on (once, when a broker starts). */
export function checkAedes(broker: Aedes): void {
  const b = internals(broker) as Partial<BrokerInternals>;
  if (typeof b.clients !== "object" || b.clients === null) throw aedesInternalsBroken("clients", "the broker has no map of its connected clients by id");
  if (typeof b.persistence?.createRetainedStream !== "function") throw aedesInternalsBroken("persistence.createRetainedStream", "the broker's persistence cannot stream its retained messages");
  if (typeof b.publish !== "function" || b.publish.length !== 3) throw aedesInternalsBroken("publish(packet, client, done)", "the broker's publish no longer takes the client that sent the packet");
}

let clientChecked = false;

/** Throws when a connected client lacks what this file relies on. */
export function checkAedesClient(client: Client): void {
  if (!("_keepaliveTimer" in client)) throw aedesInternalsBroken("_keepaliveTimer", "a client has no keepalive timer");
  const timer = (client as unknown as ClientInternals)._keepaliveTimer;
  if (timer !== null && typeof timer.refresh !== "function") throw aedesInternalsBroken("_keepaliveTimer.refresh", "a client's keepalive timer cannot be restarted");
}

/** The connected client whose client id this is. */
export const connectedClient = (broker: Aedes, id: string): Client | undefined => internals(broker).clients[id];

/**
 * Restarts the client's keepalive, as Aedes does on every packet it reads: for packets taken from
 * the connection before Aedes reads them. Nothing when the client asked for no keepalive. (The
 * first client a broker connects is checked here, once.)
 */
export function keepaliveRestarter(client: Client): () => void {
  if (!clientChecked) {
    checkAedesClient(client);
    clientChecked = true;
  }
  const c = client as unknown as ClientInternals;
  return () => void c._keepaliveTimer?.refresh();
}

/**
 * Whether Aedes has read every byte the connection has received so far: Aedes reads a connection
 * in paused mode (each 'readable', all there is), so what it has yet to read is the socket's
 * readable buffer.
 */
export const brokerReadAll = (conn: Socket): boolean => conn.readableLength === 0;

/**
 * Puts `make(publish)` in front of Aedes' publish, which its protocol handlers call (looked up on
 * the broker each time) for every publish a client sends and every will, with the client; so does
 * the server's own code, without. `publish` is Aedes' own (it routes the packet to subscribers and
 * stores a retained one), which the server also uses to publish as itself (client null).
 */
export function interceptPublishes(broker: Aedes, make: (publish: AedesPublish) => AedesPublish): AedesPublish {
  const b = internals(broker);
  const own = b.publish.bind(broker) as AedesPublish;
  const intercept = make(own);
  b.publish = (packet, client, done) => (typeof client === "function" ? intercept(packet, null, client) : intercept(packet, client, done));
  return own;
}

/** The retained messages whose topics match `pattern`, from the broker's persistence. */
export const retainedMessages = (broker: Aedes, pattern: string): AsyncIterable<PublishPacket> => internals(broker).persistence.createRetainedStream(pattern);
