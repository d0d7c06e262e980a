import { keptSecret } from '@portal/platform/privacy/kept-secret';

/**
 * The embedded portal's session secret: SESSION_SECRET when set, otherwise one generated on the
 * first start and kept in DATA_DIR/session-secret, so sessions survive a restart.
 */
export const embeddedSessionSecret = (dataDir: string, fromEnv = process.env.SESSION_SECRET): string =>
  fromEnv || keptSecret(dataDir, 'session-secret');
