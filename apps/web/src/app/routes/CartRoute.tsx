import CartPage from '#web/features/cart/pages/CartPage.tsx';
import { CheckoutButtons } from '#web/features/checkout/components/CheckoutButtons.tsx';

/** The cart page with the checkout's way in: the two features meet here, neither imports the other. */
export default function CartRoute() {
  return <CartPage checkout={(disabled) => <CheckoutButtons disabled={disabled} />} />;
}
