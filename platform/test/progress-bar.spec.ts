import { Writable } from 'node:stream';
import { SingleBar } from 'cli-progress';
import { describe, expect, it } from 'vitest';
import { REBUILD_BAR } from '../src/cli/progress-bar.ts';

/** `npm run rebuild`'s bar writing its lines to `lines` (as it would to a terminal that is not one). */
function bar(lines: string[]) {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  return new SingleBar({ ...REBUILD_BAR, stream, noTTYOutput: true, notTTYSchedule: 1e9 });
}

describe('the rebuild progress bar', () => {
  it('says the time left is not known before there is a rate, instead of "0s" then a cut "NFs"', () => {
    const lines: string[] = [];
    const shown = bar(lines);
    shown.start(1_026_732, 0, { stage: '' });
    shown.update(0); // nothing moved yet: cli-progress's estimate is 'INF'
    shown.render();
    shown.stop();
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) {
      expect(line).toContain('0/1026732 events | time left not known yet');
      expect(line).not.toMatch(/NF|UL|\b0s left/);
    }
  });

  it('shows the time left once there is a rate, then the stage after it', async () => {
    const lines: string[] = [];
    const shown = bar(lines);
    shown.start(1_000_000, 0, { stage: '' });
    await new Promise((done) => setTimeout(done, 20));
    shown.update(500_000);
    shown.render();
    shown.update(1_000_000, { stage: ' | counting' });
    shown.stop();
    expect(lines.at(-2)).toMatch(/500000\/1000000 events \| +\d+s left$/);
    expect(lines.at(-1)).toMatch(/100% \| 1000000\/1000000 events \| +0s left \| counting$/);
  });
});
