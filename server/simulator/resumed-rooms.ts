import type { Database } from "../db/database.ts";
import { demoRepo } from "./demo-repo.ts";
import { initialRoom, rng, roomFromReading, type RoomState } from "./physics.ts";
import type { FleetDevice } from "./simulated-mcu.ts";

/**
 * Where each demo room was when the server last stopped (or died), by MAC: its MCU's latest stored
 * reading, the readings writer's last flush (at most a few seconds old). Irrigation's cycle goes on
 * from its last start among the state changes. A device without a stored reading (an unclaimed
 * label, an MCU that never reported) is not in the map: it starts a room afresh.
 */
export async function resumedRooms(db: Database, devices: readonly FleetDevice[], now = Date.now()): Promise<Map<string, RoomState>> {
  const rows = await demoRepo(db).storedRooms(devices.map((d) => d.mac));
  const byMac = new Map(devices.map((d) => [d.mac, d]));
  const rooms = new Map<string, RoomState>();
  for (const row of rows) {
    const device = byMac.get(row.mac)!;
    const rest = initialRoom(rng(device.seed), device.battery);
    const room = roomFromReading(row.readings, rest);
    if (row.irrigated_at) room.sinceIrrigation = Math.max(0, (now - new Date(row.irrigated_at).getTime()) / 1000);
    rooms.set(row.mac, room);
  }
  return rooms;
}
