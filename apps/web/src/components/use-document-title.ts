import { useEffect } from 'react';

export const SITE_NAME = 'Store';

/** Sets the tab title; `null` while the data that names the page is loading. */
export function useDocumentTitle(title: string | null) {
  useEffect(() => {
    if (title === null) return;
    document.title = title ? `${title} | ${SITE_NAME}` : SITE_NAME;
  }, [title]);
}
