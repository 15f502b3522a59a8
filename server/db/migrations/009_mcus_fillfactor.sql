-- Every MCU's row is rewritten every few seconds with its latest readings (readings-writer.ts).
-- With full pages each new row version lands on another page and every index of mcus gains an
-- entry; PGlite has no autovacuum, so a fleet of 2 000 grew the table by ~40 MB in 5 minutes.
-- Room on each page lets these updates stay on their page (HOT: no index entries, the old
-- version pruned in place): the table holds its size. Pages written from now on keep the room;
-- rows on full pages move to such pages on their next update.
alter table mcus set (fillfactor = 50);
