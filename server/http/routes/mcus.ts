import { type } from "arktype";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { API_PATHS } from "../../../src/contract/api-paths.ts";
import { CLAIM_REFUSED } from "../../../src/contract/claim-code.ts";
import { createMcuRequest, updateMcuRequest, type MessageResponse } from "../../../src/contract/api.ts";
import type { Mcu } from "../../../src/contract/entities.ts";
import type { TransactionRepositories } from "../../db/repositories.ts";
import { AppError, notFound } from "../../errors.ts";
import { ownClientId } from "../tenancy.ts";
import { bodyId, needs, OWN, requireAlso } from "../farm-access.ts";
import { idParam, parse } from "../validate.ts";
import { audited } from "../audit-trail.ts";
import { visibleList, visibleTo } from "../visible.ts";

const mcuOf = (req: FastifyRequest) => ({ mcu: idParam((req.params as { mcu_id: string }).mcu_id, "MCU") });
const farmIn = (req: FastifyRequest) => {
  const farm = bodyId(req, "farm_id");
  return farm === null ? null : { farm };
};

async function requireFarm(tx: TransactionRepositories, clientId: number, farmId: number): Promise<void> {
  if (!(await tx.farms.exists(clientId, farmId))) throw notFound("Farm");
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

/** A client's MCUs (SPEC §7), claimed with the code on their label; in the signed-in scope. */
export const mcuRoutes: FastifyPluginAsync = async (app) => {
  const { mcus } = app.repos;

  /**
   * SPEC §7's list, whole; with `limit` (and `offset`) one page of it in the same order, the
   * client's MCU count in `X-Total-Count` (an addition: the app fetches a large fleet's first
   * screen first).
   */
  app.get<{ Params: { clientId: string } }>(API_PATHS.mcusByClient.pattern, OWN, async (req, reply): Promise<Mcu[]> => {
    const clientId = ownClientId(req.params.clientId, req.signedIn.clientId);
    const query = { ...(req.query as object) };
    const paged = Object.keys(query).length === 0 ? null : parse(mcuPageQuery, query);
    const { accounts } = await visibleTo(app, clientId);
    if (accounts.length > 1) {
      // A member of other accounts' farms: the whole list, then the page of it (a team's lists are short next to a fleet's).
      const all = await visibleList(app, clientId, (tenant) => mcus.list(tenant), (m) => m.farm_id);
      if (!paged) return all;
      reply.header("x-total-count", String(all.length));
      return all.slice(paged.offset ?? 0, (paged.offset ?? 0) + paged.limit);
    }
    if (!paged) return mcus.list(clientId);
    const { limit, offset } = paged;
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
    const attempt = await app.access.claimGuard.reserve(clientId, req.ip, reply);
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

  app.post(API_PATHS.mcus, audited(needs("manageDevices", (req) => farmIn(req)), { kind: "mcu", action: "created", created: (a) => (a as Mcu).mcu_id }), async (req, reply): Promise<Mcu> => {
    const clientId = req.acting.tenant;
    const body = parse(createMcuRequest, req.body);
    const mcu = await claiming(req.signedIn.clientId, req, reply, () =>
      app.repos.transaction(async (tx) => {
        await requireFarm(tx, clientId, body.farm_id);
        return tx.mcus.create(clientId, body, app.now());
      }),
    );
    app.events.emit("mcusChanged", clientId);
    app.events.emit("mcuClaimed", clientId, mcu.mac);
    reply.status(201);
    return mcu;
  });

  app.put<{ Params: { mcu_id: string } }>(API_PATHS.mcu.pattern, audited(needs("manageDevices", mcuOf), { kind: "mcu", action: "changed", key: (req) => mcuOf(req).mcu }), async (req, reply): Promise<Mcu> => {
    const clientId = req.acting.tenant;
    const mcuId = idParam(req.params.mcu_id, "MCU");
    const body = parse(updateMcuRequest, req.body);
    // Moving it to another farm needs the same right there.
    await requireAlso(app, req, { farm: body.farm_id }, "manageDevices");
    const updated = await claiming(req.signedIn.clientId, req, reply, () =>
      app.repos.transaction(async (tx) => {
        if (!(await tx.mcus.exists(clientId, mcuId))) throw notFound("MCU");
        await requireFarm(tx, clientId, body.farm_id);
        return tx.mcus.update(clientId, mcuId, body, app.now());
      }),
    );
    if (!updated) throw notFound("MCU");
    app.events.emit("mcusChanged", clientId);
    if (updated.macChanged) app.events.emit("mcuClaimed", clientId, updated.mcu.mac);
    if (updated.releasedMac) app.events.emit("mcuReleased", updated.releasedMac);
    return updated.mcu;
  });

  app.delete<{ Params: { mcu_id: string } }>(API_PATHS.mcu.pattern, audited(needs("manageDevices", mcuOf), { kind: "mcu", action: "deleted", key: (req) => mcuOf(req).mcu }), async (req): Promise<MessageResponse> => {
    const clientId = req.acting.tenant;
    const mcuId = idParam(req.params.mcu_id, "MCU");
    const released = await app.repos.transaction((tx) => tx.mcus.delete(clientId, mcuId));
    if (!released) throw notFound("MCU");
    app.events.emit("mcusChanged", clientId);
    app.events.emit("mcuReleased", released);
    return { message: "MCU deleted successfully" };
  });
};
