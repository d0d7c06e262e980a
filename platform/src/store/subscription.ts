import type { StoredEvent } from '@portal/contracts/envelope';
import { type Checkpoint, type EventStore, checkpointOf } from './port.ts';

export interface CatchUpOptions {
  /** Where to start; asked again after every failure, so a handler's own checkpoint is the truth. */
  from: () => Promise<Checkpoint>;
  /** Handles one batch in log order; the subscription moves past it only when this resolves. */
  handle: (batch: StoredEvent[]) => Promise<void>;
  batchSize?: number;
  /** The longest wait without a notification before reading again (covers missed NOTIFYs). */
  pollMs?: number;
  /**
   * Once caught up and woken by a notification, how long to wait before reading (0: at once),
   * so that the appends of those milliseconds are handled as one batch: a handler that pays for
   * each batch (a transaction, its statements) pays less per event, for a little more delay.
   */
  gatherMs?: number;
  onError?: (error: unknown) => void;
  /** Called after each pass with how the subscription is doing. */
  onState?: (state: SubscriptionState) => void;
}

export interface SubscriptionState {
  running: boolean;
  checkpoint: Checkpoint | null;
  lastError: string | null;
  caughtUpAt: string | null;
}

export interface Subscription {
  state(): SubscriptionState;
  stop(): Promise<void>;
}

const RETRY_DELAYS_MS = [100, 500, 1000, 2000, 5000];
/** The first look again at events held back by a running transaction (doubling up to pollMs). */
const HELD_BACK_FIRST_MS = 5;

/**
 * Catch-up subscription to the whole log: reads batches after the checkpoint until there are none,
 * then sleeps until NOTIFY or `pollMs` (or, while a running transaction holds committed events
 * back, a few milliseconds, doubling). Errors (a database outage, a failing handler) are
 * reported and retried with backoff from the handler's checkpoint; it never stops by itself.
 */
export function subscribeToAll(store: EventStore, options: CatchUpOptions): Subscription {
  const batchSize = options.batchSize ?? 500;
  const pollMs = options.pollMs ?? 1000;
  const gatherMs = options.gatherMs ?? 0;
  const state: SubscriptionState = { running: true, checkpoint: null, lastError: null, caughtUpAt: null };
  let wake: (() => void) | null = null;
  let pending = false;
  const poke = () => {
    pending = true;
    wake?.();
  };
  // After a failure only stop() cuts the wait short, so a stream of NOTIFYs cannot make it spin.
  const sleep = (ms: number, wakeOnAppend = true) =>
    new Promise<void>((resolve) => {
      if ((wakeOnAppend && pending) || !state.running) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = wakeOnAppend ? done : () => state.running || done();
    });

  let unlisten: (() => Promise<void>) | null = null;
  const loop = async () => {
    let failures = 0;
    let held = 0;
    while (state.running) {
      try {
        unlisten ??= await store.onAppended(poke);
        state.checkpoint ??= await options.from();
        pending = false;
        const { events: batch, heldBack } = await store.readAllNotingHeldBack(state.checkpoint, batchSize);
        if (batch.length > 0) {
          await options.handle(batch);
          state.checkpoint = checkpointOf(batch[batch.length - 1]!);
        }
        failures = 0;
        state.lastError = null;
        if (batch.length < batchSize) {
          // Events committed behind a transaction still running are held back (event-store.ts);
          // that transaction's end sends no notification when it appends nothing (a projector's
          // batch, a command's own writes): look again soon, then less and less often while
          // nothing new can be read (a pass that read something starts again from soon).
          held = !heldBack ? 0 : batch.length > 0 ? 1 : held + 1;
          if (!heldBack) state.caughtUpAt = new Date().toISOString();
          options.onState?.({ ...state });
          await sleep(heldBack ? Math.min(pollMs, HELD_BACK_FIRST_MS * 2 ** (held - 1)) : pollMs);
          // Woken by an append: the ones right behind it come into the same batch.
          if (gatherMs > 0 && pending) await sleep(gatherMs, false);
        } else {
          options.onState?.({ ...state });
        }
      } catch (error) {
        options.onError?.(error);
        state.lastError = error instanceof Error ? error.message : String(error);
        state.checkpoint = null;
        options.onState?.({ ...state });
        await sleep(RETRY_DELAYS_MS[Math.min(failures++, RETRY_DELAYS_MS.length - 1)]!, false);
      }
    }
  };
  const running = loop();

  return {
    state: () => ({ ...state }),
    async stop() {
      state.running = false;
      wake?.();
      await running;
      await unlisten?.();
    },
  };
}
