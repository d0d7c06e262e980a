import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresSkipReason } from '@portal/platform/testing/databases';
import { type RunningPortal, startPortalProcess } from '../src/testing/portal-process.ts';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const ADMIN_PASSWORD = 'readme-admin-password';

/** The `sh` block under a README heading, as a newcomer copies it. */
function shellBlock(heading: string): string {
  const after = README.slice(README.indexOf(heading));
  const match = /```sh\n([\s\S]*?)```/.exec(after);
  if (!match) throw new Error(`no sh block under ${heading}`);
  return match[1]!;
}

/**
 * What a `# [status] json` comment after a command promises: the status, and the answer, where
 * "…" stands for anything (a value, the rest of an object, the end of a text).
 */
function promised(comment: string): { status: number | null; body: unknown } {
  const [, status, json] = /^# (?:(\d{3}) )?(.*)$/.exec(comment)!;
  const parsed = JSON.parse(json!.replace(/,…([}\]])/g, '$1')) as unknown;
  const loosen = (value: unknown): unknown => {
    if (value === '…') return expect.any(String);
    if (typeof value === 'string' && value.endsWith(' …')) {
      return expect.stringMatching(new RegExp(`^${value.slice(0, -2).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    }
    if (Array.isArray(value)) return value.map(loosen);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, loosen(inner)]));
    }
    return value;
  };
  return { status: status ? Number(status) : null, body: loosen(parsed) };
}

/**
 * The README's thin slice, run as written (issue 20): `npm start`'s portal, the block run by bash
 * with curl, only the placeholders filled in (the portal's address, the first admin's printed
 * password, the new account's id). Each answer is what the comment under its command says.
 */
describe('the README’s thin slice over HTTP', () => {
  let portal: RunningPortal;
  const work = mkdtempSync(join(tmpdir(), 'readme-'));
  beforeAll(async () => {
    portal = await startPortalProcess({
      database: postgresSkipReason() === null ? 'postgres' : 'pglite',
      env: { ADMIN_USERNAME: 'admin01', ADMIN_PASSWORD },
    });
  }, 180_000);
  afterAll(async () => {
    await portal?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('answers every command as the comment under it says', () => {
    const block = shellBlock('### The thin slice over HTTP');
    // Each curl that writes to the terminal also keeps its answer and status in a file of its own.
    const preamble = `set -e
n=0
curl() {
  if [ -p /dev/stdout ]; then command curl "$@"; return; fi
  n=$((n + 1))
  command curl -o "${work}/answer-$n" -w '%{http_code}' "$@" > "${work}/status-$n"
}
`;
    const firstId = `$(node -pe 'JSON.parse(require("fs").readFileSync("${work}/answer-1", "utf8"))._id')`;
    const script = block
      .replaceAll('localhost:3000', new URL(portal.url).host)
      .replaceAll('<printed>', ADMIN_PASSWORD)
      .replaceAll('<_id>', firstId);
    writeFileSync(join(work, 'slice.sh'), preamble + script);
    execFileSync('bash', [join(work, 'slice.sh')], { stdio: 'pipe' });

    // The commands that print, in order, each with the comment that follows it (if any).
    const lines = block.split('\n');
    const printing = lines
      .map((line, index) => ({ line, index }))
      .filter(({ line }) => line.startsWith('curl '))
      .map(({ index }) => {
        let next = index + 1;
        while (lines[next] && !lines[next]!.startsWith('#') && !/^(curl |[A-Z]+=)/.test(lines[next]!)) next++;
        return lines[next]?.startsWith('#') ? promised(lines[next]!) : null;
      });
    const answered = readdirSync(work).filter((file) => file.startsWith('answer-'));
    expect(answered).toHaveLength(printing.length);
    printing.forEach((promise, index) => {
      const status = Number(readFileSync(join(work, `status-${index + 1}`), 'utf8'));
      const body = JSON.parse(readFileSync(join(work, `answer-${index + 1}`), 'utf8')) as unknown;
      expect(status).toBeLessThan(500);
      if (!promise) return;
      if (promise.status !== null) expect(status).toBe(promise.status);
      expect(body).toMatchObject(promise.body as object);
    });
  });
});
