import type { CaptchaConfig } from '@store/shared';
import type {} from 'altcha/types/react';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../lib/api.ts';

/** The captcha answer the forms send as `grecaptcha` (the field's name whichever captcha provider the server uses); null while none is ready. */
export type CaptchaChange = (payload: string | null) => void;

/** Where the captcha stands: solving itself (loading or working), solved, or waiting for the shopper (unticked, failed, expired). */
export type CaptchaStatus = 'solving' | 'solved' | 'idle';

export const CAPTCHA_REQUIRED = 'Captcha required';
export const CAPTCHA_SOLVING = "Verifying you're human…";

interface CaptchaProps {
  onChange: CaptchaChange;
  /** Change it (e.g. increment) for a fresh answer, after an error answer or a used payload; it is solved again quietly. */
  resetKey?: number;
  onStatus?: (status: CaptchaStatus) => void;
  /** Shown under the widget, e.g. 'Captcha required' when a submit found no answer. */
  error?: string;
}

export const captchaConfigQuery = {
  queryKey: ['captcha-config'] as const,
  queryFn: () => api<CaptchaConfig>('/api/config/captcha'),
  staleTime: Infinity,
};

/**
 * The configured captcha: the ALTCHA widget (self-hosted proof of work, solved in the background as soon
 * as it appears), Google's reCAPTCHA, or nothing at all (provider 'none', outside production: reports the
 * dummy payload 'none'). While ALTCHA works, a polite live region says so.
 */
export function Captcha({ onChange, resetKey = 0, onStatus, error }: CaptchaProps) {
  const { data: config, error: loadError } = useQuery(captchaConfigQuery);
  const onChangeRef = useRef(onChange);
  const onStatusRef = useRef(onStatus);
  useEffect(() => {
    onChangeRef.current = onChange;
    onStatusRef.current = onStatus;
  });
  const report = useCallback((p: string | null) => onChangeRef.current(p), []);
  const [widgetStatus, setWidgetStatus] = useState<CaptchaStatus>('solving');

  const status: CaptchaStatus = loadError
    ? 'idle'
    : !config
      ? 'solving'
      : config.provider === 'none'
        ? 'solved'
        : widgetStatus;
  // told after every reset too: a form waiting for a fresh answer learns where the captcha stands
  useEffect(() => {
    onStatusRef.current?.(status);
  }, [status, resetKey]);

  let widget;
  if (loadError)
    widget = <div className="text-danger small">The captcha could not be loaded. Please reload the page.</div>;
  else if (!config) widget = <div className="captcha-slot" aria-hidden="true" />;
  else if (config.provider === 'none') widget = <NoCaptcha report={report} resetKey={resetKey} />;
  else if (config.provider === 'recaptcha')
    widget = (
      <ReCaptcha siteKey={config.siteKey ?? ''} report={report} resetKey={resetKey} setStatus={setWidgetStatus} />
    );
  else
    widget = (
      <Altcha challengeUrl={config.challengeUrl} report={report} resetKey={resetKey} setStatus={setWidgetStatus} />
    );

  const solving = status === 'solving' && config?.provider === 'altcha';
  const showError = Boolean(error) && status !== 'solved';
  const box = useRef<HTMLDivElement>(null);
  // a submit that found no answer takes the shopper to the widget's checkbox
  useEffect(() => {
    if (showError) box.current?.querySelector<HTMLElement>('input[type="checkbox"]')?.focus();
  }, [showError]);

  return (
    <div ref={box}>
      {widget}
      <div role="status" aria-live="polite" className="form-text mt-1" data-testid="captcha-status">
        {solving ? CAPTCHA_SOLVING : ''}
      </div>
      {showError && (
        <div className="invalid-feedback d-block" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

/**
 * A form's captcha. Spread `props` on <Captcha>. `answer()` gives a submit its answer: the current one, or
 * the one the captcha is still solving (the submit waits for it); null when there is none, and then the
 * widget shows `missingMessage` ('Captcha required'; null when the form says it itself). `renew()` drops a
 * used or refused answer and quietly solves a fresh one, without any message.
 */
export function useCaptcha({
  onAnswer,
  missingMessage = CAPTCHA_REQUIRED,
}: { onAnswer?: (payload: string) => void; missingMessage?: string | null } = {}) {
  const [resetKey, setResetKey] = useState(0);
  const [missing, setMissing] = useState(false);
  const payload = useRef('');
  const status = useRef<CaptchaStatus>('solving');
  const waiting = useRef<((answer: string | null) => void)[]>([]);
  const onAnswerRef = useRef(onAnswer);
  useEffect(() => {
    onAnswerRef.current = onAnswer;
  });

  const settle = (answer: string | null) => {
    const waiters = waiting.current;
    waiting.current = [];
    for (const w of waiters) w(answer);
  };

  const onChange = useCallback((p: string | null) => {
    payload.current = p ?? '';
    onAnswerRef.current?.(p ?? '');
    if (p) {
      setMissing(false);
      settle(p);
    }
  }, []);

  const onStatus = useCallback((s: CaptchaStatus) => {
    status.current = s;
    if (s === 'idle' && waiting.current.length > 0) {
      setMissing(true);
      settle(null);
    }
  }, []);

  const answer = useCallback((): Promise<string | null> => {
    if (payload.current) return Promise.resolve(payload.current);
    // solving (or just solved, its answer on the way): the submit waits for it
    if (status.current !== 'idle') return new Promise((resolve) => waiting.current.push(resolve));
    setMissing(true);
    return Promise.resolve(null);
  }, []);

  const renew = useCallback(() => {
    payload.current = '';
    setMissing(false);
    setResetKey((k) => k + 1);
  }, []);

  return {
    answer,
    renew,
    props: { resetKey, onChange, onStatus, error: missing && missingMessage ? missingMessage : undefined },
  };
}

interface WidgetProps {
  report: (payload: string | null) => void;
  resetKey: number;
}

function NoCaptcha({ report, resetKey }: WidgetProps) {
  useEffect(() => {
    report('none');
  }, [report, resetKey]);
  return null;
}

type AltchaState = 'unverified' | 'verifying' | 'verified' | 'error' | 'expired' | 'code' | 'loading';
interface AltchaElement extends HTMLElement {
  verify?: () => Promise<unknown>;
}

const ALTCHA_STATUS: Record<AltchaState, CaptchaStatus> = {
  loading: 'solving',
  verifying: 'solving',
  verified: 'solved',
  unverified: 'idle',
  error: 'idle',
  expired: 'idle',
  code: 'idle',
};

/** An answer that expires after this long is solved again by itself; one that expires sooner is left to the shopper (no endless loop). */
const RESOLVE_EXPIRED_AFTER_MS = 60_000;

function Altcha({
  challengeUrl,
  report,
  resetKey,
  setStatus,
}: WidgetProps & { challengeUrl: string; setStatus: (s: CaptchaStatus) => void }) {
  const ref = useRef<AltchaElement>(null);
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(false);
  const [state, setStateValue] = useState<AltchaState>('loading');
  const stateRef = useRef<AltchaState>('loading');
  const verifiedAt = useRef(0);
  const setState = useCallback(
    (next: AltchaState) => {
      stateRef.current = next;
      setStateValue(next);
      setStatus(ALTCHA_STATUS[next]);
    },
    [setStatus],
  );

  useEffect(() => {
    let alive = true;
    setStatus('solving');
    import('altcha').then(
      () => alive && setLoaded(true),
      () => {
        if (!alive) return;
        setFailed(true);
        setStatus('idle');
      },
    );
    return () => {
      alive = false;
    };
  }, [setStatus]);

  useEffect(() => {
    const el = ref.current;
    if (!loaded || !el) return;
    const onState = (e: Event) => {
      const detail = (e as CustomEvent<{ state: AltchaState; payload?: string }>).detail;
      const was = stateRef.current;
      setState(detail.state);
      report(detail.state === 'verified' && detail.payload ? detail.payload : null);
      if (detail.state === 'verified') verifiedAt.current = Date.now();
      // an answer that outlived its challenge is replaced quietly
      if (
        detail.state === 'expired' &&
        was === 'verified' &&
        Date.now() - verifiedAt.current >= RESOLVE_EXPIRED_AFTER_MS
      )
        setTimeout(() => void el.verify?.(), 0);
    };
    const onVerified = (e: Event) => {
      const payload = (e as CustomEvent<{ payload?: string }>).detail.payload;
      if (payload) {
        setState('verified');
        report(payload);
      }
    };
    el.addEventListener('statechange', onState);
    el.addEventListener('verified', onVerified);
    return () => {
      el.removeEventListener('statechange', onState);
      el.removeEventListener('verified', onVerified);
    };
  }, [loaded, report, setState]);

  // a new key: the used answer is dropped and a fresh one solved (one still being solved is unused: kept)
  const seenKey = useRef(resetKey);
  useEffect(() => {
    if (seenKey.current === resetKey) return;
    seenKey.current = resetKey;
    if (stateRef.current === 'loading' || stateRef.current === 'verifying') return;
    report(null);
    const el = ref.current;
    if (!el?.verify) return;
    setState('verifying');
    void el.verify();
  }, [resetKey, report, setState]);

  if (failed) return <div className="text-danger small">The captcha could not be loaded. Please reload the page.</div>;
  return (
    <div className="captcha-slot" data-captcha="altcha" data-captcha-state={loaded ? state : 'loading'}>
      {loaded && <altcha-widget ref={ref} challenge={challengeUrl} auto="onload" />}
    </div>
  );
}

interface GrecaptchaApi {
  render: (
    el: HTMLElement,
    opts: { sitekey: string; callback: (t: string) => void; 'expired-callback': () => void; theme?: string },
  ) => number;
  reset: (id?: number) => void;
}
declare global {
  interface Window {
    grecaptcha?: GrecaptchaApi & { ready?: (cb: () => void) => void };
    __onRecaptchaLoad?: () => void;
  }
}

let recaptchaScript: Promise<GrecaptchaApi> | undefined;
function loadRecaptcha(): Promise<GrecaptchaApi> {
  recaptchaScript ??= new Promise((resolve, reject) => {
    window.__onRecaptchaLoad = () => resolve(window.grecaptcha!);
    const s = document.createElement('script');
    s.src = 'https://www.google.com/recaptcha/api.js?onload=__onRecaptchaLoad&render=explicit';
    s.async = true;
    s.onerror = () => {
      recaptchaScript = undefined;
      reject(new Error('reCAPTCHA failed to load'));
    };
    document.head.appendChild(s);
  });
  return recaptchaScript;
}

function ReCaptcha({
  siteKey,
  report,
  resetKey,
  setStatus,
}: WidgetProps & { siteKey: string; setStatus: (s: CaptchaStatus) => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const widget = useRef<{ api: GrecaptchaApi; id: number } | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let alive = true;
    // the shopper ticks this one
    setStatus('idle');
    loadRecaptcha()
      .then((g) => {
        if (!alive || !ref.current || widget.current) return;
        const id = g.render(ref.current, {
          sitekey: siteKey,
          callback: (t) => {
            setStatus('solved');
            report(t);
          },
          'expired-callback': () => {
            setStatus('idle');
            report(null);
          },
          theme: document.documentElement.dataset.bsTheme === 'dark' ? 'dark' : 'light',
        });
        widget.current = { api: g, id };
      })
      .catch(() => alive && setFailed(true));
    return () => {
      alive = false;
    };
  }, [siteKey, report, setStatus]);

  const seenKey = useRef(resetKey);
  useEffect(() => {
    if (seenKey.current === resetKey) return;
    seenKey.current = resetKey;
    if (widget.current) widget.current.api.reset(widget.current.id);
    setStatus('idle');
    report(null);
  }, [resetKey, report, setStatus]);

  if (failed) return <div className="text-danger small">The captcha could not be loaded. Please reload the page.</div>;
  return <div className="captcha-slot" data-captcha="recaptcha" ref={ref} />;
}
