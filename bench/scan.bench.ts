/**
 * Scanning under load (issue 5): concurrent scanners over HTTP against the running portal
 * (scan-load.ts), on PGlite and, when DATABASE_URL is set, PostgreSQL. Prints scans per second,
 * answer times and the delay until the read models show each scan. Asserts nothing.
 */
import { onEachDatabase } from './measure.ts';
import { scanLoad } from './scan-load.ts';

console.log('Scan benchmark: concurrent scanners over HTTP against the running portal');
await onEachDatabase((database) => scanLoad(database, database.name));
