/** The local-storage keys the checkout keeps its data under (features/checkout/store.ts); logout removes them. */
export const CHECKOUT_KEYS = {
  address: 'shippingAddress',
  paymentMethod: 'paymentMethod',
  rate: 'shippingRate',
  coupon: 'couponCode',
} as const;
