-- The session a browser's push subscription was last stored in: signing out there forgets it, so
-- a shared phone stops ringing with the alarms of whoever signed out. Not a reference to the
-- sessions table: a subscription outlives its session's expiry (a shed phone that has not opened
-- the app for longer than a session lasts still gets alarms); only a sign-out ends it. Null for
-- subscriptions stored before, until their browser stores them again (at the app's next start).
alter table push_subscriptions add column session_hash text;
create index push_subscriptions_session_idx on push_subscriptions (session_hash) where session_hash is not null;
