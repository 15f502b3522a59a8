import type { FastifyInstance } from "fastify";
import { markNotificationsReadRequest } from "../../../src/contract/api.ts";
import type { Notification } from "../../../src/contract/entities.ts";
import { notificationsRepo } from "../../db/notifications-repo.ts";
import type { RouteContext } from "../context.ts";
import { ownClientId } from "../tenancy.ts";
import { parse } from "../validate.ts";

export function notificationRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const notifications = notificationsRepo(ctx.db);

  // SPEC §7: this one path has no /api prefix.
  app.get<{ Params: { client_id: string } }>("/notifications/:client_id", async (req): Promise<Notification[]> => {
    const session = await ctx.sessions.require(req);
    return notifications.list(ownClientId(req.params.client_id, session.clientId));
  });

  // Ids of another client's notifications are not refused one by one: they simply match nothing.
  app.put<{ Params: { client_id: string } }>("/notifications/:client_id/read", async (req): Promise<{ updated: number }> => {
    const session = await ctx.sessions.require(req);
    const clientId = ownClientId(req.params.client_id, session.clientId);
    const body = parse(markNotificationsReadRequest, req.body);
    return { updated: await notifications.markRead(clientId, body.notification_ids) };
  });
}
