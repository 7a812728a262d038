import type { Order } from '@store/shared';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

type Tracking = Order['trackingNumbers'][number];

/** Tracking numbers of a shipped order, each with TRACK SHIPMENT and its 'Shipment Tracking History'. */
export function TrackingList({ trackingNumbers }: { trackingNumbers: Tracking[] }) {
  const [open, setOpen] = useState<Tracking | null>(null);
  if (trackingNumbers.length === 0) return null;
  return (
    <section aria-labelledby="tracking-heading" className="mt-3">
      <h3 id="tracking-heading" className="h6">
        Tracking Numbers
      </h3>
      <ul className="list-group" data-testid="tracking-numbers">
        {trackingNumbers.map((t) => (
          <li key={t._id} className="list-group-item d-flex flex-wrap justify-content-between gap-2 align-items-center">
            <div>
              <span className="fw-semibold text-break">{t.number}</span>
              {t.trackingItem.length > 0 && (
                <div className="small text-body-secondary">{t.trackingItem.join(', ')}</div>
              )}
            </div>
            <Button size="sm" variant="outline-primary" onClick={() => setOpen(t)}>
              TRACK SHIPMENT<span className="visually-hidden"> {t.number}</span>
            </Button>
          </li>
        ))}
      </ul>
      <Modal show={open !== null} onHide={() => setOpen(null)} centered aria-labelledby="tracking-history-title">
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id="tracking-history-title" as="h2" className="h5">
            Shipment Tracking History
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="mb-2">
            Tracking number: <strong>{open?.number}</strong>
          </p>
          {open?.events && open.events.length > 0 ? (
            <>
              <h3 className="h6">Movement</h3>
              <ol className="list-unstyled mb-0">
                {open.events.map((e, i) => (
                  <li key={i} className="border-bottom py-2">
                    <div className="small text-body-secondary">{new Date(e.time).toLocaleString()}</div>
                    <div>{e.status}</div>
                    {e.location && <div className="small">{e.location}</div>}
                  </li>
                ))}
              </ol>
            </>
          ) : (
            <p className="mb-0">No movement data yet</p>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={() => setOpen(null)}>
            Close
          </Button>
        </Modal.Footer>
      </Modal>
    </section>
  );
}
