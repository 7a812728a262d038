import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

/**
 * The image preview of the product page: the picture as large as the screen allows, with a zoom to twice that
 * size (scroll or drag to look around); Escape, the close button or a click outside closes it.
 */
export function ImagePreview({
  src,
  label,
  show,
  onClose,
}: {
  src: string;
  label: string;
  show: boolean;
  onClose: () => void;
}) {
  const [zoomed, setZoomed] = useState(false);
  return (
    <Modal
      show={show}
      onHide={onClose}
      onExited={() => setZoomed(false)}
      fullscreen
      aria-labelledby="image-preview-title"
      className="image-preview"
    >
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="image-preview-title" as="h2" className="h6 text-truncate">
          {label}
        </Modal.Title>
        <Button
          variant="outline-secondary"
          size="sm"
          className="ms-auto me-2"
          aria-pressed={zoomed}
          onClick={() => setZoomed((z) => !z)}
        >
          {zoomed ? 'Zoom out' : 'Zoom in'}
        </Button>
      </Modal.Header>
      <Modal.Body className={`image-preview-body${zoomed ? ' zoomed' : ''}`}>
        <img src={src} alt={label} data-testid="image-preview" onClick={() => setZoomed((z) => !z)} />
      </Modal.Body>
    </Modal>
  );
}
