/**
 * The scan benchmark's ceilings (scan.bench.ts): what this machine answers, through the same load
 * client at the same concurrency, when a request does next to nothing. Two bare fastify servers
 * in this process, each with the scan's route: one answers a scan-shaped answer at once (the
 * ceiling of HTTP between the two processes), the other first INSERTs one event-sized row into a
 * fresh database of the kind measured and answers its position (the ceiling of a request that
 * writes one row and waits for its commit). No session, no validation, no decision, no stream,
 * no projector: a scan can come near them, not reach them.
 */
import Fastify from 'fastify';
import type { TestDatabase } from '@portal/platform/testing/databases';
import { cpuMeter } from './measure.ts';
import { type ScanFigures, scanFigures, startLoadClient } from './scan-load.ts';

const WARM_UP = 500;
const SCANS = 5000;

/** Both ceilings on `database`, with `scanners` at once; prints each and the portal's share of it. */
export async function scanCeilings(database: TestDatabase, scanners: number, portal: ScanFigures) {
  const lines = [`  ceilings, the same load client and ${scanners} scanners, a bare route:`];
  const http = await ceiling(scanners, async () => 0);
  lines.push(line('answers at once (HTTP alone)', http, portal));
  const { db, drop } = await database.open();
  try {
    await db.query(`CREATE TABLE ceiling_events (
      position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, stream_id text NOT NULL, type text NOT NULL,
      data jsonb NOT NULL, metadata jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
    const write = await ceiling(scanners, async (roundId, body) => {
      const [row] = await db.query<{ position: string }>(
        `INSERT INTO ceiling_events (stream_id, type, data, metadata) VALUES ($1, 'AttendanceScanned', $2, $3)
         RETURNING position::text`,
        [
          `attendance-${roundId}-${body.userId}`,
          JSON.stringify({ ...body, roundId, at: new Date().toISOString() }),
          '{}',
        ],
      );
      return Number(row!.position);
    });
    lines.push(line(`one INSERT of an event-sized row (${db.kind})`, write, portal));
  } finally {
    await drop();
  }
  console.log(lines.join('\n'));
}

function line(label: string, figures: ScanFigures, portal: ScanFigures) {
  const share = (portal.perSecond / figures.perSecond).toFixed(2);
  return `    ${`${label}:`.padEnd(48)} ${figures.rate}, CPU ${figures.cpuPerScan}; the portal's scans ${share} of it`;
}

/** One bare server answering the scan's route with `write`'s position; the load's figures. */
async function ceiling(
  scanners: number,
  write: (roundId: string, body: { userId: string }) => Promise<number>,
): Promise<ScanFigures> {
  const app = Fastify();
  app.put<{ Params: { roundId: string }; Body: { userId: string } }>(
    '/api/admin/updateround/:roundId',
    async (request) => {
      const { userId } = request.body;
      const position = await write(request.params.roundId, request.body);
      const scannedAt = new Date().toISOString();
      return {
        success: true,
        message: 'Checked in',
        member: { _id: userId, fullName: 'A member' },
        position,
        outcome: 'accepted',
        memberId: userId,
        scannedAt,
        late: false,
        walkIn: false,
        lateUploaded: false,
      };
    },
  );
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const hex = (n: number) => n.toString(16).padStart(24, '0');
    const work = Array.from({ length: SCANS }, (_, i) => ({ roundId: hex(i % 100), memberId: hex(i) }));
    const client = startLoadClient({ base, token: 'none', scanners, warmUp: WARM_UP, work });
    await client.measuring;
    const cpu = cpuMeter();
    const { scans, cpuMs } = await client.result;
    const measured = scans.filter((scan) => !scan.warmUp);
    const { ownMs, postgresMs } = cpu();
    return scanFigures(measured, ownMs + postgresMs + cpuMs);
  } finally {
    await app.close();
  }
}
