import { execFile, spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const BIN = '/usr/lib/postgresql/15/bin';
const INSTALL = 'apt-get update && apt-get install -y postgresql';
const SUPERUSER = 'rote';
const PASSWORD = 'rote';

/** A private PostgreSQL 15 server for one test run, on 127.0.0.1 only, its data thrown away on stop. */
export type PostgresServer = {
  /** postgres://rote:rote@127.0.0.1:PORT/rote, the superuser's. */
  url: string;
  port: number;
  dataDir: string;
  /** The superuser's URL of a database (default `rote`). */
  adminUrl(database?: string): string;
  /** The URL of a database (default `rote`) as a role: `rote`, or one made by createRole. */
  roleUrl(role: string, database?: string): string;
  /** Creates a database and returns its URL as its owner (default `rote`). */
  createDatabase(name: string, owner?: string): Promise<string>;
  /** A role with a password and no other rights: no superuser, no CREATEDB, no CREATEROLE. */
  createRole(name: string, password: string, options?: { login: boolean }): Promise<void>;
  /** Runs SQL as the superuser; the rows of its last statement. */
  query<Row extends pg.QueryResultRow = Record<string, unknown>>(sql: string, database?: string): Promise<Row[]>;
  /** Stops the server and removes its files; safe to call more than once. */
  stop(): Promise<void>;
};

type Account = { uid: number; gid: number } | undefined;

// A test run that dies without stop() must not leave servers behind: one hook kills them all.
const unstopped = new Set<() => void>();
let exitHookInstalled = false;

/**
 * Whether the tests that need PostgreSQL run here. Without Debian's package they are skipped, with
 * this reason, so `npm test` from the README's quick start runs the rest; `.ci/run` installs the
 * package and sets ROTE_REQUIRE_POSTGRES=1, so in CI a missing server is a failure, never a skip.
 */
export function postgresSkipReason(): string | undefined {
  if (process.env.ROTE_REQUIRE_POSTGRES === '1') return undefined;
  return existsSync(join(BIN, 'initdb')) ? undefined : `PostgreSQL is not installed here (no ${join(BIN, 'initdb')}); install it to run these tests: ${INSTALL}`;
}

export async function startPostgres(options: { log?: (line: string) => void } = {}): Promise<PostgresServer> {
  for (const tool of ['initdb', 'pg_ctl', 'postgres']) {
    if (!existsSync(join(BIN, tool))) throw new Error(`PostgreSQL 15 is not installed (no ${join(BIN, tool)}); install it with: ${INSTALL}`);
  }
  const began = performance.now();
  const account = serverAccount();
  const dir = mkdtempSync(join(tmpdir(), 'rote-pg-'));
  const dataDir = join(dir, 'data');
  const logFile = join(dir, 'server.log');
  const kill = () => {
    spawnSync(join(BIN, 'pg_ctl'), ['stop', '-m', 'immediate', '-D', dataDir], { cwd: dir, ...account, stdio: 'ignore', timeout: 10_000 });
    rmSync(dir, { recursive: true, force: true });
  };
  let port = 0;
  try {
    if (account) chownSync(dir, account.uid, account.gid);
    const passwordFile = join(dir, 'password');
    writeFileSync(passwordFile, PASSWORD);
    await run(
      ['initdb', '-D', dataDir, '-U', SUPERUSER, `--pwfile=${passwordFile}`, '--auth-host=scram-sha-256', '--auth-local=trust', '--encoding=UTF8', '--locale=C', '--no-sync', '--no-instructions'],
      dir,
      account,
    );
    rmSync(passwordFile);
    // Durability is worthless for data thrown away after the run, and costs most of a test's write time.
    appendFileSync(
      join(dataDir, 'postgresql.conf'),
      [
        `listen_addresses = '127.0.0.1'`,
        `unix_socket_directories = '${dir}'`,
        'fsync = off',
        'synchronous_commit = off',
        'full_page_writes = off',
        'max_connections = 200',
        '',
      ].join('\n'),
    );
    unstopped.add(kill);
    installExitHook();
    // The free port can be taken by another process between our probe and the server's bind: try a new one.
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        await run(['pg_ctl', 'start', '-w', '-t', '30', '-D', dataDir, '-l', logFile, '-o', `-p ${port}`], dir, account);
        break;
      } catch (error) {
        const tail = logTail(logFile);
        if (attempt < 3 && /could not bind/.test(tail)) continue;
        throw new Error(`${(error as Error).message}\nserver log ends:\n${tail}`);
      }
    }
  } catch (error) {
    unstopped.delete(kill);
    kill();
    throw error;
  }

  const passwords = new Map([[SUPERUSER, PASSWORD]]);
  const roleUrl = (role: string, database = SUPERUSER) => {
    const password = passwords.get(role);
    if (password === undefined) throw new Error(`no password known for role ${role}: make it with createRole`);
    return `postgres://${encodeURIComponent(role)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  };
  const adminUrl = (database?: string) => roleUrl(SUPERUSER, database);
  const query = async <Row extends pg.QueryResultRow>(sql: string, database?: string): Promise<Row[]> => {
    const client = new pg.Client({ connectionString: adminUrl(database) });
    await client.connect();
    try {
      // SQL of several statements answers with one result each.
      const result: pg.QueryResult<Row> | pg.QueryResult<Row>[] = await client.query<Row>(sql);
      return (Array.isArray(result) ? result.at(-1)?.rows : result.rows) ?? [];
    } finally {
      await client.end();
    }
  };

  let stopping: Promise<void> | undefined;
  const stop = async () => {
    try {
      await run(['pg_ctl', 'stop', '-m', 'immediate', '-D', dataDir], dir, account);
    } catch (error) {
      // A server that already died is stopped; one still running is not, and the exit hook will try again.
      if (existsSync(join(dataDir, 'postmaster.pid'))) throw error;
    }
    unstopped.delete(kill);
    rmSync(dir, { recursive: true, force: true });
    options.log?.(`postgres: stopped the server on port ${port}`);
  };

  try {
    await query(`CREATE DATABASE ${pg.escapeIdentifier(SUPERUSER)}`, 'postgres');
  } catch (error) {
    await stop();
    throw error;
  }
  options.log?.(`postgres: ready on 127.0.0.1:${port} in ${Math.round(performance.now() - began)} ms (data in ${dataDir})`);

  return {
    url: adminUrl(),
    port,
    dataDir,
    adminUrl,
    roleUrl,
    async createDatabase(name, owner = SUPERUSER) {
      const url = roleUrl(owner, name);
      await query(`CREATE DATABASE ${pg.escapeIdentifier(name)} OWNER ${pg.escapeIdentifier(owner)}`);
      return url;
    },
    async createRole(name, password, { login } = { login: true }) {
      await query(`CREATE ROLE ${pg.escapeIdentifier(name)} ${login ? 'LOGIN' : 'NOLOGIN'} PASSWORD ${pg.escapeLiteral(password)}`);
      passwords.set(name, password);
    },
    query,
    stop: () => (stopping ??= stop()),
  };
}

/** PostgreSQL refuses to run as root, so as root its tools run as the `postgres` user that Debian's package makes. */
function serverAccount(): Account {
  if (process.getuid?.() !== 0) return undefined;
  const fields = spawnSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' }).stdout?.split(':') ?? [];
  const uid = Number(fields[2] ?? NaN);
  const gid = Number(fields[3] ?? NaN);
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) throw new Error(`running as root and there is no postgres user to run PostgreSQL as; install it with: ${INSTALL}`);
  return { uid, gid };
}

function run(command: string[], cwd: string, account: Account): Promise<void> {
  const [tool = '', ...args] = command;
  return new Promise((resolve, reject) => {
    // LC_ALL=C: the tools' messages in English whatever the machine's locale, for the errors we pass on.
    execFile(join(BIN, tool), args, { cwd, ...account, env: { ...process.env, LC_ALL: 'C' }, timeout: 60_000 }, (error, stdout) =>
      error ? reject(new Error(`${tool} failed: ${error.message}${stdout}`)) : resolve(),
    );
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function logTail(file: string): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-30).join('\n');
  } catch {
    return '(no server log)';
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => unstopped.forEach((kill) => kill()));
}
