-- Grow cycles: recipes (each change a new version), batches running one version on MCUs, what
-- happened in each batch, its harvests, and every config sent to an MCU with its cause.

create table recipes (
  recipe_id integer generated always as identity primary key,
  client_id integer not null references clients on delete cascade,
  name text not null,
  species text not null default '',
  -- The newest version; a batch keeps the version it started with.
  version integer not null default 1,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index recipes_client_idx on recipes (client_id);

create table recipe_versions (
  recipe_id integer not null references recipes on delete cascade,
  version integer not null,
  phases jsonb not null,
  created_at timestamptz not null,
  primary key (recipe_id, version)
);

create table batches (
  batch_id integer generated always as identity primary key,
  client_id integer not null references clients on delete cascade,
  name text not null,
  recipe_id integer not null,
  recipe_version integer not null,
  time_zone text not null,
  started_at timestamptz not null,
  status text not null check (status in ('running', 'ended')),
  phase_index integer not null default 0,
  phase_started_at timestamptz not null,
  extra_days integer not null default 0,
  held_ms bigint not null default 0,
  held_since timestamptz,
  ended_at timestamptz,
  substrate_dry_kg real,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  -- A recipe with batches is not deleted: the batches' history reads its phases.
  foreign key (recipe_id, recipe_version) references recipe_versions
);
create index batches_client_idx on batches (client_id);
create index batches_running_idx on batches (batch_id) where status = 'running';
-- A recipe's batches (counted on each recipe, and looked up before it is deleted).
create index batches_recipe_idx on batches (recipe_id, recipe_version);

-- The MCUs of a batch; `running` copies the batch's status so that an MCU is in at most one running batch.
create table batch_mcus (
  batch_id integer not null references batches on delete cascade,
  mcu_id integer not null references mcus on delete cascade,
  running boolean not null,
  primary key (batch_id, mcu_id)
);
create unique index batch_mcus_one_running_idx on batch_mcus (mcu_id) where running;

create table batch_events (
  event_id bigint generated always as identity primary key,
  batch_id integer not null references batches on delete cascade,
  at timestamptz not null,
  kind text not null,
  phase_index integer not null,
  reason text,
  by_name text,
  days integer
);
create index batch_events_batch_idx on batch_events (batch_id, event_id);

create table harvests (
  harvest_id integer generated always as identity primary key,
  batch_id integer not null references batches on delete cascade,
  flush integer not null,
  at timestamptz not null,
  fresh_kg real not null,
  note text not null default ''
);
create index harvests_batch_idx on harvests (batch_id, flush);

-- Every change of the config an MCU was sent (by a batch's plan, a linked profile, or none), with its cause.
create table config_changes (
  change_id bigint generated always as identity primary key,
  mcu_id integer not null references mcus on delete cascade,
  at timestamptz not null,
  cause text not null check (cause in ('batch', 'profile', 'none')),
  batch_id integer references batches on delete set null,
  detail text not null default '',
  config jsonb
);
create index config_changes_mcu_at_idx on config_changes (mcu_id, at desc);
