import type { Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO, expectToast, signIn, startDemoApp, VIEWPORTS, type DemoApp } from "./support/app-harness.ts";

/** The error text tied to a control by aria-describedby (so the message belongs to that field). */
async function errorOf(page: Page, label: string): Promise<string | null> {
  const control = page.getByLabel(label, { exact: true });
  await expect.poll(() => control.getAttribute("aria-describedby"), { message: `an error on ${label}` }).not.toBeNull();
  const id = (await control.getAttribute("aria-describedby"))!;
  return page.locator(`[id="${id}"]`).textContent();
}

const storedClient = (page: Page) => page.evaluate("localStorage.getItem('client')") as Promise<string | null>;

async function fillRegistration(page: Page, values: { username: string; email: string; password: string; confirm: string; mobile: string; country?: string; address: string }) {
  await page.getByLabel("Username", { exact: true }).fill(values.username);
  await page.getByLabel("Email", { exact: true }).fill(values.email);
  await page.getByLabel("Password", { exact: true }).fill(values.password);
  await page.getByLabel("Confirm Password", { exact: true }).fill(values.confirm);
  await page.getByLabel("Mobile", { exact: true }).fill(values.mobile);
  if (values.country) await page.getByLabel("Country", { exact: true }).selectOption(values.country);
  await page.getByLabel("Address", { exact: true }).fill(values.address);
}

describe("sign in, registration and sign out", () => {
  let app: DemoApp;

  beforeAll(async () => {
    app = await startDemoApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("shows every registration rule of SPEC §5 under its field", async () => {
    const { context, page } = await app.newPage("laptop");
    await page.goto("/register");
    await page.getByRole("heading", { name: "Create Account" }).waitFor();
    expect(await page.getByLabel("Country", { exact: true }).inputValue()).toBe("LB");

    await page.getByLabel("Country", { exact: true }).selectOption("");
    await page.getByRole("button", { name: "Create Account" }).click();
    expect(await errorOf(page, "Username")).toBe("Username is required");
    expect(await errorOf(page, "Email")).toBe("Email is required");
    expect(await errorOf(page, "Password")).toBe("Password is required");
    expect(await errorOf(page, "Confirm Password")).toBe("Please confirm your password");
    expect(await errorOf(page, "Mobile")).toBe("Mobile number is required");
    expect(await errorOf(page, "Country")).toBe("Please select your country");
    expect(await errorOf(page, "Address")).toBe("Address is required");
    expect(new URL(page.url()).pathname).toBe("/register");
    await page.screenshot({ path: "test-results/auth-register-errors-laptop.png", fullPage: true });

    await fillRegistration(page, { username: "ab", email: "not-an-address", password: "short", confirm: "shorter", mobile: "call me", country: "LB", address: "Main road" });
    await expect.poll(() => errorOf(page, "Username")).toBe("Username must be at least 3 characters");
    await expect.poll(() => errorOf(page, "Email")).toBe("Invalid email address");
    await expect.poll(() => errorOf(page, "Password")).toBe("Password must be at least 8 characters");
    await expect.poll(() => errorOf(page, "Mobile")).toBe("Invalid mobile number");
    // With every other field valid, only the confirmation is left to fail.
    await fillRegistration(page, { username: "abc", email: "abc@example.com", password: "long-enough-1", confirm: "long-enough-2", mobile: "+961 70 123 456", address: "Main road" });
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect.poll(() => errorOf(page, "Confirm Password")).toBe("Passwords do not match");
    // Nothing was sent: still here, and no account toast.
    expect(new URL(page.url()).pathname).toBe("/register");
    await context.close();
  });

  it("registers a new farmer, lands on /login with the welcome toast, and the account signs in", async () => {
    const { context, page } = await app.newPage("phone");
    const username = `farmer_${Date.now()}`;
    await page.goto("/register");
    await fillRegistration(page, {
      username,
      email: `${username}@example.com`,
      password: "oyster-caps-2024",
      confirm: "oyster-caps-2024",
      mobile: "+33 (1) 23-45-67",
      country: "FR",
      address: "12 rue des Champignons\nLyon",
    });
    await expect.poll(() => page.getByRole("img", { name: "Flag of France" }).isVisible()).toBe(true);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expectToast(page, "Welcome, Registration is Successfull !");
    await page.waitForURL("**/login");

    await signIn(page, username, "oyster-caps-2024");
    const client = JSON.parse((await storedClient(page))!) as Record<string, unknown>;
    expect(client).toMatchObject({ username, email: `${username}@example.com`, mobile: "+33 (1) 23-45-67", country: "FR", address: "12 rue des Champignons\nLyon" });
    await context.close();
  });

  it("says a taken username is taken, top-centre as SPEC's registration error, and stays on /register", async () => {
    const { context, page } = await app.newPage("phone");
    await page.goto("/register");
    await fillRegistration(page, { username: DEMO.username.toUpperCase(), email: "someone-else@example.com", password: "grow-more-9", confirm: "grow-more-9", mobile: "70 123 456", address: "Bekaa" });
    const answered = page.waitForResponse((r) => r.url().endsWith("/api/clients") && r.request().method() === "POST");
    await page.getByRole("button", { name: "Create Account" }).click();
    expect((await answered).status()).toBe(409);
    const taken = "That username is taken. Choose another.";
    await expectToast(page, taken);
    expect(await page.locator(".Toastify__toast-container--top-center").getByRole("alert").filter({ hasText: taken }).count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe("/register");
    // What was typed stays, so only the username needs changing.
    expect(await page.getByLabel("Email", { exact: true }).inputValue()).toBe("someone-else@example.com");
    expect(await storedClient(page)).toBeNull();
    await context.close();
  });

  it("shows the server's own message top-centre for 3 s when it refuses a registration", async () => {
    // A server that takes one registration a minute from an address: the second is refused with its reason.
    const strict = await startDemoApp({ DEMO: "0", LOGIN_ATTEMPTS_PER_MINUTE: "1" });
    try {
      const { context, page } = await strict.newPage("phone");
      for (const n of [1, 2]) {
        await page.goto("/register");
        await fillRegistration(page, { username: `new_grower_${n}`, email: `new_grower_${n}@example.com`, password: "grow-more-9", confirm: "grow-more-9", mobile: "70 123 456", address: "Bekaa" });
        await page.getByRole("button", { name: "Create Account" }).click();
        if (n === 1) await page.waitForURL("**/login");
      }
      // (Within a second of the first, the minute's wait is "1 minute"; after that, seconds.)
      const refused = /^Too many attempts from your network\. Try again in (\d+ seconds?|1 minute)\.$/;
      await expectToast(page, refused);
      const toast = page.locator(".Toastify__toast-container--top-center").getByRole("alert").filter({ hasText: refused });
      expect(await toast.count()).toBe(1);
      // The toast drops in with an animation: let it land before the screenshot.
      await toast.evaluate((el) => Promise.all((el as { getAnimations(): { finished: Promise<unknown> }[] }).getAnimations().map((a) => a.finished)));
      await page.screenshot({ path: "test-results/auth-register-refused-phone.png" });
      // react-toastify runs the progress bar for exactly the auto-close time.
      const bar = page.locator(".Toastify__toast-container--top-center .Toastify__progress-bar").first();
      expect(await bar.getAttribute("style")).toContain("animation-duration: 3000ms");
      expect(new URL(page.url()).pathname).toBe("/register");
      expect(await storedClient(page)).toBeNull();
      await context.close();
    } finally {
      await strict.stop();
    }
  });

  it("checks the login form, then refuses wrong credentials with SPEC §8's text", async () => {
    const { context, page } = await app.newPage("laptop");
    await page.goto("/login");
    await page.getByRole("heading", { name: "Welcome Back" }).waitFor();
    await page.getByRole("button", { name: "Sign In" }).click();
    expect(await errorOf(page, "Email or Username")).toBe("Email or username is required");
    expect(await errorOf(page, "Password")).toBe("Password is required");
    await page.getByLabel("Password", { exact: true }).fill("12345");
    await expect.poll(() => errorOf(page, "Password")).toBe("Password must be at least 6 characters");

    await page.getByLabel("Email or Username").fill(DEMO.username);
    await page.getByLabel("Password", { exact: true }).fill("not-the-password");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expectToast(page, "Invalid credentials or server error");
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(await storedClient(page)).toBeNull();
    await context.close();
  });

  it("says how long to wait once a username is locked after 5 failed sign-ins, beside SPEC's toast", async () => {
    const { context, page } = await app.newPage("phone");
    await page.goto("/login");
    await page.getByRole("heading", { name: "Welcome Back" }).waitFor();
    await page.getByLabel("Email or Username").fill("grower_who_forgot");
    await page.getByLabel("Password", { exact: true }).fill("not-the-password");
    const note = page.getByRole("alert").filter({ hasText: "Too many failed sign-in attempts" });
    for (let i = 0; i < 6; i++) {
      const answered = page.waitForResponse((r) => r.url().endsWith("/api/clients/login"));
      await page.getByRole("button", { name: "Sign In" }).click();
      expect((await answered).status()).toBe(i < 5 ? 401 : 429);
      if (i < 5) expect(await note.count()).toBe(0);
    }
    await expectToast(page, "Invalid credentials or server error");
    await note.waitFor();
    expect(await note.textContent()).toMatch(/^Too many failed sign-in attempts for this account\. Try again in \d+ seconds\.$/);
    await page.screenshot({ path: "test-results/auth-login-locked-phone.png", fullPage: true });
    expect(new URL(page.url()).pathname).toBe("/login");
    await context.close();
  });

  it("lets the owner in from a browser that signed in before while their account is locked, and nobody else", async () => {
    const username = `locked_owner_${Date.now() % 1_000_000}`;
    const password = "owner-pass-42";
    const res = await fetch(`${app.url}/api/clients`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username, email: `${username}@example.com`, password, confirmPassword: password, mobile: "70 123 456", country: "LB", address: "Byblos" }),
    });
    expect(res.status).toBe(201);
    // The owner's browser signs in once, then signs out.
    const owner = await app.newPage("laptop");
    await signIn(owner.page, username, password);
    await owner.page.getByRole("button", { name: "Sign Out" }).click();
    await owner.page.waitForURL("**/login");

    // Someone else guesses five times: the account is locked, even with the right password, for them.
    const other = await app.newPage("phone");
    await other.page.goto("/login");
    await other.page.getByLabel("Email or Username").fill(username);
    for (const guess of ["guess-one-1", "guess-two-2", "guess-three-3", "guess-four-4", "guess-five-5", password]) {
      await other.page.getByLabel("Password", { exact: true }).fill(guess);
      const answered = other.page.waitForResponse((r) => r.url().endsWith("/api/clients/login"));
      await other.page.getByRole("button", { name: "Sign In" }).click();
      expect((await answered).status()).toBe(guess === password ? 429 : 401);
    }
    await other.page.getByRole("alert").filter({ hasText: "Too many failed sign-in attempts for this account." }).waitFor();

    // The owner, from the browser that signed in before, gets in.
    await signIn(owner.page, username, password);
    expect(JSON.parse((await storedClient(owner.page))!)).toMatchObject({ username });
    await owner.context.close();
    await other.context.close();
  });

  it("signs in by email with a show/hide password and reaches the dashboard", async () => {
    const { context, page } = await app.newPage("laptop");
    await page.goto("/login");
    const password = page.getByLabel("Password", { exact: true });
    await password.fill(DEMO.password);
    expect(await password.getAttribute("type")).toBe("password");
    await page.getByRole("button", { name: "Show password" }).click();
    expect(await password.getAttribute("type")).toBe("text");
    await page.getByLabel("Email or Username").fill(DEMO.email);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expectToast(page, "Login successful!");
    await page.waitForURL("**/dashboard");
    expect(JSON.parse((await storedClient(page))!)).toMatchObject({ username: DEMO.username });
    await context.close();
  });

  it("sends a signed-out visitor of /mcu to /login", async () => {
    const { context, page } = await app.newPage("phone");
    await page.goto("/mcu");
    await page.waitForURL("**/login");
    await page.getByRole("heading", { name: "Welcome Back" }).waitFor();
    await context.close();
  });

  it("signs out from the sidebar: storage is emptied and client routes go back to /login", async () => {
    const { context, page } = await app.newPage("laptop");
    await signIn(page);
    await page.getByRole("button", { name: "Sign Out" }).click();
    await page.waitForURL("**/login");
    expect(await storedClient(page)).toBeNull();
    await page.goto("/dashboard");
    await page.waitForURL("**/login");
    await page.getByRole("heading", { name: "Welcome Back" }).waitFor();
    await context.close();
  });

  it("explains on /forgot-password how a password is changed, with a way back", async () => {
    const { context, page } = await app.newPage("phone");
    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.waitForURL("**/forgot-password");
    await page.getByText("Mushroom Farm cannot send password reset emails.").waitFor();
    expect(await page.locator("form").count()).toBe(0);
    await page.getByRole("link", { name: "Back to Sign In" }).click();
    await page.waitForURL("**/login");
    await page.getByRole("link", { name: "Sign Up" }).click();
    await page.waitForURL("**/register");
    await page.getByRole("link", { name: "Sign In" }).click();
    await page.waitForURL("**/login");
    await context.close();
  });

  for (const size of Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[]) {
    it(`fits login, register and forgot-password on a ${size} screen`, async () => {
      const { context, page } = await app.newPage(size);
      for (const [path, heading] of [
        ["/login", "Welcome Back"],
        ["/register", "Create Account"],
        ["/forgot-password", "Forgot your password?"],
      ] as const) {
        await page.goto(path);
        await page.getByRole("heading", { name: heading }).waitFor();
        if (path === "/register") await page.getByRole("img", { name: "Flag of Lebanon" }).waitFor();
        // No sideways scrolling, and the card sits in the middle of the screen.
        expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(VIEWPORTS[size].width);
        const box = (await page.locator("main").boundingBox())!;
        expect(Math.abs(box.x + box.width / 2 - VIEWPORTS[size].width / 2)).toBeLessThan(2);
        await page.screenshot({ path: `test-results/auth${path.replace("/", "-")}-${size}.png`, fullPage: true });
      }
      await context.close();
    });
  }
});
