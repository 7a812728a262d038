import { describe, expect, it } from 'vitest';
import { orderConfirmationMail } from './templates.ts';

describe('money in e-mails', () => {
  it('writes amounts as the store shows them, with a thousands separator', () => {
    const mail = orderConfirmationMail('http://localhost:3000', {
      to: 'ann@example.com',
      name: 'Ann',
      orderId: 'o1',
      orderNumber: 12,
      items: [{ name: 'Camera', qty: 2, price: 1607.99 }],
      totalPrice: 3698.38,
      discount: { code: 'SAVE', amount: 1000, freeShipping: false },
    });
    expect(mail.text).toContain('Total: $3,698.38.');
    expect(mail.text).toContain('2 x Camera at $1,607.99');
    expect(mail.text).toContain('Discount code SAVE: -$1,000.00');
    expect(mail.html).toContain('$3,698.38');
  });
});
