import type { FastifyPluginAsync } from "fastify";
import { API_PATHS } from "../../../src/contract/api-paths.ts";
import { linkRequest, profileRequest, type MessageResponse } from "../../../src/contract/api.ts";
import type { ProfileLink, SettingProfile } from "../../../src/contract/entities.ts";
import { AppError, notFound } from "../../errors.ts";
import { ownClientId } from "../tenancy.ts";
import { idParam, parse } from "../validate.ts";

/** Setting profiles and their links to MCUs, in the signed-in scope. */
export const profileRoutes: FastifyPluginAsync = async (app) => {
  const { profiles } = app.repos;

  app.get<{ Params: { clientId: string } }>(API_PATHS.profilesOfClient.pattern, async (req): Promise<SettingProfile[]> => {
    const session = req.signedIn;
    return profiles.list(ownClientId(req.params.clientId, session.clientId));
  });

  app.post(API_PATHS.profiles, async (req, reply): Promise<SettingProfile> => {
    const { clientId } = req.signedIn;
    const body = parse(profileRequest, req.body);
    if (body.client_id !== clientId) throw new AppError("FORBIDDEN", "You can only add profiles to your own account");
    reply.status(201);
    return profiles.create(clientId, body.name, body.config, app.now());
  });

  app.put<{ Params: { profile_id: string } }>(API_PATHS.profile.pattern, async (req): Promise<SettingProfile> => {
    const { clientId } = req.signedIn;
    const profileId = idParam(req.params.profile_id, "Profile");
    const body = parse(profileRequest, req.body);
    if (body.client_id !== clientId) throw new AppError("FORBIDDEN", "You can only change your own profiles");
    const profile = await profiles.update(clientId, profileId, body.name, body.config, app.now());
    if (!profile) throw notFound("Profile");
    app.events.emit("profileChanged", clientId, profile.mcu_links.map((l) => l.mcu_id));
    return profile;
  });

  app.delete<{ Params: { profile_id: string } }>(API_PATHS.profile.pattern, async (req): Promise<MessageResponse> => {
    const { clientId } = req.signedIn;
    const profileId = idParam(req.params.profile_id, "Profile");
    const linked = (await profiles.get(clientId, profileId))?.mcu_links.map((l) => l.mcu_id) ?? [];
    if (!(await profiles.delete(clientId, profileId))) throw notFound("Profile");
    app.events.emit("profileChanged", clientId, linked);
    return { message: "Profile deleted successfully" };
  });

  app.post(API_PATHS.link, async (req, reply): Promise<ProfileLink> => {
    const { clientId } = req.signedIn;
    const body = parse(linkRequest, req.body);
    const link = await app.repos.transaction(async (tx) => {
      if (!(await tx.mcus.exists(clientId, body.mcu_id))) throw notFound("MCU");
      if (!(await tx.profiles.get(clientId, body.profile_id))) throw notFound("Profile");
      return tx.profiles.link(clientId, body.mcu_id, body.profile_id);
    });
    app.events.emit("profileChanged", clientId, [link.mcu_id]);
    reply.status(201);
    return link;
  });

  app.delete<{ Params: { linkId: string } }>(API_PATHS.unlink.pattern, async (req): Promise<MessageResponse> => {
    const { clientId } = req.signedIn;
    const linkId = idParam(req.params.linkId, "Link");
    const removed = await profiles.unlink(clientId, linkId);
    if (!removed) throw notFound("Link");
    app.events.emit("profileChanged", clientId, [removed.mcu_id]);
    return { message: "Profile unlinked" };
  });
};
