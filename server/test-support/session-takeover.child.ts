// A server node's MQTT gateway alone, for session-takeover.test.ts: it prints each telemetry it
// is handed (with its packet id) and never settles one, as a node that dies before its readings
// went out. Arguments: broker URL, username, password, share group, client id.
import { mqttTransport } from "../devices/device-transport.ts";

const [url, username, password, shareGroup, clientId] = process.argv.slice(2) as [string, string, string, string, string];
const transport = await mqttTransport({ url, username, password, shareGroup, clientId, log: (msg) => console.error(msg) });
transport.onMessage(() => {});
transport.onTelemetry!((_mac, bytes, start, end, delivery) => console.log(JSON.stringify({ text: bytes.toString("utf8", start, end), packetId: delivery?.packetId })));
console.log("ready");
