/**
 * NOTIFY and LISTEN for the embedded database, without a statement: every listener is in this
 * process (one process opens its files), in this thread or the other one (the portal's, or the
 * database's), which `tell` passes each notification to.
 */
export function inProcessNotifications(tell: (channel: string, payload: string) => void) {
  const listeners = new Map<string, Set<(payload: string) => void>>();
  /** To this thread's listeners only, after the caller goes on (as NOTIFY's are). */
  const deliver = (channel: string, payload: string) => {
    for (const listener of listeners.get(channel) ?? []) queueMicrotask(() => listener(payload));
  };
  const notify = (channel: string, payload: string) => {
    deliver(channel, payload);
    tell(channel, payload);
  };
  return {
    deliver,
    notify,
    async listen(channel: string, onNotify: (payload: string) => void) {
      const channelListeners = listeners.get(channel) ?? new Set();
      listeners.set(channel, channelListeners);
      // Each call its own listener, even when one function is passed twice.
      const listener = (payload: string) => onNotify(payload);
      channelListeners.add(listener);
      return async () => void channelListeners.delete(listener);
    },
    /** A transaction's notifications: held, and told once `release` is called at its commit. */
    held() {
      const notifications: [string, string][] = [];
      return {
        notify: (channel: string, payload: string) => void notifications.push([channel, payload]),
        release: () => notifications.forEach(([channel, payload]) => notify(channel, payload)),
      };
    },
  };
}
