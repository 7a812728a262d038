import type { ReactNode } from 'react';

type Variant = 'info' | 'danger' | 'success' | 'warning';

/** Alerts in the spec's colours: server errors are red danger alerts (spec §8). */
export function Message({ variant = 'info', children }: { variant?: Variant; children: ReactNode }) {
  return (
    <div className={`alert alert-${variant}`} role={variant === 'danger' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
