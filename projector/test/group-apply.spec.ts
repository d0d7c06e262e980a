import { describe, expect, it } from 'vitest';
import { groupByPartition } from '../src/kafka/group-apply.ts';

describe('batches applied together', () => {
  it('applies the batches handed over together in one call, a partition at most once, and answers each its own result', async () => {
    const calls: string[][] = [];
    const apply = groupByPartition(async (batches: { partition: number; name: string }[]) => {
      calls.push(batches.map((batch) => batch.name));
      return batches.map((batch) => `applied ${batch.name}`);
    });
    const results = await Promise.all([
      apply({ partition: 0, name: 'a' }),
      apply({ partition: 1, name: 'b' }),
      apply({ partition: 0, name: 'c' }),
      apply({ partition: 2, name: 'd' }),
    ]);
    expect(calls).toEqual([['a', 'b', 'd'], ['c']]);
    expect(results).toEqual(['applied a', 'applied b', 'applied c', 'applied d']);
  });

  it('fails every batch of a call that failed, and applies the next ones', async () => {
    let fail = true;
    const apply = groupByPartition(async (batches: { partition: number }[]) => {
      if (fail) throw new Error('rolled back');
      return batches.map((batch) => batch.partition);
    });
    const first = [apply({ partition: 0 }), apply({ partition: 1 })];
    await expect(Promise.all(first.map((p) => p.catch((error: Error) => error.message)))).resolves.toEqual([
      'rolled back',
      'rolled back',
    ]);
    fail = false;
    expect(await Promise.all([apply({ partition: 0 }), apply({ partition: 1 })])).toEqual([0, 1]);
  });
});
