import { describe, expect, it } from 'vitest';
import { emptyOrderFilters, orderListQuery } from './api.ts';

describe('the admin order list query', () => {
  it('sends the date filters a date input gives, from year 1 to 9999', () => {
    expect(orderListQuery({ ...emptyOrderFilters, dateFrom: '0001-01-01', dateTo: '9999-12-31' }, 1)).toBe(
      '?dateFrom=0001-01-01&dateTo=9999-12-31&pageNumber=1',
    );
  });

  it('leaves out a date the server would refuse: outside years 1 to 9999, impossible, or not a day', () => {
    for (const date of ['0000-01-01', '10000-01-01', '+275760-09-13', '2024-02-30', '2024-05-01T12:00:00Z', 'soon'])
      expect(orderListQuery({ ...emptyOrderFilters, dateFrom: date, dateTo: date }, 1), date).toBe('?pageNumber=1');
  });
});
