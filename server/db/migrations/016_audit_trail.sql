-- The audit trail: every change made through the API or a socket, with who made it, when, from
-- which address, and the record before and after. Kept as long as the command log.
create table audit_log (
  audit_id bigint generated always as identity primary key,
  -- The account whose data changed (a member's change is recorded in the farm's account).
  client_id integer not null references clients on delete cascade,
  -- The farm it belongs to; null for something of the account as a whole (a profile, a recipe).
  farm_id integer,
  actor_id integer references clients on delete set null,
  -- The actor's username when they acted (kept if they later rename or leave).
  actor text not null,
  address text not null,
  at timestamptz not null,
  kind text not null,
  entity_id text not null,
  action text not null,
  before jsonb,
  after jsonb
);
create index audit_log_farm_idx on audit_log (client_id, farm_id, at desc, audit_id desc);
create index audit_log_at_idx on audit_log (at);
