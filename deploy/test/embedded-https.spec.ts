import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lanAddresses, localTls } from '../src/local-tls.ts';
import { type RunningPortal, failedStart, startPortalProcess } from '../src/testing/portal-process.ts';

/** A GET over https trusting only `ca`: the status, the body and the certificate the server showed. */
function httpsGet(url: string, ca: string) {
  return new Promise<{ status: number; body: string; cert: X509Certificate }>((done, fail) => {
    const req = request(url, { ca }, (response) => {
      const cert = (response.socket as TLSSocket).getPeerX509Certificate()!;
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => done({ status: response.statusCode!, body, cert }));
    });
    req.on('error', fail);
    req.end();
  });
}

/**
 * `npm start` serves HTTPS too, so a phone on the local network gets a secure context (the
 * camera): a certificate from the portal's own authority, made once in DATA_DIR, naming
 * localhost, the host name and the LAN addresses; /trust hands phones the authority.
 */
describe('npm start over HTTPS on the local network', () => {
  let portal: RunningPortal | undefined;
  afterAll(() => portal?.stop());
  const lan = lanAddresses()[0];

  it('answers at every LAN address and the host name with a certificate from its own authority', async () => {
    portal = await startPortalProcess({ database: 'pglite', env: { HOST: '0.0.0.0' } });
    const ca = readFileSync(join(portal.dataDir, 'tls/ca.crt'), 'utf8');
    expect(statSync(join(portal.dataDir, 'tls/ca.key')).mode & 0o777).toBe(0o600);
    for (const host of ['localhost', hostname(), ...lanAddresses()]) {
      const answer = await httpsGet(`https://${host}:${portal.httpsPort}/api/health`, ca);
      expect(answer.status).toBe(200);
      expect(answer.cert.checkIssued(new X509Certificate(ca))).toBe(true);
    }
    // HTTP keeps working, and the banner names each LAN address over https, where to trust it, with a QR code.
    expect((await fetch(`${portal.url}/api/health`)).status).toBe(200);
    const output = portal.output();
    expect(output).toContain(`and at https://localhost:${portal.httpsPort}`);
    if (lan) {
      expect(output).toContain(`On a phone on this network (camera needs https): https://${lan}:${portal.httpsPort}`);
      expect(output).toContain(`Trust the portal's certificate once per phone: http://${lan}:`);
      expect(output).toMatch(/[▀▄█]{7}/); // the QR code's finder pattern, drawn in half blocks
    }
  }, 120_000);

  it('hands phones the authority and how to trust it, in English and Thai', async () => {
    const page = await fetch(`${portal!.url}/trust`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Download the certificate (portal-ca.crt)');
    expect(html).toContain('ดาวน์โหลดใบรับรอง');
    expect(html).toMatch(/Android:.*iPhone and iPad:/s);
    const ca = new X509Certificate(readFileSync(join(portal!.dataDir, 'tls/ca.crt')));
    expect(html).toContain(ca.fingerprint256);
    const download = await fetch(`${portal!.url}/trust/portal-ca.crt`);
    expect(download.headers.get('content-type')).toBe('application/x-x509-ca-cert');
    expect(Buffer.from(await download.arrayBuffer())).toEqual(ca.raw);
    expect(ca.ca).toBe(true);
    // The page is served under the portal's security headers like everything else.
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('keeps its authority and certificate across starts', async () => {
    const dataDir = portal!.dataDir;
    const before = readFileSync(join(dataDir, 'tls/server.crt'), 'utf8');
    await portal!.stop({ keepData: true });
    portal = await startPortalProcess({ database: 'pglite', dataDir, env: { HOST: '0.0.0.0' } });
    expect(readFileSync(join(dataDir, 'tls/server.crt'), 'utf8')).toBe(before);
    const ca = readFileSync(join(dataDir, 'tls/ca.crt'), 'utf8');
    expect((await httpsGet(`https://localhost:${portal.httpsPort}/api/health`, ca)).status).toBe(200);
  }, 120_000);

  it('keeps a phone’s connection open between scans seconds apart, over HTTPS and HTTP', async () => {
    const ca = readFileSync(join(portal!.dataDir, 'tls/ca.crt'), 'utf8');
    for (const [url, agent] of [
      [`https://localhost:${portal!.httpsPort}/api/health`, new HttpsAgent({ keepAlive: true, ca })],
      [`${portal!.url}/api/health`, new HttpAgent({ keepAlive: true })],
    ] as const) {
      // Two requests 6 s apart, as a scanner between two people: the second goes on the first's
      // connection (node's default, 5 s, closed it: a new TLS handshake for nearly every scan).
      expect(await reusedSocket(url, agent)).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(await reusedSocket(url, agent)).toBe(true);
      agent.destroy();
    }
  }, 60_000);
});

/** A GET through `agent`: whether it went on a connection the agent kept from before. */
function reusedSocket(url: string, agent: HttpAgent | HttpsAgent) {
  return new Promise<boolean>((done, fail) => {
    const send = url.startsWith('https:') ? request : httpRequest;
    const req = send(url, { agent }, (response) => {
      expect(response.statusCode).toBe(200);
      response.resume();
      response.on('end', () => done(req.reusedSocket));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('the local authority', () => {
  const dir = mkdtempSync(join(tmpdir(), 'local-tls-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const names = { dns: ['localhost', 'room-laptop'], ips: ['127.0.0.1', '::1', '192.168.1.20'] };

  it('issues again when the machine has a new address or the certificate nears its end, never a new authority', async () => {
    const first = await localTls(dir, names);
    expect(first.issued).toBe(true);
    expect(new X509Certificate(first.cert).subjectAltName).toBe(
      'DNS:localhost, DNS:room-laptop, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, IP Address:192.168.1.20',
    );
    expect((await localTls(dir, names)).issued).toBe(false);
    const moved = await localTls(dir, { ...names, ips: [...names.ips, '10.0.0.7'] });
    expect(moved.issued).toBe(true);
    expect(new X509Certificate(moved.cert).subjectAltName).toContain('IP Address:10.0.0.7');
    const later = new Date(Date.now() + 380 * 24 * 3600_000); // 17 days before its end
    expect((await localTls(dir, { ...names, ips: [...names.ips, '10.0.0.7'] }, later)).issued).toBe(true);
    expect(moved.caCert).toBe(first.caCert);
    const server = new X509Certificate(moved.cert);
    // Apple's limit for any server certificate: 825 days.
    expect(new Date(server.validTo).getTime() - new Date(server.validFrom).getTime()).toBeLessThan(825 * 24 * 3600_000);
    expect(server.ca).toBe(false);
  });
});

describe('npm start with HTTPS settings', () => {
  it('refuses a bad HTTPS_PORT and a TLS_CERT without TLS_KEY, and uses your own certificate', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-https-'));
    try {
      const port = await failedStart({ DATA_DIR: dataDir, HTTPS_PORT: '99999' });
      expect(port.output).toContain('HTTPS_PORT must be a port number (1-65535) or "off", not "99999".');
      const half = await failedStart({ DATA_DIR: dataDir, TLS_CERT: '/nowhere.pem' });
      expect(half.output).toContain('TLS_CERT and TLS_KEY go together');
      // Your own certificate (here another authority's), used as it is.
      const own = await localTls(join(dataDir, 'own'), { dns: ['localhost'], ips: ['127.0.0.1'] });
      writeFileSync(join(dataDir, 'cert.pem'), own.cert);
      writeFileSync(join(dataDir, 'key.pem'), own.key);
      const portal = await startPortalProcess({
        database: 'pglite',
        env: { TLS_CERT: join(dataDir, 'cert.pem'), TLS_KEY: join(dataDir, 'key.pem') },
      });
      try {
        const answer = await httpsGet(`https://localhost:${portal.httpsPort}/api/health`, own.caCert);
        expect(answer.cert.raw).toEqual(new X509Certificate(own.cert).raw);
        // No local authority to hand out (the console answers the path, as any unknown one).
        expect(await (await fetch(`${portal.url}/trust`)).text()).not.toContain('portal-ca.crt');
      } finally {
        await portal.stop();
      }
      const off = await startPortalProcess({ database: 'pglite', env: { HTTPS_PORT: 'off' } });
      expect(off.output()).not.toContain('https://');
      await off.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
