/**
 * A value the page changes in place (a history buffer, the timeline's lanes) and the components
 * that draw it listen to: a change bumps the version and tells the listeners, who read the value
 * again. What changes five times a second is then drawn by whoever shows it, without a React
 * state that would render the page around it.
 */
export interface LiveValue<T> {
  readonly value: T;
  version(): number;
  subscribe(fn: () => void): () => void;
  /** The value was changed in place. */
  changed(): void;
}

export function createLiveValue<T>(value: T): LiveValue<T> {
  let version = 0;
  const listeners = new Set<() => void>();
  return {
    value,
    version: () => version,
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    changed() {
      version++;
      for (const fn of [...listeners]) fn();
    },
  };
}
