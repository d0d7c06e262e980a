import { z } from 'zod';

/** Who did it, why, and from where: carried by every event, never part of its data. */
export const EventMetadata = z.object({
  actorId: z.string().optional(),
  actorRole: z.string().optional(),
  correlationId: z.string().optional(),
  causationId: z.string().optional(),
  idempotencyKey: z.string().optional(),
  device: z.string().optional(),
});
export type EventMetadata = z.infer<typeof EventMetadata>;

/** An event to append: its type, the version its data is written in, and the data. */
export interface NewEvent<Type extends string = string, Data = unknown> {
  type: Type;
  schemaVersion: number;
  data: Data;
  metadata?: EventMetadata;
}

/** An event as the log holds it. `position` is global; `streamRevision` counts from 0 per stream. */
export interface StoredEvent<Type extends string = string, Data = unknown> {
  position: number;
  transactionId: string;
  streamId: string;
  streamRevision: number;
  type: Type;
  schemaVersion: number;
  data: Data;
  metadata: EventMetadata;
  createdAt: string;
}
