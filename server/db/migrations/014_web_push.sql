-- Standard Web Push (RFC 8030/8291/8292) with the server's own VAPID key pair, so a farm that
-- installs the app gets alarm pushes without an account at any messaging service.

-- The server's VAPID key pair: one row, made at the first need and kept. In the database rather
-- than the data directory because every server node must sign with the same key (browsers
-- subscribed with its public half) and with PostgreSQL the nodes share no directory.
create table push_vapid_keys (
  singleton boolean primary key default true check (singleton),
  public_key text not null,
  private_key text not null,
  created_at timestamptz not null
);

-- Each browser's PushSubscription, for the client signed in there. An endpoint is one browser
-- profile: whoever subscribed it last is who it rings for (a shared farm phone follows whoever
-- signed in on it).
create table push_subscriptions (
  subscription_id integer generated always as identity primary key,
  client_id integer not null references clients on delete cascade,
  endpoint text not null unique,
  p256dh text not null,
  auth text not null,
  created_at timestamptz not null
);
create index push_subscriptions_client_idx on push_subscriptions (client_id);

-- One row per push message handed to a push service for one browser (Web Push subscription or
-- Firebase token): who it was for, what it announced, when it was sent and when the browser
-- displayed it (the service worker's report). message_id travels in the encrypted payload and
-- is the report's only proof, so it is random and never listed.
create table push_deliveries (
  delivery_id integer generated always as identity primary key,
  message_id uuid not null unique,
  client_id integer not null references clients on delete cascade,
  alert_id integer references alerts on delete cascade,
  channel text not null check (channel in ('web_push', 'fcm')),
  -- The push service's host (fcm.googleapis.com, web.push.apple.com …): which kind of browser it went to.
  service text not null,
  title text not null,
  urgency text not null check (urgency in ('high', 'normal')),
  sent_at timestamptz not null,
  -- Why the push service did not take it (null: taken, or still on its way).
  failure text,
  displayed_at timestamptz
);
create index push_deliveries_alert_idx on push_deliveries (alert_id) where alert_id is not null;
create index push_deliveries_client_idx on push_deliveries (client_id, sent_at desc);
