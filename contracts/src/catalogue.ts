import type { z } from 'zod';
import type { NewEvent, StoredEvent } from './envelope.ts';

/**
 * One event type: its current schema version, the zod schema of that version, and the upcasters
 * that lift data written in any older version to the current one (version n -> n + 1).
 * Events are never edited; old shapes are upcast on read.
 */
export interface EventDefinition<Type extends string, Schema extends z.ZodType> {
  type: Type;
  version: number;
  schema: Schema;
  upcasters: Record<number, (data: unknown) => unknown>;
  create(data: z.input<Schema>, metadata?: NewEvent['metadata']): NewEvent<Type, z.output<Schema>>;
}

export function defineEvent<Type extends string, Schema extends z.ZodType>(
  type: Type,
  schema: Schema,
  options: { version?: number; upcasters?: Record<number, (data: unknown) => unknown> } = {},
): EventDefinition<Type, Schema> {
  const version = options.version ?? 1;
  return {
    type,
    version,
    schema,
    upcasters: options.upcasters ?? {},
    create: (data, metadata) => ({ type, schemaVersion: version, data: schema.parse(data), metadata }),
  };
}

/** Lifts stored data to the definition's current version and validates it. */
export function upcast<Type extends string, Schema extends z.ZodType>(
  definition: EventDefinition<Type, Schema>,
  schemaVersion: number,
  data: unknown,
): z.output<Schema> {
  let current = data;
  for (let version = schemaVersion; version < definition.version; version++) {
    const lift = definition.upcasters[version];
    if (!lift) throw new Error(`${definition.type}: no upcaster from version ${version}`);
    current = lift(current);
  }
  return definition.schema.parse(current);
}

/** The events a decision may append, from the union an aggregate decodes: its own, and no other's. */
export type NewEventOf<Event extends { type: string; data: unknown }> = Event extends {
  type: infer Type extends string;
  data: infer Data;
}
  ? NewEvent<Type, Data>
  : never;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDefinition = EventDefinition<string, any>;
export type EventOf<D extends AnyDefinition> =
  D extends EventDefinition<infer T, infer S> ? { type: T; data: z.output<S> } : never;

/**
 * Decodes stored events of the given definitions into a typed union, upcasting old versions.
 * Events of other types answer null, so a reader only sees what it understands.
 */
export function createDecoder<const Definitions extends readonly AnyDefinition[]>(definitions: Definitions) {
  const byType = new Map(definitions.map((definition) => [definition.type, definition]));
  type Decoded = StoredEvent & EventOf<Definitions[number]>;
  const decode = (event: StoredEvent): Decoded | null => {
    const definition = byType.get(event.type);
    if (!definition) return null;
    let data = decodedData.get(event);
    if (data === undefined) {
      data = upcast(definition, event.schemaVersion, event.data);
      decodedData.set(event, data);
    }
    return { ...event, data } as Decoded;
  };
  /** The types it decodes; any other answers null. */
  return Object.assign(decode, { types: new Set<string>(byType.keys()) as ReadonlySet<string> });
}

/**
 * An event's data as decoded, by the stored event it came from: every projection decodes the same
 * event, and validating it once is enough (an event has one type, so one definition decodes it).
 */
const decodedData = new WeakMap<StoredEvent, unknown>();
