/**
 * Card-shaped placeholders where the next products will be, so the page keeps its height while they
 * load (no jump when they arrive). Hidden from screen readers: the grid's status line speaks instead.
 */
export function GridSkeleton({ count = 8 }: { count?: number }) {
  return (
    <ul className="product-grid list-unstyled mt-3" aria-hidden="true" data-testid="grid-skeleton">
      {Array.from({ length: count }, (_, i) => (
        <li key={i}>
          <div className="card h-100 overflow-hidden placeholder-glow">
            <div className="grid-skeleton-media placeholder w-100" />
            <div className="card-body d-flex flex-column gap-2">
              <span className="placeholder col-10" />
              <span className="placeholder col-6" />
              <span className="placeholder col-4 mt-auto" />
            </div>
          </div>
        </li>
      ))}
    </ul>
  );
}
