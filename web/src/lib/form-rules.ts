import type { FormRule } from 'antd';
import { PASSWORD_MIN_LENGTH, PIN_LENGTH } from '@bolx/contracts';
import type { Translate } from './i18n/use-t';

/**
 * The one form pattern: antd Form with rules from these helpers, each message a `validation.*` id whose text is
 * the spec's (contracts' MSG).
 */
export const rules = (t: Translate) => ({
  /** Any kind of value (text, number, a Select's id, a list); blank text counts as empty. */
  required: (key: string): FormRule => ({
    required: true,
    validator: (_rule, value: unknown) =>
      isBlank(value) ? Promise.reject(new Error(t(`validation.${key}`))) : Promise.resolve(),
  }),
  email: (): FormRule => ({ type: 'email', message: t('validation.emailFormat') }),
  password: (): FormRule => ({ min: PASSWORD_MIN_LENGTH, message: t('validation.passwordPolicy') }),
  pin: (): FormRule => ({ pattern: new RegExp(`^\\d{${PIN_LENGTH}}$`), message: t('validation.pinLength') }),
  phone: (): FormRule => ({ pattern: /^\+?[0-9 ()-]{7,20}$/, message: t('validation.phoneValid') }),
  /** The same patterns the server checks (contracts' warehouse and customer inputs). */
  zip: (): FormRule => ({ pattern: /^[A-Za-z0-9 -]{3,10}$/, message: t('validation.zipValid') }),
  city: (): FormRule => ({ pattern: /^[\p{L} .'-]+$/u, message: t('validation.cityValid') }),
  /** Codes: letters, digits, - and _ (warehouse, customer codes). */
  code: (): FormRule => ({ pattern: /^[A-Za-z0-9_-]+$/, message: t('validation.codeFormat') }),
  /**
   * A quantity taken from stock: never more than `available`. Refused with the figure rather than clamped, since an
   * input that quietly lowers 999 to 10 moves less than the user asked for without saying so.
   */
  atMostAvailable: (available: number): FormRule => ({
    validator: (_rule, value: unknown) =>
      typeof value === 'number' && value > available
        ? Promise.reject(new Error(t('validation.atMostAvailable', { available })))
        : Promise.resolve(),
  }),
  /** A quantity to take or move: a whole number of at least 1 (refused, not clamped up to 1). */
  atLeastOne: (): FormRule => ({
    validator: (_rule, value: unknown) =>
      typeof value === 'number' && value < 1 ? Promise.reject(new Error(t('validation.atLeastOne'))) : Promise.resolve(),
  }),
  /** A counted quantity: 0 or more, refused rather than clamped (a mistyped -5 must not quietly count as 0). */
  notNegative: (): FormRule => ({
    validator: (_rule, value: unknown) =>
      typeof value === 'number' && value < 0 ? Promise.reject(new Error(t('validation.notNegative'))) : Promise.resolve(),
  }),
  /** The confirmation field must equal `field`. */
  sameAs: (field: string): FormRule => ({ getFieldValue }) => ({
    validator: (_rule, value) =>
      !value || getFieldValue(field) === value ? Promise.resolve() : Promise.reject(new Error(t('validation.passwordMismatch'))),
  }),
});

function isBlank(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}
