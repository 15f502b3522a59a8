-- The person's language and digits, kept with their client: the app opens in them on any device,
-- and the server writes that person's notifications and pushes in them (server/texts.ts). A client
-- stored before reads English with Western digits, as everything was written until now.
alter table clients add column language text not null default 'en' check (language in ('en', 'fr', 'ar'));
alter table clients add column digits text not null default 'latn' check (digits in ('latn', 'arab'));

-- An alarm's words as keys of the server's texts with their values ({"title": {"key": …, "values":
-- …}, "body": …}), beside its title and body in the server's English: each person its call-out
-- reaches (a member who reads another language) gets them in their own, and the API carries them
-- for the app to say in its reader's. Null for alarms stored before, or seeded from a
-- notification's texts alone: their title and body are all there is.
alter table alerts add column words jsonb;
