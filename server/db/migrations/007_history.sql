-- Reading history. One row per MCU and minute (and per MCU and hour), the metrics as
-- columns: each metric's min, avg and max and its sample count (0 when the bucket holds none of it;
-- then its min/avg/max are null). Every history table (rollups, state events, command log) is
-- partitioned by time, on PGlite as on PostgreSQL (the same SQL): the history job creates
-- partitions ahead and drops those past retention, so old data goes by partition, never by DELETE.
-- Partitions are named <table>_pYYYYMMDD (minutes: a day each) or <table>_pYYYYMM (hours, state
-- events, command log: a month each), UTC.
create table reading_minutes (
  mcu_id integer not null references mcus on delete cascade,
  bucket timestamptz not null,
  temperature_min real, temperature_avg real, temperature_max real, temperature_n integer not null default 0,
  humidity_min real, humidity_avg real, humidity_max real, humidity_n integer not null default 0,
  soil_temperature_min real, soil_temperature_avg real, soil_temperature_max real, soil_temperature_n integer not null default 0,
  co2_min real, co2_avg real, co2_max real, co2_n integer not null default 0,
  soil_moisture_min real, soil_moisture_avg real, soil_moisture_max real, soil_moisture_n integer not null default 0,
  battery_min real, battery_avg real, battery_max real, battery_n integer not null default 0,
  primary key (mcu_id, bucket)
) partition by range (bucket);

create table reading_hours (
  mcu_id integer not null references mcus on delete cascade,
  bucket timestamptz not null,
  temperature_min real, temperature_avg real, temperature_max real, temperature_n integer not null default 0,
  humidity_min real, humidity_avg real, humidity_max real, humidity_n integer not null default 0,
  soil_temperature_min real, soil_temperature_avg real, soil_temperature_max real, soil_temperature_n integer not null default 0,
  co2_min real, co2_avg real, co2_max real, co2_n integer not null default 0,
  soil_moisture_min real, soil_moisture_avg real, soil_moisture_max real, soil_moisture_n integer not null default 0,
  battery_min real, battery_avg real, battery_max real, battery_n integer not null default 0,
  primary key (mcu_id, bucket)
) partition by range (bucket);

-- Each change of a controller's state as the device reported it (target: Irrigation, AC,
-- Ventilation, Humidifier; session: irrigation only).
create table device_state_events (
  mcu_id integer not null references mcus on delete cascade,
  at timestamptz not null,
  target text not null,
  status boolean not null,
  auto boolean not null,
  session boolean
) partition by range (at);
create index device_state_events_mcu_at_idx on device_state_events (mcu_id, at);
-- Each controller's state at the start of a range is its last change before it: found at once,
-- however long ago that controller last changed.
create index device_state_events_mcu_target_at_idx on device_state_events (mcu_id, target, at);

-- Every command sent from the app and its outcome, and every change a device's own automation
-- made (source 'automation', outcome 'reported'). The automation's switching alone is some 2 000
-- rows per MCU a day (a demo room), kept as long as the hourly rollups: partitioned by month like
-- the state events (command_log_pYYYYMM), so retention drops whole partitions. The key holds `at`
-- since a partitioned table's unique keys must hold its partition key; the writer knows each
-- command's time, so its outcome still finds its row (on conflict (command_id, at)).
create table command_log (
  command_id text not null,
  mcu_id integer not null references mcus on delete cascade,
  client_id integer references clients on delete set null,
  source text not null check (source in ('user', 'automation')),
  actor text,
  target text not null,
  type text not null check (type in ('auto', 'status')),
  on_off boolean not null,
  at timestamptz not null,
  outcome text not null check (outcome in ('pending', 'acknowledged', 'refused', 'timed_out', 'failed', 'reported')),
  reason text,
  answered_at timestamptz,
  primary key (command_id, at)
) partition by range (at);
create index command_log_mcu_at_idx on command_log (mcu_id, at desc);
-- The history job's sweep of commands left pending by a node that stopped, without reading the
-- whole log every 10 minutes (few rows: only those still waiting for an answer).
create index command_log_pending_idx on command_log (at) where outcome = 'pending';
