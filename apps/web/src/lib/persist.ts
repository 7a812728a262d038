import type { PersistStorage } from 'zustand/middleware';

/**
 * localStorage for zustand's persist that keeps one plain value under the key (not zustand's
 * `{state, version}` envelope), so other code and older data read the same shape.
 * `parse` validates what it finds and returns undefined for anything it cannot use.
 */
export function plainStorage<S, V>(
  toValue: (state: S) => V,
  fromValue: (raw: unknown) => S | undefined,
): PersistStorage<S> {
  return {
    getItem(name) {
      try {
        const raw = localStorage.getItem(name);
        if (raw === null) return null;
        const state = fromValue(JSON.parse(raw));
        return state === undefined ? null : { state, version: 0 };
      } catch {
        return null;
      }
    },
    setItem(name, value) {
      try {
        const v = toValue(value.state);
        if (v === null || v === undefined) localStorage.removeItem(name);
        else localStorage.setItem(name, JSON.stringify(v));
      } catch {
        // storage full or blocked: the in-memory state still works for this visit
      }
    },
    removeItem(name) {
      try {
        localStorage.removeItem(name);
      } catch {
        /* blocked storage */
      }
    },
  };
}
