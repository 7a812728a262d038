import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void) {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** Whether the browser says it has a network connection, kept current by its online and offline events. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
}

export const OFFLINE_TEXT = "You're offline. The store will work again as soon as your connection is back.";

/** A polite banner while the network is down; the live region stays in the page so that the change is announced. */
export function OfflineNotice() {
  const online = useOnline();
  return (
    <div role="status" aria-live="polite" className="offline-notice">
      {!online && <div className="alert alert-warning rounded-0 mb-0 py-2 text-center">{OFFLINE_TEXT}</div>}
    </div>
  );
}
