/**
 * Telemetry a device published at QoS 1 through an external broker is acknowledged to the broker
 * only once its reading is safe: written to the sockets of this node and, when other nodes have
 * sockets of its client, added to the shared Redis stream. Until then the broker keeps it in the
 * gateway's session, so a node that dies loses none: the node that takes its session over gets
 * them again (and skips those whose frame is already in the stream: see `acks` below).
 *
 * The reading object carries its delivery from the gateway to the frame it is sent in (a symbol
 * property: JSON leaves it out).
 */
export interface Delivery {
  /** The MQTT session (client id) the broker sent the publish to, and the publish's packet id. */
  readonly session: string;
  readonly packetId: number;
  /** The reading is safe (or was dropped): the broker may forget the publish. Once; later calls do nothing. */
  settle(): void;
}

/** On a reading: its delivery. */
export const DELIVERY = Symbol("delivery");
/** On a payload emitted to a room: the deliveries of the readings it carries. */
export const DELIVERIES = Symbol("deliveries");

type Carrier = { [DELIVERY]?: Delivery };
type Payload = { [DELIVERIES]?: Delivery[] };

export const deliveryOf = (reading: object): Delivery | undefined => (reading as Carrier)[DELIVERY];
export function attachDelivery(reading: object, delivery: Delivery | undefined): void {
  if (delivery) (reading as Carrier)[DELIVERY] = delivery;
}
export const deliveriesOf = (payload: unknown): Delivery[] | undefined =>
  payload !== null && typeof payload === "object" ? (payload as Payload)[DELIVERIES] : undefined;
export function attachDeliveries(payload: object, deliveries: Delivery[]): void {
  (payload as Payload)[DELIVERIES] = deliveries;
}

/**
 * The deliveries of a frame as one field of its stream entry: `session:id,id;session:id`
 * (readings of a session taken over may share a frame with this node's own).
 */
export function encodeAcks(deliveries: Delivery[]): string {
  const bySession = new Map<string, number[]>();
  for (const d of deliveries) {
    const ids = bySession.get(d.session);
    if (ids) ids.push(d.packetId);
    else bySession.set(d.session, [d.packetId]);
  }
  return [...bySession].map(([session, ids]) => `${session}:${ids.join(",")}`).join(";");
}

/** The packet ids of `session` in a frame's `acks` field. */
export function acksOf(field: string, session: string, into: Set<number>): void {
  for (const part of field.split(";")) {
    const colon = part.lastIndexOf(":");
    if (part.slice(0, colon) !== session) continue;
    for (const id of part.slice(colon + 1).split(",")) into.add(Number(id));
  }
}
