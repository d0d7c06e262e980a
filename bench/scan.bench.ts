/**
 * Scanning under load (issue 5): concurrent scanners over HTTP against the running portal
 * (scan-load.ts), on PGlite and, when DATABASE_URL is set, PostgreSQL. Prints scans per second,
 * answer times and the delay until the read models show each scan; then, in the same run, the
 * ceilings of this machine for the same load (scan-ceiling.ts) and the portal's share of each.
 * Asserts nothing.
 */
import { onEachDatabase } from './measure.ts';
import { scanCeilings } from './scan-ceiling.ts';
import { SCANNERS, scanLoad } from './scan-load.ts';

console.log('Scan benchmark: concurrent scanners over HTTP against the running portal');
await onEachDatabase(async (database) => {
  const portal = await scanLoad(database, database.name);
  await scanCeilings(database, SCANNERS, portal);
});
