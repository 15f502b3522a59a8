import { refusal } from "../errors.ts";
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
  /** How many of those one source (address) may hold: one source cannot fill the queue. */
  maxWaitingPerSource?: number;
}

export interface PasswordHasher {
  /** `source` (the request's address) takes its turn with the other sources while slots are full. */
  hash(password: string, source?: string): Promise<string>;
  /** True when `password` matches `stored`; hashes a dummy when `stored` is undefined so timing says nothing. */
  verify(password: string, stored: string | undefined, source?: string): Promise<boolean>;
}

const KEY_LENGTH = 32;
const R = 8;
const P = 1;
const BUSY = "The server is busy. Please try again in a moment.";

/** scrypt hashes stored as `scrypt$log2N$r$p$salt$key` (base64url), so the cost can rise later. */
export function createPasswordHasher({ log2N = 17, concurrency = 2, maxWaiting = 64, maxWaitingPerSource = 4 }: PasswordHasherOptions = {}): PasswordHasher {
  let running = 0;
  // Waiting hashes by source, served round robin: a source that floods waits behind its own
  // requests, not in front of everyone else's. A Map keeps insertion order: the next source served
  // is the first key, which then goes to the back.
  const waiting = new Map<string, (() => void)[]>();
  let waitingCount = 0;
  function admitNext() {
    const first = waiting.entries().next();
    if (first.done) return;
    const [source, queue] = first.value;
    waiting.delete(source);
    const resolve = queue.shift()!;
    if (queue.length) waiting.set(source, queue);
    waitingCount--;
    resolve();
  }
  async function limited<T>(work: () => Promise<T>, source: string): Promise<T> {
    if (running >= concurrency) {
      const queue = waiting.get(source) ?? [];
      if (waitingCount >= maxWaiting || queue.length >= maxWaitingPerSource) throw refusal("RATE_LIMITED", "server_busy", BUSY);
      waiting.set(source, queue);
      waitingCount++;
      await new Promise<void>((resolve) => queue.push(resolve));
    }
    running++;
    try {
      return await work();
    } finally {
      running--;
      admitNext();
    }
  }
  const derive = (password: string, salt: Buffer, n: number, r: number, p: number, source = "") =>
    limited(() => scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 }), source);

  const dummy = `scrypt$${log2N}$${R}$${P}$${randomBytes(16).toString("base64url")}$${randomBytes(KEY_LENGTH).toString("base64url")}`;

  return {
    async hash(password, source) {
      const salt = randomBytes(16);
      const key = await derive(password, salt, 2 ** log2N, R, P, source);
      return `scrypt$${log2N}$${R}$${P}$${salt.toString("base64url")}$${key.toString("base64url")}`;
    },
    async verify(password, stored, source) {
      const [scheme, logN, r, p, salt, key] = (stored ?? dummy).split("$");
      if (scheme !== "scrypt" || !salt || !key) return false;
      const expected = Buffer.from(key, "base64url");
      const actual = await derive(password, Buffer.from(salt, "base64url"), 2 ** Number(logN), Number(r), Number(p), source);
      return stored !== undefined && actual.length === expected.length && timingSafeEqual(actual, expected);
    },
  };
}
