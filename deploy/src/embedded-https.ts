import { readFileSync } from 'node:fs';
import type https from 'node:https';
import { join } from 'node:path';
import QRCode from 'qrcode';
import { portFromEnv } from '@portal/platform/http/service-config';
import { lanAddresses, localTls } from './local-tls.ts';
import { TRUST_PATH } from './trust-routes.ts';

export interface EmbeddedHttps {
  port: number;
  tls: { key: string; cert: string; caCert?: string };
}

/**
 * HTTPS for `npm start`, from the environment: HTTPS_PORT (3443; `off` for none), and TLS_CERT
 * with TLS_KEY (PEM files) to use your own certificate instead of the local authority's.
 */
export async function embeddedHttpsFromEnv(env: NodeJS.ProcessEnv, dataDir: string): Promise<EmbeddedHttps | null> {
  if ((env.HTTPS_PORT ?? '').trim() === 'off') return null;
  const port = portFromEnv(env, 'HTTPS_PORT', 3443, '"off"');
  if (Boolean(env.TLS_CERT) !== Boolean(env.TLS_KEY)) {
    throw new Error('TLS_CERT and TLS_KEY go together: set both (PEM files) or neither.');
  }
  if (env.TLS_CERT && env.TLS_KEY) {
    return { port, tls: { cert: readFileSync(env.TLS_CERT, 'utf8'), key: readFileSync(env.TLS_KEY, 'utf8') } };
  }
  const local = await localTls(join(dataDir, 'tls'));
  // The chain, the authority included: a client that trusts the authority by its key finds it.
  return {
    port,
    tls: { key: local.key, cert: `${local.cert.trim()}\n${local.caCert.trim()}\n`, caCert: local.caCert },
  };
}

/** Listens on the HTTPS server, failing with the port's name when it is taken. */
export function listenSecure(server: https.Server, port: number, host: string): Promise<void> {
  return new Promise((done, fail) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      fail(new Error(`HTTPS_PORT ${port}: ${error.code === 'EADDRINUSE' ? 'already in use' : error.message}`)),
    );
    server.listen(port, host, () => done());
  });
}

/** The start banner's lines for phones: each LAN address over https with a QR code of it, and where to trust it. */
export async function phoneLines(https: EmbeddedHttps, httpPort: number): Promise<string[]> {
  const lines: string[] = [];
  for (const address of lanAddresses()) {
    const url = `https://${address}:${https.port}`;
    lines.push(``, `  On a phone on this network (camera needs https): ${url}`);
    const qr = await QRCode.toString(url, { type: 'terminal', small: true });
    lines.push(
      ...qr
        .trimEnd()
        .split('\n')
        .map((line) => `  ${line}`),
    );
    if (https.tls.caCert) {
      lines.push(`  Trust the portal's certificate once per phone: http://${address}:${httpPort}${TRUST_PATH}`);
    }
  }
  return lines;
}
