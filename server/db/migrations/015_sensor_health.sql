-- Alarms about one sensor of an MCU (server/alerts/sensor-health.ts): a sensor type that reports
-- fewer sensors than the MCU has, a metric stuck on one value. Such an alarm names its sensor: the
-- reading's sensor group for a sensor missing ('DHT', 'CO2'…), the metric for a sensor stuck
-- ('humidity'…); the alarms about the whole MCU or a profile limit name none (''). A stuck humidity
-- and a stuck CO2 on one MCU are two alarms, each still opened once across nodes and restarts.
alter table alerts add column sensor text not null default '';
drop index alerts_unresolved_key;
create unique index alerts_unresolved_key on alerts (client_id, mcu_id, type, sensor) where state <> 'resolved';

-- The most sensors of each group an MCU has reported ({"DHT": 2, "CO2": 1}), raised as a reading
-- shows more: what it is expected to keep reporting when none of that type is registered on it.
-- Kept here rather than in a node's memory, so a sensor that dies while the server restarts, or
-- while another node hears the MCU, is still missed.
alter table mcus add column reported_sensors jsonb;
