import type { FastifyPluginAsync } from "fastify";
import { API_PATHS } from "../../../src/contract/api-paths.ts";
import { controllerRequest, sensorRequest, type MessageResponse } from "../../../src/contract/api.ts";
import { isMac, normalizeMac } from "../../../src/contract/mac.ts";
import { CONTROLLERS, SENSORS } from "../../db/peripherals-repo.ts";
import { AppError, notFound } from "../../errors.ts";
import { idParam, parse } from "../validate.ts";

/**
 * Controllers and sensors (SPEC §7): the same five routes each, plus a list of the client's
 * devices that includes those whose MCU was deleted.
 */
export const peripheralRoutes: FastifyPluginAsync = async (app) => {
  const kinds = [
    {
      table: CONTROLLERS,
      repo: "controllers",
      list: API_PATHS.controllers,
      scan: API_PATHS.controllerScan.pattern,
      one: API_PATHS.controller.pattern,
      idName: "unit_id",
      label: "Controller",
      rs: controllerRequest,
      notFoundText: (mac: string) => `No controller found for MAC: ${mac}`,
      deleted: "Controller deleted successfully",
    },
    {
      table: SENSORS,
      repo: "sensors",
      list: API_PATHS.sensors,
      scan: API_PATHS.sensorScan.pattern,
      one: API_PATHS.sensor.pattern,
      idName: "sensor_id",
      label: "Sensor",
      rs: sensorRequest,
      notFoundText: (mac: string) => `Sensor ${mac} Not Found, Or Already Used`,
      deleted: "Sensor deleted successfully",
    },
  ] as const;

  for (const k of kinds) {
    const repo = app.repos[k.repo];
    const parseBody = (body: unknown) => {
      const b = parse(k.rs, body);
      return { name: b.name ?? "", mac: b.mac, type: b.type as never, mcu_id: b.mcu_id };
    };

    app.get(k.list, async (req) => {
      const { clientId } = req.signedIn;
      return repo.list(clientId);
    });

    /** The client's own device, else an unclaimed inventory device of this kind, else 404. */
    app.get<{ Params: { mac: string } }>(k.scan, async (req) => {
      const { clientId } = req.signedIn;
      if (!isMac(req.params.mac)) throw new AppError("VALIDATION", "Invalid MAC address format");
      const mac = normalizeMac(req.params.mac);
      const own = await repo.getByMac(clientId, mac);
      if (own) return own;
      const stock = await app.repos.inventory.get(mac);
      if (stock && stock.claimed_by === null && stock.kind === k.table.kind) {
        return { mac, type: stock.type, name: "", mcu_id: null };
      }
      throw new AppError("NOT_FOUND", k.notFoundText(mac));
    });

    app.post(k.list, async (req, reply) => {
      const { clientId } = req.signedIn;
      const input = parseBody(req.body);
      const device = await app.repos.transaction(async (tx) => {
        if (!(await tx.mcus.exists(clientId, input.mcu_id))) throw notFound("MCU");
        return tx[k.repo].create(clientId, input as never, app.now());
      });
      reply.status(201);
      return device;
    });

    app.put<{ Params: Record<string, string> }>(k.one, async (req) => {
      const { clientId } = req.signedIn;
      const id = idParam(req.params[k.idName], k.label);
      const input = parseBody(req.body);
      const device = await app.repos.transaction(async (tx) => {
        if (!(await tx[k.repo].get(clientId, id))) throw notFound(k.label);
        if (!(await tx.mcus.exists(clientId, input.mcu_id))) throw notFound("MCU");
        return tx[k.repo].update(clientId, id, input as never, app.now());
      });
      if (!device) throw notFound(k.label);
      return device;
    });

    app.delete<{ Params: Record<string, string> }>(k.one, async (req): Promise<MessageResponse> => {
      const { clientId } = req.signedIn;
      const id = idParam(req.params[k.idName], k.label);
      if (!(await app.repos.transaction((tx) => tx[k.repo].delete(clientId, id)))) throw notFound(k.label);
      return { message: k.deleted };
    });
  }
};
