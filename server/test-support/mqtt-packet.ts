/** Test bytes of MQTT framing: a packet's fixed header (type byte, remaining length as MQTT's varint). */
export function mqttFixedHeader(type: number, remainingLength: number): Buffer {
  const bytes = [type];
  let n = remainingLength;
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    bytes.push(b);
  } while (n > 0);
  return Buffer.from(bytes);
}

const mqttString = (s: string | Buffer): Buffer => {
  const b = Buffer.from(s);
  return Buffer.concat([Buffer.from([b.length >> 8, b.length & 0xff]), b]);
};

/** An MQTT 3.1.1 PUBLISH: QoS 0 unless `qos` (then `packetId`, 7 unless said, follows the topic), `flags` ORed into the type byte (1 retain, 8 dup). */
export function mqttPublish(topic: string, payload: string, { qos = 0, flags = 0, packetId = 7 } = {}): Buffer {
  const body = Buffer.concat([mqttString(topic), qos ? Buffer.from([packetId >> 8, packetId & 0xff]) : Buffer.alloc(0), Buffer.from(payload)]);
  return Buffer.concat([mqttFixedHeader(0x30 | (qos << 1) | flags, body.length), body]);
}

/** An MQTT 3.1.1 CONNECT with a clean session, username and password. */
export function mqttConnect(o: { clientId: string; username: string; password: string; keepalive: number }): Buffer {
  // Protocol name, level 4, flags (username, password, clean session), keepalive seconds.
  const body = Buffer.concat([mqttString("MQTT"), Buffer.from([4, 0xc2, o.keepalive >> 8, o.keepalive & 0xff]), mqttString(o.clientId), mqttString(o.username), mqttString(o.password)]);
  return Buffer.concat([mqttFixedHeader(0x10, body.length), body]);
}
