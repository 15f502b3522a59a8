-- Alerts raised from device events (server/alerts): low battery, a reading outside the linked
-- profile, an MCU gone offline. One row per raised alert, kept after it is resolved, so the
-- repeat window and the history survive a restart. While an alert is not resolved its condition
-- is not raised again, whichever server node sees it and however often the server restarts; the
-- condition clearing resolves it, and the next occurrence raises a new row.
-- The states already name the whole lifecycle (open -> acknowledged -> resolved); today the server
-- only opens and resolves (acknowledging by a user came later, with the alarms).
create table alerts (
  alert_id integer generated always as identity primary key,
  client_id integer not null references clients on delete cascade,
  mcu_id integer not null,
  type text not null,
  state text not null default 'open' check (state in ('open', 'acknowledged', 'resolved')),
  raised_at timestamptz not null,
  resolved_at timestamptz,
  notification_id integer references notifications on delete set null,
  check ((state = 'resolved') = (resolved_at is not null)),
  foreign key (mcu_id, client_id) references mcus (mcu_id, client_id) on delete cascade
);
-- At most one unresolved alert per MCU and condition: the database decides, not a node's memory.
create unique index alerts_unresolved_key on alerts (client_id, mcu_id, type) where state <> 'resolved';
create index alerts_mcu_idx on alerts (mcu_id, type, raised_at desc);
