-- The demo fleet's device keys. Real devices keep their key in firmware and the server only its
-- hash (device_inventory.key_hash); the simulator needs the key itself to connect like firmware.
create table simulator_devices (
  mac text primary key references device_inventory (mac) on delete cascade,
  device_key text not null,
  counts jsonb not null,
  battery real,
  seed integer not null
);
