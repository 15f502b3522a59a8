-- A notification's words as keys of the server's texts with their values ({"title": {"key": …,
-- "values": …}, "body": …}, as an alarm's in 019), beside its title and body as written for its
-- reader when it was made: the app says them in the reader's language now (the demo's seed read
-- in the language picked at sign-in, older notifications after a person changes theirs). Null for
-- notifications stored before: their title and body are all there is.
alter table notifications add column words jsonb;
