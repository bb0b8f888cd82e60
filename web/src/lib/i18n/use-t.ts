import { useCallback } from 'react';
import { useIntl } from 'react-intl';
import { fallbackText } from './fallback';

export type Translate = (id: string, values?: Record<string, string | number>) => string;

/** Every UI text goes through a message id: `t('auth.signIn.title')`. */
export function useT(): Translate {
  const intl = useIntl();
  return useCallback<Translate>(
    (id, values) => intl.formatMessage({ id, defaultMessage: fallbackText(id) }, values),
    [intl],
  );
}
