import { historyRepo } from "../history/history-repo.ts";
import { alertsRepo } from "./alerts-repo.ts";
import { batchesRepo } from "./batches-repo.ts";
import { clientsRepo } from "./clients-repo.ts";
import type { Database, Sql } from "./database.ts";
import { farmsRepo } from "./farms-repo.ts";
import { inventoryRepo } from "./inventory-repo.ts";
import { mcusRepo } from "./mcus-repo.ts";
import { notificationsRepo } from "./notifications-repo.ts";
import { CONTROLLERS, peripheralsRepo, SENSORS } from "./peripherals-repo.ts";
import { preferencesRepo } from "./preferences-repo.ts";
import { profilesRepo } from "./profiles-repo.ts";
import { pushDeliveriesRepo } from "./push-deliveries-repo.ts";
import { recipesRepo } from "./recipes-repo.ts";
import { sessionsRepo } from "./sessions-repo.ts";
import { teamRepo } from "./team-repo.ts";
import { webPushRepo } from "./web-push-repo.ts";
import { auditRepo } from "./audit-repo.ts";
import { rotaRepo } from "./rota-repo.ts";

/** The repositories the API reads and writes through, each over the same connection (or transaction). */
function repositoriesOf(sql: Sql, now: () => Date) {
  return {
    clients: clientsRepo(sql),
    sessions: sessionsRepo(sql),
    farms: farmsRepo(sql, now),
    mcus: mcusRepo(sql),
    controllers: peripheralsRepo(sql, CONTROLLERS),
    sensors: peripheralsRepo(sql, SENSORS),
    profiles: profilesRepo(sql),
    recipes: recipesRepo(sql),
    batches: batchesRepo(sql),
    team: teamRepo(sql),
    audit: auditRepo(sql),
    rota: rotaRepo(sql),
    notifications: notificationsRepo(sql),
    preferences: preferencesRepo(sql),
    inventory: inventoryRepo(sql),
    history: historyRepo(sql),
    webPush: webPushRepo(sql),
    pushDeliveries: pushDeliveriesRepo(sql),
  };
}

export type TransactionRepositories = ReturnType<typeof repositoriesOf>;

export type Repositories = TransactionRepositories & {
  /** Runs `work` in one transaction, with every repository over it. */
  transaction<T>(work: (repos: TransactionRepositories) => Promise<T>): Promise<T>;
  /** Alarms: each of their changes is its own transaction (alerts-repo.ts). */
  alerts: ReturnType<typeof alertsRepo>;
  /** History reads that yield to every other query of this node (CSV exports: background-lane.ts). */
  bulkHistory: ReturnType<typeof historyRepo>;
  /** Audit reads that yield to every other query of this node (its CSV export). */
  bulkAudit: ReturnType<typeof auditRepo>;
};

/** Every repository of the API over `db`, built once per server. */
export function createRepositories(db: Database, now: () => Date): Repositories {
  return {
    ...repositoriesOf(db, now),
    transaction: (work) => db.transaction((tx) => work(repositoriesOf(tx, now))),
    alerts: alertsRepo(db),
    bulkHistory: historyRepo(db.background),
    bulkAudit: auditRepo(db.background),
  };
}
