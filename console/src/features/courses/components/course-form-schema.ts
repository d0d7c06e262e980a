import { z } from 'zod';
import { courseDescription, courseStatus, courseTopic, maxPeople, roundsOverlap } from '@portal/contracts/rules/course';
import type { MessageKey } from '@portal/contracts/rules/messages';

const key = (messageKey: MessageKey) => messageKey;

/** A round as the form edits it: datetime-local values in the browser's time zone. */
const RoundDraft = z
  .object({
    roundId: z.string().optional(),
    /** Held or being held: shown read-only, never sent again. */
    started: z.boolean().optional(),
    start: z.string().min(1, key('round.startRequired')),
    end: z.string().min(1, key('round.endRequired')),
  })
  .refine((round) => !round.start || !round.end || Date.parse(round.end) > Date.parse(round.start), {
    path: ['end'],
    message: key('round.endBeforeStart'),
  });
export type RoundDraft = z.infer<typeof RoundDraft>;

/**
 * The course form (spec 001 sections 2.2 and 5) with the server's own field rules, plus the rounds
 * it schedules: each ends after it starts and no two overlap (the server checks both again).
 */
export const CourseFormSchema = z.object({
  courseTopic,
  courseDescription,
  // Required: an empty box is not "unlimited"; 0 is.
  maxPeople: z.preprocess((value) => (value === '' ? undefined : value), maxPeople),
  status: courseStatus,
  // Checked on the list itself, so overlaps show even while other fields still need work.
  rounds: z.array(RoundDraft).superRefine((rounds, context) => {
    const span = (round: RoundDraft) => ({ start: round.start, end: round.end });
    rounds.forEach((round, index) => {
      if (rounds.slice(0, index).some((other) => roundsOverlap(span(other), span(round)))) {
        context.addIssue({ code: 'custom', path: [index, 'start'], message: key('round.overlaps') });
      }
    });
  }),
});

export type CourseFormInput = z.input<typeof CourseFormSchema>;
export type CourseFormValues = z.output<typeof CourseFormSchema>;

/** Each round's number in time order (rows keep the order they were added in while editing). */
export function roundNumbers(rounds: readonly { start: string }[]): number[] {
  const order = rounds
    .map((round, index) => ({ index, at: Date.parse(round.start) }))
    .sort((a, b) => (Number.isNaN(a.at) ? 1 : Number.isNaN(b.at) ? -1 : a.at - b.at || a.index - b.index));
  const numbers: number[] = [];
  order.forEach((entry, rank) => (numbers[entry.index] = rank + 1));
  return numbers;
}
