import type { StoredEvent } from '@portal/contracts/envelope';
import type { Checkpoint } from '../store/port.ts';

/**
 * What travels on the events topic. An event message carries the stored event as the log holds
 * it (personal data stays sealed), keyed by its stream. After each batch the relay also sends a
 * tick to every partition: "everything up to this point of the log that belongs here has been
 * sent before me". A projector that has applied a partition up to its tick knows that partition
 * is complete to that point, even when none of the batch's events belonged to it; the read
 * models' checkpoint is the earliest such point over all partitions.
 */
export type TopicMessage = { kind: 'event'; event: StoredEvent } | { kind: 'tick'; checkpoint: Checkpoint };

const TICK = 'tick';

export const encodeEvent = (event: StoredEvent) => ({
  key: event.streamId,
  value: JSON.stringify(event),
  headers: { position: String(event.position), type: event.type },
});

export const encodeTick = (checkpoint: Checkpoint, partition: number) => ({
  partition,
  key: null,
  value: JSON.stringify(checkpoint),
  headers: { position: String(checkpoint.position), type: TICK },
});

export function decodeMessage(message: {
  value: Buffer | null;
  headers?: Record<string, unknown> | undefined;
}): TopicMessage {
  const body = JSON.parse(message.value?.toString('utf8') ?? 'null');
  const type = message.headers?.type;
  if (type !== undefined && String(type) === TICK) {
    return { kind: 'tick', checkpoint: { transactionId: String(body.transactionId), position: Number(body.position) } };
  }
  return { kind: 'event', event: body as StoredEvent };
}

/** The event a message carries, or null for a tick. */
export function eventOf(message: { value: Buffer | null; headers?: Record<string, unknown> }): StoredEvent | null {
  const decoded = decodeMessage(message);
  return decoded.kind === 'event' ? decoded.event : null;
}
