import type { FastifyInstance } from "fastify";
import { linkRequest, profileRequest, type MessageResponse } from "../../../src/contract/api.ts";
import type { ProfileLink, SettingProfile } from "../../../src/contract/entities.ts";
import { mcusRepo } from "../../db/mcus-repo.ts";
import { profilesRepo } from "../../db/profiles-repo.ts";
import { AppError, notFound } from "../../errors.ts";
import type { RouteContext } from "../context.ts";
import { ownClientId } from "../tenancy.ts";
import { idParam, parse } from "../validate.ts";

export function profileRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const profiles = profilesRepo(ctx.db);

  app.get<{ Params: { clientId: string } }>("/api/setting-profiles/:clientId", async (req): Promise<SettingProfile[]> => {
    const session = await ctx.sessions.require(req);
    return profiles.list(ownClientId(req.params.clientId, session.clientId));
  });

  app.post("/api/setting-profiles", async (req, reply): Promise<SettingProfile> => {
    const { clientId } = await ctx.sessions.require(req);
    const body = parse(profileRequest, req.body);
    if (body.client_id !== clientId) throw new AppError("FORBIDDEN", "You can only add profiles to your own account");
    reply.status(201);
    return profiles.create(clientId, body.name, body.config, ctx.now());
  });

  app.put<{ Params: { profile_id: string } }>("/api/setting-profiles/:profile_id", async (req): Promise<SettingProfile> => {
    const { clientId } = await ctx.sessions.require(req);
    const profileId = idParam(req.params.profile_id, "Profile");
    const body = parse(profileRequest, req.body);
    if (body.client_id !== clientId) throw new AppError("FORBIDDEN", "You can only change your own profiles");
    const profile = await profiles.update(clientId, profileId, body.name, body.config, ctx.now());
    if (!profile) throw notFound("Profile");
    ctx.events.profileChanged?.(clientId, profile.mcu_links.map((l) => l.mcu_id));
    return profile;
  });

  app.delete<{ Params: { profile_id: string } }>("/api/setting-profiles/:profile_id", async (req): Promise<MessageResponse> => {
    const { clientId } = await ctx.sessions.require(req);
    const profileId = idParam(req.params.profile_id, "Profile");
    const linked = (await profiles.get(clientId, profileId))?.mcu_links.map((l) => l.mcu_id) ?? [];
    if (!(await profiles.delete(clientId, profileId))) throw notFound("Profile");
    ctx.events.profileChanged?.(clientId, linked);
    return { message: "Profile deleted successfully" };
  });

  app.post("/api/setting-profiles/link", async (req, reply): Promise<ProfileLink> => {
    const { clientId } = await ctx.sessions.require(req);
    const body = parse(linkRequest, req.body);
    const link = await ctx.db.transaction(async (tx) => {
      if (!(await mcusRepo(tx).exists(clientId, body.mcu_id))) throw notFound("MCU");
      if (!(await profilesRepo(tx).get(clientId, body.profile_id))) throw notFound("Profile");
      return profilesRepo(tx).link(clientId, body.mcu_id, body.profile_id);
    });
    ctx.events.profileChanged?.(clientId, [link.mcu_id]);
    reply.status(201);
    return link;
  });

  app.delete<{ Params: { linkId: string } }>("/api/setting-profiles/link/:linkId", async (req): Promise<MessageResponse> => {
    const { clientId } = await ctx.sessions.require(req);
    const linkId = idParam(req.params.linkId, "Link");
    const removed = await profiles.unlink(clientId, linkId);
    if (!removed) throw notFound("Link");
    ctx.events.profileChanged?.(clientId, [removed.mcu_id]);
    return { message: "Profile unlinked" };
  });
}
