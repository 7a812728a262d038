import type { Order } from '@store/shared';
import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { Message } from '#web/components/Message.tsx';
import { useShipOrder } from '../api.ts';

/** How an order line is named in a tracking number's items: 'Name (Variant) x Qty'. */
export const itemLabel = (i: Order['orderItems'][number]) =>
  `${i.name}${i.selectedColorsVariants ? ` (${i.selectedColorsVariants.name})` : ''} x ${i.qty}`;

interface Row {
  key: number;
  number: string;
  items: string[];
}

/**
 * 'Upload Tracking Numbers' on the order page (admin): one or more numbers, each with the items it carries;
 * an item can be chosen once per number.
 */
export function ShipModal({
  order,
  show,
  onClose,
  onShipped,
}: {
  order: Order;
  show: boolean;
  onClose: () => void;
  onShipped: () => void;
}) {
  const labels = [...new Set(order.orderItems.map(itemLabel))];
  const [rows, setRows] = useState<Row[]>([{ key: 0, number: '', items: [] }]);
  const [missing, setMissing] = useState<string | null>(null);
  const ship = useShipOrder(order._id);
  const error = missing ?? ship.error?.message ?? null;

  const update = (key: number, change: (r: Row) => Row) =>
    setRows((rs) => rs.map((r) => (r.key === key ? change(r) : r)));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const filled = rows.filter((r) => r.number.trim());
    if (filled.length === 0) {
      ship.reset();
      setMissing('Enter at least one tracking number.');
      return;
    }
    setMissing(null);
    ship.mutate(
      filled.map((r) => ({ number: r.number.trim(), trackingItem: r.items })),
      { onSuccess: onShipped },
    );
  };

  return (
    <Modal show={show} onHide={onClose} centered aria-labelledby="ship-title">
      <Form noValidate onSubmit={submit}>
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id="ship-title" as="h2" className="h5">
            Upload Tracking Numbers
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {error && <Message variant="danger">{error}</Message>}
          {rows.map((row, n) => (
            <fieldset key={row.key} className="border rounded p-2 mb-3">
              <legend className="fs-6 float-none w-auto px-1 mb-1">Tracking number {n + 1}</legend>
              <Form.Group className="mb-2" controlId={`tracking-number-${row.key}`}>
                <Form.Label className="visually-hidden">Tracking number {n + 1}</Form.Label>
                <Form.Control
                  value={row.number}
                  maxLength={64}
                  placeholder="e.g. 1Z999AA10123456784"
                  onChange={(e) => update(row.key, (r) => ({ ...r, number: e.target.value }))}
                />
              </Form.Group>
              {labels.map((label, i) => (
                <Form.Check
                  key={label}
                  id={`tracking-${row.key}-item-${i}`}
                  label={label}
                  checked={row.items.includes(label)}
                  onChange={(e) =>
                    update(row.key, (r) => ({
                      ...r,
                      items: e.target.checked ? [...r.items, label] : r.items.filter((x) => x !== label),
                    }))
                  }
                />
              ))}
              {rows.length > 1 && (
                <Button
                  variant="link"
                  size="sm"
                  className="px-0 text-danger"
                  onClick={() => setRows((rs) => rs.filter((r) => r.key !== row.key))}
                >
                  Remove tracking number {n + 1}
                </Button>
              )}
            </fieldset>
          ))}
          <Button
            variant="outline-secondary"
            size="sm"
            onClick={() =>
              setRows((rs) => [...rs, { key: Math.max(...rs.map((r) => r.key)) + 1, number: '', items: [] }])
            }
          >
            Add tracking number
          </Button>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
          <Button type="submit" disabled={ship.isPending}>
            {ship.isPending ? 'Saving…' : 'Mark As Shipped'}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
