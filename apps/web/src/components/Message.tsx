import type { ReactNode } from 'react';

type Variant = 'info' | 'danger' | 'success' | 'warning';

/** A Bootstrap alert: server errors are red `danger` alerts, announced at once; the others are polite status messages. */
export function Message({ variant = 'info', children }: { variant?: Variant; children: ReactNode }) {
  return (
    <div className={`alert alert-${variant}`} role={variant === 'danger' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
