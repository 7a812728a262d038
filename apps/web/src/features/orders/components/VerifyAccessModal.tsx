import { cleanEmail, cleanText, LIMITS, ORDER_MESSAGES } from '@store/shared';
import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { Message } from '#web/components/Message.tsx';
import { useGuestAccess } from '../api.ts';

/**
 * 'Verify Order Access': the e-mail address and postal code on the order earn an access token for this
 * order, kept for this browser session.
 */
export function VerifyAccessModal({
  orderId,
  show,
  onVerified,
  onClose,
}: {
  orderId: string;
  show: boolean;
  onVerified: () => void;
  onClose: () => void;
}) {
  const [email, setEmail] = useState('');
  const [postalCode, setPostalCode] = useState('');
  const [missing, setMissing] = useState<string | null>(null);
  const access = useGuestAccess(orderId);
  const error = missing ?? (access.error ? access.error.message || ORDER_MESSAGES.accessFailed : null);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const mail = cleanEmail(email);
    const postal = cleanText(postalCode);
    if (!mail || !postal) {
      access.reset();
      setMissing(ORDER_MESSAGES.accessMissing);
      return;
    }
    setMissing(null);
    access.mutate({ email: mail, postalCode: postal }, { onSuccess: onVerified });
  };

  return (
    <Modal show={show} onHide={onClose} centered aria-labelledby="verify-title">
      <Form noValidate onSubmit={onSubmit}>
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id="verify-title" as="h2" className="h5">
            Verify Order Access
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p>Enter the e-mail address and postal code used for this order.</p>
          {error && <Message variant="danger">{error}</Message>}
          <Form.Group className="mb-3" controlId="verify-email">
            <Form.Label>Email</Form.Label>
            <Form.Control
              type="email"
              autoComplete="email"
              maxLength={LIMITS.email}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </Form.Group>
          <Form.Group controlId="verify-postal">
            <Form.Label>Postal Code</Form.Label>
            <Form.Control
              type="text"
              autoComplete="postal-code"
              maxLength={16}
              value={postalCode}
              onChange={(e) => setPostalCode(e.target.value)}
            />
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
          <Button type="submit" disabled={access.isPending}>
            {access.isPending ? 'Verifying…' : 'Verify'}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
