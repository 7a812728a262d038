import type { ReactNode } from 'react';
import { paths } from '#web/lib/paths.ts';

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

/** Where to go after signing in: a same-site path starting with '/' (query kept), else home (no open redirect). */
export function safeRedirect(raw: string | null): string {
  if (!raw || !raw.startsWith('/')) return paths.home;
  // resolved the way the browser would: `//host`, `/\host` or tabs and newlines inside can leave the site
  const base = 'https://same-site.invalid';
  try {
    const url = new URL(raw, base);
    return url.origin === base ? `${url.pathname}${url.search}${url.hash}` : paths.home;
  } catch {
    return paths.home;
  }
}
