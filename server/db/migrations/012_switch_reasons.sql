-- Why each switch happened: the rule a device's automation switched by (as the device reported
-- it, or as the server inferred it from the MCU's config and the reading), with the value it read,
-- the limit, and the running batch's phase then: {rule, value, limit, inferred, phase}. Null for a
-- person's command (its actor says who) and for a switch no rule explains. Kept in the command
-- log's own rows, so as long as the log (its partitions are dropped by the same retention).
alter table command_log add column why jsonb;
