import type { ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { useAppSelector } from '../../lib/hooks';
import { MESSAGES } from '../../lib/i18n/catalog';
import { DEFAULT_LOCALE, effectiveLocale } from '../../lib/i18n/fallback';
import { MULTILINGUAL } from '../../lib/i18n/languages';

/**
 * react-intl with English texts. In multilingual mode the chosen locale formats dates and numbers; texts not yet
 * translated use English, and a missing id falls back to its last segment (see useT). Missing-id warnings are
 * silenced because that fallback is the designed behaviour.
 */
export function I18nProvider({ children }: { children: ReactNode }) {
  const chosen = useAppSelector((s) => s.settings.locale);
  const locale = effectiveLocale(MULTILINGUAL, chosen);
  return (
    <IntlProvider locale={locale} defaultLocale={DEFAULT_LOCALE} messages={MESSAGES} onError={() => {}}>
      {children}
    </IntlProvider>
  );
}
