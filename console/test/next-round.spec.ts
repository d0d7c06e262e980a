import { describe, expect, it } from 'vitest';
import { nextRoundText } from '../src/features/catalogue/next-round.ts';

const now = Date.parse('2026-11-24T08:00:00Z');
const at = (minutes: number) => new Date(now + minutes * 60_000).toISOString();

describe('the catalogue card’s next round', () => {
  it('calls a round under way what it is, until it ends, and a later one the next', () => {
    expect(nextRoundText({ roundStartTime: at(-30), roundEndTime: at(30) }, now)).toEqual({
      key: 'market.roundNow',
      date: at(30),
    });
    expect(nextRoundText({ roundStartTime: at(60), roundEndTime: at(120) }, now)).toEqual({
      key: 'market.nextRound',
      date: at(60),
    });
    expect(nextRoundText(null, now)).toEqual({ key: 'market.noRounds', date: null });
  });
});
