import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { API_PATHS } from "../../../src/contract/api-paths.ts";
import { batchActionRequest, harvestRequest, startBatchRequest, updateBatchRequest, type MessageResponse } from "../../../src/contract/api.ts";
import type { Batch, BatchEvent, ConfigChange } from "../../../src/contract/grow.ts";
import { AppError, isUniqueViolation, notFound, refusal } from "../../errors.ts";
import { applyStep, catchUp, type BatchState, type BatchStep } from "../../grow/batch-steps.ts";
import type { Right } from "../../../src/contract/team.ts";
import { needs, OWN } from "../farm-access.ts";
import { audited } from "../audit-trail.ts";
import { idParam, parse } from "../validate.ts";
import { visibleList, visibleTo } from "../visible.ts";

const batchOf = (req: FastifyRequest) => ({ batch: idParam((req.params as { batch_id: string }).batch_id, "Batch") });
const batchKey = (req: FastifyRequest) => batchOf(req).batch;
const mcusIn = (req: FastifyRequest) => {
  const ids = (req.body as { mcu_ids?: unknown } | null)?.mcu_ids;
  return Array.isArray(ids) && ids.length > 0 && ids.every((id) => Number.isInteger(id) && id > 0 && id <= 2_147_483_647) ? { mcus: ids as number[] } : null;
};

const DAY_MS = 86_400_000;
const CONFIG_CHANGES = { default: 50, max: 500 };

/**
 * A refusal about one field of the body, named as that field's error too: the app shows it at the
 * field by its path, in any language, where the answer alone names no field (a missing recipe, an
 * MCU in another batch).
 */
function atField(path: string, e: AppError): AppError {
  const reason = e.reason!; // every refusal() names one
  return new AppError(e.code, e.message, { reason, params: e.params }, [{ path, message: e.message, reason, ...(e.params && { params: e.params }) }]);
}

/** Batches (a recipe version running on MCUs): start, the grower's actions, harvests; and what config each MCU was sent. */
export const batchRoutes: FastifyPluginAsync = async (app) => {
  const { batches } = app.repos;
  const changed = (clientId: number, batch: Batch) => app.events.emit("batchChanged", clientId, batch);
  /** Who acted, as the batch's history names them. */
  const usernameOf = async (clientId: number) => (await app.repos.clients.get(clientId))?.username ?? null;
  const batchIdOf = (raw: string) => idParam(raw, "Batch");

  app.get(API_PATHS.batches, OWN, async (req): Promise<Batch[]> => {
    const person = req.signedIn.clientId;
    const { accounts } = await visibleTo(app, person);
    if (accounts.length === 1) return batches.list(person);
    // A batch is seen where any of its MCUs' farms is.
    const farmOfMcu = new Map<number, number>();
    for (const { tenant } of accounts) for (const m of await app.repos.mcus.list(tenant)) farmOfMcu.set(m.mcu_id, m.farm_id);
    return visibleList(app, person, (tenant) => batches.list(tenant), (b) => b.mcu_ids.flatMap((id) => farmOfMcu.get(id) ?? []));
  });

  app.post(API_PATHS.batches, audited(needs("manageBatches", mcusIn), { kind: "batch", action: "started", created: (a) => (a as Batch).batch_id }), async (req, reply): Promise<Batch> => {
    const clientId = req.acting.tenant;
    const body = parse(startBatchRequest, req.body);
    const now = app.now();
    const startedAt = body.started_at ?? now.toISOString();
    if (Date.parse(startedAt) > now.getTime() + DAY_MS) throw refusal("VALIDATION", "start_too_late", "Start must be at most a day from now", undefined, [{ path: "started_at", message: "Start must be at most a day from now", reason: "start_too_late" }]);
    const by = await usernameOf(req.signedIn.clientId);
    const batch = await app.repos
      .transaction(async (tx) => {
        const recipe = await tx.recipes.get(clientId, body.recipe_id);
        if (!recipe) throw atField("recipe_id", notFound("Recipe"));
        if ((await tx.batches.ownMcus(clientId, body.mcu_ids)) !== body.mcu_ids.length) throw atField("mcu_ids", notFound("MCU"));
        const [busy] = await tx.batches.runningOn(body.mcu_ids);
        if (busy) throw atField("mcu_ids", refusal("CONFLICT", "mcu_in_batch", `${busy.mcu_name} is already in batch ${busy.batch_name}`, { mcu: busy.mcu_name, batch: busy.batch_name }));
        const first: BatchState = {
          phases: recipe.phases,
          time_zone: body.time_zone,
          status: "running",
          phase_index: 0,
          phase_started_at: startedAt,
          extra_days: 0,
          held_ms: 0,
          held_since: null,
          ended_at: null,
        };
        const start: BatchEvent = { at: startedAt, kind: "start", phase_index: 0, reason: null, by, days: null };
        // Started in the past: the phases whose time is over are behind it already, each ended at its time.
        const { state, events } = catchUp(first, now.getTime());
        const input = { name: body.name, recipe_id: recipe.recipe_id, recipe_version: recipe.version, time_zone: body.time_zone, started_at: startedAt, mcu_ids: body.mcu_ids };
        return tx.batches.create(clientId, input, state, [start, ...events], now);
      })
      .catch((err: unknown) => {
        // Another batch took one of the MCUs meanwhile.
        throw isUniqueViolation(err) ? atField("mcu_ids", refusal("CONFLICT", "mcus_in_batch", "One of these MCUs is already in a running batch")) : err;
      });
    changed(clientId, batch);
    reply.status(201);
    return batch;
  });

  app.put<{ Params: { batch_id: string } }>(API_PATHS.batch.pattern, audited(needs("manageBatches", batchOf), { kind: "batch", action: "changed", key: batchKey }), async (req): Promise<Batch> => {
    const clientId = req.acting.tenant;
    const batchId = batchIdOf(req.params.batch_id);
    const body = parse(updateBatchRequest, req.body);
    const batch = await batches.update(clientId, batchId, body, app.now());
    if (!batch) throw notFound("Batch");
    changed(clientId, batch);
    return batch;
  });

  app.delete<{ Params: { batch_id: string } }>(API_PATHS.batch.pattern, audited(needs("manageBatches", batchOf), { kind: "batch", action: "deleted", key: batchKey }), async (req): Promise<MessageResponse> => {
    const clientId = req.acting.tenant;
    const batchId = batchIdOf(req.params.batch_id);
    const batch = await batches.get(clientId, batchId);
    if (!batch) throw notFound("Batch");
    if (batch.status === "running" || !(await batches.deleteEnded(clientId, batchId))) throw refusal("CONFLICT", "batch_running", "End the batch before deleting it");
    return { message: "Batch deleted successfully" };
  });

  // Confirming the phase a batch waits in is the grower's; every other action is the batch's running.
  const actionRight = (req: FastifyRequest): Right => ((req.body as { action?: unknown } | null)?.action === "confirm" ? "confirmPhases" : "manageBatches");
  app.post<{ Params: { batch_id: string } }>(API_PATHS.batchActions.pattern, audited(needs(actionRight, batchOf), { kind: "batch", action: (req) => String((req.body as { action?: unknown }).action), key: batchKey }), async (req): Promise<Batch> => {
    const clientId = req.acting.tenant;
    const batchId = batchIdOf(req.params.batch_id);
    const body = parse(batchActionRequest, req.body);
    const by = await usernameOf(req.signedIn.clientId);
    const reason = body.reason ? body.reason : null;
    const step: BatchStep = body.action === "extend" ? { kind: "extend", days: body.days!, by, reason } : { kind: body.action, by, reason };
    const batch = await app.repos.transaction(async (tx) => {
      // Locked: the plan runner's own step waits, then finds the batch moved and reloads it.
      const before = await tx.batches.lock(clientId, batchId);
      if (!before) throw notFound("Batch");
      const now = app.now();
      const out = applyStep(before, step, now.getTime());
      if (!out.ok) throw refusal("CONFLICT", out.reason, out.message, out.params);
      if (!(await tx.batches.saveStep(batchId, before, out.state, [out.event], now))) throw refusal("CONFLICT", "batch_changed", "The batch changed meanwhile: try again");
      return (await tx.batches.get(clientId, batchId))!;
    });
    changed(clientId, batch);
    return batch;
  });

  app.post<{ Params: { batch_id: string } }>(API_PATHS.batchHarvests.pattern, audited(needs("recordHarvests", batchOf), { kind: "batch", action: "harvest recorded", key: batchKey }), async (req, reply): Promise<Batch> => {
    const clientId = req.acting.tenant;
    const batchId = batchIdOf(req.params.batch_id);
    const body = parse(harvestRequest, req.body);
    const now = app.now();
    const batch = await app.repos.transaction(async (tx) => {
      if (!(await tx.batches.lock(clientId, batchId))) throw notFound("Batch");
      await tx.batches.addHarvest(batchId, { at: body.at ?? now.toISOString(), fresh_kg: body.fresh_kg, note: body.note ?? "" }, now);
      return (await tx.batches.get(clientId, batchId))!;
    });
    changed(clientId, batch);
    reply.status(201);
    return batch;
  });

  app.delete<{ Params: { batch_id: string; harvest_id: string } }>(API_PATHS.batchHarvest.pattern, audited(needs("recordHarvests", batchOf), { kind: "batch", action: "harvest deleted", key: batchKey }), async (req): Promise<Batch> => {
    const clientId = req.acting.tenant;
    const batchId = batchIdOf(req.params.batch_id);
    const harvestId = idParam(req.params.harvest_id, "Harvest");
    const batch = await app.repos.transaction(async (tx) => {
      if (!(await tx.batches.lock(clientId, batchId))) throw notFound("Batch");
      if (!(await tx.batches.deleteHarvest(batchId, harvestId, app.now()))) throw notFound("Harvest");
      return (await tx.batches.get(clientId, batchId))!;
    });
    changed(clientId, batch);
    return batch;
  });

  app.get<{ Params: { mcu_id: string }; Querystring: { limit?: string } }>(
    API_PATHS.mcuConfigChanges.pattern,
    needs("see", (req) => ({ mcu: idParam((req.params as { mcu_id: string }).mcu_id, "MCU") })),
    async (req): Promise<ConfigChange[]> => {
    const clientId = req.acting.tenant;
    const mcuId = idParam(req.params.mcu_id, "MCU");
    const raw = req.query.limit;
    const limit = raw === undefined || raw === "" ? CONFIG_CHANGES.default : /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
    if (!(limit >= 1 && limit <= CONFIG_CHANGES.max)) throw refusal("VALIDATION", "out_of_range", `limit must be a whole number between 1 and ${CONFIG_CHANGES.max}`, { min: 1, max: CONFIG_CHANGES.max });
    if (!(await app.repos.mcus.exists(clientId, mcuId))) throw notFound("MCU");
    return batches.configChanges(clientId, mcuId, limit);
    },
  );
};
