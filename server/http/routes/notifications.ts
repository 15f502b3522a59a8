import type { FastifyInstance } from "fastify";
import type { Notification } from "../../../src/contract/entities.ts";
import { notificationsRepo } from "../../db/notifications-repo.ts";
import type { RouteContext } from "../context.ts";
import { ownClientId } from "../tenancy.ts";

export function notificationRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const notifications = notificationsRepo(ctx.db);

  // SPEC §7: this one path has no /api prefix.
  app.get<{ Params: { client_id: string } }>("/notifications/:client_id", async (req): Promise<Notification[]> => {
    const session = await ctx.sessions.require(req);
    return notifications.list(ownClientId(req.params.client_id, session.clientId));
  });
}
