import { describe, expect, it } from 'vitest';
import { emptyOrderFilters, filtersFromSearch, orderExportPath, orderListQuery } from './api.ts';

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

  it('opens with the filters the address names, yes/no ones only as yes or no', () => {
    const search = new URLSearchParams(
      'paid=yes&shipped=no&delivered=maybe&cancelled=yes&refunded=sometimes&dateFrom=2025-01-01&dateTo=2025-01-31&page=2',
    );
    expect(filtersFromSearch(search)).toEqual({
      ...emptyOrderFilters,
      paid: 'yes',
      shipped: 'no',
      cancelled: 'yes',
      dateFrom: '2025-01-01',
      dateTo: '2025-01-31',
    });
    expect(filtersFromSearch(new URLSearchParams())).toEqual(emptyOrderFilters);
  });
});

describe('the admin order list sort', () => {
  it('sends a sort other than newest first, with the filters and the page', () => {
    expect(orderListQuery(emptyOrderFilters, 2, { by: 'date', dir: 'desc' })).toBe('?pageNumber=2');
    expect(orderListQuery({ ...emptyOrderFilters, paid: 'yes' }, 1, { by: 'total', dir: 'asc' })).toBe(
      '?paid=yes&sortBy=total&order=asc&pageNumber=1',
    );
  });

  it('exports only the selected orders when there is a selection', () => {
    expect(orderExportPath({ ...emptyOrderFilters, paid: 'yes' }, ['a1', 'b2'])).toBe('/api/orders/export?ids=a1%2Cb2');
  });
});

describe('the admin order export', () => {
  it("takes the list's filters, without its page", () => {
    expect(orderExportPath(emptyOrderFilters)).toBe('/api/orders/export');
    const path = orderExportPath({
      ...emptyOrderFilters,
      username: ' ada ',
      dateFrom: '2024-01-01',
      dateTo: '2024-02-30',
      minTotal: '10',
      paid: 'yes',
      delivered: 'no',
    });
    expect(path).toBe('/api/orders/export?username=ada&dateFrom=2024-01-01&minTotal=10&paid=yes&delivered=no');
  });
});
