-- Custom SQL migration file, put your code below! --
-- The end URL moves from a node's state JSON to its own column (0008). The state text is left as it
-- was (readers take the column); a state that is not JSON, or whose endUrl is not text, is skipped.
-- The CASE keeps json_extract and json_type from ever seeing text that is not JSON (SQLite does not
-- promise to stop at a false json_valid in an AND).
UPDATE `nodes` SET `end_url` = json_extract(CASE WHEN json_valid(`state`) THEN `state` END, '$.endUrl')
WHERE `end_url` IS NULL AND json_type(CASE WHEN json_valid(`state`) THEN `state` END, '$.endUrl') = 'text';
