-- When a username last failed: a quiet day forgets its count (the hourly sweep deletes the row).
alter table login_failures add column last_failed_at timestamptz;
