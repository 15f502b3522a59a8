-- On-call rotas and alarm escalation. A farm's rota says who is on call when (in its time zone);
-- an alarm of a farm with a rota is called out to people step by step until someone acknowledges
-- it, and every call is kept (who, when, why) beside the push deliveries that carried it.
create table farm_rotas (
  farm_id integer primary key references farms on delete cascade,
  time_zone text not null,
  repeat_minutes integer not null,
  escalate_minutes integer not null,
  shifts jsonb not null,
  updated_at timestamptz not null
);

-- An open alarm being called out: how far it went and when its next call is due. The row goes
-- when the alarm is acknowledged or resolves (nothing more is due).
create table alarm_escalations (
  alarm_id integer primary key references alerts on delete cascade,
  farm_id integer not null,
  step integer not null,
  called integer[] not null,
  next_repeat_at timestamptz not null,
  next_escalate_at timestamptz not null
);
create index alarm_escalations_due_idx on alarm_escalations (least(next_repeat_at, next_escalate_at));

create table alarm_notices (
  notice_id bigint generated always as identity primary key,
  alarm_id integer not null references alerts on delete cascade,
  client_id integer not null references clients on delete cascade,
  step integer not null,
  reason text not null check (reason in ('first', 'repeat', 'escalation')),
  at timestamptz not null
);
create index alarm_notices_alarm_idx on alarm_notices (alarm_id, at);
