-- Clients (SPEC §3) and their sessions. Usernames and emails are unique regardless of case.
create table clients (
  client_id integer generated always as identity primary key,
  username text not null,
  email text not null,
  password_hash text not null,
  mobile text not null default '',
  country text not null default 'LB',
  address text not null default '',
  fcm_token text,
  fcm_token_updated_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index clients_username_key on clients (lower(username));
create unique index clients_email_key on clients (lower(email));

-- Only a SHA-256 of the session id is stored, so a copy of this table opens no session.
create table sessions (
  id_hash text primary key,
  client_id integer not null references clients on delete cascade,
  created_at timestamptz not null,
  last_seen_at timestamptz not null,
  expires_at timestamptz not null
);
create index sessions_client_idx on sessions (client_id);

create table farms (
  farm_id integer generated always as identity primary key,
  client_id integer not null references clients on delete cascade,
  name text not null,
  location text not null,
  status text not null default 'active' check (status in ('active', 'warning', 'offline')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (farm_id, client_id)
);
create index farms_client_idx on farms (client_id);

-- Every device MAC the system knows: provisioned by a manufacturer or installer (with a device
-- key), or first seen when a client registered it. claimed_by is the owning client.
create table device_inventory (
  mac text primary key check (mac ~ '^([0-9A-F]{2}:){5}[0-9A-F]{2}$'),
  kind text not null check (kind in ('mcu', 'controller', 'sensor')),
  type text,
  key_hash text,
  claimed_by integer references clients on delete set null,
  provisioned_at timestamptz not null default now(),
  claimed_at timestamptz
);

-- Composite foreign keys with client_id make a cross-client reference impossible in the
-- database itself, not only in the queries.
create table mcus (
  mcu_id integer generated always as identity primary key,
  client_id integer not null references clients on delete cascade,
  farm_id integer not null,
  name text not null,
  mac text not null unique references device_inventory (mac),
  status text not null default 'active' check (status in ('active', 'online', 'offline', 'maintenance')),
  readings jsonb,
  last_seen_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (mcu_id, client_id),
  foreign key (farm_id, client_id) references farms (farm_id, client_id)
);
create index mcus_client_idx on mcus (client_id);
create index mcus_farm_idx on mcus (farm_id);

create table controllers (
  unit_id integer generated always as identity primary key,
  client_id integer not null references clients on delete cascade,
  mcu_id integer,
  name text not null,
  mac text not null unique references device_inventory (mac),
  type text not null check (type in ('Humidifier', 'Irrigation', 'Ac', 'Ventilation')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  foreign key (mcu_id, client_id) references mcus (mcu_id, client_id) on delete set null (mcu_id)
);
create index controllers_client_idx on controllers (client_id);
create index controllers_mcu_idx on controllers (mcu_id);

create table sensors (
  sensor_id integer generated always as identity primary key,
  client_id integer not null references clients on delete cascade,
  mcu_id integer,
  name text not null default '',
  mac text not null unique references device_inventory (mac),
  type text not null check (type in ('CO2', 'Humidity', 'Soil_temp', 'Moisture')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  foreign key (mcu_id, client_id) references mcus (mcu_id, client_id) on delete set null (mcu_id)
);
create index sensors_client_idx on sensors (client_id);
create index sensors_mcu_idx on sensors (mcu_id);

create table setting_profiles (
  profile_id integer generated always as identity primary key,
  client_id integer not null references clients on delete cascade,
  name text not null,
  config jsonb not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (profile_id, client_id)
);
create index setting_profiles_client_idx on setting_profiles (client_id);

-- One profile per MCU.
create table profile_links (
  id integer generated always as identity primary key,
  client_id integer not null references clients on delete cascade,
  mcu_id integer not null unique,
  profile_id integer not null,
  created_at timestamptz not null default now(),
  foreign key (mcu_id, client_id) references mcus (mcu_id, client_id) on delete cascade,
  foreign key (profile_id, client_id) references setting_profiles (profile_id, client_id) on delete cascade
);
create index profile_links_profile_idx on profile_links (profile_id);

create table notifications (
  notification_id integer generated always as identity primary key,
  client_id integer not null references clients on delete cascade,
  type text not null,
  title text not null,
  body text not null,
  read_status boolean not null default false,
  created_at timestamptz not null default now()
);
create index notifications_client_idx on notifications (client_id, created_at desc);
