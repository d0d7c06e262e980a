import { type DataKeys, useDataKeys } from '../privacy/data-key.ts';

/** The key-encryption key tests and benchmarks wrap personal-data keys with (never a real one). */
export const TEST_DATA_KEYS: DataKeys = { current: Buffer.alloc(32, 7), previous: [] };

export const useTestDataKeys = () => useDataKeys(TEST_DATA_KEYS);
