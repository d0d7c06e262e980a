/**
 * The scan benchmark's second process (scan-load.ts): the scanners, as phones would be, apart
 * from the portal they call. Reads from stdin the scans to make, as JSON
 * `{ base, token, scanners, warmUp, work: [{ roundId, memberId }] }`; each scanner takes the next
 * scan once its last one was answered (closed loop), until none is left. The first `warmUp` scans
 * taken are the warm-up: they are marked, and this process's CPU is counted from the first scan
 * after them. Prints `ready` as it starts, `measuring` when it takes the first scan after the
 * warm-up, then one JSON line: each scan's times (sent and answered, in ms since the epoch, so
 * the portal's process can compare them with its own clock), its position in the log, its status
 * and whether it was a warm-up scan, and this process's CPU time after the warm-up.
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { text } from 'node:stream/consumers';

export interface ScanJob {
  base: string;
  token: string;
  scanners: number;
  warmUp: number;
  work: { roundId: string; memberId: string }[];
}

export interface ScanTimes {
  sent: number;
  answered: number;
  position: number;
  status: number;
  warmUp: boolean;
}

export interface ScanLoadResult {
  scans: ScanTimes[];
  cpuMs: number;
}

const job = JSON.parse(await text(process.stdin)) as ScanJob;
const agent = new Agent({ keepAlive: true, maxSockets: job.scanners });
const { hostname, port } = new URL(job.base);
const now = () => performance.timeOrigin + performance.now();

/** One scan, as the scanner page sends a typed one; answers its status and the log position. */
const scan = (roundId: string, memberId: string, deviceId: string) =>
  new Promise<{ status: number; position: number }>((done, fail) => {
    const body = JSON.stringify({ userId: memberId, method: 'typed', deviceId });
    const sent = request(
      {
        hostname,
        port,
        method: 'PUT',
        path: `/api/admin/updateround/${roundId}`,
        agent,
        headers: { authorization: `Bearer ${job.token}`, 'content-type': 'application/json' },
      },
      (response) => {
        let answer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (answer += chunk));
        response.on('end', () =>
          done({ status: response.statusCode ?? 0, position: (JSON.parse(answer) as { position: number }).position }),
        );
      },
    );
    sent.on('error', fail);
    sent.end(body);
  });

// Loaded and given its work.
console.log('ready');
let cpu = process.cpuUsage();
let taken = 0;
const scans: ScanTimes[] = [];
await Promise.all(
  Array.from({ length: job.scanners }, async (_, scanner) => {
    for (let next = job.work.pop(); next; next = job.work.pop()) {
      const index = taken++;
      const warmUp = index < job.warmUp;
      // The warm-up is over: the portal's process starts its clocks now.
      if (index === job.warmUp) {
        cpu = process.cpuUsage();
        console.log('measuring');
      }
      const sent = now();
      const { status, position } = await scan(next.roundId, next.memberId, `bench-${scanner}`);
      scans.push({ sent, answered: now(), position, status, warmUp });
    }
  }),
);
const used = process.cpuUsage(cpu);
agent.destroy();
const result: ScanLoadResult = { scans, cpuMs: (used.user + used.system) / 1000 };
console.log(JSON.stringify(result));
