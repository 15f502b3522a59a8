/**
 * Runs a fleet of provisioned MCUs against any broker, for load tests and benchmarks.
 *
 *   npm run simulate -- --fleet fleet.json --mcus 500 --hz 1 --url mqtt://127.0.0.1:1883 [--speed 10] [--duration 60] [--offset 0] [--qos 0|1] [--stats]
 *
 * --qos 1 publishes telemetry at QoS 1 (default 0);
 * --offset N starts at the N-th device of the file (several simulators share one fleet file);
 * --stats prints a JSON line a second ({"sent", "connected"}) and one last {"final": true, "sent"}
 * (`npm run bench` reads them).
 *
 * fleet.json is what `npm run provision -- --count N --out fleet.json` writes: [{ mac, key }].
 */
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { startFleet } from "./fleet.ts";

const { values } = parseArgs({
  options: {
    fleet: { type: "string" },
    mcus: { type: "string" },
    hz: { type: "string", default: "1" },
    url: { type: "string", default: "mqtt://127.0.0.1:1883" },
    speed: { type: "string", default: "1" },
    duration: { type: "string" },
    offset: { type: "string", default: "0" },
    qos: { type: "string", default: "0" },
    stats: { type: "boolean", default: false },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

if (!values.fleet) fail("Give --fleet FILE, written by: npm run provision -- --kind mcu --count N --out FILE [--claim-for USER]");
const all = JSON.parse(await readFile(values.fleet, "utf8")) as { mac: string; key: string }[];
const offset = Number(values.offset);
if (!Number.isInteger(offset) || offset < 0 || offset >= all.length) fail(`--offset must be from 0 to ${all.length - 1}`);
const n = values.mcus === undefined ? all.length - offset : Number(values.mcus);
if (!Number.isInteger(n) || n < 1 || offset + n > all.length) fail(`--mcus must be from 1 to ${all.length - offset} (the devices in ${values.fleet} from --offset)`);
const hz = Number(values.hz);
if (!(hz > 0 && hz <= 50)) fail("--hz must be above 0 and at most 50");
const duration = values.duration === undefined ? undefined : Number(values.duration);
if (values.qos !== "0" && values.qos !== "1") fail("--qos must be 0 or 1");

const fleet = await startFleet({
  url: values.url!,
  hz,
  speed: Number(values.speed),
  devices: all.slice(offset, offset + n).map((d, i) => ({ mac: d.mac, key: d.key, counts: { DHT: 1, SOIL_TEMP: 1, CO2: 1, MOISTURE: 1 }, seed: offset + i + 1 })),
  log: (m) => console.error(m),
  telemetryQos: values.qos === "1" ? 1 : 0,
});
const connected = () => fleet.mcus.filter((m) => m.connected).length;
if (!values.stats) console.log(`simulating ${n} MCUs at ${hz} Hz against ${values.url}`);

let lastSent = 0;
const progress = setInterval(
  () => {
    const sent = fleet.reportsSent();
    if (values.stats) console.log(JSON.stringify({ sent, connected: connected() }));
    else console.log(`reports/s: ${(sent - lastSent) / 5}  connected: ${connected()}/${n}`);
    lastSent = sent;
  },
  values.stats ? 1000 : 5000,
);

async function stop() {
  clearInterval(progress);
  const sent = fleet.reportsSent();
  // Simulated devices switched off: each says offline, as the broker and the server stay up.
  await fleet.stop({ announce: true });
  if (values.stats) console.log(JSON.stringify({ final: true, sent }));
  process.exit(0);
}
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
if (duration !== undefined) setTimeout(() => void stop(), duration * 1000);
