-- Failed sign-ins per submitted username (existing or not, so a lock says nothing about accounts).
create table login_failures (
  username_key text primary key,
  failures integer not null,
  locked_until timestamptz
);

-- Browsers that have signed in to an account: their owner passes that account's lock.
create table known_devices (
  token_hash text not null,
  client_id integer not null references clients on delete cascade,
  created_at timestamptz not null,
  last_used_at timestamptz not null,
  primary key (token_hash, client_id)
);
create index known_devices_client on known_devices (client_id);
