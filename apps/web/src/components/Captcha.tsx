import type { CaptchaConfig } from '@store/shared';
import type {} from 'altcha/types/react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { api } from '../lib/api.ts';

/** The captcha answer the forms send as `grecaptcha` (the field's name whichever captcha provider the server uses); null while none is ready. */
export type CaptchaChange = (payload: string | null) => void;

interface CaptchaProps {
  onChange: CaptchaChange;
  /** Change it (e.g. increment) to reset the widget, after an error answer or a used payload. */
  resetKey?: number;
}

export const captchaConfigQuery = {
  queryKey: ['captcha-config'] as const,
  queryFn: () => api<CaptchaConfig>('/api/config/captcha'),
  staleTime: Infinity,
};

/**
 * The configured captcha: the ALTCHA widget (self-hosted proof of work), Google's reCAPTCHA, or
 * nothing at all (provider 'none', outside production: reports the dummy payload 'none').
 */
export function Captcha({ onChange, resetKey = 0 }: CaptchaProps) {
  const { data: config, error } = useQuery(captchaConfigQuery);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });
  const report = (p: string | null) => onChangeRef.current(p);

  if (error) return <div className="text-danger small">The captcha could not be loaded. Please reload the page.</div>;
  if (!config) return <div className="captcha-slot" aria-hidden="true" />;
  if (config.provider === 'none') return <NoCaptcha report={report} resetKey={resetKey} />;
  if (config.provider === 'recaptcha')
    return <ReCaptcha siteKey={config.siteKey ?? ''} report={report} resetKey={resetKey} />;
  return <Altcha challengeUrl={config.challengeUrl} report={report} resetKey={resetKey} />;
}

interface WidgetProps {
  report: (payload: string | null) => void;
  resetKey: number;
}

function NoCaptcha({ report, resetKey }: WidgetProps) {
  useEffect(() => {
    report('none');
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [resetKey]);
  return null;
}

type AltchaState = 'unverified' | 'verifying' | 'verified' | 'error' | 'expired' | 'code' | 'loading';
interface AltchaElement extends HTMLElement {
  reset?: () => void;
}

function Altcha({ challengeUrl, report, resetKey }: WidgetProps & { challengeUrl: string }) {
  const ref = useRef<AltchaElement>(null);
  const [loaded, setLoaded] = useState(false);
  const [state, setState] = useState<AltchaState>('loading');

  useEffect(() => {
    let alive = true;
    void import('altcha').then(() => alive && setLoaded(true));
    return () => {
      alive = false;
    };
  }, []);

  useEffect(() => {
    const el = ref.current;
    if (!loaded || !el) return;
    const onState = (e: Event) => {
      const detail = (e as CustomEvent<{ state: AltchaState; payload?: string }>).detail;
      setState(detail.state);
      report(detail.state === 'verified' && detail.payload ? detail.payload : null);
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
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded]);

  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    ref.current?.reset?.();
    setState('unverified');
    report(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [resetKey]);

  return (
    <div className="captcha-slot" data-captcha="altcha" data-captcha-state={loaded ? state : 'loading'}>
      {loaded && <altcha-widget ref={ref} challenge={challengeUrl} auto="off" />}
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

function ReCaptcha({ siteKey, report, resetKey }: WidgetProps & { siteKey: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const widget = useRef<{ api: GrecaptchaApi; id: number } | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let alive = true;
    loadRecaptcha()
      .then((g) => {
        if (!alive || !ref.current || widget.current) return;
        const id = g.render(ref.current, {
          sitekey: siteKey,
          callback: (t) => report(t),
          'expired-callback': () => report(null),
          theme: document.documentElement.dataset.bsTheme === 'dark' ? 'dark' : 'light',
        });
        widget.current = { api: g, id };
      })
      .catch(() => alive && setFailed(true));
    return () => {
      alive = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [siteKey]);

  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (widget.current) widget.current.api.reset(widget.current.id);
    report(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [resetKey]);

  if (failed) return <div className="text-danger small">The captcha could not be loaded. Please reload the page.</div>;
  return <div className="captcha-slot" data-captcha="recaptcha" ref={ref} />;
}
