import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { plainStorage } from './persist.ts';
import { addToCart, parseCartItems, removeFromCart, setQty, type CartItem } from './cart-logic.ts';

interface CartState {
  cartItems: CartItem[];
  add: (item: CartItem) => void;
  setQty: (productId: string, variantId: string | null, qty: number) => void;
  remove: (productId: string, variantId: string | null) => void;
  clear: () => void;
}

export const CART_KEY = 'cartItems';

export const useCart = create<CartState>()(
  persist(
    (set) => ({
      cartItems: [],
      add: (item) => set((s) => ({ cartItems: addToCart(s.cartItems, item) })),
      setQty: (productId, variantId, qty) =>
        set((s) => ({ cartItems: setQty(s.cartItems, productId, variantId, qty) })),
      remove: (productId, variantId) => set((s) => ({ cartItems: removeFromCart(s.cartItems, productId, variantId) })),
      clear: () => set({ cartItems: [] }),
    }),
    {
      name: CART_KEY,
      storage: plainStorage<{ cartItems: CartItem[] }, CartItem[]>(
        (s) => s.cartItems,
        (raw) => ({ cartItems: parseCartItems(raw) }),
      ),
      partialize: (s) => ({ cartItems: s.cartItems }),
    },
  ),
);

// Another tab changed the cart: follow it.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === CART_KEY || e.key === null) void useCart.persist.rehydrate();
  });
}
