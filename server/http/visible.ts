import type { FastifyInstance } from "fastify";

/**
 * What a person may see across accounts: their own account whole, and of each other account the
 * farms they are a member of. A person who is no member anywhere sees their own account only, and
 * every list is answered exactly as before teams.
 */
export interface Visible {
  /** The accounts, the person's own first; `farms` null: the whole account (their own). */
  accounts: { tenant: number; farms: ReadonlySet<number> | null }[];
}

export async function visibleTo(app: FastifyInstance, person: number): Promise<Visible> {
  if (!(await app.repos.team.isMemberAnywhere(person))) return { accounts: [{ tenant: person, farms: null }] };
  const byTenant = new Map<number, Set<number>>();
  for (const r of await app.repos.team.farmRoles(person)) {
    if (r.owner_id === person) continue;
    let farms = byTenant.get(r.owner_id);
    if (!farms) byTenant.set(r.owner_id, (farms = new Set()));
    farms.add(r.farm_id);
  }
  return { accounts: [{ tenant: person, farms: null }, ...[...byTenant].map(([tenant, farms]) => ({ tenant, farms }))] };
}

/**
 * One list over every visible account: each account's list (`load`), kept where `farmOf` names a
 * visible farm (one of them, for an item on several). An item of no farm (`farmOf` null: a profile,
 * a recipe, a device on no MCU) is kept in any account the person sees.
 */
export async function visibleList<T>(app: FastifyInstance, person: number, load: (tenant: number) => Promise<T[]>, farmOf: (item: T) => number | readonly number[] | null): Promise<T[]> {
  const { accounts } = await visibleTo(app, person);
  if (accounts.length === 1) return load(person);
  const lists = await Promise.all(
    accounts.map(async ({ tenant, farms }) => {
      const items = await load(tenant);
      if (farms === null) return items;
      return items.filter((item) => {
        const farm = farmOf(item);
        if (farm === null) return true;
        return typeof farm === "number" ? farms.has(farm) : farm.length === 0 || farm.some((f) => farms.has(f));
      });
    }),
  );
  return lists.flat();
}
