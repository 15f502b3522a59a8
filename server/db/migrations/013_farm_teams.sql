-- Farm teams: people who are not the farm's account but work on it, each with a role, and the
-- one-time invitations that make them members. The account that created a farm (farms.client_id)
-- is its Owner without a row here; the farm's data stays keyed by that account.

create table farm_members (
  farm_id integer not null references farms on delete cascade,
  client_id integer not null references clients on delete cascade,
  role text not null check (role in ('owner', 'manager', 'grower', 'viewer')),
  added_by integer references clients on delete set null,
  joined_at timestamptz not null,
  primary key (farm_id, client_id)
);
-- "Which farms may this person see": every load and socket of a member starts here.
create index farm_members_client_idx on farm_members (client_id);

-- Only a SHA-256 of the code is stored: a copy of this table lets nobody join a farm.
create table farm_invitations (
  invitation_id integer generated always as identity primary key,
  farm_id integer not null references farms on delete cascade,
  role text not null check (role in ('owner', 'manager', 'grower', 'viewer')),
  code_hash text not null unique,
  note text not null default '',
  created_by integer references clients on delete set null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  revoked_at timestamptz,
  accepted_by integer references clients on delete set null,
  accepted_at timestamptz
);
create index farm_invitations_farm_idx on farm_invitations (farm_id);
