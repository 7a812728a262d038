import { productStructuredData, type Product } from '@store/shared';
import { useEffect } from 'react';
import { SITE_NAME } from '#web/components/use-document-title.ts';

function upsert<T extends HTMLElement>(selector: string, create: () => T): T {
  const found = document.head.querySelector<T>(selector);
  if (found) return found;
  const el = create();
  document.head.appendChild(el);
  return el;
}

function jsonScript(id: string, data: unknown) {
  const el = upsert(`script#${id}`, () => {
    const s = document.createElement('script');
    s.type = 'application/ld+json';
    s.id = id;
    return s;
  });
  el.textContent = JSON.stringify(data);
}

/**
 * Keeps the head right after client-side navigation too: title, description, canonical and the
 * Product / BreadcrumbList JSON-LD (ids match the server's, so a served page's tags are reused).
 */
export function useProductHead(p: Product | undefined) {
  useEffect(() => {
    if (!p) return;
    const { product, crumbs, description, url } = productStructuredData(p, window.location.origin);
    document.title = `${p.name} | ${SITE_NAME}`;
    upsert('meta[name="description"]', () =>
      Object.assign(document.createElement('meta'), { name: 'description' }),
    ).setAttribute('content', description);
    upsert('link[rel="canonical"]', () =>
      Object.assign(document.createElement('link'), { rel: 'canonical' }),
    ).setAttribute('href', url);
    jsonScript('ld-product', product);
    jsonScript('ld-breadcrumbs', crumbs);
    return () => {
      for (const sel of ['script#ld-product', 'script#ld-breadcrumbs', 'link[rel="canonical"]'])
        document.head.querySelector(sel)?.remove();
    };
  }, [p]);
}
