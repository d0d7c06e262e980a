import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { APPENDED_CHANNEL, NOTIFY_EVERY_MS } from '../src/store/append-notifier.ts';
import { createEventStore } from '../src/store/event-store.ts';
import { postgresSkipReason } from '../src/testing/databases.ts';
import { freshPostgres } from '../src/testing/postgres-suite.ts';

const skipped = postgresSkipReason();
if (skipped) console.warn(`\n!!! ${skipped} (the append notifier's test needs it)\n`);

/**
 * On PostgreSQL a NOTIFY is a statement and a wake-up of every listener: the log's readers are
 * told of appends at once after a quiet spell, then at most once every NOTIFY_EVERY_MS while
 * appends go on, and the last NOTIFY names the last position.
 */
describe.skipIf(skipped)('the append notifier on PostgreSQL', () => {
  const suite = freshPostgres();

  it('tells the first append at once, then at most once every 5 ms, the last NOTIFY naming the last append', async () => {
    const store = createEventStore(suite.db);
    const heard: { position: number; at: number }[] = [];
    const unlisten = await suite.db.listen(APPENDED_CHANNEL, (payload) =>
      heard.push({ position: Number(payload), at: performance.now() }),
    );
    try {
      const started = performance.now();
      const positions: number[] = [];
      for (let i = 0; i < 60; i++) {
        const { position } = await store.append(`notified-${i}`, [{ type: 'Noted', schemaVersion: 1, data: { i } }], {
          expectedRevision: 'no_stream',
        });
        positions.push(position);
      }
      const last = positions.at(-1)!;
      for (let i = 0; i < 200 && heard.at(-1)?.position !== last; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(heard.at(-1)?.position).toBe(last);
      // Sent before the second append was made: it names the first alone.
      expect(heard[0]!.position).toBe(positions[0]);
      expect(heard.map(({ position }) => position)).toEqual(
        [...heard.map(({ position }) => position)].sort((a, b) => a - b),
      );
      // n NOTIFYs sent at least 5 ms apart span at least 5 (n - 1) ms, all of it before the last was heard.
      const spanned = heard.at(-1)!.at - started;
      expect(heard.length).toBeLessThanOrEqual(Math.floor(spanned / NOTIFY_EVERY_MS.postgres) + 1);
      expect(heard.length).toBeLessThan(positions.length);
    } finally {
      await unlisten();
    }
  });
});
