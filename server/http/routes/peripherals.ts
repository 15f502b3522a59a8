import type { FastifyInstance } from "fastify";
import { controllerRequest, sensorRequest, type MessageResponse } from "../../../src/contract/api.ts";
import { isMac, normalizeMac } from "../../../src/contract/mac.ts";
import { inventoryRepo } from "../../db/inventory-repo.ts";
import { mcusRepo } from "../../db/mcus-repo.ts";
import { CONTROLLERS, peripheralsRepo, SENSORS } from "../../db/peripherals-repo.ts";
import { AppError, notFound } from "../../errors.ts";
import type { RouteContext } from "../context.ts";
import { idParam, parse } from "../validate.ts";

/**
 * Controllers and sensors (SPEC §7): the same five routes each, plus a list of the client's
 * devices that includes those whose MCU was deleted.
 */
export function peripheralRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const kinds = [
    {
      table: CONTROLLERS,
      base: "/api/controllers",
      idName: "unit_id",
      label: "Controller",
      rs: controllerRequest,
      notFoundText: (mac: string) => `No controller found for MAC: ${mac}`,
      deleted: "Controller deleted successfully",
    },
    {
      table: SENSORS,
      base: "/api/sensors",
      idName: "sensor_id",
      label: "Sensor",
      rs: sensorRequest,
      notFoundText: (mac: string) => `Sensor ${mac} Not Found, Or Already Used`,
      deleted: "Sensor deleted successfully",
    },
  ] as const;

  for (const k of kinds) {
    const repo = peripheralsRepo(ctx.db, k.table);
    const parseBody = (body: unknown) => {
      const b = parse(k.rs, body);
      return { name: b.name ?? "", mac: b.mac, type: b.type as never, mcu_id: b.mcu_id };
    };

    app.get(k.base, async (req) => {
      const { clientId } = await ctx.sessions.require(req);
      return repo.list(clientId);
    });

    /** The client's own device, else an unclaimed inventory device of this kind, else 404. */
    app.get<{ Params: { mac: string } }>(`${k.base}/scan-mac/:mac`, async (req) => {
      const { clientId } = await ctx.sessions.require(req);
      if (!isMac(req.params.mac)) throw new AppError("VALIDATION", "Invalid MAC address format");
      const mac = normalizeMac(req.params.mac);
      const own = await repo.getByMac(clientId, mac);
      if (own) return own;
      const stock = await inventoryRepo(ctx.db).get(mac);
      if (stock && stock.claimed_by === null && stock.kind === k.table.kind) {
        return { mac, type: stock.type, name: "", mcu_id: null };
      }
      throw new AppError("NOT_FOUND", k.notFoundText(mac));
    });

    app.post(k.base, async (req, reply) => {
      const { clientId } = await ctx.sessions.require(req);
      const input = parseBody(req.body);
      const device = await ctx.db.transaction(async (tx) => {
        if (!(await mcusRepo(tx).exists(clientId, input.mcu_id))) throw notFound("MCU");
        return peripheralsRepo(tx, k.table).create(clientId, input, ctx.now());
      });
      reply.status(201);
      return device;
    });

    app.put<{ Params: Record<string, string> }>(`${k.base}/:${k.idName}`, async (req) => {
      const { clientId } = await ctx.sessions.require(req);
      const id = idParam(req.params[k.idName], k.label);
      const input = parseBody(req.body);
      const device = await ctx.db.transaction(async (tx) => {
        if (!(await peripheralsRepo(tx, k.table).get(clientId, id))) throw notFound(k.label);
        if (!(await mcusRepo(tx).exists(clientId, input.mcu_id))) throw notFound("MCU");
        return peripheralsRepo(tx, k.table).update(clientId, id, input, ctx.now());
      });
      if (!device) throw notFound(k.label);
      return device;
    });

    app.delete<{ Params: Record<string, string> }>(`${k.base}/:${k.idName}`, async (req): Promise<MessageResponse> => {
      const { clientId } = await ctx.sessions.require(req);
      const id = idParam(req.params[k.idName], k.label);
      if (!(await ctx.db.transaction((tx) => peripheralsRepo(tx, k.table).delete(clientId, id)))) throw notFound(k.label);
      return { message: k.deleted };
    });
  }
}
