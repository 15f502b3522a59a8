import { type } from "arktype";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REGISTERED_MESSAGE } from "../../src/contract/api.ts";
import { CLAIM_REFUSED } from "../../src/contract/claim-code.ts";
import { hashClaimCode } from "../devices/device-keys.ts";
import { client, controller, farm, mcu, notification, profileLink, sensor, settingProfile } from "../../src/contract/entities.ts";
import { notificationsRepo } from "../db/notifications-repo.ts";
import { inventoryRepo } from "../db/inventory-repo.ts";
import { createTestServer, registration, sampleConfig, uniqueMac, type Registration, type TestClient, type TestServer } from "../test-support/test-server.ts";

/** Asserts that `data` has the contract's shape (the shape the app validates answers against). */
function expectShape(schema: type.Any, data: unknown) {
  const out = schema(data);
  if (out instanceof type.errors) throw new Error(`${out.summary}\n${JSON.stringify(data, null, 2)}`);
}

describe("HTTP API (SPEC §7)", () => {
  let server: TestServer;
  let c: TestClient;
  beforeAll(async () => {
    server = await createTestServer();
    c = await server.signUp();
  });
  afterAll(() => server.close());

  describe("clients", () => {
    it("registers a client and answers it without secrets", async () => {
      const res = await server.app.inject({
        method: "POST",
        url: "/api/clients",
        payload: { username: "  Mira  ", email: "Mira@Example.com", password: "long-enough", confirmPassword: "long-enough", mobile: "(01) 234-567", country: "FR", address: "Rue 1" },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ message: REGISTERED_MESSAGE });
      const login = await server.app.inject({ method: "POST", url: "/api/clients/login", payload: { username: "Mira", password: "long-enough" } });
      const body = login.json();
      expectShape(client, body.client);
      expect(body.client).toMatchObject({ username: "Mira", email: "Mira@Example.com", country: "FR", fcm_token: null });
      expect(login.body).not.toMatch(/password/i);
    });

    describe("registration with a username an account has", () => {
      const register = (payload: Registration, on = server) => on.app.inject({ method: "POST", url: "/api/clients", payload });
      const signIn = (username: string, password: string) => server.app.inject({ method: "POST", url: "/api/clients/login", payload: { username, password } });
      const taken = {
        code: "CONFLICT",
        message: "That username is taken. Choose another.",
        reason: "username_taken",
        errors: [{ path: "username", message: "That username is taken. Choose another.", reason: "username_taken" }],
      };
      const accountNotes = async (of: TestClient) =>
        ((await of.get(`/notifications/${of.clientId}`)).json() as { type: string; title: string }[]).filter((n) => n.type === "account").map((n) => n.title);

      it("answers 409 saying so, in any case of the name, and creates nothing", async () => {
        const owner = await server.signUp();
        const stranger = registration({ username: owner.registration.username.toUpperCase() });
        const res = await register(stranger);
        expect(res.statusCode).toBe(409);
        expect(res.json()).toEqual(taken);
        expect((await signIn(stranger.email, stranger.password)).statusCode).toBe(401);
        expect((await signIn(owner.registration.username, owner.registration.password)).statusCode).toBe(200);
      });

      it("answers the same when the email has an account too, and tells that account's owner only", async () => {
        const named = await server.signUp();
        const emailed = await server.signUp();
        const withFreeEmail = await register(registration({ username: named.registration.username }));
        const withTakenEmail = await register(registration({ username: named.registration.username, email: emailed.registration.email }));
        expect([withTakenEmail.statusCode, withTakenEmail.json()]).toEqual([withFreeEmail.statusCode, withFreeEmail.json()]);
        expect(await accountNotes(emailed)).toEqual(["Someone tried to register with your email"]);
        expect(await accountNotes(named)).toEqual([]);
      });

      it("still welcomes a free username with an email that has an account, as a new one (the email stays unguessable)", async () => {
        const owner = await server.signUp();
        const res = await register(registration({ email: owner.registration.email.toUpperCase() }));
        expect(res.statusCode).toBe(201);
        expect(res.json()).toEqual({ message: REGISTERED_MESSAGE });
        expect(await accountNotes(owner)).toEqual(["Someone tried to register with your email"]);
      });

      it("counts against the address's budget of attempts: trying names one after another ends in 429", async () => {
        const strict = await createTestServer({ config: { loginGuard: { perAddressPerMinute: 2 } } });
        try {
          const first = registration();
          expect((await register(first, strict)).statusCode).toBe(201);
          expect((await register(registration({ username: first.username }), strict)).statusCode).toBe(409);
          const third = await register(registration({ username: first.username }), strict);
          expect(third.statusCode).toBe(429);
          expect(third.json().message).toMatch(/^Too many attempts from your network\. Try again in /);
        } finally {
          await strict.close();
        }
      });
    });

    it("signs in with the email in the username field, case-insensitively", async () => {
      const res = await server.app.inject({
        method: "POST",
        url: "/api/clients/login",
        payload: { username: c.registration.email.toUpperCase(), password: c.registration.password },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe("Login successful");
      expect(res.json().client.client_id).toBe(c.clientId);
    });

    it("answers the signed-in client at /api/clients/me", async () => {
      const res = await c.get("/api/clients/me");
      expect(res.statusCode).toBe(200);
      expectShape(client, res.json());
      expect(res.json().client_id).toBe(c.clientId);
    });

    it("stores the push token and the Settings profile fields", async () => {
      const me = (await c.get("/api/clients/me")).json();
      const withToken = await c.put(`/api/clients/${c.clientId}`, { ...me, fcm_token: "token-123" });
      expect(withToken.statusCode).toBe(200);
      expect(withToken.json().fcm_token).toBe("token-123");
      const profile = await c.put(`/api/clients/${c.clientId}`, {
        client_id: c.clientId,
        username: "Renamed",
        email: "renamed@example.com",
        mobile: "",
        country: "DE",
        address: "",
      });
      expect(profile.statusCode).toBe(200);
      expectShape(client, profile.json());
      expect(profile.json()).toMatchObject({ username: "Renamed", email: "renamed@example.com", mobile: "", country: "DE", address: "", fcm_token: "token-123" });
      c.registration.email = "renamed@example.com";
      c.registration.username = "Renamed";
    });

    it("changes the password: the old one stops working, the new one signs in", async () => {
      const res = await c.put(`/api/clients/${c.clientId}`, { client_id: c.clientId, password: "a-new-password", confirm_password: "a-new-password" });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain("a-new-password");
      const old = await server.app.inject({ method: "POST", url: "/api/clients/login", payload: { username: "Renamed", password: c.registration.password } });
      expect(old.statusCode).toBe(401);
      const fresh = await server.app.inject({ method: "POST", url: "/api/clients/login", payload: { username: "Renamed", password: "a-new-password" } });
      expect(fresh.statusCode).toBe(200);
      // The session that changed the password stays signed in.
      expect((await c.get("/api/clients/me")).statusCode).toBe(200);
    });
  });

  describe("farms", () => {
    it("creates, lists, updates and deletes a farm with mcuCount and mcus", async () => {
      const created = await c.post("/api/farms", { name: "Shiitake Barn", location: "Zahle", client_id: c.clientId });
      expect(created.statusCode).toBe(201);
      expectShape(farm, created.json());
      expect(created.json()).toMatchObject({ name: "Shiitake Barn", location: "Zahle", status: "active", mcuCount: 0, mcus: [], client_id: c.clientId });
      const id = created.json().farm_id;

      const mcuRes = await c.post("/api/mcus", { name: "Bay 1", ...(await c.mcuDevice()), farm_id: id, status: "active" });
      const listed = (await c.get(`/api/farms/myfarms/get?client_id=${c.clientId}`)).json();
      const found = listed.find((f: { farm_id: number }) => f.farm_id === id);
      expectShape(farm.array(), listed);
      expect(found).toMatchObject({ mcuCount: 1, mcus: [{ id: mcuRes.json().mcu_id, mcu_id: mcuRes.json().mcu_id, name: "Bay 1" }] });

      const updated = await c.put(`/api/farms/${id}`, { name: "Shiitake Barn 2", location: "Zahle north" });
      expect(updated.statusCode).toBe(200);
      expect(updated.json()).toMatchObject({ farm_id: id, name: "Shiitake Barn 2", location: "Zahle north", mcuCount: 1 });

      // A farm with MCUs is not deleted out from under them.
      const refused = await c.del(`/api/farms/${id}`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe("This farm still has 1 MCU. Move or delete it first.");

      await c.del(`/api/mcus/${mcuRes.json().mcu_id}`);
      const deleted = await c.del(`/api/farms/${id}`);
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toEqual({ message: "Farm deleted successfully" });
      expect((await c.put(`/api/farms/${id}`, { name: "x", location: "y" })).statusCode).toBe(404);
    });
  });

  describe("MCUs", () => {
    let farmId: number;
    beforeAll(async () => {
      farmId = (await c.post("/api/farms", { name: "Oyster Room", location: "Batroun", client_id: c.clientId })).json().farm_id;
    });

    it("creates an MCU with status active, farm name, empty devices and links", async () => {
      await inventoryRepo(server.db).provision("A0:B1:C2:D3:E4:F5", "mcu", null, "key-hash", hashClaimCode("A0:B1:C2:D3:E4:F5", "7K2M-9QXD-4TWA"));
      // Typed as a person might: lower case, dashes in the MAC, spaces in the code.
      const res = await c.post("/api/mcus", { name: "Rack 7", mac: "a0-b1-c2-d3-e4-f5", claim_code: "7k2m 9qxd 4twa", farm_id: farmId, status: "active" });
      expect(res.statusCode).toBe(201);
      expectShape(mcu, res.json());
      expect(res.json()).toMatchObject({
        name: "Rack 7",
        mac: "A0:B1:C2:D3:E4:F5",
        farm_id: farmId,
        farm: { name: "Oyster Room" },
        status: "active",
        readings: null,
        lastSeen: null,
        controllers: [],
        sensors: [],
        profile_links: [],
      });
    });

    it("refuses an MCU MAC that was never provisioned with the one claim answer", async () => {
      const mac = uniqueMac();
      const res = await c.post("/api/mcus", { name: "Unknown", mac, claim_code: "7K2M-9QXD-4TWA", farm_id: farmId });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(CLAIM_REFUSED);
    });

    it("refuses a MAC the client has registered already with 409", async () => {
      const res = await c.post("/api/mcus", { name: "Dup", mac: "A0:B1:C2:D3:E4:F5", claim_code: "7K2M-9QXD-4TWA", farm_id: farmId });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe("MAC address A0:B1:C2:D3:E4:F5 is already registered");
    });

    it("lists MCUs with controllers, sensors and profile links", async () => {
      const m = (await c.post("/api/mcus", { name: "Rack 8", ...(await c.mcuDevice()), farm_id: farmId })).json();
      const ctl = (await c.post("/api/controllers", { name: "Fan", mac: uniqueMac(), type: "Ventilation", mcu_id: m.mcu_id })).json();
      const sen = (await c.post("/api/sensors", { name: "", mac: uniqueMac(), type: "Humidity", mcu_id: m.mcu_id })).json();
      const prof = (await c.post("/api/setting-profiles", { name: "Fruiting", client_id: c.clientId, config: sampleConfig })).json();
      const link = (await c.post("/api/setting-profiles/link", { mcu_id: m.mcu_id, profile_id: prof.profile_id })).json();
      const list = (await c.get(`/api/mcus/by-client/${c.clientId}`)).json();
      expectShape(mcu.array(), list);
      const mine = list.find((x: { mcu_id: number }) => x.mcu_id === m.mcu_id);
      expect(mine.controllers).toEqual([ctl]);
      expect(mine.sensors).toEqual([sen]);
      expect(mine.profile_links).toEqual([{ id: link.id, mcu_id: m.mcu_id, profile_id: prof.profile_id, profile: { profile_id: prof.profile_id, name: "Fruiting", config: sampleConfig } }]);
    });

    it("pages the list in the same order with the total in X-Total-Count, each MCU whole", async () => {
      const whole = (await c.get(`/api/mcus/by-client/${c.clientId}`)).json() as { mcu_id: number }[];
      expect(whole.length).toBeGreaterThanOrEqual(2);
      const first = await c.get(`/api/mcus/by-client/${c.clientId}?limit=1`);
      expect(first.statusCode).toBe(200);
      expect(first.headers["x-total-count"]).toBe(String(whole.length));
      const rest = await c.get(`/api/mcus/by-client/${c.clientId}?limit=5000&offset=1`);
      expect(rest.headers["x-total-count"]).toBe(String(whole.length));
      expect([...first.json(), ...rest.json()]).toEqual(whole);
      expect((await c.get(`/api/mcus/by-client/${c.clientId}?limit=10&offset=${whole.length}`)).json()).toEqual([]);
    });

    it("refuses bad paging with 400 and a message", async () => {
      for (const [query, message] of [
        ["limit=0", "limit must be a whole number from 1 to 5000"],
        ["limit=5001", "limit must be a whole number from 1 to 5000"],
        ["limit=-1", "limit must be a whole number from 1 to 5000"],
        ["limit=1.5", "limit must be a whole number from 1 to 5000"],
        ["limit=abc", "limit must be a whole number from 1 to 5000"],
        ["limit=5&offset=-3", "offset must be a whole number from 0 to 10000000"],
        ["offset=3", "limit is required with offset"],
        ["limit=5&limit=6", "limit must be a string (was an object)"],
        ["limit=5&sort=name", "Unknown field: sort"],
      ]) {
        const res = await c.get(`/api/mcus/by-client/${c.clientId}?${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(res.json(), query).toMatchObject({ code: "VALIDATION", message });
      }
    });

    it("updates name, farm and MAC, and frees the old MAC", async () => {
      const other = (await c.post("/api/farms", { name: "Annex", location: "Batroun", client_id: c.clientId })).json();
      const oldDevice = await c.mcuDevice();
      const m = (await c.post("/api/mcus", { name: "Rack 9", ...oldDevice, farm_id: farmId })).json();
      const newDevice = await c.mcuDevice();
      // Moving the MCU to another device claims that device: its claim code is needed.
      const withoutCode = await c.put(`/api/mcus/${m.mcu_id}`, { name: "Rack 9b", farm_id: other.farm_id, mac: newDevice.mac });
      expect(withoutCode.statusCode).toBe(400);
      expect(withoutCode.json()).toMatchObject({ code: "VALIDATION", errors: [{ path: "claim_code", message: "Claim code is required" }] });
      const res = await c.put(`/api/mcus/${m.mcu_id}`, { name: "Rack 9b", farm_id: other.farm_id, ...newDevice });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ name: "Rack 9b", farm_id: other.farm_id, farm: { name: "Annex" }, mac: newDevice.mac });
      const reuse = await c.post("/api/mcus", { name: "Reuse", ...oldDevice, farm_id: farmId });
      expect(reuse.statusCode).toBe(201);
    });

    it("deletes an MCU; its controllers and sensors stay registered, unassigned", async () => {
      const m = (await c.post("/api/mcus", { name: "Rack 10", ...(await c.mcuDevice()), farm_id: farmId })).json();
      const ctl = (await c.post("/api/controllers", { name: "Pump", mac: uniqueMac(), type: "Irrigation", mcu_id: m.mcu_id })).json();
      const res = await c.del(`/api/mcus/${m.mcu_id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: "MCU deleted successfully" });
      const controllers = (await c.get("/api/controllers")).json();
      expect(controllers.find((x: { unit_id: number }) => x.unit_id === ctl.unit_id)).toMatchObject({ mcu_id: null, mcu_name: null });
      expect((await c.del(`/api/mcus/${m.mcu_id}`)).statusCode).toBe(404);
    });
  });

  describe("controllers and sensors", () => {
    let mcuId: number;
    let mcuName: string;
    beforeAll(async () => {
      const f = (await c.post("/api/farms", { name: "Lab", location: "Tyre", client_id: c.clientId })).json();
      const m = (await c.post("/api/mcus", { name: "Lab MCU", ...(await c.mcuDevice()), farm_id: f.farm_id })).json();
      mcuId = m.mcu_id;
      mcuName = m.name;
    });

    it("creates, scans, updates and deletes a controller", async () => {
      const mac = uniqueMac();
      const created = await c.post("/api/controllers", { name: "AC 1", mac, type: "Ac", mcu_id: mcuId });
      expect(created.statusCode).toBe(201);
      expectShape(controller, created.json());
      expect(created.json()).toMatchObject({ name: "AC 1", mac, type: "Ac", mcu_id: mcuId, mcu_name: mcuName });

      const scanned = await c.get(`/api/controllers/scan-mac/${mac.toLowerCase().replaceAll(":", "-")}`);
      expect(scanned.statusCode).toBe(200);
      expect(scanned.json()).toEqual(created.json());

      const updated = await c.put(`/api/controllers/${created.json().unit_id}`, { name: "AC main", mac, type: "Ac", mcu_id: mcuId });
      expect(updated.statusCode).toBe(200);
      expect(updated.json().name).toBe("AC main");

      const deleted = await c.del(`/api/controllers/${created.json().unit_id}`);
      expect(deleted.json()).toEqual({ message: "Controller deleted successfully" });
      const gone = await c.get(`/api/controllers/scan-mac/${mac}`);
      expect(gone.statusCode).toBe(404);
      expect(gone.json().message).toBe(`No controller found for MAC: ${mac}`);
    });

    it("keeps a device's MAC and type: an update that changes them is refused", async () => {
      const mac = uniqueMac();
      const created = (await c.post("/api/controllers", { name: "Vent", mac, type: "Ventilation", mcu_id: mcuId })).json();
      for (const change of [{ type: "Ac" }, { mac: uniqueMac() }]) {
        const res = await c.put(`/api/controllers/${created.unit_id}`, { name: "Vent", mac, type: "Ventilation", mcu_id: mcuId, ...change });
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe("The MAC address and type of a device cannot be changed. Delete it and add it again.");
      }
      expect((await c.get(`/api/controllers/scan-mac/${mac}`)).json()).toEqual(created);
    });

    it("scans an unclaimed inventory controller as a create form prefill", async () => {
      const mac = uniqueMac();
      await inventoryRepo(server.db).provision(mac, "controller", "Irrigation", "hash");
      const res = await c.get(`/api/controllers/scan-mac/${mac}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ mac, type: "Irrigation", name: "", mcu_id: null });
      // Claiming it with another type than the label says is refused.
      const wrong = await c.post("/api/controllers", { name: "Pump", mac, type: "Ac", mcu_id: mcuId });
      expect(wrong.statusCode).toBe(409);
      const claimed = await c.post("/api/controllers", { name: "Pump", mac, type: "Irrigation", mcu_id: mcuId });
      expect(claimed.statusCode).toBe(201);
      // Deleting returns a provisioned device to the unclaimed stock.
      await c.del(`/api/controllers/${claimed.json().unit_id}`);
      expect((await c.get(`/api/controllers/scan-mac/${mac}`)).json()).toEqual({ mac, type: "Irrigation", name: "", mcu_id: null });
    });

    it("does not offer a sensor's MAC to the controller scan", async () => {
      const mac = uniqueMac();
      await inventoryRepo(server.db).provision(mac, "sensor", "CO2", "hash");
      expect((await c.get(`/api/controllers/scan-mac/${mac}`)).statusCode).toBe(404);
      expect((await c.get(`/api/sensors/scan-mac/${mac}`)).json()).toEqual({ mac, type: "CO2", name: "", mcu_id: null });
    });

    it("creates, scans, updates and deletes a sensor", async () => {
      const mac = uniqueMac();
      const created = await c.post("/api/sensors", { mac, name: "", type: "Soil_temp", mcu_id: mcuId });
      expect(created.statusCode).toBe(201);
      expectShape(sensor, created.json());
      expect(created.json()).toMatchObject({ name: "", mac, type: "Soil_temp", mcu_id: mcuId, mcu_name: mcuName });
      expect((await c.get(`/api/sensors/scan-mac/${mac}`)).json()).toEqual(created.json());
      const updated = await c.put(`/api/sensors/${created.json().sensor_id}`, { mac, name: "Bed probe", type: "Soil_temp", mcu_id: mcuId });
      expect(updated.json().name).toBe("Bed probe");
      expect((await c.get("/api/sensors")).json().map((s: { sensor_id: number }) => s.sensor_id)).toContain(created.json().sensor_id);
      expect((await c.del(`/api/sensors/${created.json().sensor_id}`)).json()).toEqual({ message: "Sensor deleted successfully" });
      const gone = await c.get(`/api/sensors/scan-mac/${mac}`);
      expect(gone.statusCode).toBe(404);
      expect(gone.json().message).toBe(`Sensor ${mac} Not Found, Or Already Used`);
    });
  });

  describe("setting profiles", () => {
    it("creates, lists with mcu_links, updates and deletes a profile", async () => {
      const created = await c.post("/api/setting-profiles", {
        name: "Spawn run",
        client_id: c.clientId,
        config: { ...sampleConfig, ac: { target_temp: "24" } },
      });
      expect(created.statusCode).toBe(201);
      expectShape(settingProfile, created.json());
      // based_on defaults to soil_temp, numbers given as text are converted.
      expect(created.json().config.ac).toEqual({ based_on: "soil_temp", target_temp: 24 });
      const id = created.json().profile_id;

      const f = (await c.post("/api/farms", { name: "P", location: "Q", client_id: c.clientId })).json();
      const m = (await c.post("/api/mcus", { name: "PM", ...(await c.mcuDevice()), farm_id: f.farm_id })).json();
      const link = await c.post("/api/setting-profiles/link", { mcu_id: m.mcu_id, profile_id: id });
      expect(link.statusCode).toBe(201);
      expectShape(profileLink, link.json());

      const list = (await c.get(`/api/setting-profiles/${c.clientId}`)).json();
      expectShape(settingProfile.array(), list);
      expect(list.find((p: { profile_id: number }) => p.profile_id === id).mcu_links).toEqual([{ id: link.json().id, mcu_id: m.mcu_id }]);

      const updated = await c.put(`/api/setting-profiles/${id}`, { name: "Spawn run 2", client_id: c.clientId, config: sampleConfig });
      expect(updated.statusCode).toBe(200);
      expect(updated.json()).toMatchObject({ name: "Spawn run 2", config: sampleConfig, mcu_links: [{ id: link.json().id, mcu_id: m.mcu_id }] });

      const deleted = await c.del(`/api/setting-profiles/${id}`);
      expect(deleted.json()).toEqual({ message: "Profile deleted successfully" });
      const mcuAfter = (await c.get(`/api/mcus/by-client/${c.clientId}`)).json().find((x: { mcu_id: number }) => x.mcu_id === m.mcu_id);
      expect(mcuAfter.profile_links).toEqual([]);
    });

    it("keeps one profile per MCU: linking again replaces the link, unlinking clears it", async () => {
      const f = (await c.post("/api/farms", { name: "L", location: "M", client_id: c.clientId })).json();
      const m = (await c.post("/api/mcus", { name: "LM", ...(await c.mcuDevice()), farm_id: f.farm_id })).json();
      const p1 = (await c.post("/api/setting-profiles", { name: "One", client_id: c.clientId, config: sampleConfig })).json();
      const p2 = (await c.post("/api/setting-profiles", { name: "Two", client_id: c.clientId, config: sampleConfig })).json();
      await c.post("/api/setting-profiles/link", { mcu_id: m.mcu_id, profile_id: p1.profile_id });
      const second = (await c.post("/api/setting-profiles/link", { mcu_id: m.mcu_id, profile_id: p2.profile_id })).json();
      const links = (await c.get(`/api/mcus/by-client/${c.clientId}`)).json().find((x: { mcu_id: number }) => x.mcu_id === m.mcu_id).profile_links;
      expect(links).toHaveLength(1);
      expect(links[0].profile.name).toBe("Two");
      const unlinked = await c.del(`/api/setting-profiles/link/${second.id}`);
      expect(unlinked.json()).toEqual({ message: "Profile unlinked" });
      expect((await c.del(`/api/setting-profiles/link/${second.id}`)).statusCode).toBe(404);
    });
  });

  describe("notifications", () => {
    it("lists the client's notifications newest first at /notifications/{client_id}", async () => {
      const repo = notificationsRepo(server.db);
      await repo.create(c.clientId, { type: "wash", title: "Wash day", body: "Clean room B" }, new Date("2026-06-01T07:00:00Z"));
      await repo.create(c.clientId, { type: "battery", title: "Low battery", body: "Rack 7 at 20%" }, new Date("2026-06-01T07:30:00Z"));
      const res = await c.get(`/notifications/${c.clientId}`);
      expect(res.statusCode).toBe(200);
      expectShape(notification.array(), res.json());
      expect(res.json().map((n: { title: string }) => n.title)).toEqual(["Low battery", "Wash day"]);
      expect(res.json()[0]).toMatchObject({ read_status: false, createdAt: "2026-06-01T07:30:00.000Z" });
    });
  });

  describe("the app", () => {
    it("answers unknown API paths with a JSON 404", async () => {
      const res = await server.app.inject({ method: "GET", url: "/api/nothing-here" });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: "NOT_FOUND", message: "No such endpoint: GET /api/nothing-here", reason: "no_such_endpoint", params: { method: "GET", path: "/api/nothing-here" } });
    });

    it("refuses every data endpoint without a session", async () => {
      for (const url of [`/api/mcus/by-client/${c.clientId}`, `/notifications/${c.clientId}`, `/api/farms/myfarms/get?client_id=${c.clientId}`, `/api/setting-profiles/${c.clientId}`, "/api/clients/me", "/api/controllers", "/api/sensors"]) {
        const res = await server.app.inject({ method: "GET", url });
        expect(res.statusCode, url).toBe(401);
        expect(res.json().message).toBe("Your session has ended. Please sign in again.");
      }
    });
  });
});
