import { create } from 'zustand';

export type Theme = 'light' | 'dark';
export const THEME_KEY = 'theme';

/** index.html's inline script has already applied the saved (or system) theme before first paint. */
function initialTheme(): Theme {
  return document.documentElement.dataset.bsTheme === 'dark' ? 'dark' : 'light';
}

interface ThemeState {
  theme: Theme;
  setTheme: (theme: Theme) => void;
}

export const useTheme = create<ThemeState>()((set) => ({
  theme: initialTheme(),
  setTheme: (theme) => {
    document.documentElement.dataset.bsTheme = theme;
    try {
      localStorage.setItem(THEME_KEY, theme); // a plain string: the inline script reads it raw
    } catch {
      /* blocked storage: the theme still applies for this visit */
    }
    set({ theme });
  },
}));
