import { PayPalButtons, PayPalScriptProvider, usePayPalScriptReducer } from '@paypal/react-paypal-js';
import { useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Message } from '#web/components/Message.tsx';
import {
  isRenderError,
  namespaceFor,
  PAYPAL_ATTEMPTS,
  PAYPAL_MESSAGES,
  PAYPAL_READY_WAIT_MS,
  retryDelayMs,
} from '../paypal-logic.ts';

interface Props {
  clientId: string;
  /** Asks the server to create the PayPal order; answers its id. */
  createOrder: () => Promise<string>;
  /** The shopper approved: the server captures and records the payment. */
  onApproved: (paypalOrderId: string) => Promise<void>;
}

/**
 * PayPal buttons, loaded patiently: up to 3 attempts, 1 s × attempt between them,
 * alternating SDK namespaces, each attempt waiting up to 15 s for the buttons; 'Reload PayPal' starts over.
 */
export default function PayPalPayment({ clientId, createOrder, onApproved }: Props) {
  const [round, setRound] = useState(0);
  const [attempt, setAttempt] = useState(1);
  const [error, setError] = useState<string | null>(clientId ? null : PAYPAL_MESSAGES.missingClientId);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const failAttempt = () => {
    if (attempt >= PAYPAL_ATTEMPTS) {
      setError(PAYPAL_MESSAGES.init);
      return;
    }
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setAttempt((a) => a + 1), retryDelayMs(attempt));
  };

  const reload = () => {
    clearTimeout(timer.current);
    setError(clientId ? null : PAYPAL_MESSAGES.missingClientId);
    setAttempt(1);
    setRound((r) => r + 1);
  };

  return (
    <div className="paypal-payment" data-testid="paypal-payment">
      {error ? (
        <Message variant="danger">{error}</Message>
      ) : (
        <PayPalScriptProvider
          key={`${round}:${attempt}`}
          options={{
            clientId,
            currency: 'USD',
            intent: 'capture',
            dataNamespace: namespaceFor(attempt),
          }}
        >
          <PayPalAttempt
            attempt={attempt}
            createOrder={createOrder}
            onFail={failAttempt}
            onError={setError}
            onApproved={onApproved}
          />
        </PayPalScriptProvider>
      )}
      <Button variant="outline-secondary" size="sm" className="mt-2" onClick={reload}>
        Reload PayPal
      </Button>
    </div>
  );
}

function PayPalAttempt({
  attempt,
  createOrder,
  onFail,
  onError,
  onApproved,
}: {
  attempt: number;
  createOrder: () => Promise<string>;
  onFail: () => void;
  onError: (message: string) => void;
  onApproved: (paypalOrderId: string) => Promise<void>;
}) {
  const [{ isRejected, isResolved }] = usePayPalScriptReducer();
  const [ready, setReady] = useState(false);
  const failed = useRef(false);
  const fail = useRef(onFail);
  useEffect(() => {
    fail.current = onFail;
  });
  const failOnce = () => {
    if (failed.current) return;
    failed.current = true;
    fail.current();
  };

  useEffect(() => {
    if (isRejected) failOnce();
  }, [isRejected]);

  // the script may load and the buttons still never appear: give each attempt 15 s
  useEffect(() => {
    if (ready) return;
    const t = setTimeout(failOnce, PAYPAL_READY_WAIT_MS);
    return () => clearTimeout(t);
  }, [ready]);

  return (
    <>
      {!ready && (
        <div className="d-flex align-items-center gap-2 small text-body-secondary mb-2" role="status">
          <span className="spinner-border spinner-border-sm" aria-hidden="true" />
          Loading PayPal… Attempt {attempt}/{PAYPAL_ATTEMPTS}
        </div>
      )}
      {isResolved && (
        <PayPalButtons
          style={{ layout: 'vertical' }}
          onInit={() => setReady(true)}
          // the server creates the PayPal order for the total it computed, and captures it once approved
          createOrder={() => createOrder()}
          onApprove={async (data) => {
            if (!data.orderID) throw new Error(PAYPAL_MESSAGES.error);
            await onApproved(data.orderID);
          }}
          onError={(err) =>
            onError(isRenderError(String(err?.message ?? '')) ? PAYPAL_MESSAGES.render : PAYPAL_MESSAGES.error)
          }
        />
      )}
    </>
  );
}
