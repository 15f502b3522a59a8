import type { ProfileConfig, ProfileLink, SettingProfile } from "../../src/contract/entities.ts";
import type { Sql } from "./database.ts";
import { groupBy, iso } from "./rows.ts";

interface ProfileRow {
  profile_id: number;
  client_id: number;
  name: string;
  config: ProfileConfig;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = "profile_id, client_id, name, config, created_at, updated_at";

/** Setting profiles of one client and their links to MCUs (one profile per MCU). */
export function profilesRepo(sql: Sql) {
  async function linksOf(clientId: number, profileId?: number) {
    return sql.query<{ id: number; mcu_id: number; profile_id: number }>(
      `select id, mcu_id, profile_id from profile_links where client_id = $1 ${profileId ? "and profile_id = $2" : ""} order by id`,
      profileId ? [clientId, profileId] : [clientId],
    );
  }

  function toProfile(row: ProfileRow, links: { id: number; mcu_id: number }[]): SettingProfile {
    return {
      profile_id: row.profile_id,
      name: row.name,
      client_id: row.client_id,
      config: row.config,
      mcu_links: links.map((l) => ({ id: l.id, mcu_id: l.mcu_id })),
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    };
  }

  async function get(clientId: number, profileId: number): Promise<SettingProfile | undefined> {
    const [row] = await sql.query<ProfileRow>(`select ${COLUMNS} from setting_profiles where client_id = $1 and profile_id = $2`, [clientId, profileId]);
    return row && toProfile(row, await linksOf(clientId, profileId));
  }

  return {
    get,

    async list(clientId: number): Promise<SettingProfile[]> {
      const [rows, links] = await Promise.all([
        sql.query<ProfileRow>(`select ${COLUMNS} from setting_profiles where client_id = $1 order by profile_id`, [clientId]),
        linksOf(clientId),
      ]);
      const byProfile = groupBy(links, (l) => l.profile_id);
      return rows.map((row) => toProfile(row, byProfile.get(row.profile_id) ?? []));
    },

    async create(clientId: number, name: string, config: ProfileConfig, now: Date): Promise<SettingProfile> {
      const [row] = await sql.query<ProfileRow>(
        `insert into setting_profiles (client_id, name, config, created_at, updated_at) values ($1, $2, $3, $4, $4) returning ${COLUMNS}`,
        [clientId, name, JSON.stringify(config), now],
      );
      return toProfile(row!, []);
    },

    async update(clientId: number, profileId: number, name: string, config: ProfileConfig, now: Date): Promise<SettingProfile | undefined> {
      const [row] = await sql.query<ProfileRow>(
        `update setting_profiles set name = $3, config = $4, updated_at = $5 where client_id = $1 and profile_id = $2 returning ${COLUMNS}`,
        [clientId, profileId, name, JSON.stringify(config), now],
      );
      return row && toProfile(row, await linksOf(clientId, profileId));
    },

    /** Deleting a profile also removes its links. */
    async delete(clientId: number, profileId: number): Promise<boolean> {
      const rows = await sql.query("delete from setting_profiles where client_id = $1 and profile_id = $2 returning 1", [clientId, profileId]);
      return rows.length > 0;
    },

    /** Links `profileId` to `mcuId`, replacing the MCU's previous link. Both must be the client's. */
    async link(clientId: number, mcuId: number, profileId: number): Promise<ProfileLink> {
      const [row] = await sql.query<{ id: number }>(
        `insert into profile_links (client_id, mcu_id, profile_id) values ($1, $2, $3)
         on conflict (mcu_id) do update set profile_id = excluded.profile_id, created_at = now()
         returning id`,
        [clientId, mcuId, profileId],
      );
      const profile = (await get(clientId, profileId))!;
      return { id: row!.id, mcu_id: mcuId, profile_id: profileId, profile: { profile_id: profileId, name: profile.name, config: profile.config } };
    },

    /** Removes a link of the client; answers the MCU it belonged to, or undefined if there was none. */
    async unlink(clientId: number, linkId: number): Promise<{ mcu_id: number } | undefined> {
      const [row] = await sql.query<{ mcu_id: number }>("delete from profile_links where client_id = $1 and id = $2 returning mcu_id", [clientId, linkId]);
      return row;
    },

    /** The device of an MCU and the config of the profile linked to it (null when none is): what its device is sent. */
    async deviceConfigOf(mcuId: number): Promise<{ mac: string; config: ProfileConfig | null } | undefined> {
      const [row] = await sql.query<{ mac: string; config: ProfileConfig | null }>(
        `select m.mac, p.config from mcus m
         left join profile_links l on l.mcu_id = m.mcu_id
         left join setting_profiles p on p.profile_id = l.profile_id
         where m.mcu_id = $1`,
        [mcuId],
      );
      return row;
    },

    /** Every MCU with a linked profile, every client's: its device and that profile's config. */
    async linkedDeviceConfigs(): Promise<{ mac: string; config: ProfileConfig }[]> {
      return sql.query<{ mac: string; config: ProfileConfig }>(
        `select m.mac, p.config from mcus m
         join profile_links l on l.mcu_id = m.mcu_id
         join setting_profiles p on p.profile_id = l.profile_id`,
      );
    },
  };
}
