import type { TestPortal } from './test-portal.ts';

/**
 * Waits (up to `ms`) until the portal's read side has applied everything in the log, and answers
 * what its health then says: whether the projector runs, how many events it is behind, and the
 * projections that are stuck, if any.
 */
export async function caughtUp(portal: TestPortal, ms = 10_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const health = (await portal.app.inject({ method: 'GET', url: '/api/health' })).json();
    const state = {
      running: Boolean(health.projector?.running),
      behind: Number(health.readModels?.lagEvents ?? Number.NaN),
      failing: (health.failing ?? []) as unknown[],
    };
    if ((state.running && state.behind === 0 && state.failing.length === 0) || Date.now() > deadline) return state;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
