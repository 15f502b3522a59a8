import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from "fastify";
import { API_PATHS } from "../../../src/contract/api-paths.ts";
import { controllerRequest, sensorRequest, type MessageResponse } from "../../../src/contract/api.ts";
import { isMac, normalizeMac } from "../../../src/contract/mac.ts";
import { CONTROLLERS, SENSORS, type PeripheralInput, type PeripheralsRepo, type PeripheralTable, type TypeOf } from "../../db/peripherals-repo.ts";
import type { TransactionRepositories } from "../../db/repositories.ts";
import { notFound, refusal } from "../../errors.ts";
import type { TargetRef } from "../../db/team-repo.ts";
import { bodyId, needs, OWN, requireAlso } from "../farm-access.ts";
import { idParam, parse } from "../validate.ts";
import { audited } from "../audit-trail.ts";
import { visibleList, visibleTo } from "../visible.ts";

/** One kind of peripheral's routes: its paths, texts, repository and how a request body becomes its input. */
interface PeripheralKind<K extends "controller" | "sensor"> {
  table: PeripheralTable<K>;
  /** Its repository among the app's, or a transaction's. */
  repoOf(repos: TransactionRepositories): PeripheralsRepo<K>;
  list: string;
  scan: string;
  one: string;
  idName: string;
  label: "Controller" | "Sensor";
  parseInput(body: unknown): PeripheralInput<TypeOf<K>>;
  notFoundText(mac: string): string;
  deleted: string;
}

const CONTROLLER_KIND: PeripheralKind<"controller"> = {
  table: CONTROLLERS,
  repoOf: (repos) => repos.controllers,
  list: API_PATHS.controllers,
  scan: API_PATHS.controllerScan.pattern,
  one: API_PATHS.controller.pattern,
  idName: "unit_id",
  label: "Controller",
  parseInput(body) {
    const b = parse(controllerRequest, body);
    return { name: b.name ?? "", mac: b.mac, type: b.type, mcu_id: b.mcu_id };
  },
  notFoundText: (mac) => `No controller found for MAC: ${mac}`,
  deleted: "Controller deleted successfully",
};

const SENSOR_KIND: PeripheralKind<"sensor"> = {
  table: SENSORS,
  repoOf: (repos) => repos.sensors,
  list: API_PATHS.sensors,
  scan: API_PATHS.sensorScan.pattern,
  one: API_PATHS.sensor.pattern,
  idName: "sensor_id",
  label: "Sensor",
  parseInput(body) {
    const b = parse(sensorRequest, body);
    return { name: b.name ?? "", mac: b.mac, type: b.type, mcu_id: b.mcu_id };
  },
  notFoundText: (mac) => `Sensor ${mac} Not Found, Or Already Used`,
  deleted: "Sensor deleted successfully",
};

/**
 * Controllers and sensors (SPEC §7): the same five routes each, plus a list of the client's
 * devices that includes those whose MCU was deleted.
 */
export const peripheralRoutes: FastifyPluginAsync = async (app) => {
  kindRoutes(app, CONTROLLER_KIND);
  kindRoutes(app, SENSOR_KIND);
};

function kindRoutes<K extends "controller" | "sensor">(app: FastifyInstance, k: PeripheralKind<K>) {
  const repo = k.repoOf(app.repos);
  const idOf = (req: FastifyRequest) => idParam((req.params as Record<string, string>)[k.idName], k.label);
  const deviceOf = (req: FastifyRequest): TargetRef => {
    const id = idParam((req.params as Record<string, string>)[k.idName], k.label);
    return k.table.kind === "controller" ? { unit: id } : { sensor: id };
  };
  const mcuIn = (req: FastifyRequest): TargetRef | null => {
    const mcu = bodyId(req, "mcu_id");
    return mcu === null ? null : { mcu };
  };

  app.get(k.list, OWN, async (req) => {
    const person = req.signedIn.clientId;
    const { accounts } = await visibleTo(app, person);
    if (accounts.length === 1) return repo.list(person);
    // A device on an MCU is seen where its MCU's farm is.
    const farmOfMcu = new Map<number, number>();
    for (const { tenant } of accounts) for (const m of await app.repos.mcus.list(tenant)) farmOfMcu.set(m.mcu_id, m.farm_id);
    return visibleList(app, person, (tenant) => repo.list(tenant), (d) => (d.mcu_id === null ? null : (farmOfMcu.get(d.mcu_id) ?? null)));
  });

  /** The client's own device, else an unclaimed inventory device of this kind, else 404. */
  app.get<{ Params: { mac: string } }>(k.scan, OWN, async (req) => {
    const { clientId } = req.signedIn;
    if (!isMac(req.params.mac)) throw refusal("VALIDATION", "invalid_mac", "Invalid MAC address format");
    const mac = normalizeMac(req.params.mac);
    const own = await repo.getByMac(clientId, mac);
    if (own) return own;
    const stock = await app.repos.inventory.get(mac);
    if (stock && stock.claimed_by === null && stock.kind === k.table.kind) {
      return { mac, type: stock.type, name: "", mcu_id: null };
    }
    throw refusal("NOT_FOUND", "device_not_found", k.notFoundText(mac), { mac });
  });

  app.post(k.list, audited(needs("manageDevices", mcuIn), { kind: k.table.kind, action: "created", created: (a) => (a as Record<string, number>)[k.idName] ?? null }), async (req, reply) => {
    const clientId = req.acting.tenant;
    const input = k.parseInput(req.body);
    const device = await app.repos.transaction(async (tx) => {
      if (!(await tx.mcus.exists(clientId, input.mcu_id))) throw notFound("MCU");
      return k.repoOf(tx).create(clientId, input, app.now());
    });
    reply.status(201);
    return device;
  });

  app.put<{ Params: Record<string, string> }>(k.one, audited(needs("manageDevices", deviceOf), { kind: k.table.kind, action: "changed", key: idOf }), async (req) => {
    const clientId = req.acting.tenant;
    const id = idParam(req.params[k.idName], k.label);
    const input = k.parseInput(req.body);
    // Moving it to another MCU needs the same right there.
    await requireAlso(app, req, { mcu: input.mcu_id }, "manageDevices");
    const device = await app.repos.transaction(async (tx) => {
      const own = k.repoOf(tx);
      if (!(await own.get(clientId, id))) throw notFound(k.label);
      if (!(await tx.mcus.exists(clientId, input.mcu_id))) throw notFound("MCU");
      return own.update(clientId, id, input, app.now());
    });
    if (!device) throw notFound(k.label);
    return device;
  });

  app.delete<{ Params: Record<string, string> }>(k.one, audited(needs("manageDevices", deviceOf), { kind: k.table.kind, action: "deleted", key: idOf }), async (req): Promise<MessageResponse> => {
    const clientId = req.acting.tenant;
    const id = idParam(req.params[k.idName], k.label);
    if (!(await app.repos.transaction((tx) => k.repoOf(tx).delete(clientId, id)))) throw notFound(k.label);
    return { message: k.deleted };
  });
}
