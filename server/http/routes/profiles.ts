import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { API_PATHS } from "../../../src/contract/api-paths.ts";
import { linkRequest, profileRequest, type MessageResponse } from "../../../src/contract/api.ts";
import type { ProfileLink, SettingProfile } from "../../../src/contract/entities.ts";
import { notFound, refusal } from "../../errors.ts";
import { ownClientId } from "../tenancy.ts";
import { bodyId, needs, OWN } from "../farm-access.ts";
import { idParam, parse } from "../validate.ts";
import { audited } from "../audit-trail.ts";
import { visibleList } from "../visible.ts";

const linkOf = (req: FastifyRequest) => ({ link: idParam((req.params as { linkId: string }).linkId, "Link") });
const profileOf = (req: FastifyRequest) => ({ profile: idParam((req.params as { profile_id: string }).profile_id, "Profile") });
const accountIn = (req: FastifyRequest) => {
  const tenant = bodyId(req, "client_id");
  return tenant === null ? null : { tenant };
};
const mcuIn = (req: FastifyRequest) => {
  const mcu = bodyId(req, "mcu_id");
  return mcu === null ? null : { mcu };
};

/** Setting profiles and their links to MCUs, in the signed-in scope. */
export const profileRoutes: FastifyPluginAsync = async (app) => {
  const { profiles } = app.repos;

  app.get<{ Params: { clientId: string } }>(API_PATHS.profilesOfClient.pattern, OWN, async (req): Promise<SettingProfile[]> => {
    const session = req.signedIn;
    return visibleList(app, ownClientId(req.params.clientId, session.clientId), (tenant) => profiles.list(tenant), () => null);
  });

  // The body's client_id names the account: the person's own, or one where they manage a farm.
  app.post(API_PATHS.profiles, audited(needs("manageProfiles", accountIn), { kind: "profile", action: "created", created: (a) => (a as SettingProfile).profile_id }), async (req, reply): Promise<SettingProfile> => {
    const clientId = req.acting.tenant;
    const body = parse(profileRequest, req.body);
    if (body.client_id !== clientId) throw refusal("FORBIDDEN", "own_account_only", "You can only add profiles to your own account");
    reply.status(201);
    return profiles.create(clientId, body.name, body.config, app.now());
  });

  app.put<{ Params: { profile_id: string } }>(API_PATHS.profile.pattern, audited(needs("manageProfiles", profileOf), { kind: "profile", action: "changed", key: (req) => profileOf(req).profile }), async (req): Promise<SettingProfile> => {
    const clientId = req.acting.tenant;
    const profileId = idParam(req.params.profile_id, "Profile");
    const body = parse(profileRequest, req.body);
    if (body.client_id !== clientId) throw refusal("FORBIDDEN", "own_account_only", "You can only change your own profiles");
    const profile = await profiles.update(clientId, profileId, body.name, body.config, app.now());
    if (!profile) throw notFound("Profile");
    app.events.emit("profileChanged", clientId, profile.mcu_links.map((l) => l.mcu_id));
    return profile;
  });

  app.delete<{ Params: { profile_id: string } }>(API_PATHS.profile.pattern, audited(needs("manageProfiles", profileOf), { kind: "profile", action: "deleted", key: (req) => profileOf(req).profile }), async (req): Promise<MessageResponse> => {
    const clientId = req.acting.tenant;
    const profileId = idParam(req.params.profile_id, "Profile");
    const linked = (await profiles.get(clientId, profileId))?.mcu_links.map((l) => l.mcu_id) ?? [];
    if (!(await profiles.delete(clientId, profileId))) throw notFound("Profile");
    app.events.emit("profileChanged", clientId, linked);
    return { message: "Profile deleted successfully" };
  });

  // Linking changes what the MCU is kept to: a right on the MCU's farm.
  app.post(API_PATHS.link, audited(needs("manageProfiles", mcuIn), { kind: "link", action: "linked", created: (a) => (a as ProfileLink).id }), async (req, reply): Promise<ProfileLink> => {
    const clientId = req.acting.tenant;
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

  app.delete<{ Params: { linkId: string } }>(API_PATHS.unlink.pattern, audited(needs("manageProfiles", linkOf), { kind: "link", action: "unlinked", key: (req) => linkOf(req).link }), async (req): Promise<MessageResponse> => {
    const clientId = req.acting.tenant;
    const linkId = idParam(req.params.linkId, "Link");
    const removed = await profiles.unlink(clientId, linkId);
    if (!removed) throw notFound("Link");
    app.events.emit("profileChanged", clientId, [removed.mcu_id]);
    return { message: "Profile unlinked" };
  });
};
