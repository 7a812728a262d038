import type { ReactNode } from 'react';

/**
 * A button that starts a download (an export): disabled with a spinner while it runs, which a screen reader
 * hears through the status line. The page shows the failure with its other messages.
 */
export function DownloadButton({
  pending,
  onClick,
  children,
  pendingText = 'Exporting…',
}: {
  pending: boolean;
  onClick: () => void;
  children: ReactNode;
  pendingText?: string;
}) {
  return (
    <>
      <button
        type="button"
        className="btn btn-outline-secondary"
        onClick={onClick}
        disabled={pending}
        aria-busy={pending || undefined}
      >
        {pending && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
        {children}
      </button>
      <span className="visually-hidden" role="status">
        {pending ? pendingText : ''}
      </span>
    </>
  );
}
