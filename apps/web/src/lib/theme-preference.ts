export type Theme = 'light' | 'dark';
/** The localStorage key of the saved theme: a plain string, read raw by index.html's inline script. */
export const THEME_KEY = 'theme';

/** The shopper's theme: the saved choice, else the system's (as index.html's inline script reads it). */
export function preferredTheme(): Theme {
  try {
    const saved = localStorage.getItem(THEME_KEY);
    if (saved === 'light' || saved === 'dark') return saved;
    return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  } catch {
    return document.documentElement.dataset.bsTheme === 'dark' ? 'dark' : 'light';
  }
}
