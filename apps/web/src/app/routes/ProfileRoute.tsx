import ProfilePage from '#web/features/account/pages/ProfilePage.tsx';
import { MyOrders } from '#web/features/orders/components/MyOrders.tsx';

/** The profile page with the user's orders in its My Orders tab: the two features meet here, neither imports the other. */
export default function ProfileRoute() {
  return <ProfilePage ordersPanel={<MyOrders />} />;
}
