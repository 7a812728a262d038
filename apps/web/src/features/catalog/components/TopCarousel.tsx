import { formatMoney, TOP_SLIDE_SIZES } from '@store/shared';
import Carousel from 'react-bootstrap/Carousel';
import { Link } from 'react-router';
import { ProductImage } from '#web/components/ProductImage.tsx';
import { Rating } from '#web/components/Rating.tsx';
import { useTopProducts } from '../api.ts';
import { paths } from '#web/lib/paths.ts';

/** Top-rated products on the home page: image, name and price per slide. */
export function TopCarousel() {
  const { data, isPending, isError } = useTopProducts();
  if (isError) return null; // the grid below still sells; no need to shout about a missing extra
  if (isPending) return <div className="top-carousel top-carousel-skeleton mb-4" aria-hidden="true" />;
  if (data.length === 0) return null;
  return (
    <section aria-labelledby="top-heading" className="mb-4">
      <h2 id="top-heading" className="visually-hidden">
        Top rated products
      </h2>
      <Carousel
        className="top-carousel"
        data-bs-theme="light" /* white controls on the blue band in both themes */
        interval={6000}
        pause="hover"
        indicatorLabels={data.map((p) => `Show ${p.name}`)}
      >
        {data.map((p, i) => (
          <Carousel.Item key={p._id}>
            <Link to={paths.product(p.slug)} className="top-slide">
              <span className="top-slide-media">
                <ProductImage
                  src={p.image}
                  alt={p.name}
                  sizes={TOP_SLIDE_SIZES}
                  loading={i === 0 ? 'eager' : 'lazy'}
                  fetchPriority={i === 0 ? 'high' : 'auto'}
                />
              </span>
              <span className="top-slide-text">
                <span className="top-slide-kicker">Top rated</span>
                <span className="top-slide-name">{p.name}</span>
                <Rating
                  value={p.rating}
                  text={`${p.numReviews} ${p.numReviews === 1 ? 'review' : 'reviews'}`}
                  className="top-slide-rating"
                />
                <span className="top-slide-price">{formatMoney(p.price)}</span>
                <span className="btn btn-light btn-sm top-slide-cta" aria-hidden="true">
                  Shop now
                </span>
              </span>
            </Link>
          </Carousel.Item>
        ))}
      </Carousel>
    </section>
  );
}
