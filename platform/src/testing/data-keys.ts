import { type DataKeys, useDataKeys } from '../privacy/data-key.ts';

/** The key-encryption key tests and benchmarks wrap personal-data keys with (never a real one). */
export const TEST_DATA_KEYS: DataKeys = { current: Buffer.alloc(32, 7), previous: [] };

export const useTestDataKeys = () => useDataKeys(TEST_DATA_KEYS);

/** The same key as a service reads it from the environment (a spawned projector, say). */
export const TEST_DATA_KEY_ENV = { DATA_KEY: TEST_DATA_KEYS.current.toString('base64') };
