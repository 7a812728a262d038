import { useEffect, useState } from 'react';

/** The value, once it has stopped changing for `ms` (e.g. an e-mail error after 300 ms, a password hint after 1.5 s). */
export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}
