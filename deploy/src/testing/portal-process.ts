import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { postgresDatabase } from '@portal/platform/testing/databases';

const root = resolve(import.meta.dirname, '../../..');

/**
 * `count` ports free now, all different: each is held until every one is found (found: two asked
 * one after the other can be the same port, and the portal then refused to start).
 */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((done) => {
          const server = createServer().listen(0, '127.0.0.1', () => done(server));
        }),
    ),
  );
  const ports = servers.map((server) => {
    const address = server.address();
    if (typeof address !== 'object' || !address) throw new Error('no port');
    return address.port;
  });
  await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
  return ports;
}
/** A port free now (benchmarks that start a portal of their own use it too). */
export const freePort = async () => (await freePorts(1))[0]!;

export interface PortalProcessOptions {
  /** PostgreSQL (a fresh database) or PGlite (in `dataDir`). */
  database: 'postgres' | 'pglite';
  /** Keep data between starts by passing the same directory; default a fresh temporary one. */
  dataDir?: string;
  env?: Record<string, string>;
}

export interface RunningPortal {
  url: string;
  /** Its HTTPS port (HTTPS_PORT, a free one unless the test set it). */
  httpsPort: number;
  dataDir: string;
  /** The PostgreSQL database it runs on (null on PGlite). */
  databaseUrl: string | null;
  output: () => string;
  /** Stops the process; `keepData` leaves DATA_DIR (and the PostgreSQL database) for another start. */
  stop(options?: { keepData?: boolean }): Promise<void>;
  /** Kills it outright (SIGKILL), as a crash would: no clean shutdown. */
  kill(): Promise<void>;
}

/**
 * Starts the portal exactly as a newcomer does, `npm start` (deploy/scripts/start.mjs: builds the
 * console when needed, then runs everything in one process), and waits until it is healthy.
 */
export async function startPortalProcess(options: PortalProcessOptions): Promise<RunningPortal> {
  // Free ports unless the test names them (a restart on the same address, say).
  const [freeHttp, freeHttps] = await freePorts(2);
  const port = Number(options.env?.PORT) || freeHttp!;
  const httpsPort = Number(options.env?.HTTPS_PORT) || freeHttps!;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'portal-'));
  const postgres = options.database === 'postgres' ? await postgresDatabase.open() : null;
  // No relay unless asked: CI's KAFKA_BROKERS is for the Kafka tests.
  const env = {
    PORT: String(port),
    HTTPS_PORT: String(httpsPort),
    DATA_DIR: dataDir,
    DATABASE_URL: postgres?.url ?? '',
    KAFKA_BROKERS: '',
    ...options.env,
  };
  try {
    const running = await startHealthy(['node', join(root, 'deploy/scripts/start.mjs')], env, port);
    return {
      ...running,
      httpsPort,
      dataDir,
      databaseUrl: postgres?.url ?? null,
      async stop(stopOptions = {}) {
        await running.stop();
        if (stopOptions.keepData) return;
        rmSync(dataDir, { recursive: true, force: true });
        await postgres?.drop();
      },
    };
  } catch (error) {
    await postgres?.drop();
    throw error;
  }
}

/**
 * One service started alone from its server.ts (production mode), waiting for its health: through
 * tsx's loader, or with `bundled` as the production shape runs it (deploy/scripts/service.mjs).
 */
export async function startService(
  workspace: 'command-api' | 'projector' | 'query-api' | 'relay',
  env: Record<string, string>,
  { bundled = false } = {},
): Promise<Omit<RunningPortal, 'dataDir' | 'databaseUrl' | 'httpsPort'>> {
  const port = await freePort();
  const program = `${workspace}/src/server.ts`;
  return startHealthy(
    // One process (node with tsx's loader, not the tsx command, which runs a child): a kill reaches it.
    bundled
      ? [process.execPath, join(root, 'deploy/scripts/service.mjs'), program]
      : [process.execPath, '--import', 'tsx', join(root, program)],
    {
      ...env,
      PORT: String(port),
    },
    port,
  );
}

async function startHealthy(command: string[], env: Record<string, string>, port: number) {
  const [program, ...args] = command as [string, ...string[]];
  const child: ChildProcess = spawn(program, args, { cwd: root, env: { ...process.env, HOST: '127.0.0.1', ...env } });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise((done) => child.once('exit', done));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.at(-1)} exited (${child.exitCode}):\n${output}`);
    const answered = await fetch(`${url}/api/health`).then(
      (r) => r.status,
      () => 0,
    );
    if (answered === 200) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${args.at(-1)} did not become healthy:\n${output}`);
    }
    await new Promise((done) => setTimeout(done, 50));
  }
  return {
    url,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Runs the portal expecting it to fail to start; answers its exit code and output. */
export async function failedStart(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const [httpPort, httpsPort] = await freePorts(2);
  const child = spawn('node', [join(root, 'deploy/scripts/start.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: '',
      PORT: String(httpPort),
      HTTPS_PORT: String(httpsPort),
      HOST: '127.0.0.1',
      ...env,
    },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  return { code, output };
}
