import { describe, expect, it } from 'vitest';
import { MSG } from '@bolx/contracts';
import { EN_US } from './en-US';
import { DEFAULT_LOCALE, effectiveLocale, fallbackText, resolveMessage } from './fallback';

describe('i18n', () => {
  it('falls back to the last dotted segment of the id', () => {
    expect(fallbackText('header.menu.Logout')).toBe('Logout');
    expect(fallbackText('Plain')).toBe('Plain');
    expect(resolveMessage({}, 'screens.orders.Open Orders')).toBe('Open Orders');
    expect(resolveMessage({ 'a.b': 'Known' }, 'a.b')).toBe('Known');
  });
  it('uses English (en-US) when multilingual mode is off, whatever was chosen', () => {
    expect(DEFAULT_LOCALE).toBe('en-US');
    expect(effectiveLocale(false, 'fr-FR')).toBe('en-US');
    expect(effectiveLocale(true, 'fr-FR')).toBe('fr-FR');
    expect(effectiveLocale(true, null)).toBe('en-US');
  });
  it("carries the spec's texts exactly", () => {
    expect(EN_US['auth.signIn.title']).toBe('Sign in to BOLX');
    expect(EN_US['auth.signIn.subtitle']).toBe('Welcome back! Please sign in to continue');
    expect(EN_US['auth.forgot.subtitle']).toBe('Enter Your Email/Username to reset your password');
    expect(EN_US['auth.reset.subtitle']).toBe('Enter a new password to reset your account');
    expect(EN_US['errors.403.subtitle']).toBe('You are not authorized for this page!');
    expect(EN_US['layout.footer.version']).toBe('v 10 8');
    expect(EN_US['validation.passwordMismatch']).toBe(MSG.passwordMismatch);
    expect(EN_US['validation.invalidEmailUsername']).toBe('Invalid Email/Username!');
  });
});
