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

/** Where to go after signing in: a same-site path only (no open redirect). */
export function safeRedirect(raw: string | null): string {
  if (!raw) return paths.home;
  const target = raw.startsWith('/') ? raw : `/${raw}`;
  return target.startsWith('//') || target.startsWith('/\\') ? paths.home : target;
}
