import { fromLocalInput } from '../../../lib/dates.ts';
import type { CourseFormValues, RoundDraft } from '../components/course-form-schema.ts';
import type { CourseWithRounds } from './get-course.ts';
import { cancelRound } from './cancel-round.ts';
import { createCourse } from './create-course.ts';
import { rescheduleRound } from './reschedule-round.ts';
import { scheduleRound } from './schedule-round.ts';
import { updateCourse } from './update-course.ts';
import { uploadCourseImage } from './upload-course-image.ts';

/** What saving did beyond the text: problems that did not stop it (spec 001 section 8, image warnings). */
export interface SaveOutcome {
  id: string;
  message: string;
  imageFailed: boolean;
  /** Rounds the server refused, with its reason. */
  roundFailures: { round: RoundDraft; reason: string }[];
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const timesOf = (round: RoundDraft) => ({
  roundStartTime: fromLocalInput(round.start),
  roundEndTime: fromLocalInput(round.end),
});

/**
 * Saves the form: the text first (its failure stops everything and is the caller's to show), then
 * the image, then the rounds: cancelled ones first so their times are free, then changed, then new.
 */
export async function saveCourse(
  values: CourseFormValues,
  image: File | null,
  existing: CourseWithRounds | null,
): Promise<SaveOutcome> {
  const { rounds, ...text } = values;
  const saved = existing
    ? { ...(await updateCourse(existing._id, text)), _id: existing._id }
    : await createCourse(text);
  const id = saved._id;
  const outcome: SaveOutcome = { id, message: saved.message, imageFailed: false, roundFailures: [] };
  if (image) {
    await uploadCourseImage(id, image, existing ? 'profile' : 'courseImage').catch(() => {
      outcome.imageFailed = true;
    });
  }
  const before = new Map((existing?.rounds ?? []).map((round) => [round._id, round]));
  const kept = new Set(rounds.map((round) => round.roundId).filter(Boolean));
  const attempt = async (round: RoundDraft, call: () => Promise<unknown>) =>
    call().catch((error: unknown) => outcome.roundFailures.push({ round, reason: reasonOf(error) }));

  for (const [roundId, round] of before) {
    if (!kept.has(roundId)) {
      const draft = { roundId, start: round.roundStartTime, end: round.roundEndTime };
      await attempt(draft, () => cancelRound(id, roundId));
    }
  }
  for (const round of rounds) {
    const old = round.roundId ? before.get(round.roundId) : undefined;
    if (!old) continue;
    const times = timesOf(round);
    if (Date.parse(times.roundStartTime) === Date.parse(old.roundStartTime)) {
      if (Date.parse(times.roundEndTime) === Date.parse(old.roundEndTime)) continue;
    }
    await attempt(round, () => rescheduleRound(id, round.roundId!, times));
  }
  for (const round of rounds.filter((draft) => !draft.roundId)) {
    await attempt(round, () => scheduleRound(id, timesOf(round)));
  }
  return outcome;
}
