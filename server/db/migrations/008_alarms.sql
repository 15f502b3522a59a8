-- Alarms: each row of alerts is one alarm, with its whole lifecycle
-- open -> acknowledged -> resolved. It keeps what it said when it opened (title, body: the list
-- shows them after the notification is gone or was never stored, the client having turned that
-- kind of in-app notification off), who acknowledged it and when, with an optional comment, and
-- whether its opening was announced (the repeat window counts announced openings only, and an MCU
-- is announced back online only if its going offline was).
alter table alerts add column title text;
alter table alerts add column body text;
alter table alerts add column announced boolean not null default true;
alter table alerts add column acknowledged_at timestamptz;
alter table alerts add column acknowledged_by text;
alter table alerts add column ack_comment text;

update alerts a set title = n.title, body = n.body from notifications n where n.notification_id = a.notification_id;
-- An alert whose notification is gone: its words as the alert engine writes them.
update alerts a
set title = case a.type
      when 'mcu_offline' then m.name || ' went offline'
      when 'co2_high' then m.name || ': CO2 high'
      else m.name || ': ' || replace(a.type, '_', ' ')
    end,
    body = case a.type when 'mcu_offline' then m.name || ' stopped reporting.' else 'Opened before alarms kept their own text.' end
from mcus m
where m.mcu_id = a.mcu_id and a.title is null;
alter table alerts alter column title set not null;
alter table alerts alter column body set not null;

alter table alerts add constraint alerts_acknowledged_check check (
  (acknowledged_at is null) = (acknowledged_by is null)
  and (state <> 'acknowledged' or acknowledged_at is not null)
  and (ack_comment is null or acknowledged_at is not null)
  and char_length(ack_comment) <= 500
);

-- The alarm list: a client's alarms newest first (keyset on raised_at, alert_id), and one MCU's.
create index alerts_list_idx on alerts (client_id, raised_at desc, alert_id desc);
create index alerts_mcu_list_idx on alerts (mcu_id, raised_at desc, alert_id desc);

-- What a client wants delivered (src/contract/alarms-values.ts NotificationPreferences); a client
-- without a row has the defaults. Quiet hours are local times in time_zone (an IANA name).
create table notification_preferences (
  client_id integer primary key references clients on delete cascade,
  in_app_device_status boolean not null,
  in_app_environmental boolean not null,
  in_app_battery boolean not null,
  push_emergency boolean not null,
  quiet_hours_enabled boolean not null,
  quiet_hours_start text not null check (quiet_hours_start ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  quiet_hours_end text not null check (quiet_hours_end ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  time_zone text not null check (char_length(time_zone) between 1 and 64),
  updated_at timestamptz not null
);
