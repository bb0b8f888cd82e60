import { describe, expect, it } from 'vitest';
import { formatHours, formatKpi, NO_VALUE, reportLink } from './kpi';

describe('dashboard KPI formatting', () => {
  it('shows hours with one decimal, and no figure as a dash', () => {
    expect(formatHours(6.25)).toBe('6.3');
    expect(formatHours(17)).toBe('17');
    expect(formatHours(null)).toBe(NO_VALUE);
    expect(formatKpi(undefined)).toBe(NO_VALUE);
  });

  it('links a tile to its report with the report and range chosen', () => {
    expect(reportLink('/OrderReports', 'on-time-shipping')).toBe('/OrderReports?report=on-time-shipping&preset=last7');
  });
});
