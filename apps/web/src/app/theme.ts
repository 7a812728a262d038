import { create } from 'zustand';
import { preferredTheme, THEME_KEY, type Theme } from '#web/lib/theme-preference.ts';

export { THEME_KEY, type Theme };

/**
 * index.html's inline script has already applied the theme before first paint: the preferred one, or light on
 * the pages an e-mail link opens (which force it while they show).
 */
function initialTheme(): Theme {
  return preferredTheme();
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
