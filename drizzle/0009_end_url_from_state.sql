-- Custom SQL migration file, put your code below! --
-- The end URL moves from a node's state JSON to its own column (0008). The state text is left as it
-- was (readers take the column); a state that is not JSON, or whose endUrl is not text, is skipped.
UPDATE `nodes` SET `end_url` = json_extract(`state`, '$.endUrl')
WHERE `end_url` IS NULL AND json_valid(`state`) AND json_type(`state`, '$.endUrl') = 'text';
