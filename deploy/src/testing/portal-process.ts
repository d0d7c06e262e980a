import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { postgresDatabase, postgresSkipReason } from '@portal/events/testing/databases';

const root = resolve(import.meta.dirname, '../../..');

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

export interface RunningPortal {
  url: string;
  database: 'postgres' | 'pglite';
  output: () => string;
  stop(): Promise<void>;
}

/**
 * Starts the portal exactly as a newcomer does (`npm start`: builds the console when needed, then
 * one process), on a fresh PostgreSQL database when DATABASE_URL is set, else on PGlite in a
 * temporary DATA_DIR.
 */
export async function startPortalProcess(admin: { username: string; password: string }): Promise<RunningPortal> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-browser-'));
  const postgres = postgresSkipReason() === null ? await postgresDatabase.open() : null;
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_USERNAME: admin.username,
    ADMIN_PASSWORD: admin.password,
    DATABASE_URL: postgres?.url ?? '',
  };
  const child: ChildProcess = spawn('node', [join(root, 'deploy/scripts/start.mjs')], { cwd: root, env });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the portal exited (${child.exitCode}):\n${output}`);
    const healthy = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) throw new Error(`the portal did not start:\n${output}`);
    await new Promise((done) => setTimeout(done, 250));
  }
  return {
    url,
    database: postgres ? 'postgres' : 'pglite',
    output: () => output,
    async stop() {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
      await postgres?.drop();
    },
  };
}
