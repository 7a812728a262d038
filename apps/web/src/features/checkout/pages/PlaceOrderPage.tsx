import { priceOrder, TOAST_MS, toCents, type ShippingRate } from '@store/shared';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Link, Navigate, useNavigate } from 'react-router';
import { Message } from '#web/components/Message.tsx';
import { OrderItemList } from '#web/components/OrderItemList.tsx';
import { PriceSummary } from '#web/components/PriceSummary.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { useAuth } from '#web/lib/auth.ts';
import { useCart } from '#web/lib/cart.ts';
import { createOrder, useShippingRates } from '../api.ts';
import { CheckoutSteps } from '../components/CheckoutSteps.tsx';
import { useCheckout } from '../store.ts';
import { paths } from '#web/lib/paths.ts';

/** What the order page shows as a toast after arriving from here (for TOAST_MS.orderPlaced). */
export const ORDER_PLACED = { message: 'Order placed successfully!', ms: TOAST_MS.orderPlaced };

export default function PlaceOrderPage() {
  useDocumentTitle('Place Order');
  const userInfo = useAuth((s) => s.userInfo);
  const items = useCart((s) => s.cartItems);
  const clearCart = useCart((s) => s.clear);
  const { shippingAddress: address, paymentMethod, shippingRate, saveShippingRate } = useCheckout();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [placing, setPlacing] = useState(false);

  const rates = useShippingRates(userInfo?._id);

  if (!userInfo) return <Navigate to={paths.loginThen(paths.shipping)} replace />;
  if (!address) return <Navigate to={paths.shipping} replace />;
  if (!paymentMethod) return <Navigate to={paths.payment} replace />;

  // the stored rate while the server still offers it, else the server's default
  const rate: ShippingRate | undefined = rates.data
    ? (rates.data.rates.find((r) => r.id === shippingRate?.id) ??
      rates.data.rates.find((r) => r.id === rates.data.defaultRateId))
    : undefined;
  const price = priceOrder(
    items.map((i) => ({ unitPriceCents: toCents(i.price), qty: i.qty })),
    toCents(rate?.price ?? 0),
  );

  const placeOrder = async () => {
    setError(null);
    setPlacing(true);
    try {
      if (rate) saveShippingRate(rate);
      const { email, ...shipping } = address;
      const order = await createOrder({
        shipToFirstName: shipping.shipToFirstName,
        shipToLastName: shipping.shipToLastName,
        firstName: userInfo.firstName || shipping.shipToFirstName,
        lastName: userInfo.lastName || shipping.shipToLastName,
        email,
        orderItems: items.map((i) => ({
          product: i.product,
          qty: i.qty,
          selectedColorsVariants: i.selectedColorsVariants ? { _id: i.selectedColorsVariants._id } : null,
        })),
        shippingAddress: { ...shipping, email },
        paymentMethod,
        shippingRateId: rate?.id,
      });
      clearCart();
      navigate(paths.order(order._id), { state: { orderPlaced: true } });
    } catch (err) {
      setError((err as Error).message);
      setPlacing(false);
    }
  };

  return (
    <>
      <CheckoutSteps current="placeorder" isGuest={userInfo.isGuest} />
      <h1 className="h3 mb-4">Place Order</h1>
      <div className="row g-4">
        <div className="col-lg-8">
          <section aria-labelledby="shipping-heading" className="mb-4">
            <h2 id="shipping-heading" className="h5">
              Shipping
            </h2>
            <p className="mb-1">
              {address.shipToFirstName} {address.shipToLastName} ({address.email})
            </p>
            <address className="mb-1" data-testid="placeorder-address">
              {address.address1}
              {address.address2 && `, ${address.address2}`}, {address.city}, {address.state} {address.postalCode},{' '}
              {address.country}
            </address>
            <Link to={paths.shipping} className="small">
              Change address
            </Link>
          </section>
          <section aria-labelledby="method-heading" className="mb-4">
            <h2 id="method-heading" className="h5">
              Payment Method
            </h2>
            <p className="mb-0">Method: {paymentMethod}</p>
          </section>
          {rates.data && rates.data.rates.length > 1 && rate && (
            <section aria-labelledby="rate-heading" className="mb-4">
              <h2 id="rate-heading" className="h5">
                Shipping Rate
              </h2>
              <p className="mb-1">{rate.name}</p>
              <Link to={paths.shippingRate} className="small">
                Change shipping rate
              </Link>
            </section>
          )}
          <OrderItemList
            items={items.map((i) => ({
              key: `${i.product}:${i.selectedColorsVariants?._id ?? ''}`,
              product: i.product,
              slug: i.slug,
              name: i.name,
              image: i.image,
              price: i.price,
              qty: i.qty,
              variantName: i.selectedColorsVariants?.name,
            }))}
          />
        </div>
        <div className="col-lg-4">
          <PriceSummary price={price}>
            {rates.error && <Message variant="danger">{(rates.error as Error).message}</Message>}
            {error && <Message variant="danger">{error}</Message>}
            <Button
              className="w-100 mt-3"
              disabled={items.length === 0 || placing || rates.isPending}
              onClick={() => void placeOrder()}
            >
              {placing ? 'Placing order…' : 'Place Order'}
            </Button>
          </PriceSummary>
        </div>
      </div>
    </>
  );
}
