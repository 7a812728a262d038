import { formatMoney, TOP_SLIDE_SIZES, type ProductSummary } from '@store/shared';
import Carousel from 'react-bootstrap/Carousel';
import { Link } from 'react-router';
import { ProductImage } from '#web/components/ProductImage.tsx';
import { Rating } from '#web/components/Rating.tsx';
import { paths } from '#web/lib/paths.ts';

/**
 * The slides of the top-rated carousel. A chunk of its own: only the home page shows it, so the other pages'
 * first load does not carry the carousel code (it loads while the top products are fetched).
 */
export default function TopCarouselSlides({ data }: { data: ProductSummary[] }) {
  return (
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
  );
}
