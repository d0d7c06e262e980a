import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { connectPostgres } from '@portal/platform/store/postgres';
import { TEST_DATA_KEY_ENV } from '@portal/platform/testing/data-keys';

const root = resolve(import.meta.dirname, '../../..');
const script = join(root, 'deploy/scripts/production.sh');
const run = promisify(execFile);

/** What the production test needs on the machine, or why it cannot run. */
export function shapeSkipReason(): string | null {
  if (!existsSync('/usr/sbin/nginx')) return 'nginx is not installed (.ci/run installs it from Debian)';
  if (process.getuid?.() !== 0) return 'the production shape test runs as root (it runs PostgreSQL tools as postgres)';
  if (!process.env.DATABASE_URL) return 'DATABASE_URL is not set (the shape runs on this PostgreSQL)';
  return null;
}

/** Ports of their own, so the test can run beside a shape someone started with the defaults. */
const PORTS = {
  HTTPS_PORT: '18443',
  HTTP_PORT: '18080',
  COMMAND_PORTS: '18101 18102',
  QUERY_PORTS: '18111 18112',
  PROJECTOR_PORTS: '18121 18122',
  RELAY_PORT: '18131',
  REPLICA_PORT: '15433',
};

export const SHAPE_ADMIN = { username: 'admin01', password: 'shape-admin-password-1' };
export const SHAPE_SESSION_SECRET = 'the-production-shape-test-session-secret';

/**
 * The whole production shape started by deploy/scripts/production.sh on a fresh database of the
 * machine's PostgreSQL (a streaming replica of it, nginx, two of each API, the relay and two
 * projectors on Kafka), with secrets the test knows. `down` stops it and drops the database.
 */
export async function startShape() {
  const dir = mkdtempSync(join(tmpdir(), 'shape-'));
  const database = `shape_${randomBytes(4).toString('hex')}`;
  writeFileSync(
    join(dir, 'secrets.env'),
    [
      `SESSION_SECRET=${SHAPE_SESSION_SECRET}`,
      `DATA_KEY=${TEST_DATA_KEY_ENV.DATA_KEY}`,
      `ADMIN_USERNAME=${SHAPE_ADMIN.username}`,
      `ADMIN_PASSWORD=${SHAPE_ADMIN.password}`,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  const primary = new URL(process.env.DATABASE_URL!);
  const kafkaPort = (process.env.KAFKA_BROKERS || '127.0.0.1:9092').split(',')[0]!.split(':')[1]!;
  const env = {
    ...process.env,
    ...PORTS,
    PRODUCTION_DIR: dir,
    PG_HOST: primary.hostname,
    PG_PORT: primary.port || '5432',
    PG_USER: decodeURIComponent(primary.username) || 'postgres',
    PG_DATABASE: database,
    LISTEN: '127.0.0.1',
    KAFKA_PORT: kafkaPort,
  };
  /** production.sh with these arguments; `shape.with(env)` with settings of its own (more instances, say). */
  const withEnv =
    (extra: Record<string, string>) =>
    async (...args: string[]) => {
      try {
        const { stdout } = await run(script, args, { env: { ...env, ...extra }, cwd: root, timeout: 240_000 });
        return stdout;
      } catch (error) {
        const { stdout, stderr } = error as { stdout?: string; stderr?: string };
        throw new Error(`production.sh ${args.join(' ')} failed:\n${stdout ?? ''}\n${stderr ?? ''}`);
      }
    };
  const shape = withEnv({});
  const pidOf = (name: string) => Number(readFileSync(join(dir, 'run', `${name}.pid`), 'utf8'));
  try {
    await shape('up');
  } catch (error) {
    await shape('down').catch(() => {});
    throw error;
  }
  return {
    dir,
    database,
    url: `https://127.0.0.1:${PORTS.HTTPS_PORT}`,
    httpUrl: `http://127.0.0.1:${PORTS.HTTP_PORT}`,
    /** A service's own address, behind nginx (query-api-1, ...). */
    serviceUrl: (name: string) => {
      if (name === 'relay') return `http://127.0.0.1:${PORTS.RELAY_PORT}`;
      const [kind, index] = [name.replace(/-\d+$/, ''), Number(name.split('-').pop()) - 1];
      const ports = {
        'command-api': PORTS.COMMAND_PORTS,
        'query-api': PORTS.QUERY_PORTS,
        projector: PORTS.PROJECTOR_PORTS,
      };
      return `http://127.0.0.1:${ports[kind as keyof typeof ports].split(' ')[index]}`;
    },
    primaryUrl: `postgres://${env.PG_USER}@${env.PG_HOST}:${env.PG_PORT}/${database}`,
    ca: readFileSync(join(dir, 'tls', 'ca.crt'), 'utf8'),
    shape,
    shapeWith: withEnv,
    pidOf,
    log: (name: string) => readFileSync(join(dir, 'logs', `${name}.log`), 'utf8'),
    /** Kills a service outright (SIGKILL), as a crash would. */
    kill: (name: string) => process.kill(pidOf(name), 'SIGKILL'),
    async down() {
      await shape('down');
      const machine = connectPostgres({ connectionString: process.env.DATABASE_URL! });
      await machine.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).finally(() => machine.close());
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
export type Shape = Awaited<ReturnType<typeof startShape>>;
