import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { type } from "arktype";
import { API_PATHS } from "../../../src/contract/api-paths.ts";
import { createFarmRequest, updateFarmRequest, type MessageResponse } from "../../../src/contract/api.ts";
import type { Farm } from "../../../src/contract/entities.ts";
import { notFound, refusal } from "../../errors.ts";
import { ownClientId } from "../tenancy.ts";
import { needs, OWN } from "../farm-access.ts";
import { idParam, parse } from "../validate.ts";
import { audited } from "../audit-trail.ts";
import { visibleList } from "../visible.ts";

const farmOf = (req: FastifyRequest) => ({ farm: idParam((req.params as { farm_id: string }).farm_id, "Farm") });

const farmsQuery = { schema: type({ client_id: "string", "+": "reject" }), missing: { client_id: "client_id is required" } };

/** A client's farms (SPEC §7), in the signed-in scope. */
export const farmRoutes: FastifyPluginAsync = async (app) => {
  const { farms } = app.repos;

  // The person's own farms, then those they are a member of.
  app.get(API_PATHS.farmsOfClient.pattern, OWN, async (req): Promise<Farm[]> => {
    const query = parse(farmsQuery, { ...(req.query as object) });
    return visibleList(app, ownClientId(query.client_id, req.signedIn.clientId), (tenant) => farms.list(tenant), (farm) => farm.farm_id);
  });

  // A new farm is always the person's own account's.
  app.post(API_PATHS.farms, audited(OWN, { kind: "farm", action: "created", created: (a) => (a as Farm).farm_id }), async (req, reply): Promise<Farm> => {
    const { clientId } = req.signedIn;
    const body = parse(createFarmRequest, req.body);
    if (body.client_id !== clientId) throw refusal("FORBIDDEN", "own_account_only", "You can only add farms to your own account");
    reply.status(201);
    return farms.create(clientId, body.name, body.location);
  });

  app.put<{ Params: { farm_id: string } }>(API_PATHS.farm.pattern, audited(needs("editFarm", farmOf), { kind: "farm", action: "changed", key: (req) => farmOf(req).farm }), async (req): Promise<Farm> => {
    const clientId = req.acting.tenant;
    const farmId = idParam(req.params.farm_id, "Farm");
    const body = parse(updateFarmRequest, req.body);
    const farm = await farms.update(clientId, farmId, body.name, body.location, app.now());
    if (!farm) throw notFound("Farm");
    app.events.emit("mcusChanged", clientId);
    return farm;
  });

  app.delete<{ Params: { farm_id: string } }>(API_PATHS.farm.pattern, audited(needs("editFarm", farmOf), { kind: "farm", action: "deleted", key: (req) => farmOf(req).farm }), async (req): Promise<MessageResponse> => {
    const clientId = req.acting.tenant;
    const farmId = idParam(req.params.farm_id, "Farm");
    if (!(await app.repos.transaction((tx) => tx.farms.delete(clientId, farmId)))) throw notFound("Farm");
    return { message: "Farm deleted successfully" };
  });
};
