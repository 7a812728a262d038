import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '#web/lib/paths.ts';
import { readViewed } from '#web/lib/recently-viewed.ts';
import { ProductImage } from './ProductImage.tsx';

/** A row of the products the shopper opened last (newest first), each a link back to its page; nothing when none. */
export function RecentlyViewed({ exclude }: { exclude?: string }) {
  const [viewed] = useState(readViewed);
  const products = viewed.filter((p) => p._id !== exclude);
  if (products.length === 0) return null;
  return (
    <section className="recently-viewed mt-4" aria-labelledby="recently-viewed-title">
      <h2 id="recently-viewed-title" className="h5 mb-3">
        Recently viewed
      </h2>
      <ul className="recently-viewed-list list-unstyled mb-0">
        {products.map((p) => (
          <li key={p._id}>
            <Link to={paths.product(p.slug)} className="recently-viewed-item">
              <ProductImage src={p.image} alt="" width={160} height={120} sizes="160px" />
              <span className="recently-viewed-name">{p.name}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
