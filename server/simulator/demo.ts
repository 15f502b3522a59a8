import type { ControllerType, ProfileConfig, SensorType } from "../../src/contract/entities.ts";
import type { PasswordHasher } from "../auth/password.ts";
import { batteryLowWords } from "../alerts/alarm-words.ts";
import { recordOpenAlert } from "../db/alerts-repo.ts";
import { clientsRepo } from "../db/clients-repo.ts";
import type { Database } from "../db/database.ts";
import { farmsRepo } from "../db/farms-repo.ts";
import { mcusRepo } from "../db/mcus-repo.ts";
import { notificationsRepo } from "../db/notifications-repo.ts";
import { CONTROLLERS, peripheralsRepo, SENSORS } from "../db/peripherals-repo.ts";
import { profilesRepo } from "../db/profiles-repo.ts";
import { inventoryRepo } from "../db/inventory-repo.ts";
import { demoClaimCode, hashClaimCode } from "../devices/device-keys.ts";
import { provisionDevices } from "../devices/provisioning.ts";
import { ENGLISH, writeWithWords, type Reader, type TitleAndBody } from "../texts.ts";
import { demoRepo } from "./demo-repo.ts";
import { seedDemoGrowCycles } from "./demo-grow.ts";
import type { SensorCounts } from "./physics.ts";
import type { FleetDevice } from "./simulated-mcu.ts";

/** The demo account printed at start-up and written in the README. */
export const DEMO_LOGIN = { username: "demo", email: "demo@mushroom.farm", password: "grow-mushrooms" } as const;

const mac = (...bytes: number[]) => ["02", "4D", "46", ...bytes.map((b) => b.toString(16).padStart(2, "0").toUpperCase())].join(":");

/** Unclaimed stock for trying the Add MCU and scan flows (README lists them). */
export const DEMO_STOCK = {
  mcus: [mac(0, 1, 1), mac(0, 1, 2), mac(0, 1, 3)],
  controllers: [
    { mac: mac(0, 2, 1), type: "Humidifier" },
    { mac: mac(0, 2, 2), type: "Irrigation" },
    { mac: mac(0, 2, 3), type: "Ac" },
    { mac: mac(0, 2, 4), type: "Ventilation" },
  ] as { mac: string; type: ControllerType }[],
  sensors: [
    { mac: mac(0, 3, 1), type: "CO2" },
    { mac: mac(0, 3, 2), type: "Humidity" },
    { mac: mac(0, 3, 3), type: "Soil_temp" },
    { mac: mac(0, 3, 4), type: "Moisture" },
  ] as { mac: string; type: SensorType }[],
};

/** The demo's setting profiles; the browser bench's fleet gets the same ones. */
export const DEMO_PROFILES: { name: string; config: ProfileConfig }[] = [
  {
    name: "Oyster fruiting",
    config: {
      irrigation: { on_cycle_hours: 4, off_cycle_liters: 12, soil_moisture_on: 40, soil_moisture_off: 65 },
      ventilation: { co2_threshold: 800 },
      ac: { based_on: "room_temp", target_temp: 18 },
      humidifier: { humidity_on_below: 85, humidity_off_above: 93 },
    },
  },
  {
    name: "Shiitake incubation",
    config: {
      irrigation: { on_cycle_hours: 8, off_cycle_liters: 20, soil_moisture_on: 35, soil_moisture_off: 60 },
      ventilation: { co2_threshold: 1500 },
      ac: { based_on: "soil_temp", target_temp: 22 },
      humidifier: { humidity_on_below: 75, humidity_off_above: 85 },
    },
  },
  {
    name: "Lion's mane pinning",
    config: {
      irrigation: { on_cycle_hours: 6, off_cycle_liters: 10, soil_moisture_on: 45, soil_moisture_off: 70 },
      ventilation: { co2_threshold: 700 },
      ac: { based_on: "room_temp", target_temp: 16 },
      humidifier: { humidity_on_below: 88, humidity_off_above: 95 },
    },
  },
];

const FARMS = [
  { name: "Cedar Cellar", location: "Byblos, Mount Lebanon", rooms: ["Oyster Room A", "Oyster Room B", "Shiitake Logs", "Spawn Lab"] },
  { name: "Valley Tunnels", location: "Zahle, Bekaa", rooms: ["Tunnel 1", "Tunnel 2", "Tunnel 3", "Packing Cooler"] },
  { name: "North Barn", location: "Tripoli, North", rooms: ["Lion's Mane Rack", "King Oyster Rack", "Enoki Chamber", "Incubation Bay"] },
];

/** The 12 demo rooms' MCUs, in the order of FARMS' rooms. */
export const DEMO_MCU_MACS = FARMS.flatMap((_, f) => [0, 1, 2, 3].map((r) => mac(0x10, 0, f * 4 + r + 1)));

/** Which profile (index into DEMO_PROFILES) each of the 12 MCUs runs; null: none linked. */
const LINKS = [0, 0, 1, 1, 0, 0, 0, null, 2, 2, 2, null];
const LOW_BATTERY = new Map([[7, 24], [11, 31]]);

const CONTROLLER_NAMES: Record<ControllerType, string> = { Humidifier: "Mist maker", Irrigation: "Drip line", Ac: "Cooling unit", Ventilation: "Exhaust fan" };

/** The demo's own notifications (the low battery's are the alarm engine's words): what the account was told before it was first opened. */
const welcomeWords = (mcus: number): TitleAndBody => ({ title: { key: "demo.welcome.title" }, body: { key: "demo.welcome.body", values: { mcus } } });
const washDayWords = (room: string): TitleAndBody => ({ title: { key: "demo.washDay.title" }, body: { key: "demo.washDay.body", values: { room } } });

/**
 * Seeds the demo client on first start: 3 farms, 12 MCUs with sensors and controllers, 3
 * profiles linked to some MCUs, the starter recipes and three batches running, a few
 * notifications, and unclaimed stock. Answers the simulated
 * devices (the 12 MCUs and the unclaimed ones), whose keys it keeps for the fleet. `reader`: the
 * language and digits the demo person reads (English unless said); its notifications are written
 * in them, as every notification is written in its reader's.
 */
export async function ensureDemo(db: Database, hasher: PasswordHasher, now: () => Date = () => new Date(), reader: Reader = ENGLISH): Promise<{ created: boolean; devices: FleetDevice[] }> {
  const created = !(await demoRepo(db).accountExists(DEMO_LOGIN.username));
  if (created) {
    const passwordHash = await hasher.hash(DEMO_LOGIN.password);
    await db.transaction(async (tx) => {
      const demo = demoRepo(tx);
      const at = now();
      const client = await clientsRepo(tx).create({
        username: DEMO_LOGIN.username,
        email: DEMO_LOGIN.email,
        passwordHash,
        mobile: "+961 1 234 567",
        country: "LB",
        address: "Cedar Cellar, Byblos",
        language: reader.language,
        digits: reader.digits,
      });
      const id = client.client_id;
      const profiles = [];
      for (const p of DEMO_PROFILES) profiles.push(await profilesRepo(tx).create(id, p.name, p.config, at));

      const mcuMacs = DEMO_MCU_MACS;
      const keys = await provisionDevices(tx, [...mcuMacs, ...DEMO_STOCK.mcus].map((m) => ({ mac: m, kind: "mcu" as const, type: null, claimCode: demoClaimCode(m) })));
      await provisionDevices(tx, [
        ...DEMO_STOCK.controllers.map((c) => ({ mac: c.mac, kind: "controller" as const, type: c.type })),
        ...DEMO_STOCK.sensors.map((s) => ({ mac: s.mac, kind: "sensor" as const, type: s.type })),
      ]);

      const mcuIds: number[] = [];
      for (const [f, farmSpec] of FARMS.entries()) {
        const farm = await farmsRepo(tx).create(id, farmSpec.name, farmSpec.location);
        for (const [r, room] of farmSpec.rooms.entries()) {
          const n = f * 4 + r;
          const mcu = await mcusRepo(tx).create(id, { name: room, mac: mcuMacs[n]!, claim_code: demoClaimCode(mcuMacs[n]!), farm_id: farm.farm_id }, at);
          mcuIds.push(mcu.mcu_id);
          const humidity = n % 3 === 0 ? 2 : 1;
          const sensors: SensorType[] = [...Array<SensorType>(humidity).fill("Humidity"), "CO2", "Soil_temp", "Moisture"];
          for (const [j, type] of sensors.entries()) {
            const name = `${type.replace("_", " ")} ${j + 1}`;
            await peripheralsRepo(tx, SENSORS).create(id, { name, mac: mac(0x20, n + 1, j + 1), type, mcu_id: mcu.mcu_id }, at);
          }
          for (const [j, type] of (["Humidifier", "Irrigation", "Ac", "Ventilation"] as const).entries()) {
            await peripheralsRepo(tx, CONTROLLERS).create(id, { name: CONTROLLER_NAMES[type], mac: mac(0x30, n + 1, j + 1), type, mcu_id: mcu.mcu_id }, at);
          }
          const link = LINKS[n];
          if (link !== null && link !== undefined) await profilesRepo(tx).link(id, mcu.mcu_id, profiles[link]!.profile_id);
          const counts: SensorCounts = { DHT: humidity, SOIL_TEMP: 1, CO2: 1, MOISTURE: 1 };
          await demo.addDevice({ mac: mcu.mac, key: keys[n]!.key, counts, battery: LOW_BATTERY.get(n) ?? 55 + ((n * 37) % 45), seed: n + 1 });
        }
      }
      for (const [i, m] of DEMO_STOCK.mcus.entries()) {
        await demo.addDevice({ mac: m, key: keys[mcuMacs.length + i]!.key, counts: { DHT: 1, SOIL_TEMP: 1, CO2: 1, MOISTURE: 1 }, battery: 90, seed: 100 + i });
      }

      const rooms = FARMS.flatMap((f) => f.rooms);
      await seedDemoGrowCycles(tx, id, (room) => mcuIds[rooms.indexOf(room)]!, DEMO_LOGIN.username, at);

      const notes = notificationsRepo(tx);
      const minutesAgo = (m: number) => new Date(at.getTime() - m * 60_000);
      // In the language the account holds, read back as the alarm engine reads it for a notification.
      const reads = await clientsRepo(tx).readerOf(id);
      await notes.create(id, { type: "subscribe", ...writeWithWords(welcomeWords(mcuIds.length), reads) }, minutesAgo(90));
      await notes.create(id, { type: "wash", ...writeWithWords(washDayWords("Tunnel 2"), reads) }, minutesAgo(45));
      const packingCooler = FARMS.flatMap((f) => f.rooms).indexOf("Packing Cooler");
      // Words as the alarm engine keeps them, so that the alarm reads in each person's language.
      const batteryWords = batteryLowWords("Packing Cooler", LOW_BATTERY.get(packingCooler)!);
      const batteryLow = await notes.create(id, { type: "battery_low", ...writeWithWords(batteryWords, reads) }, minutesAgo(5));
      // The alert that notification announced is open: the fleet's first low reading does not raise it again.
      await recordOpenAlert(tx, { clientId: id, mcuId: mcuIds[packingCooler]!, type: "battery_low" }, batteryLow.notification_id, minutesAgo(5), batteryWords);
      await demo.markWelcomeRead(id);
    });
  }

  // A demo made before MCUs had claim codes gets the fixed ones the README lists.
  const inventory = inventoryRepo(db);
  for (const m of [...DEMO_MCU_MACS, ...DEMO_STOCK.mcus]) await inventory.setClaimHashIfMissing(m, hashClaimCode(m, demoClaimCode(m)));

  return { created, devices: await demoRepo(db).devices() };
}
