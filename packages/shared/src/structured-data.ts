import { META_DESCRIPTION_MAX } from './constants.ts';
import type { Product } from './schemas/catalog.ts';
import { htmlToText, truncate } from './text.ts';

const absolute = (origin: string, src: string) =>
  /^https?:\/\//.test(src) ? src : `${origin}${src.startsWith('/') ? '' : '/'}${src}`;

/**
 * Product and BreadcrumbList JSON-LD (schema.org) plus the page's meta description and canonical URL.
 * One builder: the server writes it into the served HTML for crawlers, the web app keeps it current
 * after client-side navigation.
 */
export function productStructuredData(p: Product, origin: string) {
  const url = `${origin}/product/${p.slug}`;
  const description = truncate(htmlToText(p.description) || p.name, META_DESCRIPTION_MAX);
  const images = p.image ? [p.image, ...p.imageB.map((i) => i.src)].slice(0, 6).map((s) => absolute(origin, s)) : [];
  const product = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: p.name,
    description,
    sku: p._id,
    url,
    ...(images.length ? { image: images } : {}),
    ...(p.brand ? { brand: { '@type': 'Brand', name: p.brand } } : {}),
    ...(p.category ? { category: p.category } : {}),
    offers: {
      '@type': 'Offer',
      url,
      priceCurrency: 'USD',
      price: p.price.toFixed(2),
      availability: p.countInStock > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      itemCondition: 'https://schema.org/NewCondition',
    },
    ...(p.numReviews > 0
      ? { aggregateRating: { '@type': 'AggregateRating', ratingValue: p.rating, reviewCount: p.numReviews } }
      : {}),
  };
  const crumbs = {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: [
      { '@type': 'ListItem', position: 1, name: 'Home', item: `${origin}/` },
      ...(p.category
        ? [
            {
              '@type': 'ListItem',
              position: 2,
              name: p.category,
              // the category's page; a product answered without the slug links a search for the name
              item: p.categorySlug
                ? `${origin}/category/${encodeURIComponent(p.categorySlug)}`
                : `${origin}/search/${encodeURIComponent(p.category)}`,
            },
          ]
        : []),
      { '@type': 'ListItem', position: p.category ? 3 : 2, name: p.name, item: url },
    ],
  };
  return { product, crumbs, description, url, image: images[0] ?? '' };
}
