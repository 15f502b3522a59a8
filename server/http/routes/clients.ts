import type { FastifyPluginAsync } from "fastify";
import { API_PATHS } from "../../../src/contract/api-paths.ts";
import { loginRequest, REGISTERED_MESSAGE, registerRequest, updateClientRequest, type LoginResponse, type MessageResponse, type RegisterResponse } from "../../../src/contract/api.ts";
import type { Client } from "../../../src/contract/entities.ts";
import { AppError, notFound, refusal } from "../../errors.ts";
import { OWN } from "../farm-access.ts";
import { ownClientId } from "../tenancy.ts";
import { parse } from "../validate.ts";
import { writeWithWords } from "../../texts.ts";

/** The answer to a registration whose username an account has (in any case). */
export const USERNAME_TAKEN_MESSAGE = "That username is taken. Choose another.";

/** Registration, sign-in and sign-out: the routes a visitor without a session calls. */
export const signInRoutes: FastifyPluginAsync = async (app) => {
  const { clients, notifications } = app.repos;
  // Each address may try so many times a minute (a flood from one address is answered 429
  // before it reaches the password hashing, which is what a sign-in costs).
  const { hasher, sessions, loginGuard, perAddress } = app.access;

  app.post(API_PATHS.register, { config: perAddress }, async (req, reply): Promise<RegisterResponse> => {
    const body = parse(registerRequest, req.body);
    // Hashed whatever happens next, so the answer's timing says no more than its words.
    const passwordHash = await hasher.hash(body.password, req.ip);
    try {
      await clients.create({
        username: body.username,
        email: body.email,
        passwordHash,
        mobile: body.mobile,
        country: body.country,
        address: body.address,
        language: body.language,
        digits: body.digits,
      });
    } catch (err) {
      if (!(err instanceof AppError && err.code === "CONFLICT")) throw err;
      // Whether an email has an account is told to its owner only: the stranger's answer is the
      // new account's, and the owner learns of the attempt.
      const owner = await clients.idOfEmail(body.email);
      if (owner !== undefined) {
        // Written in the owner's language, not the stranger's.
        const words = { title: { key: "account.registerAttempt.title" }, body: { key: "account.registerAttempt.body", values: { email: body.email } } } as const;
        const note = await notifications.create(owner, { type: "account", ...writeWithWords(words, await clients.readerOf(owner)) }, app.now());
        app.events.emit("accountNotice", owner, note);
      }
      // A username is a name to sign in with, not a way to reach someone: a taken one is said so,
      // or the new user is welcomed and then refused at sign-in without a reason. It is asked
      // apart from the insert's error, which names one index only: the answer must not depend on
      // the email being taken too.
      if (await clients.usernameTaken(body.username)) throw refusal("CONFLICT", "username_taken", USERNAME_TAKEN_MESSAGE, undefined, [{ path: "username", message: USERNAME_TAKEN_MESSAGE, reason: "username_taken" }]);
    }
    reply.status(201);
    return { message: REGISTERED_MESSAGE };
  });

  app.post(API_PATHS.login, { config: perAddress }, async (req, reply): Promise<LoginResponse> => {
    const body = parse(loginRequest, req.body);
    const found = await clients.findForLogin(body.username);
    await loginGuard.check(req, reply, body.username, found?.client.client_id);
    // verify() hashes even when nobody matched, so the answer time does not reveal accounts.
    const ok = await hasher.verify(body.password, found?.passwordHash, req.ip);
    if (!found || !ok) {
      await loginGuard.failed(body.username);
      throw refusal("INVALID_CREDENTIALS", "invalid_credentials", "Invalid credentials");
    }
    await sessions.start(req, reply, found.client.client_id);
    await loginGuard.succeeded(req, reply, body.username, found.client.client_id);
    return { message: "Login successful", client: found.client };
  });

  app.post(API_PATHS.logout, async (req, reply): Promise<MessageResponse> => {
    const idHash = await sessions.end(req, reply);
    if (idHash) {
      // The browser signed out of is no longer this person's: its pushes stop (a shared phone).
      await app.repos.webPush.forgetSession(idHash);
      app.events.emit("sessionEnded", idHash);
    }
    return { message: "Signed out" };
  });
};

/** The signed-in client's own account, in the signed-in scope. */
export const accountRoutes: FastifyPluginAsync = async (app) => {
  const { clients, sessions: sessionRows } = app.repos;
  const { hasher } = app.access;

  app.get(API_PATHS.me, OWN, async (req): Promise<Client> => {
    const { clientId } = req.signedIn;
    const client = await clients.get(clientId);
    if (!client) throw refusal("UNAUTHENTICATED", "session_ended", "Your session has ended. Please sign in again.");
    return client;
  });

  app.put<{ Params: { client_id: string } }>(API_PATHS.client.pattern, OWN, async (req): Promise<Client> => {
    const session = req.signedIn;
    const clientId = ownClientId(req.params.client_id, session.clientId);
    const body = parse(updateClientRequest, req.body);
    if (body.client_id !== undefined && body.client_id !== clientId) {
      throw refusal("FORBIDDEN", "own_account_only", "You can only change your own account");
    }
    const now = app.now();
    if (body.password !== undefined) {
      await clients.setPasswordHash(clientId, await hasher.hash(body.password, req.ip), now);
      // A new password signs out every other device; this one stays signed in. A device signed
      // out stops getting the alarm pushes of its session, as at its own sign-out (a lost phone).
      for (const ended of await sessionRows.deleteOthers(clientId, session.idHash)) {
        await app.repos.webPush.forgetSession(ended);
        app.events.emit("sessionEnded", ended);
      }
    }
    const client = await clients.update(
      clientId,
      {
        username: body.username,
        email: body.email,
        mobile: body.mobile,
        country: body.country,
        address: body.address,
        fcm_token: body.fcm_token,
        language: body.language,
        digits: body.digits,
      },
      now,
    );
    if (!client) throw notFound("Client");
    return client;
  });
};
