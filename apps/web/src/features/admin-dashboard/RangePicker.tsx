import { STATS_MAX_DAYS } from '@store/shared';
import { Fragment, useRef, useState, type FormEvent } from 'react';
import { hasErrors, PRESETS, presetOf, presetRange, validateRange, type DayRange, type Preset } from './dashboard.ts';

type Choice = Preset | 'custom';

interface RangePickerProps {
  range: DayRange;
  onChange: (range: DayRange) => void;
}

/**
 * The dashboard's days: the last 7, 30 or 90 (a radio group, arrow keys move between them) or a
 * custom From/To checked before it applies (from on or before to, at most a year and a day).
 */
export function RangePicker({ range, onChange }: RangePickerProps) {
  const preset = presetOf(range);
  const [customOpen, setCustomOpen] = useState(preset === null);
  const chosen: Choice = customOpen || preset === null ? 'custom' : preset;

  const choose = (choice: Choice) => {
    if (choice === 'custom') return setCustomOpen(true);
    setCustomOpen(false);
    onChange(presetRange(choice));
  };

  const choices: { value: Choice; label: string }[] = [
    ...PRESETS.map((days) => ({ value: days, label: `Last ${days} days` })),
    { value: 'custom', label: 'Custom' },
  ];

  return (
    <div className="d-flex flex-wrap align-items-start gap-3">
      <fieldset>
        <legend className="form-label small mb-1">Date range</legend>
        <div className="btn-group flex-wrap">
          {choices.map(({ value, label }) => (
            <Fragment key={value}>
              <input
                type="radio"
                className="btn-check"
                name="dash-range"
                id={`dash-range-${value}`}
                checked={chosen === value}
                onChange={() => choose(value)}
              />
              <label className="btn btn-sm btn-outline-primary" htmlFor={`dash-range-${value}`}>
                {label}
              </label>
            </Fragment>
          ))}
        </div>
      </fieldset>
      {chosen === 'custom' && <CustomRange key={`${range.from}/${range.to}`} range={range} onApply={onChange} />}
    </div>
  );
}

function CustomRange({ range, onApply }: { range: DayRange; onApply: (range: DayRange) => void }) {
  const [draft, setDraft] = useState(range);
  // messages show once a day has been changed or the form sent, and follow every change after
  const [checking, setChecking] = useState(false);
  const errors = checking ? validateRange(draft) : {};
  const inputs = { from: useRef<HTMLInputElement>(null), to: useRef<HTMLInputElement>(null) };

  const set = (key: keyof DayRange, value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setChecking(true);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = validateRange(draft);
    setChecking(true);
    if (hasErrors(found)) return inputs[found.from ? 'from' : 'to'].current?.focus();
    onApply(draft);
  };

  const field = (key: keyof DayRange, label: string) => (
    <div className="dash-date">
      <label htmlFor={`dash-${key}`} className="form-label small mb-1">
        {label}
      </label>
      <input
        ref={inputs[key]}
        id={`dash-${key}`}
        type="date"
        className={`form-control form-control-sm${errors[key] ? ' is-invalid' : ''}`}
        value={draft[key]}
        onChange={(e) => set(key, e.target.value)}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={errors[key] ? `dash-${key}-error` : 'dash-range-hint'}
        required
      />
      {errors[key] && (
        <div id={`dash-${key}-error`} className="invalid-feedback d-block">
          {errors[key]}
        </div>
      )}
    </div>
  );

  return (
    <form className="d-flex flex-wrap align-items-start gap-2" aria-label="Custom range" noValidate onSubmit={submit}>
      {field('from', 'From')}
      {field('to', 'To')}
      <button type="submit" className="btn btn-sm btn-primary dash-apply">
        Apply
      </button>
      <p id="dash-range-hint" className="visually-hidden">
        UTC days, both included, at most {STATS_MAX_DAYS} days.
      </p>
    </form>
  );
}
