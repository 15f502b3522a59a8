-- Where a bell notification leads: the alarm it announced and the MCU it is about, so that the
-- bell and a push open that alarm or that MCU's history. Older notifications get the alarm that
-- stored them; the rest (an account notification) lead nowhere. A deleted MCU takes its alarms
-- with it (003): its notifications stay, leading nowhere.
alter table notifications add column mcu_id integer references mcus on delete set null;
alter table notifications add column alarm_id integer references alerts on delete set null;
update notifications n set alarm_id = a.alert_id, mcu_id = a.mcu_id from alerts a where a.notification_id = n.notification_id;
-- The foreign keys' checks when an MCU or its alarms are deleted.
create index notifications_mcu_idx on notifications (mcu_id) where mcu_id is not null;
create index notifications_alarm_idx on notifications (alarm_id) where alarm_id is not null;

-- What an alarm measured: the reading it is about (null for an MCU offline), its value when the
-- alarm opened and the worst value reached while it was unresolved (farthest past the limit:
-- highest CO2, lowest humidity, soil moisture or battery, farthest from the target temperature).
-- Alarms opened before this keep their words only.
alter table alerts add column metric text;
alter table alerts add column opened_value double precision;
alter table alerts add column worst_value double precision;
