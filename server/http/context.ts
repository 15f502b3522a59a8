import type { Alarm } from "../../src/contract/alarms-values.ts";
import type { Notification } from "../../src/contract/entities.ts";
import type { NodeMetrics } from "../metrics.ts";
import type { Database } from "../db/database.ts";
import type { ClaimGuard } from "../auth/claim-guard.ts";
import type { LoginGuard } from "../auth/login-guard.ts";
import type { PasswordHasher } from "../auth/password.ts";
import type { Sessions } from "./session.ts";

/** Notified after a change the device side (the device gateway) must act on. */
export interface DomainEvents {
  /** A profile was linked, unlinked or edited: the MCU's config must be republished. */
  profileChanged?(clientId: number, mcuIds: number[]): void;
  /** A session ended (sign-out, password change): its sockets must close. */
  sessionEnded?(idHash: string): void;
  /** MCUs of a client were added, changed or deleted: caches keyed by MAC must forget them. */
  mcusChanged?(clientId: number): void;
  /**
   * A client registered an MCU under this MAC (new, or an MCU moved to another device): whatever
   * the device said before it was claimed (its retained status) must be heard again.
   */
  mcuClaimed?(clientId: number, mac: string): void;
  /**
   * A client gave an MCU's device back (deleted the MCU, or moved it to another device): its
   * retained config must go and its device key is rotated, so nothing of this owner reaches the next.
   */
  mcuReleased?(mac: string): void;
  /** A notification was stored for a client: it goes to the client's open apps (and push). */
  notified?(clientId: number, notification: Notification): void;
  /** An alarm changed through the API (acknowledged): its whole new state goes to the client's open apps. */
  alarmChanged?(clientId: number, alarm: Alarm): void;
  /** A client stored new notification preferences: this node's copy of them must go. */
  preferencesChanged?(clientId: number): void;
  /** This node's counters, once the gateway and sockets run (`GET /api/metrics`). */
  metrics?(): NodeMetrics;
}

/** What every route module receives. */
export interface RouteContext {
  db: Database;
  hasher: PasswordHasher;
  sessions: Sessions;
  now: () => Date;
  events: DomainEvents;
  loginGuard: LoginGuard;
  /** Sign-in and registration attempts one address may make per minute. */
  perAddressPerMinute: number;
  /** Refused MCU claims (wrong MAC or claim code) per account and address. */
  claimGuard: ClaimGuard;
}
