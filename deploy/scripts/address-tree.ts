// `npm ci` (the root package's postinstall): builds the Thai address tree the registration forms
// ask for once, and keeps it under node_modules/.cache (query-api/src/core/thai-addresses.ts), so
// that no start of the portal spends seconds of CPU building it again. Only a speed-up: should it
// fail, the install goes on, and the portal builds the tree as before.
import { performance } from 'node:perf_hooks';
import { keepAddressTree, keptTreePath } from '@portal/query-api/core/thai-addresses';

const started = performance.now();
try {
  await keepAddressTree();
  console.log(
    `The Thai address tree built in ${((performance.now() - started) / 1000).toFixed(1)} s: ${keptTreePath()}`,
  );
} catch (error) {
  console.warn(`No kept Thai address tree (the portal builds it at its start): ${(error as Error).message}`);
}
