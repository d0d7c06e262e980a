import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { keptSecret } from './kept-secret.ts';

/**
 * The key-encryption key (KEK): each person's data key is stored wrapped with it (AES-256-GCM,
 * the person's id as associated data), so a copy of the database without DATA_KEY opens no
 * sealed field. Rotation: start with the new key as DATA_KEY and the old one in
 * DATA_KEY_PREVIOUS; the command side re-wraps every stored key at start (./rewrap.ts), events
 * untouched; then drop DATA_KEY_PREVIOUS.
 *
 * A wrapped key is stored as `kek1.<key id>.<iv>.<tag>.<wrapped>`; the key id (the first bytes of
 * the KEK's SHA-256) names which KEK wrapped it. A stored key without that prefix was written
 * before keys were wrapped; it is still read, and re-wrapped at the next start.
 */
export interface DataKeys {
  current: Buffer;
  previous: Buffer[];
}

let configured: DataKeys | null = null;

/** Sets the keys this process wraps and unwraps with (each service calls it once, at start). */
export function useDataKeys(keys: DataKeys): void {
  configured = keys;
}

function keys(): DataKeys {
  if (!configured) throw new Error('No DATA_KEY configured: call useDataKeys() at start (see dataKeysFromEnv).');
  return configured;
}

/** The keys this process uses, for a thread of its own to use the same (useDataKeys there). */
export const dataKeysInUse = (): DataKeys => keys();

const PREFIX = 'kek1';
const keyIds = new WeakMap<Buffer, string>();
/**
 * A KEK's id, written beside each key it wraps: the first 12 hex digits of its SHA-256, worked out
 * once per KEK (a rebuild unwraps a key per person, each looking for its KEK by this id).
 */
export const keyIdOf = (kek: Buffer): string => {
  let id = keyIds.get(kek);
  if (id === undefined) keyIds.set(kek, (id = createHash('sha256').update(kek).digest('hex').slice(0, 12)));
  return id;
};

/** A KEK as written in the environment: 32 bytes in base64 (`openssl rand -base64 32`) or hex. */
export function parseDataKey(text: string, name = 'DATA_KEY'): Buffer {
  const value = text.trim();
  const bytes = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (bytes.length !== 32) {
    throw new Error(`${name} must be 32 random bytes in base64 or hex (make one with: openssl rand -base64 32).`);
  }
  return bytes;
}

/**
 * DATA_KEY (required) and DATA_KEY_PREVIOUS (optional, comma-separated) from the environment.
 * When `dataDir` is given (the embedded start on PGlite) and DATA_KEY is not set, the key is
 * generated on the first start and kept in DATA_DIR/data-key (mode 600).
 */
export function dataKeysFromEnv(env: NodeJS.ProcessEnv = process.env, dataDir?: string): DataKeys {
  const previous = (env.DATA_KEY_PREVIOUS ?? '')
    .split(',')
    .filter((text) => text.trim() !== '')
    .map((text) => parseDataKey(text, 'DATA_KEY_PREVIOUS'));
  if (env.DATA_KEY) return { current: parseDataKey(env.DATA_KEY), previous };
  if (dataDir === undefined) {
    throw new Error(
      'DATA_KEY must be set when a service runs alone: 32 random bytes (openssl rand -base64 32), the same for every service.',
    );
  }
  return { current: parseDataKey(keptSecret(dataDir, 'data-key'), join(dataDir, 'data-key')), previous };
}

/** A person's data key as stored: wrapped with the current KEK. */
export function wrapKey(subject: string, key: Buffer): string {
  const kek = keys().current;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', kek, iv);
  cipher.setAAD(Buffer.from(subject));
  const wrapped = Buffer.concat([cipher.update(key), cipher.final()]);
  return [PREFIX, keyIdOf(kek), iv, cipher.getAuthTag(), wrapped]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** A stored key opened with whichever configured KEK wrapped it. */
export function unwrapKey(subject: string, stored: string): Buffer {
  if (!stored.startsWith(`${PREFIX}.`)) return Buffer.from(stored, 'base64'); // not wrapped yet
  const [, id, iv, tag, wrapped] = stored.split('.');
  const { current, previous } = keys();
  const kek = [current, ...previous].find((candidate) => keyIdOf(candidate) === id);
  if (!kek) {
    throw new Error(`A personal-data key was wrapped with a key-encryption key (id ${id}) that is not configured.`);
  }
  const decipher = createDecipheriv('aes-256-gcm', kek, Buffer.from(iv!, 'base64url'));
  decipher.setAAD(Buffer.from(subject));
  decipher.setAuthTag(Buffer.from(tag!, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(wrapped!, 'base64url')), decipher.final()]);
}

/** Whether a stored key needs re-wrapping: not wrapped yet, or wrapped with another KEK than the current one. */
export const needsRewrap = (stored: string) => !stored.startsWith(`${PREFIX}.${keyIdOf(keys().current)}.`);
