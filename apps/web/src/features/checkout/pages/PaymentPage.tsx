import { PAYMENT_METHOD } from '@store/shared';
import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Navigate, useNavigate } from 'react-router';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { useAuth } from '#web/lib/auth.ts';
import { CheckoutSteps } from '../components/CheckoutSteps.tsx';
import { useCheckout } from '../store.ts';
import { paths } from '#web/lib/paths.ts';

/** Payment method: one, PayPal (which also takes cards). Needs a saved address first. */
export default function PaymentPage() {
  useDocumentTitle('Payment');
  const userInfo = useAuth((s) => s.userInfo);
  const address = useCheckout((s) => s.shippingAddress);
  const stored = useCheckout((s) => s.paymentMethod);
  const savePaymentMethod = useCheckout((s) => s.savePaymentMethod);
  const navigate = useNavigate();
  const [method, setMethod] = useState(stored || PAYMENT_METHOD);

  if (!userInfo) return <Navigate to={paths.loginThen(paths.shipping)} replace />;
  if (!address) return <Navigate to={paths.shipping} replace />;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    savePaymentMethod(method);
    navigate(paths.placeOrder);
  };

  return (
    <div className="checkout-page mx-auto" style={{ maxWidth: 640 }}>
      <CheckoutSteps current="payment" isGuest={userInfo.isGuest} />
      <h1 className="h3 mb-3">Payment Method</h1>
      <Form onSubmit={onSubmit}>
        <fieldset className="mb-3">
          <legend className="fs-6">Select Method</legend>
          <Form.Check
            type="radio"
            id="paypal"
            name="paymentMethod"
            value={PAYMENT_METHOD}
            label="PayPal or Credit Card"
            checked={method === PAYMENT_METHOD}
            onChange={(e) => setMethod(e.target.value)}
          />
        </fieldset>
        <Button type="submit">Continue</Button>
      </Form>
    </div>
  );
}
