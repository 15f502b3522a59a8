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
