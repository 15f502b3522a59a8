import mqtt, { type MqttClient } from "mqtt";
import { TOPICS, type TelemetryMessage } from "../../src/contract/mqtt.ts";
import { CO2_MODULO_MS } from "./replay-feed.ts";

export interface MqttProbes {
  sent(): number;
  stop(): Promise<void>;
}

/**
 * The probe MCUs of the "simulator" feed: real devices over MQTT (their MAC and device key, a
 * last-will, `online` retained) whose CO2 is their send time, on one timer. They go through the
 * broker, the gateway and the realtime layer like the simulated fleet beside them.
 */
export async function startMqttProbes(url: string, devices: { mac: string; key: string }[], hz: number): Promise<MqttProbes> {
  const clients: MqttClient[] = await Promise.all(
    devices.map(
      (d) =>
        new Promise<MqttClient>((resolve, reject) => {
          const client = mqtt.connect(url, {
            clientId: d.mac,
            username: d.mac,
            password: d.key,
            clean: true,
            reconnectPeriod: 1000,
            will: { topic: TOPICS.status(d.mac), payload: Buffer.from("offline"), qos: 1, retain: true },
          });
          client.once("connect", () => {
            client.publish(TOPICS.status(d.mac), "online", { qos: 1, retain: true });
            resolve(client);
          });
          client.once("error", reject);
        }),
    ),
  );
  let sent = 0;
  const timer = setInterval(() => {
    const now = Date.now();
    for (const [i, client] of clients.entries()) {
      const message: TelemetryMessage = {
        DHT: { temperature: 18.5, humidity: 88.2, count: 1 },
        SOIL_TEMP: { soil_temperature: 17.1, count: 1 },
        CO2: { co2: now % CO2_MODULO_MS, count: 1 },
        MOISTURE: { soil_moisture: 52.3, count: 1 },
        Irrigation: { status: false, auto: true, session: false },
        AC: { status: true, auto: true },
        Ventilation: { status: false, auto: true },
        Humidifier: { status: true, auto: true },
        batteryLevel: 80,
      };
      client.publish(TOPICS.telemetry(devices[i]!.mac), JSON.stringify(message), { qos: 0 });
      sent++;
    }
  }, 1000 / hz);
  return {
    sent: () => sent,
    async stop() {
      clearInterval(timer);
      await Promise.all(
        clients.map(async (c, i) => {
          await c.publishAsync(TOPICS.status(devices[i]!.mac), "offline", { qos: 1, retain: true }).catch(() => undefined);
          await c.endAsync();
        }),
      );
    },
  };
}
