import { afterAll } from 'vitest';
import { useTestDataKeys } from './data-keys.ts';
import { removeTestUploadsDirs } from './uploads-dir.ts';

// Every test process wraps personal-data keys as a service would (see ../privacy/data-key.ts).
useTestDataKeys();
// Registered first, so run last: after the file's own hooks have stopped what used the folders.
afterAll(removeTestUploadsDirs);
