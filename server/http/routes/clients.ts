import type { FastifyInstance } from "fastify";
import { loginRequest, REGISTERED_MESSAGE, registerRequest, updateClientRequest, type LoginResponse, type MessageResponse, type RegisterResponse } from "../../../src/contract/api.ts";
import type { Client } from "../../../src/contract/entities.ts";
import { clientsRepo } from "../../db/clients-repo.ts";
import { notificationsRepo } from "../../db/notifications-repo.ts";
import { sessionsRepo } from "../../db/sessions-repo.ts";
import { tryAgainIn } from "../../auth/login-guard.ts";
import { AppError } from "../../errors.ts";
import type { RouteContext } from "../context.ts";
import { ownClientId } from "../tenancy.ts";
import { parse } from "../validate.ts";

/** The answer to a registration whose username an account has (in any case). */
export const USERNAME_TAKEN_MESSAGE = "That username is taken. Choose another.";

export function clientRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const clients = clientsRepo(ctx.db);
  // Each address may try so many times a minute (a flood from one address is answered 429
  // before it reaches the password hashing, which is what a sign-in costs).
  const perAddress = {
    rateLimit: {
      max: ctx.perAddressPerMinute,
      timeWindow: 60_000,
      // The plugin has set Retry-After; the answer is ours ({code, message}, 429).
      errorResponseBuilder: (_req: unknown, { ttl }: { ttl: number }) => tryAgainIn(ttl, "Too many attempts from your network."),
    },
  };

  app.post("/api/clients", { config: perAddress }, async (req, reply): Promise<RegisterResponse> => {
    const body = parse(registerRequest, req.body);
    // Hashed whatever happens next, so the answer's timing says no more than its words.
    const passwordHash = await ctx.hasher.hash(body.password, req.ip);
    try {
      await clients.create({
        username: body.username,
        email: body.email,
        passwordHash,
        mobile: body.mobile,
        country: body.country,
        address: body.address,
      });
    } catch (err) {
      if (!(err instanceof AppError && err.code === "CONFLICT")) throw err;
      // Whether an email has an account is told to its owner only: the stranger's answer is the
      // new account's, and the owner learns of the attempt.
      const owner = await clients.idOfEmail(body.email);
      if (owner !== undefined) {
        const note = await notificationsRepo(ctx.db).create(
          owner,
          {
            type: "account",
            title: "Someone tried to register with your email",
            body: `A new account was asked for with ${body.email}; none was created. If it was you, sign in instead (Forgot password? explains how to get back in). If it was not, your account is safe and nothing needs doing.`,
          },
          ctx.now(),
        );
        ctx.events.notified?.(owner, note);
      }
      // A username is a name to sign in with, not a way to reach someone: a taken one is said so,
      // or the new user is welcomed and then refused at sign-in without a reason. It is asked
      // apart from the insert's error, which names one index only: the answer must not depend on
      // the email being taken too.
      if (await clients.usernameTaken(body.username)) throw new AppError("CONFLICT", USERNAME_TAKEN_MESSAGE, [{ path: "username", message: USERNAME_TAKEN_MESSAGE }]);
    }
    reply.status(201);
    return { message: REGISTERED_MESSAGE };
  });

  app.post("/api/clients/login", { config: perAddress }, async (req, reply): Promise<LoginResponse> => {
    const body = parse(loginRequest, req.body);
    const found = await clients.findForLogin(body.username);
    await ctx.loginGuard.check(req, reply, body.username, found?.client.client_id);
    // verify() hashes even when nobody matched, so the answer time does not reveal accounts.
    const ok = await ctx.hasher.verify(body.password, found?.passwordHash, req.ip);
    if (!found || !ok) {
      await ctx.loginGuard.failed(body.username);
      throw new AppError("INVALID_CREDENTIALS", "Invalid credentials");
    }
    await ctx.sessions.start(req, reply, found.client.client_id);
    await ctx.loginGuard.succeeded(req, reply, body.username, found.client.client_id);
    return { message: "Login successful", client: found.client };
  });

  app.post("/api/clients/logout", async (req, reply): Promise<MessageResponse> => {
    const idHash = await ctx.sessions.end(req, reply);
    if (idHash) ctx.events.sessionEnded?.(idHash);
    return { message: "Signed out" };
  });

  app.get("/api/clients/me", async (req): Promise<Client> => {
    const { clientId } = await ctx.sessions.require(req);
    const client = await clients.get(clientId);
    if (!client) throw new AppError("UNAUTHENTICATED", "Your session has ended. Please sign in again.");
    return client;
  });

  app.put<{ Params: { client_id: string } }>("/api/clients/:client_id", async (req): Promise<Client> => {
    const session = await ctx.sessions.require(req);
    const clientId = ownClientId(req.params.client_id, session.clientId);
    const body = parse(updateClientRequest, req.body);
    if (body.client_id !== undefined && body.client_id !== clientId) {
      throw new AppError("FORBIDDEN", "You can only change your own account");
    }
    const now = ctx.now();
    if (body.password !== undefined) {
      await clients.setPasswordHash(clientId, await ctx.hasher.hash(body.password, req.ip), now);
      // A new password signs out every other device; this one stays signed in.
      for (const ended of await sessionsRepo(ctx.db).deleteOthers(clientId, session.idHash)) {
        ctx.sessions.forget(ended);
        ctx.events.sessionEnded?.(ended);
      }
    }
    const client = await clients.update(
      clientId,
      { username: body.username, email: body.email, mobile: body.mobile, country: body.country, address: body.address, fcm_token: body.fcm_token },
      now,
    );
    if (!client) throw new AppError("NOT_FOUND", "Client not found");
    return client;
  });
}
