import Toast from 'react-bootstrap/Toast';
import ToastContainer from 'react-bootstrap/ToastContainer';

export interface ToastContent {
  title: string;
  body: string;
  variant: 'danger' | 'success';
}

/**
 * One toast that hides by itself after `delay` ms (the times are in TOAST_MS).
 * Errors are announced assertively, successes politely. It sits below the header on the right, and at the
 * bottom of a phone's screen, where it hides neither the header nor the page's title and buttons.
 */
export function TimedToast({
  toast,
  delay,
  onClose,
}: {
  toast: ToastContent | null;
  delay: number;
  onClose: () => void;
}) {
  const danger = toast?.variant === 'danger';
  return (
    <ToastContainer className="store-toasts p-3 position-fixed" style={{ zIndex: 1090 }}>
      <Toast
        show={toast !== null}
        onClose={onClose}
        delay={delay}
        autohide
        bg={danger ? 'danger' : 'success'}
        role={danger ? 'alert' : 'status'}
        aria-live={danger ? 'assertive' : 'polite'}
      >
        <Toast.Header closeLabel="Close">
          <strong className="me-auto">{toast?.title}</strong>
        </Toast.Header>
        <Toast.Body className="text-white">{toast?.body}</Toast.Body>
      </Toast>
    </ToastContainer>
  );
}
