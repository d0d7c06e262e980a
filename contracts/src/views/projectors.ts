import { z } from 'zod';

/** How far one projector process is behind the log (Kafka mode), or the in-process projector. */
export const ProjectorLagView = z.object({
  /** Its name (PROJECTOR_NAME, or host/pid). */
  name: z.string(),
  /** The topic's partitions it holds; empty when it reads the log directly. */
  partitions: z.array(z.number()),
  appliedEvents: z.number().nullable(),
  /** Committed events after the earliest point its partitions reached. */
  lagEvents: z.number(),
  /** How long the oldest of those has waited. */
  lagSeconds: z.number(),
  updatedAt: z.string().nullable(),
});

/** A read model set aside at an event its projection could not apply; the others keep up. */
export const FailingProjectionView = z.object({
  projection: z.string(),
  /** The global position of the event it could not apply. */
  position: z.number(),
  error: z.string(),
  attempts: z.number(),
  /** Events it has not applied yet. */
  missed: z.number(),
  failingSince: z.string(),
  nextAttemptAt: z.string(),
});

export const ProjectorsAnswer = z.object({
  success: z.literal(true),
  /** `direct`: one projector reads the log itself; `kafka`: projectors consume it in a consumer group. */
  mode: z.enum(['direct', 'kafka']),
  /** The read models as a whole: their checkpoint is the earliest point every partition reached. */
  readModels: z.object({ position: z.number(), lagEvents: z.number(), lagSeconds: z.number() }),
  projectors: z.array(ProjectorLagView),
  failing: z.array(FailingProjectionView),
  message: z.string(),
});
