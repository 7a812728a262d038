import { Message } from '#web/components/Message.tsx';
import { Loader } from '#web/components/Loader.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { ProductGrid } from '../components/ProductGrid.tsx';
import { TopCarousel } from '../components/TopCarousel.tsx';
import { GridSkeleton } from '../components/GridSkeleton.tsx';
import { useInfiniteGrid } from '../hooks/use-infinite-grid.ts';

export default function HomePage() {
  useDocumentTitle('');
  const grid = useInfiniteGrid();
  return (
    <>
      <TopCarousel />
      <section aria-labelledby="latest-heading">
        <div className="d-flex align-items-baseline justify-content-between mb-3">
          <h1 id="latest-heading" className="h3 mb-0">
            Latest Products
          </h1>
          {grid.productCount > 0 && <span className="small text-body-secondary">{grid.productCount} products</span>}
        </div>
        {grid.loading ? (
          <>
            <Loader label="Loading products…" />
            <GridSkeleton />
          </>
        ) : grid.error && grid.items.length === 0 ? (
          <Message variant="danger">{grid.error.message}</Message>
        ) : grid.empty ? (
          <Message>No products found.</Message>
        ) : (
          <>
            <ProductGrid items={grid.items} label="Products" />
            {grid.waiting && <GridSkeleton />}
            <p className="text-center text-body-secondary small py-4 mb-0" aria-live="polite">
              {grid.finished ? "You've seen it all: come back soon for new arrivals." : ''}
            </p>
          </>
        )}
      </section>
    </>
  );
}
