-- An MCU is claimed with the code on its label, not its MAC alone: the inventory keeps a hash of it.
alter table device_inventory add column claim_hash text;
-- A released MCU's next device key, until the device has switched to it (it is sent to the device
-- only, retained on its own key topic; the first connection with it makes it the device key).
alter table device_inventory add column pending_key text;
