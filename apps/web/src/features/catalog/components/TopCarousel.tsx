import { lazy, Suspense, useEffect } from 'react';
import { useTopProducts } from '../api.ts';

const loadSlides = () => import('./TopCarouselSlides.tsx');
const TopCarouselSlides = lazy(loadSlides);

/**
 * Top-rated products on the home page: image, name and price per slide. The slides' code is fetched as
 * the home page first renders, side by side with the products it shows.
 */
export function TopCarousel() {
  useEffect(() => void loadSlides(), []);
  const { data, isPending, isError } = useTopProducts();
  if (isError) return null; // the grid below still sells; no need to shout about a missing extra
  if (isPending) return <div className="top-carousel top-carousel-skeleton mb-4" aria-hidden="true" />;
  if (data.length === 0) return null;
  return (
    <section aria-labelledby="top-heading" className="mb-4">
      <h2 id="top-heading" className="visually-hidden">
        Top rated products
      </h2>
      <Suspense fallback={<div className="top-carousel top-carousel-skeleton" aria-hidden="true" />}>
        <TopCarouselSlides data={data} />
      </Suspense>
    </section>
  );
}
