import type { FastifyPluginAsync } from "fastify";
import { API_PATHS } from "../../../src/contract/api-paths.ts";
import { markNotificationsReadRequest } from "../../../src/contract/api.ts";
import type { Notification } from "../../../src/contract/entities.ts";
import { OWN } from "../farm-access.ts";
import { ownClientId } from "../tenancy.ts";
import { parse } from "../validate.ts";

/** The bell's notifications, in the signed-in scope. */
export const notificationRoutes: FastifyPluginAsync = async (app) => {
  const { notifications } = app.repos;

  app.get<{ Params: { client_id: string } }>(API_PATHS.notifications.pattern, OWN, async (req): Promise<Notification[]> => {
    const session = req.signedIn;
    return notifications.list(ownClientId(req.params.client_id, session.clientId));
  });

  // Ids of another client's notifications are not refused one by one: they simply match nothing.
  app.put<{ Params: { client_id: string } }>(API_PATHS.notificationsRead.pattern, OWN, async (req): Promise<{ updated: number }> => {
    const session = req.signedIn;
    const clientId = ownClientId(req.params.client_id, session.clientId);
    const body = parse(markNotificationsReadRequest, req.body);
    return { updated: await notifications.markRead(clientId, body.notification_ids) };
  });
};
