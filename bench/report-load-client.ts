/**
 * The reports benchmark's second process: sends each kind of report request at its own steady
 * rate, all kinds at once, for the given seconds (open loop: a request leaves on schedule whether
 * or not earlier ones were answered, so a slow answer cannot hold the next ones back and hide
 * itself), and prints one JSON line per kind with its answer times (p50, p99, max, from the
 * moment it was due), how many were answered and how many were not 200.
 *
 * Not autocannon: its rate limit lets each connection send as fast as it can until the second's
 * quota is spent, then wait for the next second, so every second starts with a burst and the
 * times measure the burst rather than a steady 200 requests/s.
 *
 * argv: base URL, admin token, rate per kind (requests/s), seconds, members, and which kinds:
 * 'mix' (report-data.ts's reportRequests) or 'name' (sortedByName).
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { reportRequests, sortedByName } from './report-data.ts';

const [base, token, rateText, secondsText, membersText, set] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
];
const rate = Number(rateText);
const seconds = Number(secondsText);
const kinds = set === 'name' ? sortedByName() : reportRequests(Number(membersText));
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const { hostname, port } = new URL(base);

/** One GET; answers its status once the whole body has arrived. */
const get = (path: string) =>
  new Promise<number>((done) => {
    const sent = request({ hostname, port, path, agent, headers: { authorization: `Bearer ${token}` } }, (response) => {
      response.resume();
      response.on('end', () => done(response.statusCode ?? 0));
    });
    sent.on('error', () => done(0));
    sent.end();
  });

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : NaN;

async function send(kind: string, path: () => string) {
  const interval = 1000 / rate;
  const count = Math.round(rate * seconds);
  const times: number[] = [];
  let failed = 0;
  const start = performance.now() + Math.random() * interval;
  const answers: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    answers.push(
      get(path()).then((status) => {
        times.push(performance.now() - due);
        if (status !== 200) failed++;
      }),
    );
  }
  await Promise.all(answers);
  times.sort((a, b) => a - b);
  const ms = (value: number) => Math.round(value * 10) / 10;
  console.log(
    JSON.stringify({
      kind,
      answered: times.length,
      p50: ms(percentile(times, 0.5)),
      p99: ms(percentile(times, 0.99)),
      max: ms(times.at(-1) ?? NaN),
      non200: failed,
    }),
  );
}

await Promise.all(Object.entries(kinds).map(([kind, path]) => send(kind, path)));
agent.destroy();
