import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sampleMember } from '@portal/platform/testing/accounts';
import { type RunningPortal, failedStart, startPortalProcess } from '../src/testing/portal-process.ts';

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );

/** `npm start` on a fresh DATA_DIR: PGlite, the console, the first admin's password shown once. */
describe('npm start (embedded)', () => {
  let portal: RunningPortal | undefined;
  afterAll(() => portal?.stop());

  const signIn = (url: string, username: string, password: string) =>
    fetch(`${url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });

  it('starts on PGlite, serves the console, prints the URL and the admin password once, and keeps no personal data readable in its files', async () => {
    portal = await startPortalProcess({ database: 'pglite', env: { ADMIN_USERNAME: '', ADMIN_PASSWORD: '' } });
    const output = portal.output();
    expect(output).toContain(`Course portal is running at http://localhost:${new URL(portal.url).port}`);
    expect(output).toContain('embedded PGlite');
    // The key that wraps personal-data keys is made on the first start, kept beside the data, named.
    expect(output).toContain(`Personal-data key: ${join(portal.dataDir, 'data-key')}`);
    expect(statSync(join(portal.dataDir, 'data-key')).mode & 0o777).toBe(0o600);
    const password = /username admin01, password (\S+)/.exec(output)?.[1];
    expect(password).toBeDefined();
    expect((await signIn(portal.url, 'admin01', password!)).status).toBe(200);

    const page = await fetch(`${portal.url}/registrations`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<div id="root">');
    // What people get is the production build, whatever NODE_ENV started it (vitest's is 'test'):
    // found, the tests had been served React's development build and Workbox's logging worker.
    const script = /<script type="module"[^>]* src="([^"]+)"/.exec(html)?.[1];
    const app = await (await fetch(`${portal.url}${script}`)).text();
    expect(app.includes('createRoot'), 'the console served').toBe(true);
    expect(app.includes('Each child in a list should have a unique'), "React's development build").toBe(false);
    const worker = await (await fetch(`${portal.url}/sw.js`)).text();
    expect(worker.includes('workbox'), 'the service worker served').toBe(true);
    expect(worker.includes('No route found'), "Workbox's development build").toBe(false);
    const unknownApi = await fetch(`${portal.url}/api/no-such-call`);
    expect(unknownApi.status).toBe(404);
    expect(unknownApi.headers.get('content-type')).toContain('application/json');

    // A second portal on the same data refuses to start instead of corrupting it.
    const second = await failedStart({ DATA_DIR: portal.dataDir });
    expect(second.code).not.toBe(0);
    expect(second.output).toContain('The portal could not start: The embedded database in');
    expect(second.output).toContain('is in use by process');

    // A person and a message of their own: after the stop, the database's files (WAL included)
    // hold none of it; the key to open it is kept apart (data-key).
    const person = sampleMember({ fullName: 'Quetzal Pennywhistle' });
    const post = (path: string, body: object) =>
      fetch(`${portal!.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post('/api/members/register', person)).status).toBe(201);
    const note = { name: 'Xylo Wobbleton', email: 'xylo.wob@example.org', message: 'Marmalade conspiracy' };
    expect((await post('/api/contact', note)).status).toBe(201);

    // Restarted on the same data: the admin and their password are kept, and nothing is printed again.
    const dataDir = portal.dataDir;
    await portal.stop({ keepData: true });
    const files = filesUnder(join(dataDir, 'pglite')).map((file) => readFileSync(file));
    const found = (word: string) => files.some((bytes) => bytes.includes(Buffer.from(word)));
    expect(found('ContactMessageReceived')).toBe(true);
    for (const word of [
      person.fullName,
      person.username,
      person.personalId,
      person.personalPhone,
      ...Object.values(note),
    ]) {
      expect(found(String(word)), word).toBe(false);
    }
    portal = await startPortalProcess({ database: 'pglite', dataDir, env: { ADMIN_USERNAME: '', ADMIN_PASSWORD: '' } });
    expect(portal.output()).not.toContain(password!);
    expect(portal.output()).toContain('Sign in with the admin account created on the first start');
    const admin = (await (await signIn(portal.url, 'admin01', password!)).json()) as { partner: { token: string } };
    const inbox = await fetch(`${portal.url}/api/admin/contact-messages`, {
      headers: { authorization: `Bearer ${admin.partner.token}` },
    });
    expect(await inbox.json()).toMatchObject({ contactMessages: [note] });
    // Three starts, the first running PGlite's initdb (8 s alone on this machine): a guard against a hang, not a speed test.
  }, 120_000);
});

describe('npm start with a bad first-admin setting', () => {
  it('refuses to start and names the variable and the rule', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-bad-admin-'));
    const { code, output } = await failedStart({ DATA_DIR: dataDir, ADMIN_USERNAME: 'abc' });
    rmSync(dataDir, { recursive: true, force: true });
    expect(code).not.toBe(0);
    expect(output).toContain('The portal could not start: ADMIN_USERNAME: Username must be at least 6 characters.');
    expect(output).not.toMatch(/ZodError|at async/);
  });

  it('refuses a DATA_KEY that is not 32 bytes, saying how to make one', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-bad-key-'));
    const { code, output } = await failedStart({ DATA_DIR: dataDir, DATA_KEY: 'too-short' });
    rmSync(dataDir, { recursive: true, force: true });
    expect(code).not.toBe(0);
    expect(output).toContain('The portal could not start: DATA_KEY must be 32 random bytes');
    expect(output).toContain('openssl rand -base64 32');
  });
});
