import { useEffect, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

/** The value, once it has stopped changing for `ms` (spec §9 delays: e-mail 300 ms, password hint 1.5 s). */
export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/** Seconds left until `endsAt` (ms epoch), ticking every second; 0 when passed or unset. */
export function useCountdown(endsAt: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!endsAt || endsAt <= Date.now()) return;
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [endsAt]);
  return endsAt ? Math.max(0, Math.ceil((endsAt - now) / 1000)) : 0;
}

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'name'> {
  id: string;
  label: string;
  registration: UseFormRegisterReturn;
  error?: string;
  hint?: ReactNode;
}

/** A labelled Bootstrap input whose error is announced and tied to it. */
export function Field({ id, label, registration, error, hint, className, ...input }: FieldProps) {
  const described = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className ?? 'mb-3'}>
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      <input
        id={id}
        className={`form-control${error ? ' is-invalid' : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        {...input}
        {...registration}
      />
      {error && (
        <div id={`${id}-error`} className="invalid-feedback d-block">
          {error}
        </div>
      )}
      {hint && (
        <div id={`${id}-hint`} className="form-text">
          {hint}
        </div>
      )}
    </div>
  );
}

/** A centred narrow column for the account forms. */
export function FormPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="row justify-content-center">
      <div className="col-12 col-sm-10 col-md-8 col-lg-6 col-xl-5">
        <h1 className="h3 mb-4">{title}</h1>
        {children}
      </div>
    </div>
  );
}

/** Where to go after signing in: a same-site path only (no open redirect). */
export function safeRedirect(raw: string | null): string {
  if (!raw) return '/';
  const target = raw.startsWith('/') ? raw : `/${raw}`;
  return target.startsWith('//') || target.startsWith('/\\') ? '/' : target;
}
