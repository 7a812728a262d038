import { Link } from 'react-router';

/** The date a step of an order happened, or a ✗ that a screen reader reads as 'No' (order tables). */
export function DoneOn({ done, at }: { done: boolean; at: string | null }) {
  if (done) return <span className="text-nowrap">{at ? new Date(at).toLocaleDateString() : 'Yes'}</span>;
  return (
    <>
      <span className="text-danger-emphasis" aria-hidden="true">
        ✗
      </span>
      <span className="visually-hidden">No</span>
    </>
  );
}

/** The Details link of an order row, named for screen readers. */
export function OrderDetailsLink({ id }: { id: string }) {
  return (
    <Link to={`/order/${id}`} className="btn btn-sm btn-outline-primary" aria-label={`Details of order ${id}`}>
      Details
    </Link>
  );
}
