import type { Order } from '@store/shared';
import { lazy, Suspense } from 'react';
import Button from 'react-bootstrap/Button';
import { Loader } from '#web/components/Loader.tsx';
import { Message } from '#web/components/Message.tsx';
import { usePaypalConfig, usePayOrder, type PaymentResult } from '../api.ts';
import { PAYPAL_MESSAGES } from '../paypal-logic.ts';

const PayPalPayment = lazy(() => import('./PayPalPayment.tsx'));

/**
 * Payment of an unpaid order: a test-mode button when the server simulates payments (no PayPal credentials
 * configured), else the PayPal buttons. A failed payment's message shows above them.
 */
export function PaymentSection({ order }: { order: Order }) {
  const pay = usePayOrder(order._id);
  // the message is shown from pay.error: the PayPal buttons must not take a failed payment for their own error
  const payWith = (result: PaymentResult) =>
    pay.mutateAsync(result).then(
      () => undefined,
      () => undefined,
    );
  return (
    <>
      {pay.error && (
        <div className="mt-3">
          <Message variant="danger">{pay.error.message}</Message>
        </div>
      )}
      <div className="mt-3">
        <PaymentOptions order={order} paying={pay.isPending} onPay={payWith} />
      </div>
    </>
  );
}

function PaymentOptions({
  order,
  paying,
  onPay,
}: {
  order: Order;
  paying: boolean;
  onPay: (result: PaymentResult) => Promise<void>;
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
            void onPay({
              id: `TEST-${Date.now()}`,
              status: 'COMPLETED',
              update_time: new Date().toISOString(),
              email: order.user.email,
            })
          }
        >
          {paying ? 'Paying…' : 'Test mode: pay without PayPal'}
        </Button>
      </div>
    );
  }
  return (
    <Suspense fallback={<Loader label="Loading PayPal…" />}>
      <PayPalPayment order={order} clientId={config.data.clientId} onApproved={onPay} />
    </Suspense>
  );
}
