import type { Client } from "../../src/contract/entities.ts";
import { DEFAULT_DIGITS, DEFAULT_LANGUAGE, type Digits, type Language } from "../../src/contract/language-values.ts";
import { isUniqueViolation, refusal } from "../errors.ts";
import type { Sql } from "./database.ts";
import { iso } from "./rows.ts";

interface ClientRow {
  client_id: number;
  username: string;
  email: string;
  mobile: string;
  country: string;
  address: string;
  fcm_token: string | null;
  language: Language;
  digits: Digits;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = "client_id, username, email, mobile, country, address, fcm_token, language, digits, created_at, updated_at";

/** The client as the API shows it: never the password hash. */
function toClient(row: ClientRow): Client {
  return {
    client_id: row.client_id,
    username: row.username,
    email: row.email,
    mobile: row.mobile,
    country: row.country,
    address: row.address,
    fcm_token: row.fcm_token,
    language: row.language,
    digits: row.digits,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

function conflictOf(err: unknown): never {
  if (isUniqueViolation(err, "clients_username_key")) throw refusal("CONFLICT", "username_taken", "Username is already taken");
  if (isUniqueViolation(err, "clients_email_key")) throw refusal("CONFLICT", "email_taken", "Email is already registered");
  throw err;
}

export interface NewClient {
  username: string;
  email: string;
  passwordHash: string;
  mobile: string;
  country: string;
  address: string;
  /** English with Western digits when not chosen. */
  language?: Language;
  digits?: Digits;
}

/** What a person reads: their language and digits (server/texts.ts writes in them). */
export interface Reader {
  language: Language;
  digits: Digits;
}

export interface ClientChanges {
  username?: string;
  email?: string;
  mobile?: string;
  country?: string;
  address?: string;
  fcm_token?: string | null;
  language?: Language;
  digits?: Digits;
}

export function clientsRepo(sql: Sql) {
  return {
    /** The client whose email this is (any case), if any. */
    async idOfEmail(email: string): Promise<number | undefined> {
      const [row] = await sql.query<{ client_id: number }>("select client_id from clients where lower(email) = lower($1)", [email]);
      return row?.client_id;
    },
    /** Whether an account signs in with this username (any case, as its unique index compares them). */
    async usernameTaken(username: string): Promise<boolean> {
      const [row] = await sql.query("select 1 from clients where lower(username) = lower($1)", [username]);
      return row !== undefined;
    },
    async create(c: NewClient): Promise<Client> {
      try {
        const [row] = await sql.query<ClientRow>(
          `insert into clients (username, email, password_hash, mobile, country, address, language, digits)
           values ($1, $2, $3, $4, $5, $6, $7, $8) returning ${COLUMNS}`,
          [c.username, c.email, c.passwordHash, c.mobile, c.country, c.address, c.language ?? DEFAULT_LANGUAGE, c.digits ?? DEFAULT_DIGITS],
        );
        return toClient(row!);
      } catch (err) {
        conflictOf(err);
      }
    },

    /** Finds a client by email or username, case-insensitively; an email match wins. */
    async findForLogin(name: string): Promise<{ client: Client; passwordHash: string } | undefined> {
      const [row] = await sql.query<ClientRow & { password_hash: string }>(
        `select ${COLUMNS}, password_hash from clients
         where lower(email) = lower($1) or lower(username) = lower($1)
         order by (lower(email) = lower($1)) desc limit 1`,
        [name],
      );
      return row && { client: toClient(row), passwordHash: row.password_hash };
    },

    async get(clientId: number): Promise<Client | undefined> {
      const [row] = await sql.query<ClientRow>(`select ${COLUMNS} from clients where client_id = $1`, [clientId]);
      return row && toClient(row);
    },

    async update(clientId: number, changes: ClientChanges, now: Date): Promise<Client | undefined> {
      const sets: string[] = [];
      const params: unknown[] = [clientId, now];
      for (const [column, value] of Object.entries(changes)) {
        if (value === undefined) continue;
        params.push(value);
        sets.push(`${column} = $${params.length}`);
        if (column === "fcm_token") sets.push("fcm_token_updated_at = $2");
      }
      try {
        const [row] = await sql.query<ClientRow>(
          `update clients set ${[...sets, "updated_at = $2"].join(", ")} where client_id = $1 returning ${COLUMNS}`,
          params,
        );
        return row && toClient(row);
      } catch (err) {
        conflictOf(err);
      }
    },

    /** The language and digits a client reads (English with Western digits for a client that is gone). */
    async readerOf(clientId: number): Promise<Reader> {
      const [row] = await sql.query<Reader>("select language, digits from clients where client_id = $1", [clientId]);
      return row ?? { language: DEFAULT_LANGUAGE, digits: DEFAULT_DIGITS };
    },

    async setPasswordHash(clientId: number, passwordHash: string, now: Date): Promise<void> {
      await sql.query("update clients set password_hash = $2, updated_at = $3 where client_id = $1", [clientId, passwordHash, now]);
    },

    /** The client whose username or email this is (any case), if any (provisioning's --claim-for). */
    async idOfUsernameOrEmail(name: string): Promise<number | undefined> {
      const [row] = await sql.query<{ client_id: number }>("select client_id from clients where lower(username) = lower($1) or lower(email) = lower($1)", [name]);
      return row?.client_id;
    },
  };
}
