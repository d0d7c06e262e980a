import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The embedded portal's session secret: SESSION_SECRET when set, otherwise one generated on the
 * first start and kept in DATA_DIR (mode 600), so sessions survive a restart.
 */
export function embeddedSessionSecret(dataDir: string, fromEnv = process.env.SESSION_SECRET): string {
  if (fromEnv) return fromEnv;
  const file = join(dataDir, 'session-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString('base64url');
    writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}
