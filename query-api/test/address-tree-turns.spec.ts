import { describe, expect, it } from 'vitest';
import { buildAddressTree } from '../src/core/thai-addresses.ts';

/**
 * The tree is built just after the start (addresses.routes.ts, `warm`), in the thread that answers
 * every request: the build must let the event loop run between its pieces, or a request (or a
 * Ctrl-C) that arrives then waits for the whole build, seconds of CPU. It once ran as one chain
 * of promises already resolved, so nothing else ran until it ended: a request 0.25 s after
 * `npm start` said it was running was answered 2.8 s later.
 */
describe('the Thai address tree', () => {
  it('is built in pieces, with the event loop running between them', async () => {
    let turns = 0;
    let built = false;
    const building = buildAddressTree().finally(() => (built = true));
    // One turn of the event loop after another (each a macrotask), until the tree is built.
    await new Promise<void>((done) => {
      const next = () => {
        if (built) return done();
        turns++;
        setImmediate(next);
      };
      setImmediate(next);
    });
    const tree = await building;
    const districts = tree.flatMap((province) => province.amphure).length;
    expect(districts).toBeGreaterThan(900);
    // A turn between every district's lookups, at least.
    expect(turns).toBeGreaterThanOrEqual(districts);
  });
});
