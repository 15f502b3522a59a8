import { type } from "arktype";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { CLAIM_REFUSED } from "../../../src/contract/claim-code.ts";
import { createMcuRequest, updateMcuRequest, type MessageResponse } from "../../../src/contract/api.ts";
import type { Mcu } from "../../../src/contract/entities.ts";
import type { Sql } from "../../db/database.ts";
import { mcusRepo } from "../../db/mcus-repo.ts";
import { AppError, notFound } from "../../errors.ts";
import type { RouteContext } from "../context.ts";
import { ownClientId } from "../tenancy.ts";
import { idParam, parse } from "../validate.ts";

async function requireFarm(sql: Sql, clientId: number, farmId: number): Promise<void> {
  const rows = await sql.query("select 1 from farms where client_id = $1 and farm_id = $2", [clientId, farmId]);
  if (rows.length === 0) throw notFound("Farm");
}

/** A whole number from `min` to `max` in a query string. */
const wholeNumber = (name: string, min: number, max: number) =>
  type("string")
    .narrow((v, ctx) => (/^\d{1,8}$/.test(v) && Number(v) >= min && Number(v) <= max) || ctx.reject({ message: `${name} must be a whole number from ${min} to ${max}` }))
    .pipe(Number);
const mcuPageQuery = {
  schema: type({ limit: wholeNumber("limit", 1, 5000), "offset?": wholeNumber("offset", 0, 10_000_000), "+": "reject" }),
  missing: { limit: "limit is required with offset" },
};

export function mcuRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const mcus = mcusRepo(ctx.db);

  /**
   * SPEC §7's list, whole; with `limit` (and `offset`) one page of it in the same order, the
   * client's MCU count in `X-Total-Count` (an addition: the app fetches a large fleet's first
   * screen first).
   */
  app.get<{ Params: { clientId: string } }>("/api/mcus/by-client/:clientId", async (req, reply): Promise<Mcu[]> => {
    const session = await ctx.sessions.require(req);
    const clientId = ownClientId(req.params.clientId, session.clientId);
    const query = { ...(req.query as object) };
    if (Object.keys(query).length === 0) return mcus.list(clientId);
    const { limit, offset } = parse(mcuPageQuery, query);
    const page = await mcus.page(clientId, limit, offset ?? 0);
    reply.header("x-total-count", String(page.total));
    return page.items;
  });

  /**
   * Runs a claim with an attempt reserved for the account and address before it reaches the
   * inventory: a refusal (wrong MAC or code) keeps it counted, so they may then wait; anything
   * else gives it back.
   */
  async function claiming<T>(clientId: number, req: FastifyRequest, reply: FastifyReply, run: () => Promise<T>): Promise<T> {
    const attempt = await ctx.claimGuard.reserve(clientId, req.ip, reply);
    let refused = false;
    try {
      return await run();
    } catch (err) {
      refused = err instanceof AppError && err.message === CLAIM_REFUSED;
      throw err;
    } finally {
      attempt.end(refused);
    }
  }

  app.post("/api/mcus", async (req, reply): Promise<Mcu> => {
    const { clientId } = await ctx.sessions.require(req);
    const body = parse(createMcuRequest, req.body);
    const mcu = await claiming(clientId, req, reply, () =>
      ctx.db.transaction(async (tx) => {
        await requireFarm(tx, clientId, body.farm_id);
        return mcusRepo(tx).create(clientId, body, ctx.now());
      }),
    );
    ctx.events.mcusChanged?.(clientId);
    ctx.events.mcuClaimed?.(clientId, mcu.mac);
    reply.status(201);
    return mcu;
  });

  app.put<{ Params: { mcu_id: string } }>("/api/mcus/:mcu_id", async (req, reply): Promise<Mcu> => {
    const { clientId } = await ctx.sessions.require(req);
    const mcuId = idParam(req.params.mcu_id, "MCU");
    const body = parse(updateMcuRequest, req.body);
    const updated = await claiming(clientId, req, reply, () =>
      ctx.db.transaction(async (tx) => {
        if (!(await mcusRepo(tx).exists(clientId, mcuId))) throw notFound("MCU");
        await requireFarm(tx, clientId, body.farm_id);
        return mcusRepo(tx).update(clientId, mcuId, body, ctx.now());
      }),
    );
    if (!updated) throw notFound("MCU");
    ctx.events.mcusChanged?.(clientId);
    if (updated.macChanged) ctx.events.mcuClaimed?.(clientId, updated.mcu.mac);
    if (updated.releasedMac) ctx.events.mcuReleased?.(updated.releasedMac);
    return updated.mcu;
  });

  app.delete<{ Params: { mcu_id: string } }>("/api/mcus/:mcu_id", async (req): Promise<MessageResponse> => {
    const { clientId } = await ctx.sessions.require(req);
    const mcuId = idParam(req.params.mcu_id, "MCU");
    const released = await ctx.db.transaction((tx) => mcusRepo(tx).delete(clientId, mcuId));
    if (!released) throw notFound("MCU");
    ctx.events.mcusChanged?.(clientId);
    ctx.events.mcuReleased?.(released);
    return { message: "MCU deleted successfully" };
  });
}
