import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { Message } from './Message.tsx';

/**
 * The one confirmation every destructive action asks for: a modal that names what will happen to what
 * ("Delete 2 products: Mug, Lamp?"), with the safe choice focused first so Enter never destroys by
 * accident. `busy` shows progress and keeps the dialog open; `error` shows why the action failed.
 */
export function ConfirmDialog({
  show,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  variant = 'danger',
  busy = false,
  error,
  onConfirm,
  onCancel,
  onExited,
}: {
  show: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  variant?: 'danger' | 'primary' | 'warning';
  busy?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
  /** After the closing animation, once the dialog has given the focus back (a page may move it then). */
  onExited?: () => void;
}) {
  return (
    <Modal
      show={show}
      onHide={busy ? undefined : onCancel}
      onExited={onExited}
      centered
      aria-labelledby="confirm-title"
    >
      <Modal.Header closeButton={!busy} closeLabel="Close">
        <Modal.Title id="confirm-title" as="h2" className="h5">
          {title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {error && <Message variant="danger">{error}</Message>}
        {children}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onCancel} disabled={busy} autoFocus>
          {cancelLabel}
        </Button>
        <Button variant={variant} onClick={onConfirm} disabled={busy}>
          {busy && <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />}
          {confirmLabel}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
