import { createECDH, createPublicKey, createDecipheriv, hkdfSync, randomBytes, verify } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One push as the fake push service received it. */
export interface ReceivedPush {
  /** The endpoint's path (`/push/<name>`). */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface FakePushService {
  /** http://127.0.0.1:port */
  origin: string;
  /** A subscription endpoint of this service. */
  endpoint(name: string): string;
  received: ReceivedPush[];
  /** From now on, pushes to `name` are answered `status` (201 by default: taken). */
  answer(name: string, status: number): void;
  /** Resolves once `count` pushes have been received in all. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** A stand-in for a browser vendor's push service (RFC 8030) on 127.0.0.1: it records each push and answers 201, or what it is told. */
export async function startFakePushService(): Promise<FakePushService> {
  const received: ReceivedPush[] = [];
  const answers = new Map<string, number>();
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "";
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      for (const w of waiters) w();
      res.writeHead(answers.get(path.replace(/^\/push\//, "")) ?? 201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    endpoint: (name) => `${origin}/push/${name}`,
    received,
    answer: (name, status) => void answers.set(name, status),
    waitFor(count, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the push service received ${received.length} pushes, not ${count}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A browser's side of a subscription: its P-256 key pair and auth secret, the JSON the app PUTs
 * (as `PushSubscription.toJSON()`), and the decryption a browser does of what arrives (RFC 8291,
 * aes128gcm, one record): what was pushed can only be read with these keys.
 */
export function browserSubscription(endpoint: string) {
  const ecdh = createECDH("prime256v1");
  const publicKey = ecdh.generateKeys();
  const authSecret = randomBytes(16);
  return {
    json: { endpoint, expirationTime: null, keys: { p256dh: publicKey.toString("base64url"), auth: authSecret.toString("base64url") } },
    decrypt(body: Buffer): string {
      const salt = body.subarray(0, 16);
      const idLength = body[20]!;
      const serverKey = body.subarray(21, 21 + idLength);
      const record = body.subarray(21 + idLength);
      const secret = ecdh.computeSecret(serverKey);
      const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), publicKey, serverKey]);
      const ikm = Buffer.from(hkdfSync("sha256", secret, authSecret, keyInfo, 32));
      const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
      const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
      const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
      decipher.setAuthTag(record.subarray(record.length - 16));
      const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
      // The last record ends with the delimiter 0x02, then any padding of zeros.
      let end = padded.length;
      while (end > 0 && padded[end - 1] === 0) end--;
      return padded.subarray(0, end - 1).toString("utf8");
    },
  };
}

/**
 * The VAPID header of a push (RFC 8292: `Authorization: vapid t=<JWT>, k=<public key>`): the
 * JWT's claims, the key it names, and whether the JWT's ES256 signature holds for that key.
 */
export function vapidOf(authorization: string | undefined): { claims: { aud: string; exp: number; sub: string }; publicKey: string; signed: boolean } {
  const m = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization ?? "");
  if (!m) throw new Error(`not a VAPID Authorization header: ${authorization}`);
  const [jwt, publicKey] = [m[1]!, m[2]!];
  const [header, claims, signature] = jwt.split(".") as [string, string, string];
  const raw = Buffer.from(publicKey, "base64url");
  const key = createPublicKey({ key: { kty: "EC", crv: "P-256", x: raw.subarray(1, 33).toString("base64url"), y: raw.subarray(33, 65).toString("base64url") }, format: "jwk" });
  const signed = verify("sha256", Buffer.from(`${header}.${claims}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url"));
  return { claims: JSON.parse(Buffer.from(claims, "base64url").toString("utf8")), publicKey, signed };
}
