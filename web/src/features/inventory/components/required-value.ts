import type { FormRule } from 'antd';
import type { Translate } from '../../../lib/i18n/use-t';

/**
 * "Required" for a number or a Select's id: lib/form-rules' `required` is for text (it checks whitespace, which
 * antd's validator types as string and so refuses numbers).
 */
export const requiredValue = (t: Translate, key: string): FormRule => ({ required: true, message: t(`validation.${key}`) });
