import { countryName, TOAST_MS, toCents, type ApplyCouponInput, type ShippingRate } from '@store/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Link, Navigate, useNavigate } from 'react-router';
import { Message } from '#web/components/Message.tsx';
import { OrderItemList } from '#web/components/OrderItemList.tsx';
import { PriceSummary } from '#web/components/PriceSummary.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { useAuth } from '#web/lib/auth.ts';
import { useCart } from '#web/lib/cart.ts';
import { applyCoupon, couponKeys, createOrder, useCouponPrice, useShippingRates } from '../api.ts';
import { CheckoutSteps } from '../components/CheckoutSteps.tsx';
import { CouponField } from '../components/CouponField.tsx';
import { checkoutPrice, isCouponRefusal, normalizeCode } from '../coupon.ts';
import { useCheckout } from '../store.ts';
import { paths } from '#web/lib/paths.ts';

/** What the order page shows as a toast after arriving from here (for TOAST_MS.orderPlaced). */
export const ORDER_PLACED = { message: 'Order placed successfully!', ms: TOAST_MS.orderPlaced };

export default function PlaceOrderPage() {
  useDocumentTitle('Place Order');
  const userInfo = useAuth((s) => s.userInfo);
  const items = useCart((s) => s.cartItems);
  const clearCart = useCart((s) => s.clear);
  const {
    shippingAddress: address,
    paymentMethod,
    shippingRate,
    saveShippingRate,
    coupon,
    saveCoupon,
    clearCoupon,
  } = useCheckout();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [couponError, setCouponError] = useState<string | null>(null);
  const [placing, setPlacing] = useState(false);

  const rates = useShippingRates(userInfo?._id);

  // the stored rate while the server still offers it, else the server's default
  const rate: ShippingRate | undefined = rates.data
    ? (rates.data.rates.find((r) => r.id === shippingRate?.id) ??
      rates.data.rates.find((r) => r.id === rates.data.defaultRateId))
    : undefined;
  const orderItems = items.map((i) => ({
    product: i.product,
    qty: i.qty,
    selectedColorsVariants: i.selectedColorsVariants ? { _id: i.selectedColorsVariants._id } : null,
  }));
  // what "apply" prices: these lines at this rate; a guest's address counts for the per-customer limit
  const couponRequest = (code: string): ApplyCouponInput => ({
    code,
    orderItems,
    shippingRateId: rate?.id,
    email: userInfo?.isGuest && address?.email ? address.email : undefined,
  });
  const refuseCoupon = (message: string) => {
    setCouponError(message);
    clearCoupon();
  };
  // the server prices the applied code again whenever the lines or the rate change
  const current = useCouponPrice(
    coupon && items.length > 0 && rates.data ? couponRequest(coupon.code) : null,
    saveCoupon,
    refuseCoupon,
  );
  const apply = useMutation({
    mutationFn: (req: ApplyCouponInput) => applyCoupon(req),
    onSuccess: (answer, req) => {
      queryClient.setQueryData(couponKeys.apply({ ...req, code: answer.code }), answer);
      saveCoupon(answer);
    },
  });

  if (!userInfo) return <Navigate to={paths.loginThen(paths.shipping)} replace />;
  if (!address) return <Navigate to={paths.shipping} replace />;
  if (!paymentMethod) return <Navigate to={paths.payment} replace />;

  const price = checkoutPrice(
    items.map((i) => ({ unitPriceCents: toCents(i.price), qty: i.qty })),
    toCents(rate?.price ?? 0),
    coupon,
    current.data,
  );
  // a failure other than a refusal (rate limit, network) leaves the code: the order re-checks it
  const couponProblem =
    couponError ?? (current.error && !isCouponRefusal(current.error) ? current.error.message : null);

  const applyCode = async (typed: string) => {
    setCouponError(null);
    try {
      await apply.mutateAsync(couponRequest(normalizeCode(typed)));
      return true;
    } catch (err) {
      setCouponError((err as Error).message);
      return false;
    }
  };
  const removeCode = () => {
    setCouponError(null);
    apply.reset();
    clearCoupon();
  };

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
        orderItems,
        shippingAddress: { ...shipping, email },
        paymentMethod,
        shippingRateId: rate?.id,
        ...(coupon ? { couponCode: coupon.code } : {}),
      });
      clearCart();
      clearCoupon();
      navigate(paths.order(order._id), { state: { orderPlaced: true } });
    } catch (err) {
      // a code that no longer applies (or whose last use went to another order) is dropped: no order was made
      if (isCouponRefusal(err)) refuseCoupon(err.message);
      else setError((err as Error).message);
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
              {countryName(address.country)}
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
          <PriceSummary price={price} discount={coupon && { code: coupon.code, type: coupon.type }}>
            <CouponField
              coupon={coupon}
              error={couponProblem}
              applying={apply.isPending}
              disabled={items.length === 0}
              onApply={applyCode}
              onRemove={removeCode}
              onEdit={() => setCouponError(null)}
            />
            {rates.error && <Message variant="danger">{(rates.error as Error).message}</Message>}
            {error && (
              <div className="mt-3">
                <Message variant="danger">{error}</Message>
              </div>
            )}
            <Button
              className="w-100 mt-3"
              disabled={items.length === 0 || placing || rates.isPending || (coupon !== null && current.isFetching)}
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
