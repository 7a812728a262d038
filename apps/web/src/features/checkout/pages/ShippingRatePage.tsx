import { formatMoney } from '@store/shared';
import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Navigate, useNavigate } from 'react-router';
import { Loader } from '#web/components/Loader.tsx';
import { Message } from '#web/components/Message.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { useAuth } from '#web/lib/auth.ts';
import { useShippingRates } from '../api.ts';
import { CheckoutSteps } from '../components/CheckoutSteps.tsx';
import { useCheckout } from '../store.ts';
import { paths } from '#web/lib/paths.ts';

/**
 * /shippingrate: choose among the rates the server offers
 * (SHIPPING_RATES). The choice is kept with the checkout data; the server prices it again on the order.
 */
export default function ShippingRatePage() {
  useDocumentTitle('Shipping Rate');
  const userInfo = useAuth((s) => s.userInfo);
  const address = useCheckout((s) => s.shippingAddress);
  const stored = useCheckout((s) => s.shippingRate);
  const paymentMethod = useCheckout((s) => s.paymentMethod);
  const saveShippingRate = useCheckout((s) => s.saveShippingRate);
  const navigate = useNavigate();
  const [picked, setPicked] = useState<string | null>(null);
  const rates = useShippingRates(userInfo?._id);

  if (!userInfo) return <Navigate to={paths.loginThen(paths.shipping)} replace />;
  if (!address) return <Navigate to={paths.shipping} replace />;

  const offered = rates.data?.rates ?? [];
  const chosenId =
    picked ?? (offered.some((r) => r.id === stored?.id) ? stored?.id : rates.data?.defaultRateId) ?? offered[0]?.id;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const rate = offered.find((r) => r.id === chosenId);
    if (!rate) return;
    saveShippingRate(rate);
    navigate(paymentMethod ? paths.placeOrder : paths.payment);
  };

  return (
    <div className="checkout-page mx-auto" style={{ maxWidth: 640 }}>
      <CheckoutSteps current="shipping" isGuest={userInfo.isGuest} />
      <h1 className="h3 mb-3">Shipping Rate</h1>
      {rates.isPending ? (
        <Loader label="Loading shipping rates…" />
      ) : rates.error ? (
        <Message variant="danger">{rates.error.message}</Message>
      ) : (
        <Form onSubmit={onSubmit}>
          <fieldset className="mb-3">
            <legend className="fs-6">Select a shipping rate</legend>
            {offered.map((r) => (
              <Form.Check
                key={r.id}
                type="radio"
                id={`rate-${r.id}`}
                name="shippingRate"
                value={r.id}
                label={`${r.name}: ${r.price === 0 ? 'FREE' : formatMoney(r.price)}`}
                checked={chosenId === r.id}
                onChange={() => setPicked(r.id)}
              />
            ))}
          </fieldset>
          <Button type="submit" disabled={!chosenId}>
            Continue
          </Button>
        </Form>
      )}
    </div>
  );
}
