import { useSyncExternalStore } from 'react';

export type BsTheme = 'light' | 'dark';

const read = (): BsTheme => (document.documentElement.dataset.bsTheme === 'dark' ? 'dark' : 'light');

function subscribe(onChange: () => void) {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-bs-theme'] });
  return () => observer.disconnect();
}

/** The colour mode on <html data-bs-theme>, followed as the theme switch changes it. */
export function useBsTheme(): BsTheme {
  return useSyncExternalStore(subscribe, read, () => 'light');
}
