import { AppError } from "../errors.ts";
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from "node:crypto";

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export interface PasswordHasherOptions {
  /** log2 of scrypt's N. OWASP's minimum is N = 2^17 with r = 8, p = 1 (128 MiB per hash). */
  log2N?: number;
  /** How many hashes may run at once: each holds 128·N·r bytes, so this caps memory and CPU. */
  concurrency?: number;
  /** How many hashes may wait for a slot; beyond that the request is refused as busy (429). */
  maxWaiting?: number;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** True when `password` matches `stored`; hashes a dummy when `stored` is undefined so timing says nothing. */
  verify(password: string, stored: string | undefined): Promise<boolean>;
}

const KEY_LENGTH = 32;
const R = 8;
const P = 1;

/** scrypt hashes stored as `scrypt$log2N$r$p$salt$key` (base64url), so the cost can rise later. */
export function createPasswordHasher({ log2N = 17, concurrency = 2, maxWaiting = 64 }: PasswordHasherOptions = {}): PasswordHasher {
  let running = 0;
  const waiting: (() => void)[] = [];
  async function limited<T>(work: () => Promise<T>): Promise<T> {
    if (running >= concurrency) {
      if (waiting.length >= maxWaiting) throw new AppError("RATE_LIMITED", "The server is busy. Please try again in a moment.");
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    running++;
    try {
      return await work();
    } finally {
      running--;
      waiting.shift()?.();
    }
  }
  const derive = (password: string, salt: Buffer, n: number, r: number, p: number) =>
    limited(() => scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 }));

  const dummy = `scrypt$${log2N}$${R}$${P}$${randomBytes(16).toString("base64url")}$${randomBytes(KEY_LENGTH).toString("base64url")}`;

  return {
    async hash(password) {
      const salt = randomBytes(16);
      const key = await derive(password, salt, 2 ** log2N, R, P);
      return `scrypt$${log2N}$${R}$${P}$${salt.toString("base64url")}$${key.toString("base64url")}`;
    },
    async verify(password, stored) {
      const [scheme, logN, r, p, salt, key] = (stored ?? dummy).split("$");
      if (scheme !== "scrypt" || !salt || !key) return false;
      const expected = Buffer.from(key, "base64url");
      const actual = await derive(password, Buffer.from(salt, "base64url"), 2 ** Number(logN), Number(r), Number(p));
      return stored !== undefined && actual.length === expected.length && timingSafeEqual(actual, expected);
    },
  };
}
