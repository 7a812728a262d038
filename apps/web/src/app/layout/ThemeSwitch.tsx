import { MoonIcon, SunIcon } from '#web/components/icons.tsx';
import { useTheme } from '../theme.ts';

/** Light/Dark switch; the choice is kept in localStorage 'theme'. */
export function ThemeSwitch() {
  const theme = useTheme((s) => s.theme);
  const setTheme = useTheme((s) => s.setTheme);
  const dark = theme === 'dark';
  return (
    <div className="theme-switch form-check form-switch mb-0 ps-0 d-flex align-items-center gap-2">
      <input
        className="form-check-input m-0"
        type="checkbox"
        role="switch"
        id="theme-switch"
        checked={dark}
        onChange={(e) => setTheme(e.target.checked ? 'dark' : 'light')}
      />
      <label className="form-check-label d-inline-flex align-items-center gap-1" htmlFor="theme-switch">
        {dark ? <MoonIcon size={16} /> : <SunIcon size={16} />}
        {dark ? 'Dark' : 'Light'}
      </label>
    </div>
  );
}
