import { useTestDataKeys } from './data-keys.ts';

// Every test process wraps personal-data keys as a service would (see ../privacy/data-key.ts).
useTestDataKeys();
