import type { FastifyInstance } from "fastify";
import { type } from "arktype";
import { createFarmRequest, updateFarmRequest, type MessageResponse } from "../../../src/contract/api.ts";
import type { Farm } from "../../../src/contract/entities.ts";
import { farmsRepo } from "../../db/farms-repo.ts";
import { AppError, notFound } from "../../errors.ts";
import type { RouteContext } from "../context.ts";
import { ownClientId } from "../tenancy.ts";
import { idParam, parse } from "../validate.ts";

const farmsQuery = { schema: type({ client_id: "string", "+": "reject" }), missing: { client_id: "client_id is required" } };

export function farmRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const farms = farmsRepo(ctx.db, ctx.now);

  app.get("/api/farms/myfarms/get", async (req): Promise<Farm[]> => {
    const { clientId: sessionClient } = await ctx.sessions.require(req);
    const query = parse(farmsQuery, { ...(req.query as object) });
    return farms.list(ownClientId(query.client_id, sessionClient));
  });

  app.post("/api/farms", async (req, reply): Promise<Farm> => {
    const { clientId } = await ctx.sessions.require(req);
    const body = parse(createFarmRequest, req.body);
    if (body.client_id !== clientId) throw new AppError("FORBIDDEN", "You can only add farms to your own account");
    reply.status(201);
    return farms.create(clientId, body.name, body.location);
  });

  app.put<{ Params: { id: string } }>("/api/farms/:id", async (req): Promise<Farm> => {
    const { clientId } = await ctx.sessions.require(req);
    const farmId = idParam(req.params.id, "Farm");
    const body = parse(updateFarmRequest, req.body);
    const farm = await farms.update(clientId, farmId, body.name, body.location, ctx.now());
    if (!farm) throw notFound("Farm");
    ctx.events.mcusChanged?.(clientId);
    return farm;
  });

  app.delete<{ Params: { id: string } }>("/api/farms/:id", async (req): Promise<MessageResponse> => {
    const { clientId } = await ctx.sessions.require(req);
    const farmId = idParam(req.params.id, "Farm");
    if (!(await ctx.db.transaction((tx) => farmsRepo(tx).delete(clientId, farmId)))) throw notFound("Farm");
    return { message: "Farm deleted successfully" };
  });
}
