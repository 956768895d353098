/**
 * Writes e2e/support/stores/v000N.db: a store at each earlier schema version (the migrations up to
 * and including N), holding a recorded intake task with its nodes, crops and run, as a store of that
 * version would. Run once per shipped migration (`node dist/bench/faults/makeStoreFixtures.js`) and
 * commit the files: e2e/storeVersions.spec.ts opens each with today's code.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { launchBrowser } from '../../src/browser/launch.js';
import { startIntakeApp } from '../../src/demo/app/server.js';
import { demoAgent } from '../../src/demo/demoAgent.js';
import { DEMO_PATIENTS, INTAKE_TASK } from '../../src/demo/patients.js';
import { Rote } from '../../src/rote.js';

type Journal = { entries: { idx: number; tag: string }[] };

/** Below the ephemeral range, so no test's random port takes it. Also in e2e/storeVersions.spec.ts. */
const FIXTURE_PORT = 29517;

const root = process.cwd();
const out = join(root, 'e2e', 'support', 'stores');
const journal = JSON.parse(readFileSync(join(root, 'drizzle', 'meta', '_journal.json'), 'utf8')) as Journal & Record<string, unknown>;
const work = mkdtempSync(join(tmpdir(), 'rote-fixtures-'));

// One recording with today's code: its rows are what each older store is given, column by column.
const source = join(work, 'source.db');
// A task's key holds its start URL: the fixtures are recorded on a fixed port the test serves them on again.
const app = await startIntakeApp({ port: FIXTURE_PORT });
const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.goto(app.url);
const rote = await Rote.open({ store: source });
const recorded = await rote.run(page, { task: INTAKE_TASK, params: DEMO_PATIENTS[0]!, agent: demoAgent(page) });
await rote.close();
await browser.close();
await app.close();
if (recorded.status !== 'agent') throw new Error(`the recording ended ${recorded.status}`);

mkdirSync(out, { recursive: true });
const latest = journal.entries.length - 1;
for (const entry of journal.entries.filter((candidate) => candidate.idx < latest)) {
  // The migrations as they stood when this one was the newest.
  const folder = join(work, `migrations-${entry.idx}`);
  mkdirSync(join(folder, 'meta'), { recursive: true });
  const shipped = journal.entries.filter((candidate) => candidate.idx <= entry.idx);
  for (const migration of shipped) copyFileSync(join(root, 'drizzle', `${migration.tag}.sql`), join(folder, `${migration.tag}.sql`));
  writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: shipped }));
  const path = join(out, `v${String(entry.idx).padStart(4, '0')}.db`);
  rmSync(path, { force: true });
  const db = new Database(path);
  migrate(drizzle(db), { migrationsFolder: folder });
  db.exec(`ATTACH DATABASE '${source.replace(/'/g, "''")}' AS source`);
  for (const table of ['tasks', 'blobs', 'nodes', 'runs', 'run_steps']) {
    const columns = (db.prepare(`PRAGMA main.table_info(${table})`).all() as { name: string }[]).map((column) => `"${column.name}"`).join(', ');
    db.exec(`INSERT INTO main.${table} (${columns}) SELECT ${columns} FROM source.${table}`);
  }
  // Before nodes.end_url (0008) the end URL was a key of the node's state, as such a store holds it.
  const nodeColumns = (db.prepare('PRAGMA main.table_info(nodes)').all() as { name: string }[]).map((column) => column.name);
  if (!nodeColumns.includes('end_url')) {
    db.exec(`UPDATE main.nodes SET state = json_set(coalesce(state, '{}'), '$.endUrl', (SELECT end_url FROM source.nodes WHERE source.nodes.id = main.nodes.id))
      WHERE (SELECT end_url FROM source.nodes WHERE source.nodes.id = main.nodes.id) IS NOT NULL`);
  }
  db.exec('DETACH DATABASE source');
  db.pragma('journal_mode = DELETE');
  db.close();
  process.stdout.write(`${path}: schema of ${entry.tag}\n`);
}
rmSync(work, { recursive: true, force: true });
