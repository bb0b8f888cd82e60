import { Button, Dropdown, Tooltip } from 'antd';
import { TranslationOutlined } from '@ant-design/icons';
import { useT } from '../../../lib/i18n/use-t';
import { LANGUAGES, MULTILINGUAL } from '../../../lib/i18n/languages';
import { effectiveLocale } from '../../../lib/i18n/fallback';
import { useAppDispatch, useAppSelector } from '../../../lib/hooks';
import { localeChanged } from '../../../lib/state/settings-slice';

/** The translation widget: a language picker; with multilingual mode off only English is offered. */
export function LanguageMenu() {
  const t = useT();
  const dispatch = useAppDispatch();
  const chosen = useAppSelector((s) => s.settings.locale);
  const current = effectiveLocale(MULTILINGUAL, chosen);
  const offered = MULTILINGUAL ? LANGUAGES : LANGUAGES.filter((l) => l.locale === current);
  return (
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      menu={{
        selectable: true,
        selectedKeys: [current],
        onClick: ({ key }) => dispatch(localeChanged(key)),
        items: [
          ...offered.map((l) => ({ key: l.locale, label: `${l.flag}  ${l.label}` })),
          ...(MULTILINGUAL ? [] : [{ type: 'divider' as const }, { key: 'off', disabled: true, label: t('header.language.multilingualOff') }]),
        ],
      }}
    >
      <Tooltip title={t('header.language.title')}>
        <Button type="text" shape="circle" aria-label={t('header.language.title')} icon={<TranslationOutlined />} />
      </Tooltip>
    </Dropdown>
  );
}
