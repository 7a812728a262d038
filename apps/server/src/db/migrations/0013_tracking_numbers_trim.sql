-- Tracking numbers are stored as the ship form now stores them: no white space anywhere, upper case
-- (normalizeTrackingNumber). Numbers saved before that rule get the same form, so tracking finds them.
UPDATE "tracking_numbers" SET "number" = upper(regexp_replace("number", '\s', '', 'g')) WHERE "number" ~ '\s' OR "number" <> upper("number");
