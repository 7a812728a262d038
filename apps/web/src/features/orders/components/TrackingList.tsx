import type { Order } from '@store/shared';
import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { Loader } from '#web/components/Loader.tsx';
import { Message } from '#web/components/Message.tsx';
import { useEmailTrackingNumbers, useMovements, useRecordMovement } from '../api.ts';

type Tracking = Order['trackingNumbers'][number];

/**
 * Tracking numbers of a shipped order, each with TRACK SHIPMENT opening its 'Shipment Tracking History':
 * the movements come from the tracking provider. Admins can record a movement (the manual provider's
 * source) and mail the numbers to the buyer again.
 */
export function TrackingList({ order, isAdmin }: { order: Order; isAdmin: boolean }) {
  const [open, setOpen] = useState<Tracking | null>(null);
  const mail = useEmailTrackingNumbers(order);
  if (order.trackingNumbers.length === 0) return null;
  return (
    <section aria-labelledby="tracking-heading" className="mt-3">
      <h3 id="tracking-heading" className="h6">
        Tracking Numbers
      </h3>
      <ul className="list-group" data-testid="tracking-numbers">
        {order.trackingNumbers.map((t) => (
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
      {isAdmin && (
        <div className="mt-2">
          <Button size="sm" variant="outline-secondary" disabled={mail.isPending} onClick={() => mail.mutate()}>
            {mail.isPending ? 'Sending…' : 'Email Tracking Numbers'}
          </Button>
          <div aria-live="polite" className="mt-2">
            {mail.isSuccess && <Message variant="success">{mail.data.message}</Message>}
            {mail.error && <Message variant="danger">{mail.error.message}</Message>}
          </div>
        </div>
      )}
      <Modal show={open !== null} onHide={() => setOpen(null)} centered aria-labelledby="tracking-history-title">
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id="tracking-history-title" as="h2" className="h5">
            Shipment Tracking History
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>{open && <History order={order} tracking={open} isAdmin={isAdmin} />}</Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={() => setOpen(null)}>
            Close
          </Button>
        </Modal.Footer>
      </Modal>
    </section>
  );
}

function History({ order, tracking, isAdmin }: { order: Order; tracking: Tracking; isAdmin: boolean }) {
  const movements = useMovements(order, tracking.number);
  return (
    <>
      <p className="mb-2">
        Tracking number: <strong className="text-break">{tracking.number}</strong>
      </p>
      {movements.isPending ? (
        <Loader label="Loading movements…" />
      ) : movements.error ? (
        <Message variant="danger">{movements.error.message}</Message>
      ) : movements.data.length > 0 ? (
        <>
          <h3 className="h6">Movement</h3>
          <ol className="list-unstyled mb-0" data-testid="movements">
            {movements.data.map((e, i) => (
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
      {isAdmin && <RecordMovement orderId={order._id} tracking={tracking} />}
    </>
  );
}

function RecordMovement({ orderId, tracking }: { orderId: string; tracking: Tracking }) {
  const [status, setStatus] = useState('');
  const [location, setLocation] = useState('');
  const record = useRecordMovement(orderId, tracking);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!status.trim()) return;
    record.mutate(
      { status: status.trim(), location: location.trim() },
      {
        onSuccess: () => {
          setStatus('');
          setLocation('');
        },
      },
    );
  };
  return (
    <Form noValidate onSubmit={submit} className="border-top mt-3 pt-3" aria-label="Record a movement">
      <h3 className="h6">Record a movement</h3>
      <Form.Group className="mb-2" controlId={`movement-status-${tracking._id}`}>
        <Form.Label>Status</Form.Label>
        <Form.Control value={status} maxLength={200} onChange={(e) => setStatus(e.target.value)} required />
      </Form.Group>
      <Form.Group className="mb-2" controlId={`movement-location-${tracking._id}`}>
        <Form.Label>Location</Form.Label>
        <Form.Control value={location} maxLength={200} onChange={(e) => setLocation(e.target.value)} />
      </Form.Group>
      {record.error && <Message variant="danger">{record.error.message}</Message>}
      <Button type="submit" size="sm" disabled={!status.trim() || record.isPending}>
        {record.isPending ? 'Saving…' : 'Add Movement'}
      </Button>
    </Form>
  );
}
