import type { Order } from '@store/shared';
import { lazy, Suspense, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Loader } from '#web/components/Loader.tsx';
import { Message } from '#web/components/Message.tsx';
import { failureText } from '#web/lib/api.ts';
import { startPaypal, useCapturePayment, usePaypalConfig } from '../api.ts';
import { PAYPAL_MESSAGES } from '../paypal-logic.ts';

const PayPalPayment = lazy(() => import('./PayPalPayment.tsx'));

/**
 * Payment of an unpaid order: a test-mode button when the server simulates payments (no PayPal credentials
 * configured), else the PayPal buttons. Either way the server creates the payment for the total it
 * computed and captures it once approved. A failed payment's message shows above them.
 */
export function PaymentSection({ order }: { order: Order }) {
  const capture = useCapturePayment(order._id);
  const [startError, setStartError] = useState<string | null>(null);
  const start = async () => {
    setStartError(null);
    capture.reset();
    try {
      return await startPaypal(order._id);
    } catch (err) {
      setStartError(failureText(err, PAY_FAILED));
      throw err;
    }
  };
  // the message is shown from capture.error: the PayPal buttons must not take a failed payment for their own error
  const approved = (paypalOrderId: string) =>
    capture.mutateAsync(paypalOrderId).then(
      () => undefined,
      () => undefined,
    );
  const error = startError ?? (capture.error ? failureText(capture.error, PAY_FAILED) : null);
  return (
    <>
      {error && (
        <div className="mt-3">
          <Message variant="danger">{error}</Message>
        </div>
      )}
      <div className="mt-3">
        <PaymentOptions paying={capture.isPending} onStart={start} onApproved={approved} />
      </div>
    </>
  );
}

const PAY_FAILED = 'Payment failed, please try again';

function PaymentOptions({
  paying,
  onStart,
  onApproved,
}: {
  paying: boolean;
  onStart: () => Promise<string>;
  onApproved: (paypalOrderId: string) => Promise<void>;
}) {
  const config = usePaypalConfig();
  if (config.isPending) return <Loader label="Loading payment options…" />;
  if (config.error || !config.data) return <Message variant="danger">{PAYPAL_MESSAGES.missingClientId}</Message>;
  if (config.data.testMode) {
    return (
      <div className="border border-warning rounded p-2">
        <p className="small mb-2">
          <strong>Test mode:</strong> PayPal is not configured on this server, so no real payment is taken.
        </p>
        <Button
          variant="warning"
          className="w-100"
          disabled={paying}
          onClick={() =>
            void onStart().then(
              (id) => onApproved(id),
              () => undefined,
            )
          }
        >
          {paying ? 'Paying…' : 'Test mode: pay without PayPal'}
        </Button>
      </div>
    );
  }
  return (
    <Suspense fallback={<Loader label="Loading PayPal…" />}>
      <PayPalPayment clientId={config.data.clientId} createOrder={onStart} onApproved={onApproved} />
    </Suspense>
  );
}
