import { CLAIM_CODE_FORMAT, CLAIM_CODE_REQUIRED, CLAIM_REFUSED } from "../../src/contract/claim-code.ts";
import type { LightMyRequestResponse } from "fastify";
import { REGISTERED_MESSAGE } from "../../src/contract/api.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestServer,
  registration,
  sampleConfig,
  seedClientData,
  uniqueMac,
  type Registration,
  type TestClient,
  type TestServer,
} from "../test-support/test-server.ts";

/**
 * Bad input on the HTTP API: the SPEC §5 rules with their exact messages (part 1), then
 * generic hostile input on every body-taking endpoint of SPEC §7 (part 2).
 */

type Body = Record<string, unknown>;
type Seed = Awaited<ReturnType<typeof seedClientData>>;

let server: TestServer;
let c: TestClient;
let seed: Seed;

beforeAll(async () => {
  server = await createTestServer();
  c = await server.signUp();
  seed = await seedClientData(c);
});
afterAll(() => server.close());

function omit(o: object, ...keys: string[]): Body {
  const copy: Body = { ...(o as Body) };
  for (const k of keys) delete copy[k];
  return copy;
}

/** A 4xx answer with a JSON body carrying a non-empty message (never a 5xx, never HTML). */
function expectClientError(res: LightMyRequestResponse, status?: number): string {
  const where = `${res.statusCode} ${res.body.slice(0, 300)}`;
  if (status !== undefined) expect(res.statusCode, where).toBe(status);
  expect(res.statusCode, where).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, where).toBeLessThan(500);
  expect(String(res.headers["content-type"]), where).toMatch(/^application\/json/);
  const body = res.json();
  expect(typeof body.message, where).toBe("string");
  expect(body.message.trim().length, where).toBeGreaterThan(0);
  return body.message as string;
}

/** Table rows [name, input, message] titled "name -> message". */
function titled<T>(rows: [string, T, string][]): [string, T, string][] {
  return rows.map(([name, input, message]) => [`${name} -> ${message}`, input, message]);
}

/** 400 with exactly `message`. */
function expectMessage(res: LightMyRequestResponse, message: string): void {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().message).toBe(message);
}

function expectSuccess(res: LightMyRequestResponse): void {
  expect(res.statusCode, res.body).toBeGreaterThanOrEqual(200);
  expect(res.statusCode, res.body).toBeLessThan(300);
}

/** A POST without a session, as the Register and Login screens send it. */
function anonymousPost(url: string, body: unknown) {
  return server.app.inject({ method: "POST", url, headers: { "content-type": "application/json" }, payload: JSON.stringify(body) });
}

interface RawOptions {
  contentType?: string | null;
  withCookie?: boolean;
  origin?: string;
}

function raw(method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: string, opts: RawOptions = {}) {
  const headers: Record<string, string> = {};
  if (opts.withCookie !== false) headers.cookie = c.cookie;
  const contentType = opts.contentType === undefined ? (payload !== undefined ? "application/json" : null) : opts.contentType;
  if (contentType !== null) headers["content-type"] = contentType;
  if (opts.origin !== undefined) headers.origin = opts.origin;
  return server.app.inject({ method, url, headers, ...(payload !== undefined ? { payload } : {}) });
}

// ---------------------------------------------------------------------------------------------
// Part 1: SPEC §5 rules, exact messages
// ---------------------------------------------------------------------------------------------

describe("SPEC §5 Register: POST /api/clients", () => {
  const cases: [string, (r: Registration) => Body, string][] = [
    ["username missing", (r) => omit(r, "username"), "Username is required"],
    ["username empty", (r) => ({ ...r, username: "" }), "Username is required"],
    ["username blank", (r) => ({ ...r, username: "   " }), "Username is required"],
    ["username of 2 characters", (r) => ({ ...r, username: "ab" }), "Username must be at least 3 characters"],
    ["email missing", (r) => omit(r, "email"), "Email is required"],
    ["email empty", (r) => ({ ...r, email: "" }), "Email is required"],
    ["email not an address", (r) => ({ ...r, email: "nope" }), "Invalid email address"],
    ["email without a domain dot", (r) => ({ ...r, email: "a@b" }), "Invalid email address"],
    ["password missing", (r) => omit(r, "password"), "Password is required"],
    ["password empty", (r) => ({ ...r, password: "" }), "Password is required"],
    ["password of 7 characters", (r) => ({ ...r, password: "1234567", confirmPassword: "1234567" }), "Password must be at least 8 characters"],
    ["confirmPassword missing", (r) => omit(r, "confirmPassword"), "Please confirm your password"],
    ["confirmPassword empty", (r) => ({ ...r, confirmPassword: "" }), "Please confirm your password"],
    ["confirmPassword different", (r) => ({ ...r, confirmPassword: `${r.password}x` }), "Passwords do not match"],
    ["mobile missing", (r) => omit(r, "mobile"), "Mobile number is required"],
    ["mobile empty", (r) => ({ ...r, mobile: "" }), "Mobile number is required"],
    ["mobile with letters", (r) => ({ ...r, mobile: "12ab" }), "Invalid mobile number"],
    ["mobile with a plus in the middle", (r) => ({ ...r, mobile: "12+34" }), "Invalid mobile number"],
    ["country missing", (r) => omit(r, "country"), "Please select your country"],
    ["country empty", (r) => ({ ...r, country: "" }), "Please select your country"],
    ["address missing", (r) => omit(r, "address"), "Address is required"],
    ["address blank", (r) => ({ ...r, address: "   " }), "Address is required"],
  ];

  it.each(titled(cases))("%s", async (_name, make, message) => {
    const res = await anonymousPost("/api/clients", make(registration()));
    expectMessage(res, message);
  });

  it("both password fields empty: 400 listing Password is required and Please confirm your password", async () => {
    const res = await anonymousPost("/api/clients", { ...registration(), password: "", confirmPassword: "" });
    expect(res.statusCode, res.body).toBe(400);
    const messages = (res.json().errors as { message: string }[]).map((e) => e.message);
    expect(messages).toContain("Password is required");
    expect(messages).toContain("Please confirm your password");
    expect(["Password is required", "Please confirm your password"]).toContain(res.json().message);
  });

  it("accepts a mobile with a leading plus, spaces, dashes and parentheses", async () => {
    const res = await anonymousPost("/api/clients", registration({ mobile: "+1 (555) 123-4567" }));
    expect(res.statusCode, res.body).toBe(201);
  });

  const signIn = (username: string, password: string) => anonymousPost("/api/clients/login", { username, password });
  const notificationsOf = async () => ((await c.get(`/notifications/${c.clientId}`)).json() as { type: string; title: string; body: string }[]).filter((n) => n.type === "account");

  it("answers a username taken in another case with 409 saying so, and creates nothing", async () => {
    const fresh = registration({ password: "a-strangers-pass", confirmPassword: "a-strangers-pass" });
    const taken = await anonymousPost("/api/clients", { ...fresh, username: c.registration.username.toUpperCase() });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: "CONFLICT", message: "That username is taken. Choose another." });
    // The owner's password still signs in; the stranger's does not (no second account).
    expect((await signIn(c.registration.username, c.registration.password)).statusCode).toBe(200);
    expect((await signIn(c.registration.username, fresh.password)).statusCode).toBe(401);
    expect((await signIn(fresh.email, fresh.password)).statusCode).toBe(401);
  });

  it("answers an email taken in another case as it answers a new account, and tells the email's owner, not the stranger", async () => {
    const before = (await notificationsOf()).length;
    const fresh = registration();
    const taken = await anonymousPost("/api/clients", { ...fresh, email: c.registration.email.toUpperCase() });
    expect(taken.statusCode).toBe(201);
    expect(taken.json()).toEqual({ message: REGISTERED_MESSAGE });
    expect((await signIn(fresh.username, fresh.password)).statusCode).toBe(401);
    const told = await notificationsOf();
    expect(told.length).toBe(before + 1);
    expect(told[0]!.title).toBe("Someone tried to register with your email");
    expect(told[0]!.body).toContain(c.registration.email.toUpperCase());
  });

  it("answers 201 with the neutral message only: no client, no password", async () => {
    const reg = registration();
    const res = await anonymousPost("/api/clients", reg);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ message: REGISTERED_MESSAGE });
    expect(res.body).not.toContain(reg.password);
    const signedIn = await signIn(reg.username, reg.password);
    expect(signedIn.statusCode).toBe(200);
    for (const key of Object.keys(signedIn.json().client)) expect(key.toLowerCase()).not.toContain("password");
  });
});

describe("SPEC §5 Login: POST /api/clients/login", () => {
  const cases: [string, () => Body, string][] = [
    ["username missing", () => ({ password: c.registration.password }), "Email or username is required"],
    ["username empty", () => ({ username: "", password: c.registration.password }), "Email or username is required"],
    ["password missing", () => ({ username: c.registration.username }), "Password is required"],
    ["password empty", () => ({ username: c.registration.username, password: "" }), "Password is required"],
    ["password of 5 characters", () => ({ username: c.registration.username, password: "12345" }), "Password must be at least 6 characters"],
  ];

  it.each(titled(cases))("%s", async (_name, make, message) => {
    expectMessage(await anonymousPost("/api/clients/login", make()), message);
  });

  it("answers 401 Invalid credentials for a wrong password", async () => {
    const res = await anonymousPost("/api/clients/login", { username: c.registration.username, password: "not-the-password" });
    expect(res.statusCode, res.body).toBe(401);
    expect(res.json().message).toBe("Invalid credentials");
    expect(res.headers["set-cookie"]).toBeUndefined();
  });

  it("answers 401 Invalid credentials for an unknown user", async () => {
    const res = await anonymousPost("/api/clients/login", { username: `nobody_${uniqueMac()}`, password: "whatever-password" });
    expect(res.statusCode, res.body).toBe(401);
    expect(res.json().message).toBe("Invalid credentials");
  });

  it("signs in by email too (any case)", async () => {
    const res = await anonymousPost("/api/clients/login", { username: c.registration.email.toUpperCase(), password: c.registration.password });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().client.client_id).toBe(c.clientId);
  });
});

describe("SPEC §5 MCU form: POST /api/mcus", () => {
  // A provisioned MAC: without one every POST would be refused for the MAC, hiding the rule under test.
  const valid = async (): Promise<Body> => ({ name: "Room B", ...(await c.mcuDevice()), farm_id: seed.farm.farm_id, status: "active" });
  const cases: [string, (b: Body) => Body, string][] = [
    ["name empty", (b) => ({ ...b, name: "" }), "MCU name is required"],
    ["name missing", (b) => omit(b, "name"), "MCU name is required"],
    ["mac missing", (b) => omit(b, "mac"), "MAC address is required"],
    ["mac empty", (b) => ({ ...b, mac: "" }), "MAC address is required"],
    ["mac 12:34", (b) => ({ ...b, mac: "12:34" }), "Invalid MAC address format"],
    ["mac with mixed separators", (b) => ({ ...b, mac: "AA:BB-CC:DD:EE:FF" }), "Invalid MAC address format"],
    ["mac with non-hex digits", (b) => ({ ...b, mac: "GG:HH:II:JJ:KK:LL" }), "Invalid MAC address format"],
    ["farm_id missing", (b) => omit(b, "farm_id"), "Please select a farm"],
    ["farm_id empty", (b) => ({ ...b, farm_id: "" }), "Please select a farm"],
    ["claim_code missing", (b) => omit(b, "claim_code"), CLAIM_CODE_REQUIRED],
    ["claim_code empty", (b) => ({ ...b, claim_code: " " }), CLAIM_CODE_REQUIRED],
    ["claim_code too short", (b) => ({ ...b, claim_code: "7K2M-9QXD" }), CLAIM_CODE_FORMAT],
    ["claim_code with a U (not in the alphabet)", (b) => ({ ...b, claim_code: "7K2M-9QXD-4TWU" }), CLAIM_CODE_FORMAT],
    ["claim_code of 10 000 characters", (b) => ({ ...b, claim_code: "A".repeat(10_000) }), CLAIM_CODE_FORMAT],
    ["claim_code a number", (b) => ({ ...b, claim_code: 123456789012 }), "claim_code must be a string (was a number)"],
  ];

  it.each(titled(cases))("%s", async (_name, make, message) => {
    expectMessage(await c.post("/api/mcus", make(await valid())), message);
  });

  it("a well-formed MAC that was never provisioned -> 400 with the one claim answer, and no MCU is created", async () => {
    const mac = uniqueMac();
    const res = await c.post("/api/mcus", { name: "Unknown", mac, claim_code: "7K2M-9QXD-4TWA", farm_id: seed.farm.farm_id, status: "active" });
    expectMessage(res, CLAIM_REFUSED);
    const listed = (await c.get(`/api/mcus/by-client/${c.clientId}`)).json() as { mac: string }[];
    expect(listed.map((m) => m.mac)).not.toContain(mac);
  });

  it("accepts a lower-case dashed MAC, stores it upper case with colons, status active", async () => {
    const { mac: canonical, claim_code } = await c.mcuDevice();
    const dashed = canonical.toLowerCase().replace(/:/g, "-");
    const res = await c.post("/api/mcus", { name: "Dashed", mac: dashed, claim_code, farm_id: seed.farm.farm_id, status: "active" });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().mac).toBe(canonical);
    expect(res.json().status).toBe("active");
    const listed = (await c.get(`/api/mcus/by-client/${c.clientId}`)).json() as { mac: string }[];
    expect(listed.map((m) => m.mac)).toContain(canonical);
  });

  it("answers 409 for a MAC already registered (other separator style)", async () => {
    const res = await c.post("/api/mcus", { name: "Twin", mac: seed.mcu.mac.toLowerCase().replace(/:/g, "-"), claim_code: "7K2M-9QXD-4TWA", farm_id: seed.farm.farm_id });
    expectClientError(res, 409);
  });
});

describe("SPEC §5 Farm", () => {
  it.each(titled([
    ["name empty", { name: "", location: "Byblos" }, "Farm name is required"],
    ["name blank", { name: "  ", location: "Byblos" }, "Farm name is required"],
    ["location empty", { name: "Shiitake Shed", location: "" }, "Location is required"],
    ["location missing", { name: "Shiitake Shed" }, "Location is required"],
  ] as [string, Body, string][]))("POST %s", async (_name, body, message) => {
    expectMessage(await c.post("/api/farms", { ...body, client_id: c.clientId }), message);
  });

  it.each(titled([
    ["name empty", { name: "", location: "Byblos" }, "Farm name is required"],
    ["location empty", { name: "Shiitake Shed", location: "" }, "Location is required"],
    ["name missing", { location: "Byblos" }, "Farm name is required"],
  ] as [string, Body, string][]))("PUT %s", async (_name, body, message) => {
    expectMessage(await c.put(`/api/farms/${seed.farm.farm_id}`, body), message);
  });
});

describe("SPEC §5 Controller and Sensor", () => {
  const controller = (): Body => ({ name: "Fan 1", mac: uniqueMac(), type: "Ventilation", mcu_id: seed.mcu.mcu_id });
  const sensor = (): Body => ({ name: "Soil left", mac: uniqueMac(), type: "Soil_temp", mcu_id: seed.mcu.mcu_id });

  it.each(titled([
    ["name empty", (b: Body) => ({ ...b, name: "" }), "Name is required"],
    ["name missing", (b: Body) => omit(b, "name"), "Name is required"],
    ["mcu_id missing", (b: Body) => omit(b, "mcu_id"), "Please select an MCU"],
    ["mcu_id empty", (b: Body) => ({ ...b, mcu_id: "" }), "Please select an MCU"],
  ] as [string, (b: Body) => Body, string][]))("controller POST %s", async (_name, make, message) => {
    expectMessage(await c.post("/api/controllers", make(controller())), message);
  });

  it.each(titled([
    ["name empty", (b: Body) => ({ ...b, name: "" }), "Name is required"],
    ["mcu_id missing", (b: Body) => omit(b, "mcu_id"), "Please select an MCU"],
  ] as [string, (b: Body) => Body, string][]))("controller PUT %s", async (_name, make, message) => {
    const body = make({ name: "Mist 1", mac: seed.controller.mac, type: seed.controller.type, mcu_id: seed.mcu.mcu_id });
    expectMessage(await c.put(`/api/controllers/${seed.controller.unit_id}`, body), message);
  });

  it.each(titled([
    ["mcu_id missing", (b: Body) => omit(b, "mcu_id"), "MCU required"],
    ["mcu_id empty", (b: Body) => ({ ...b, mcu_id: "" }), "MCU required"],
    ["type empty", (b: Body) => ({ ...b, type: "" }), "Type required"],
    ["type missing", (b: Body) => omit(b, "type"), "Type required"],
  ] as [string, (b: Body) => Body, string][]))("sensor POST %s", async (_name, make, message) => {
    expectMessage(await c.post("/api/sensors", make(sensor())), message);
  });

  it("sensor PUT with type empty -> Type required", async () => {
    const body = { name: "CO2 left", mac: seed.sensor.mac, type: "", mcu_id: seed.mcu.mcu_id };
    expectMessage(await c.put(`/api/sensors/${seed.sensor.sensor_id}`, body), "Type required");
  });

  it("accepts a sensor with an empty name", async () => {
    const res = await c.post("/api/sensors", { ...sensor(), name: "" });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().name).toBe("");
  });
});

describe("SPEC §5 Profile", () => {
  const body = (overrides: Body = {}): Body => ({ name: "Fruiting", client_id: c.clientId, config: sampleConfig, ...overrides });

  it("name empty -> Name is required (POST and PUT)", async () => {
    expectMessage(await c.post("/api/setting-profiles", body({ name: "" })), "Name is required");
    expectMessage(await c.put(`/api/setting-profiles/${seed.profile.profile_id}`, body({ name: "" })), "Name is required");
  });

  it("converts numeric strings in the config to numbers", async () => {
    const config = {
      ...sampleConfig,
      irrigation: { ...sampleConfig.irrigation, on_cycle_hours: "12" },
      ac: { ...sampleConfig.ac, target_temp: "21.5" },
    };
    const res = await c.post("/api/setting-profiles", body({ name: "Stringy", config }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().config.irrigation.on_cycle_hours).toBe(12);
    expect(res.json().config.ac.target_temp).toBe(21.5);
    const stored = ((await c.get(`/api/setting-profiles/${c.clientId}`)).json() as { profile_id: number; config: typeof sampleConfig }[]).find(
      (p) => p.profile_id === res.json().profile_id,
    );
    expect(stored?.config.irrigation.on_cycle_hours).toBe(12);
  });

  const badConfigs: [string, Body][] = [
    ["irrigation.on_cycle_hours missing", { ...sampleConfig, irrigation: omit(sampleConfig.irrigation, "on_cycle_hours") }],
    ["ventilation.co2_threshold missing", { ...sampleConfig, ventilation: {} }],
    ["humidifier section missing", omit(sampleConfig, "humidifier")],
    ["ac.target_temp non-numeric", { ...sampleConfig, ac: { ...sampleConfig.ac, target_temp: "warm" } }],
    ["irrigation.soil_moisture_on empty string", { ...sampleConfig, irrigation: { ...sampleConfig.irrigation, soil_moisture_on: "" } }],
    ["humidifier.humidity_on_below null", { ...sampleConfig, humidifier: { ...sampleConfig.humidifier, humidity_on_below: null } }],
    ["ventilation.co2_threshold boolean", { ...sampleConfig, ventilation: { co2_threshold: true } }],
    ["config missing", {}],
  ];

  it.each(badConfigs)("config with %s -> 400 with a message (POST and PUT)", async (_name, config) => {
    const make = () => (Object.keys(config).length === 0 ? omit(body(), "config") : body({ config }));
    expectClientError(await c.post("/api/setting-profiles", make()), 400);
    expectClientError(await c.put(`/api/setting-profiles/${seed.profile.profile_id}`, make()), 400);
  });

  it("refuses an on value not below its off value at the field's path, and saves nothing (POST and PUT)", async () => {
    const config = {
      ...sampleConfig,
      irrigation: { ...sampleConfig.irrigation, soil_moisture_on: 70, soil_moisture_off: 60 },
      humidifier: { humidity_on_below: 92, humidity_off_above: 92 },
    };
    const profiles = async () => (await c.get(`/api/setting-profiles/${c.clientId}`)).json() as { name: string; config: unknown }[];
    const before = await profiles();
    for (const res of [
      await c.post("/api/setting-profiles", body({ name: "Contrary", config })),
      await c.put(`/api/setting-profiles/${seed.profile.profile_id}`, body({ name: "Contrary", config })),
    ]) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors).toEqual(
        expect.arrayContaining([
          { path: "config.irrigation.soil_moisture_on", message: "Soil moisture on (70 %) must be below Soil moisture off (60 %)", reason: "invalid_value" },
          { path: "config.humidifier.humidity_on_below", message: "Humidifier on below (92 %) must be below Humidifier off above (92 %)", reason: "invalid_value" },
        ]),
      );
    }
    expect(await profiles()).toEqual(before);
  });
});

describe("SPEC §5 Settings: PUT /api/clients/{id}", () => {
  let s: TestClient;
  beforeAll(async () => {
    s = await server.signUp();
  });
  const profile = (): Body => ({
    client_id: s.clientId,
    username: s.registration.username,
    email: s.registration.email,
    mobile: s.registration.mobile,
    country: s.registration.country,
    address: s.registration.address,
  });

  it.each(titled([
    ["username empty", () => ({ ...profile(), username: "" }), "First name is required"],
    ["email empty", () => ({ ...profile(), email: "" }), "Email is required"],
    ["password empty", () => ({ client_id: s.clientId, password: "", confirm_password: "" }), "New password is required"],
    ["password without confirm_password", () => ({ client_id: s.clientId, password: "fresh-password-1" }), "Please confirm your password"],
    ["confirm_password empty", () => ({ client_id: s.clientId, password: "fresh-password-1", confirm_password: "" }), "Please confirm your password"],
    [
      "confirm_password different",
      () => ({ client_id: s.clientId, password: "fresh-password-1", confirm_password: "fresh-password-2" }),
      "Passwords do not match",
    ],
  ] as [string, () => Body, string][]))("%s", async (_name, make, message) => {
    expectMessage(await s.put(`/api/clients/${s.clientId}`, make()), message);
  });

  it("a refused password change leaves the old password working", async () => {
    await s.put(`/api/clients/${s.clientId}`, { client_id: s.clientId, password: "fresh-password-1", confirm_password: "nope-nope-1" });
    const res = await anonymousPost("/api/clients/login", { username: s.registration.username, password: s.registration.password });
    expect(res.statusCode, res.body).toBe(200);
  });

  it("phone and address are optional", async () => {
    const res = await s.put(`/api/clients/${s.clientId}`, { ...profile(), mobile: "", address: "" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().username).toBe(s.registration.username);
  });
});

// ---------------------------------------------------------------------------------------------
// Part 2: generic bad input on every body-taking endpoint of SPEC §7
// ---------------------------------------------------------------------------------------------

interface Endpoint {
  label: string;
  method: "POST" | "PUT";
  url: () => string;
  /** Register and login are sent without a session, as the app does. */
  anonymous?: boolean;
  /** A body the endpoint accepts; fresh on each call (unique MACs, names; MCU MACs provisioned first). */
  valid: () => Body | Promise<Body>;
  /** Field overrides of a wrong type (or shape). */
  wrongTypes: Body[];
  /** The valid body with a required piece left out. */
  missing: (valid: Body) => Body;
  textField: string;
  macField?: string;
}

const endpoints: Endpoint[] = [
  {
    label: "POST /api/clients",
    method: "POST",
    url: () => "/api/clients",
    anonymous: true,
    valid: () => ({ ...registration() }),
    wrongTypes: [{ username: 12345 }, { password: 12345678, confirmPassword: 12345678 }, { email: ["a@b.co"] }, { country: null }, { address: {} }],
    missing: (v) => omit(v, "email"),
    textField: "address",
  },
  {
    label: "POST /api/clients/login",
    method: "POST",
    url: () => "/api/clients/login",
    anonymous: true,
    valid: () => ({ username: c.registration.username, password: c.registration.password }),
    wrongTypes: [{ password: 123456789 }, { username: { $ne: "" } }, { username: null }],
    missing: (v) => omit(v, "password"),
    textField: "username",
  },
  {
    label: "PUT /api/clients/{id}",
    method: "PUT",
    url: () => `/api/clients/${c.clientId}`,
    valid: () => ({
      client_id: c.clientId,
      username: c.registration.username,
      email: c.registration.email,
      mobile: c.registration.mobile,
      country: c.registration.country,
      address: c.registration.address,
    }),
    wrongTypes: [{ email: 42 }, { client_id: "abc" }, { fcm_token: 7 }, { username: true }],
    // A password without its confirmation.
    missing: (v) => ({ ...v, password: "another-password-1" }),
    textField: "address",
  },
  {
    label: "POST /api/farms",
    method: "POST",
    url: () => "/api/farms",
    valid: () => ({ name: "Enoki Cave", location: "Jbeil", client_id: c.clientId }),
    wrongTypes: [{ name: 42 }, { client_id: "abc" }, { client_id: 1.5 }, { location: null }, { name: ["a"] }],
    missing: (v) => omit(v, "name"),
    textField: "name",
  },
  {
    label: "PUT /api/farms/{id}",
    method: "PUT",
    url: () => `/api/farms/${seed.farm.farm_id}`,
    valid: () => ({ name: "Oyster House", location: "Byblos" }),
    wrongTypes: [{ location: 7 }, { name: {} }],
    missing: (v) => omit(v, "location"),
    textField: "location",
  },
  {
    label: "POST /api/mcus",
    method: "POST",
    url: () => "/api/mcus",
    valid: async () => ({ name: "Room C", ...(await c.mcuDevice()), farm_id: seed.farm.farm_id, status: "active" }),
    wrongTypes: [{ farm_id: "abc" }, { mac: 123456 }, { status: 5 }, { farm_id: -4 }, { name: false }],
    missing: (v) => omit(v, "farm_id"),
    textField: "name",
    macField: "mac",
  },
  {
    label: "PUT /api/mcus/{id}",
    method: "PUT",
    url: () => `/api/mcus/${seed.mcu.mcu_id}`,
    valid: () => ({ name: "Room A", mac: seed.mcu.mac, farm_id: seed.farm.farm_id }),
    wrongTypes: [{ farm_id: true }, { name: 1 }, { mac: ["AA:BB:CC:DD:EE:FF"] }],
    missing: (v) => omit(v, "mac"),
    textField: "name",
    macField: "mac",
  },
  {
    label: "POST /api/controllers",
    method: "POST",
    url: () => "/api/controllers",
    valid: () => ({ name: "Pump 1", mac: uniqueMac(), type: "Irrigation", mcu_id: seed.mcu.mcu_id }),
    wrongTypes: [{ type: 3 }, { mcu_id: "x" }, { type: "Heater" }, { name: null }],
    missing: (v) => omit(v, "type"),
    textField: "name",
    macField: "mac",
  },
  {
    label: "PUT /api/controllers/{id}",
    method: "PUT",
    url: () => `/api/controllers/${seed.controller.unit_id}`,
    valid: () => ({ name: "Mist 1", mac: seed.controller.mac, type: seed.controller.type, mcu_id: seed.mcu.mcu_id }),
    wrongTypes: [{ mcu_id: {} }, { name: 99 }, { type: "humidifier" }],
    missing: (v) => omit(v, "mac"),
    textField: "name",
    macField: "mac",
  },
  {
    label: "POST /api/sensors",
    method: "POST",
    url: () => "/api/sensors",
    valid: () => ({ name: "Hum 1", mac: uniqueMac(), type: "Humidity", mcu_id: seed.mcu.mcu_id }),
    wrongTypes: [{ name: 5 }, { type: "Temperature" }, { mcu_id: -3 }, { type: null }],
    missing: (v) => omit(v, "mac"),
    textField: "name",
    macField: "mac",
  },
  {
    label: "PUT /api/sensors/{id}",
    method: "PUT",
    url: () => `/api/sensors/${seed.sensor.sensor_id}`,
    valid: () => ({ name: "CO2 left", mac: seed.sensor.mac, type: seed.sensor.type, mcu_id: seed.mcu.mcu_id }),
    wrongTypes: [{ mcu_id: "1; drop table sensors" }, { mac: 0 }, { type: [] }],
    missing: (v) => omit(v, "type"),
    textField: "name",
    macField: "mac",
  },
  {
    label: "POST /api/setting-profiles",
    method: "POST",
    url: () => "/api/setting-profiles",
    valid: () => ({ name: "Pinning 2", client_id: c.clientId, config: sampleConfig }),
    wrongTypes: [
      { config: "x" },
      { config: [] },
      { config: { ...sampleConfig, ventilation: { co2_threshold: "lots" } } },
      { config: { ...sampleConfig, ac: { ...sampleConfig.ac, based_on: 5 } } },
      { name: 9 },
    ],
    missing: (v) => omit(v, "config"),
    textField: "name",
  },
  {
    label: "PUT /api/setting-profiles/{id}",
    method: "PUT",
    url: () => `/api/setting-profiles/${seed.profile.profile_id}`,
    valid: () => ({ name: "Pinning", client_id: c.clientId, config: sampleConfig }),
    wrongTypes: [{ config: 1 }, { client_id: [] }, { config: { ...sampleConfig, irrigation: null } }],
    missing: (v) => omit(v, "name"),
    textField: "name",
  },
  {
    label: "POST /api/setting-profiles/link",
    method: "POST",
    url: () => "/api/setting-profiles/link",
    valid: () => ({ mcu_id: seed.mcu.mcu_id, profile_id: seed.profile.profile_id }),
    wrongTypes: [{ mcu_id: "abc" }, { profile_id: {} }, { mcu_id: 1.5 }, { profile_id: null }],
    missing: (v) => omit(v, "profile_id"),
    // No text field: a huge string goes into an id field.
    textField: "mcu_id",
  },
  {
    label: "PUT /notifications/{client_id}/read",
    method: "PUT",
    url: () => `/notifications/${c.clientId}/read`,
    valid: () => ({ notification_ids: [1, 2] }),
    wrongTypes: [{ notification_ids: "1,2" }, { notification_ids: [1.5] }, { notification_ids: [0] }, { notification_ids: [-3] }, { notification_ids: ["1"] }, { notification_ids: null }],
    missing: (v) => omit(v, "notification_ids"),
    // No text field: a huge string goes into the id list.
    textField: "notification_ids",
  },
];

interface BadCase {
  name: string;
  /** The raw request built from the endpoint's valid body; undefined when the case does not apply to the endpoint. */
  build(ep: Endpoint, valid: Body): { payload: string; contentType?: string } | undefined;
  /** An exact message the answer must carry. */
  message?: string;
  /** Only for endpoints with a MAC field. */
  needsMac?: boolean;
}

/** The valid body as JSON text, with `prefix` spliced in as its first members. */
function withLeading(valid: Body, prefix: string): string {
  return `{${prefix},${JSON.stringify(valid).slice(1)}`;
}

const badCases: BadCase[] = [
  { name: "a missing required field", build: (ep, v) => ({ payload: JSON.stringify(ep.missing(v)) }) },
  { name: "an unknown extra field", build: (_ep, v) => ({ payload: JSON.stringify({ ...v, unexpected_field: "x" }) }) },
  { name: "an unknown field named role", build: (_ep, v) => ({ payload: JSON.stringify({ ...v, role: "admin" }) }) },
  { name: "a 100 000-character string in a text field", build: (ep, v) => ({ payload: JSON.stringify({ ...v, [ep.textField]: "x".repeat(100_000) }) }) },
  { name: "a 60 000-character string under the body limit", build: (ep, v) => ({ payload: JSON.stringify({ ...v, [ep.textField]: "y".repeat(60_000) }) }) },
  // PostgreSQL text cannot hold U+0000: the server must refuse it, not fail on the insert.
  { name: "a NUL character in a text field", build: (ep, v) => ({ payload: JSON.stringify({ ...v, [ep.textField]: "Grow\u0000Room" }) }) },
  { name: "malformed JSON", build: () => ({ payload: '{"name":' }) },
  { name: "trailing garbage after JSON", build: (_ep, v) => ({ payload: `${JSON.stringify(v)} x` }) },
  { name: "an empty body", build: () => ({ payload: "" }) },
  { name: "a JSON null body", build: () => ({ payload: "null" }) },
  { name: "a JSON string body", build: () => ({ payload: '"hello"' }) },
  { name: "a JSON number body", build: () => ({ payload: "42" }) },
  { name: "a JSON array body", build: (_ep, v) => ({ payload: JSON.stringify([v]) }) },
  { name: "an empty JSON array body", build: () => ({ payload: "[]" }) },
  { name: "a __proto__ key", build: (_ep, v) => ({ payload: withLeading(v, '"__proto__":{"x":1}') }) },
  { name: "a constructor.prototype key", build: (_ep, v) => ({ payload: withLeading(v, '"constructor":{"prototype":{"x":1}}') }) },
  {
    name: "a __proto__ key nested in a field",
    build: (ep, v) => ({ payload: JSON.stringify({ ...v, [ep.textField]: "@@" }).replace('"@@"', '{"__proto__":{"isAdmin":true}}') }),
  },
  // JSON nests as deep as it likes; what reads it (prototype checks, validation) recurses.
  { name: "a body of objects nested 10 000 deep (60 000 characters)", build: () => ({ payload: `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}` }) },
  { name: "arrays nested 3 000 deep in a field", build: (ep, v) => ({ payload: JSON.stringify({ ...v, [ep.textField]: "@@" }).replace('"@@"', `${"[".repeat(3000)}${"]".repeat(3000)}`) }) },
  { name: "a text/plain content type", build: (_ep, v) => ({ payload: JSON.stringify(v), contentType: "text/plain" }) },
  { name: "a form content type", build: () => ({ payload: "name=x&location=y", contentType: "application/x-www-form-urlencoded" }) },
  { name: "a body over 64 KiB", build: (_ep, v) => ({ payload: JSON.stringify(v) + " ".repeat(65 * 1024) }) },
  {
    name: "an invalid MAC",
    build: (ep, v) => (ep.macField ? { payload: JSON.stringify({ ...v, [ep.macField]: "zz:zz:zz:zz:zz:zz" }) } : undefined),
    message: "Invalid MAC address format",
    needsMac: true,
  },
  {
    name: "a MAC of five pairs",
    build: (ep, v) => (ep.macField ? { payload: JSON.stringify({ ...v, [ep.macField]: "AA:BB:CC:DD:EE" }) } : undefined),
    message: "Invalid MAC address format",
    needsMac: true,
  },
];

const table: [string, Endpoint, BadCase | { wrongType: Body }][] = endpoints.flatMap((ep) => [
  ...ep.wrongTypes.map((w): [string, Endpoint, { wrongType: Body }] => [`${ep.label}: wrong type ${JSON.stringify(w)}`, ep, { wrongType: w }]),
  ...badCases
    .filter((bc) => !bc.needsMac || ep.macField !== undefined)
    .map((bc): [string, Endpoint, BadCase] => [`${ep.label}: ${bc.name}`, ep, bc]),
]);

describe("generic bad input on every body-taking endpoint", () => {
  it.each(endpoints.map((ep) => [ep.label, ep] as const))("%s accepts its valid base body (control)", async (_label, ep) => {
    const res = await raw(ep.method, ep.url(), JSON.stringify(await ep.valid()), { withCookie: !ep.anonymous });
    expectSuccess(res);
  });

  it.each(table)("%s -> 4xx with a message", async (_name, ep, bc) => {
    const valid = await ep.valid();
    const req = "wrongType" in bc ? { payload: JSON.stringify({ ...valid, ...bc.wrongType }) } : bc.build(ep, valid);
    expect(req, "case applies to this endpoint").toBeDefined();
    const res = await raw(ep.method, ep.url(), req!.payload, { withCookie: !ep.anonymous, contentType: req!.contentType });
    const message = expectClientError(res);
    if ("message" in bc && bc.message !== undefined) expect(message).toBe(bc.message);
  });

  it("a rejected __proto__ body did not pollute Object.prototype", () => {
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});

describe("values nested thousands deep where one word is expected", () => {
  const nested = `${"[".repeat(3000)}${"]".repeat(3000)}`;
  const withValue = (body: Body, json: string) => JSON.stringify(body).replace('"@@"', json);

  it.each([
    ["nested arrays", nested],
    ["a 6 000-character string of brackets", JSON.stringify("[".repeat(6000))],
  ])("an MCU's status of %s -> 400", async (_what, json) => {
    const body = withValue({ name: "Room Z", ...(await c.mcuDevice()), farm_id: seed.farm.farm_id, status: "@@" }, json);
    expectClientError(await raw("POST", "/api/mcus", body), 400);
  });

  it.each([
    ["nested arrays", nested],
    ["a 6 000-character string of brackets", JSON.stringify("[".repeat(6000))],
  ])("a profile's config.ac.based_on of %s -> 400 (POST and PUT)", async (_what, json) => {
    const body = { name: "Deep", client_id: c.clientId, config: { ...sampleConfig, ac: { ...sampleConfig.ac, based_on: "@@" } } };
    expectClientError(await raw("POST", "/api/setting-profiles", withValue(body, json)), 400);
    expectClientError(await raw("PUT", `/api/setting-profiles/${seed.profile.profile_id}`, withValue(body, json)), 400);
  });
});

describe("path and query ids", () => {
  const badIds = ["abc", "-1", "0", "1.5", "99999999999", "1e3", "0x10", "%20"];

  const idRoutes: [string, "GET" | "PUT" | "DELETE", (id: string) => string, (() => Body) | undefined][] = [
    ["GET /notifications/{client_id}", "GET", (id) => `/notifications/${id}`, undefined],
    ["PUT /notifications/{client_id}/read", "PUT", (id) => `/notifications/${id}/read`, () => ({ notification_ids: [1] })],
    ["GET /api/mcus/by-client/{clientId}", "GET", (id) => `/api/mcus/by-client/${id}`, undefined],
    ["GET /api/setting-profiles/{clientId}", "GET", (id) => `/api/setting-profiles/${id}`, undefined],
    ["GET /api/farms/myfarms/get?client_id=", "GET", (id) => `/api/farms/myfarms/get?client_id=${id}`, undefined],
    ["PUT /api/clients/{id}", "PUT", (id) => `/api/clients/${id}`, () => ({ address: "Somewhere" })],
    ["PUT /api/farms/{id}", "PUT", (id) => `/api/farms/${id}`, () => ({ name: "Oyster House", location: "Byblos" })],
    ["PUT /api/mcus/{id}", "PUT", (id) => `/api/mcus/${id}`, () => ({ name: "Room A", mac: seed.mcu.mac, farm_id: seed.farm.farm_id })],
    [
      "PUT /api/controllers/{id}",
      "PUT",
      (id) => `/api/controllers/${id}`,
      () => ({ name: "Mist 1", mac: seed.controller.mac, type: seed.controller.type, mcu_id: seed.mcu.mcu_id }),
    ],
    [
      "PUT /api/sensors/{id}",
      "PUT",
      (id) => `/api/sensors/${id}`,
      () => ({ name: "CO2 left", mac: seed.sensor.mac, type: seed.sensor.type, mcu_id: seed.mcu.mcu_id }),
    ],
    ["PUT /api/setting-profiles/{id}", "PUT", (id) => `/api/setting-profiles/${id}`, () => ({ name: "Pinning", client_id: c.clientId, config: sampleConfig })],
    ["DELETE /api/farms/{id}", "DELETE", (id) => `/api/farms/${id}`, undefined],
    ["DELETE /api/mcus/{id}", "DELETE", (id) => `/api/mcus/${id}`, undefined],
    ["DELETE /api/controllers/{id}", "DELETE", (id) => `/api/controllers/${id}`, undefined],
    ["DELETE /api/sensors/{id}", "DELETE", (id) => `/api/sensors/${id}`, undefined],
    ["DELETE /api/setting-profiles/{id}", "DELETE", (id) => `/api/setting-profiles/${id}`, undefined],
    ["DELETE /api/setting-profiles/link/{id}", "DELETE", (id) => `/api/setting-profiles/link/${id}`, undefined],
  ];

  const cases = idRoutes.flatMap(([label, method, url, body]) =>
    badIds.map((id) => [`${label} with id ${JSON.stringify(id)}`, method, url(id), body] as const),
  );

  it.each(cases)("%s -> 4xx with a message", async (_name, method, url, body) => {
    const res = await raw(method, url, body ? JSON.stringify(body()) : undefined);
    expectClientError(res);
  });

  it("nothing of the client's was deleted by the bad-id DELETEs", async () => {
    const mcus = (await c.get(`/api/mcus/by-client/${c.clientId}`)).json() as { mcu_id: number; controllers: { unit_id: number }[] }[];
    const seeded = mcus.find((m) => m.mcu_id === seed.mcu.mcu_id);
    expect(seeded).toBeDefined();
    expect(seeded!.controllers.map((x) => x.unit_id)).toContain(seed.controller.unit_id);
  });

  it.each([
    ["controllers", "/api/controllers/scan-mac/not-a-mac"],
    ["controllers", "/api/controllers/scan-mac/12:34"],
    ["sensors", "/api/sensors/scan-mac/not-a-mac"],
  ])("GET %s scan-mac of a non-MAC (%s) -> 400 Invalid MAC address format", async (_kind, url) => {
    expectMessage(await c.get(url), "Invalid MAC address format");
  });

  it("a scan of the client's own controller in dashed lower case finds it", async () => {
    const res = await c.get(`/api/controllers/scan-mac/${seed.controller.mac.toLowerCase().replace(/:/g, "-")}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().unit_id).toBe(seed.controller.unit_id);
  });
});

describe("origin check on state-changing requests", () => {
  const evil = "https://evil.example";
  const allowed = "https://farm.example.com";

  async function farmNames(): Promise<string[]> {
    return ((await c.get(`/api/farms/myfarms/get?client_id=${c.clientId}`)).json() as { name: string }[]).map((f) => f.name);
  }

  it("POST from another origin -> 403 and nothing is created; from the allowed origin -> 201", async () => {
    const body = JSON.stringify({ name: "Origin Farm", location: "Tyre", client_id: c.clientId });
    const refused = await raw("POST", "/api/farms", body, { origin: evil });
    expectClientError(refused, 403);
    expect(await farmNames()).not.toContain("Origin Farm");

    const accepted = await raw("POST", "/api/farms", body, { origin: allowed });
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(await farmNames()).toContain("Origin Farm");
  });

  it("PUT from another origin -> 403; from the allowed origin -> 200", async () => {
    const body = JSON.stringify({ name: "Oyster House", location: "Evil Town" });
    expectClientError(await raw("PUT", `/api/farms/${seed.farm.farm_id}`, body, { origin: evil }), 403);
    const res = await raw("PUT", `/api/farms/${seed.farm.farm_id}`, JSON.stringify({ name: "Oyster House", location: "Byblos" }), { origin: allowed });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().location).toBe("Byblos");
  });

  it("DELETE from another origin -> 403 and the farm stays; from the allowed origin -> 200", async () => {
    const farm = (await c.post("/api/farms", { name: "Doomed Farm", location: "Sidon", client_id: c.clientId })).json();
    expectClientError(await raw("DELETE", `/api/farms/${farm.farm_id}`, undefined, { origin: evil }), 403);
    expect(await farmNames()).toContain("Doomed Farm");
    const res = await raw("DELETE", `/api/farms/${farm.farm_id}`, undefined, { origin: allowed });
    expect(res.statusCode, res.body).toBe(200);
    expect(await farmNames()).not.toContain("Doomed Farm");
  });

  it("login from another origin -> 403 without a session cookie", async () => {
    const res = await raw("POST", "/api/clients/login", JSON.stringify({ username: c.registration.username, password: c.registration.password }), {
      origin: evil,
      withCookie: false,
    });
    expectClientError(res, 403);
    expect(res.headers["set-cookie"]).toBeUndefined();
  });
});

describe("after all the bad input", () => {
  it("the server still answers and the session still works", async () => {
    const res = await c.get("/api/clients/me");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().client_id).toBe(c.clientId);
    const mcus = await c.get(`/api/mcus/by-client/${c.clientId}`);
    expect(mcus.statusCode).toBe(200);
  });
});
