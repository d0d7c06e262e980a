/**
 * What a catalogue card says of a course's next round: the catalogue answers the first round
 * not yet ended, so one under way is "under way until" its end, not the "next round" at a start
 * already past.
 */
export function nextRoundText(
  round: { roundStartTime: string; roundEndTime: string } | null,
  now = Date.now(),
): { key: 'market.roundNow' | 'market.nextRound' | 'market.noRounds'; date: string | null } {
  if (!round) return { key: 'market.noRounds', date: null };
  if (Date.parse(round.roundStartTime) <= now) return { key: 'market.roundNow', date: round.roundEndTime };
  return { key: 'market.nextRound', date: round.roundStartTime };
}
