import { describe, expect, it } from 'vitest';
import { formatMetaDescription, formatPageTitle, DESCRIPTION_MAX, TITLE_MAX } from './page-title';

describe('page title and meta description', () => {
  it("reads '{title} | BOLX-WMS'", () => {
    expect(formatPageTitle('Dashboard')).toBe('Dashboard | BOLX-WMS');
  });
  it('is the app name alone without a title', () => {
    expect(formatPageTitle('')).toBe('BOLX-WMS');
    expect(formatPageTitle(undefined)).toBe('BOLX-WMS');
  });
  it('is cut to 60 characters', () => {
    const title = formatPageTitle('x'.repeat(80));
    expect(TITLE_MAX).toBe(60);
    expect(title).toHaveLength(60);
    expect(formatPageTitle('y'.repeat(49))).toHaveLength(60);
    expect(formatPageTitle('y'.repeat(48))).toBe(`${'y'.repeat(48)} | BOLX-WMS`);
  });
  it('cuts the meta description to 155 characters', () => {
    expect(DESCRIPTION_MAX).toBe(155);
    expect(formatMetaDescription('d'.repeat(200))).toHaveLength(155);
    expect(formatMetaDescription('short')).toBe('short');
  });
});
