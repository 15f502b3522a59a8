import { act, useState } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, describe, expect, it } from "vitest";
import { page, userEvent } from "vitest/browser";
import { startTexts } from "../../test-support/i18n.ts";
import { COUNTRIES, findCountry, flagUrl } from "./countries.ts";
import { CountrySelect } from "./country-select.tsx";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;
let host: HTMLElement | null = null;

async function render(node: React.ReactNode) {
  host = document.createElement("div");
  document.body.append(host);
  root = createRoot(host);
  await act(async () => root!.render(node));
}

afterEach(async () => {
  await act(async () => root?.unmount());
  host?.remove();
  root = null;
  host = null;
});

const select = () => page.getByLabelText("Country", { exact: true }).element() as HTMLSelectElement;
const flag = () => host!.querySelector("img");
/** Picks an option as a person does (real input events), letting React settle inside act. */
const choose = (code: string) => act(async () => void (await userEvent.selectOptions(select(), code)));

/** Resolves once the flag image has really been fetched and decoded. */
async function loaded(img: HTMLImageElement) {
  await expect.poll(() => img.complete && img.naturalWidth > 0, { timeout: 5000 }).toBe(true);
}

describe("CountrySelect", () => {
  it("starts on Lebanon with the Lebanese flag shown", async () => {
    await render(<CountrySelect />);
    expect(select().value).toBe("LB");
    expect(select().name).toBe("country");
    const img = flag()!;
    expect(img.alt).toBe("Flag of Lebanon");
    expect(img.getAttribute("src")).toContain("lb.svg");
    await loaded(img);
  });

  it("ties the visible label Country to the select", async () => {
    await render(<CountrySelect />);
    const labels = [...select().labels!];
    expect(labels.map((l) => l.textContent)).toEqual(["Country"]);
  });

  it("offers the placeholder first, then about 250 countries and territories", async () => {
    await render(<CountrySelect />);
    const options = [...select().options];
    expect(options[0]!.value).toBe("");
    expect(options[0]!.textContent).toBe("Select your country");
    expect(options.length - 1).toBe(COUNTRIES.length);
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(245);
    expect(COUNTRIES.length).toBeLessThanOrEqual(255);
    const names = options.slice(1).map((o) => o.textContent!);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en")));
    expect(new Set(options.map((o) => o.value)).size).toBe(options.length);
  });

  it("changes the value and the flag when another country is chosen", async () => {
    await render(<CountrySelect />);
    await choose("FR");
    expect(select().value).toBe("FR");
    await expect.poll(() => flag()?.alt).toBe("Flag of France");
    expect(flag()!.getAttribute("src")).toContain("fr.svg");
    await loaded(flag()!);

    await choose("");
    await expect.poll(() => flag()).toBeNull();
  });

  it("follows a form reset back to its default", async () => {
    await render(
      <form>
        <CountrySelect defaultValue="JP" />
      </form>,
    );
    expect(flag()!.alt).toBe("Flag of Japan");
    await choose("BR");
    await expect.poll(() => flag()?.alt).toBe("Flag of Brazil");
    await act(async () => host!.querySelector("form")!.reset());
    await expect.poll(() => flag()?.alt).toBe("Flag of Japan");
    expect(select().value).toBe("JP");
  });

  it("works controlled, and shows an error tied to the select", async () => {
    function Controlled() {
      const [code, setCode] = useState("DE");
      return (
        <>
          <CountrySelect value={code} onChange={(e) => setCode(e.target.value)} error={code ? undefined : "Please select your country"} />
          <output>{code}</output>
        </>
      );
    }
    await render(<Controlled />);
    expect(flag()!.alt).toBe("Flag of Germany");
    await choose("");
    await expect.poll(() => host!.querySelector("output")!.textContent).toBe("");
    expect(select().getAttribute("aria-invalid")).toBe("true");
    const error = document.getElementById(select().getAttribute("aria-describedby")!);
    expect(error?.textContent).toBe("Please select your country");
    await choose("KE");
    await expect.poll(() => flag()?.alt).toBe("Flag of Kenya");
    expect(select().hasAttribute("aria-invalid")).toBe(false);
  });
});

describe("CountrySelect in another language", () => {
  afterEach(() => act(() => startTexts()));

  it("names and sorts the countries in the person's language, and keeps the same codes", async () => {
    await startTexts({ language: "fr", digits: "latn" });
    await render(<CountrySelect />);
    const s = page.getByLabelText("Pays", { exact: true }).element() as HTMLSelectElement;
    expect(s.value).toBe("LB");
    expect(flag()!.alt).toBe("Drapeau : Liban");
    expect(s.options[0]!.textContent).toBe("Choisissez votre pays");
    expect([...s.options].find((o) => o.value === "DE")?.textContent).toBe("Allemagne");
    const names = [...s.options].slice(1).map((o) => o.textContent!);
    expect(names).toEqual([...names].sort(new Intl.Collator("fr").compare));
    expect(new Set([...s.options].slice(1).map((o) => o.value))).toEqual(new Set(COUNTRIES.map((c) => c.countryCode)));
  });

  it("names them in Arabic for an Arabic reader", async () => {
    await startTexts({ language: "ar", digits: "latn" });
    await render(<CountrySelect />);
    const s = page.getByLabelText("البلد", { exact: true }).element() as HTMLSelectElement;
    expect([...s.options].find((o) => o.value === "LB")?.textContent).toBe("لبنان");
  });
});

describe("the country list (SPEC §3 Country entry)", () => {
  it("has every field, a shipped flag for each country, and real populations", async () => {
    const continents = new Set(["Africa", "Antarctica", "Asia", "Europe", "North America", "Oceania", "South America"]);
    for (const c of COUNTRIES) {
      expect(c.countryCode, c.countryName).toMatch(/^[A-Z]{2}$/);
      expect(c.countryName.length, c.countryCode).toBeGreaterThan(1);
      expect(continents.has(c.continentName), c.countryCode).toBe(true);
      expect(c.dialCode, c.countryCode).toMatch(/^\+\d{1,4}$/);
      if (c.currencyCode !== null) expect(c.currencyCode, c.countryCode).toMatch(/^[A-Z]{3}$/);
      if (c.population !== null) expect(Number.isInteger(c.population) && c.population >= 0, c.countryCode).toBe(true);
      expect(flagUrl(c.countryCode), c.countryCode).toBeTruthy();
    }
    expect(COUNTRIES.filter((c) => c.population === null).map((c) => c.countryCode).sort()).toEqual(["AX", "BQ"]);
    expect(findCountry("lb")).toMatchObject({ countryName: "Lebanon", capital: "Beirut", currencyCode: "LBP", dialCode: "+961", continentName: "Asia" });
  });
});
