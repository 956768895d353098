-- Custom SQL migration file, put your code below! --
-- The end URL moves from a node's state JSON (kept as text) to its own column (0003). The state text
-- is left as it was (readers take the column). A state that is not JSON is skipped, row by row: a
-- damaged node stays a miss that names itself, and never fails the store's upgrade.
DO $$
DECLARE
  node record;
BEGIN
  FOR node IN SELECT id, state FROM nodes WHERE end_url IS NULL AND state LIKE '%"endUrl"%' LOOP
    BEGIN
      UPDATE nodes SET end_url = (node.state::jsonb) ->> 'endUrl'
      WHERE id = node.id AND jsonb_typeof(node.state::jsonb) = 'object' AND jsonb_typeof((node.state::jsonb) -> 'endUrl') = 'string';
    EXCEPTION WHEN others THEN
      NULL;
    END;
  END LOOP;
END $$;
