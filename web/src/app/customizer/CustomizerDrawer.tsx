import { Button, Drawer, Segmented, Select, Switch, Tabs, Tooltip } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { useT } from '../../lib/i18n/use-t';
import { useAppDispatch, useAppSelector } from '../../lib/hooks';
import {
  directionChanged, footerToggled, layoutChanged, menuStyleChanged, navStyleChanged, settingsReset,
  sidebarPresetChosen, themePresetChosen, MENU_STYLES, type LayoutType, type MenuStyle, type NavStyle,
} from '../../lib/state/settings-slice';
import { customizerToggled } from '../../lib/state/ui-slice';
import { SIDEBAR_PRESETS, THEME_PRESETS } from '../../lib/theme/presets';

const MENU_STYLE_IDS: Record<MenuStyle, string> = {
  standard: 'customizer.menuStyle.standard',
  rounded: 'customizer.menuStyle.rounded',
  'rounded-reverse': 'customizer.menuStyle.roundedReverse',
  'curved-menu': 'customizer.menuStyle.curved',
  default: 'customizer.menuStyle.default',
};

/** Spec section 2: the theme customizer, on the right in LTR and on the left in RTL. */
export function CustomizerDrawer() {
  const t = useT();
  const dispatch = useAppDispatch();
  const open = useAppSelector((s) => s.ui.customizerOpen);
  const settings = useAppSelector((s) => s.settings);
  const rtl = settings.direction === 'rtl';

  const sidebarTab = (
    <div className="bolx-swatches" role="listbox" aria-label={t('customizer.tabs.sidebar')}>
      {SIDEBAR_PRESETS.map((p) => (
        <button
          key={p.id}
          type="button"
          role="option"
          aria-selected={settings.sidebarPresetId === p.id}
          aria-label={`${t('customizer.tabs.sidebar')} ${p.id}`}
          className="bolx-swatch bolx-swatch--sidebar"
          onClick={() => dispatch(sidebarPresetChosen(p.id))}
        >
          <span className="bolx-swatch__header" style={{ background: p.sidebarHeaderColor }} />
          <span className="bolx-swatch__body" style={{ background: p.sidebarBgColor }}>
            <span className="bolx-swatch__line" style={{ background: p.sidebarTextColor }} />
            <span className="bolx-swatch__selected" style={{ background: p.sidebarMenuSelectedBgColor }}>
              <span className="bolx-swatch__line" style={{ background: p.sidebarMenuSelectedTextColor }} />
            </span>
            <span className="bolx-swatch__line" style={{ background: p.sidebarTextColor }} />
          </span>
          {settings.sidebarPresetId === p.id && <CheckOutlined className="bolx-swatch__check" />}
        </button>
      ))}
    </div>
  );

  const themeTab = (
    <div className="bolx-swatches" role="listbox" aria-label={t('customizer.tabs.theme')}>
      {THEME_PRESETS.map((p) => (
        <Tooltip key={p.id} title={p.title}>
          <button
            type="button"
            role="option"
            aria-selected={settings.themePresetId === p.id}
            aria-label={p.title}
            className="bolx-swatch bolx-swatch--theme"
            style={{ background: p.background.default }}
            onClick={() => dispatch(themePresetChosen(p.id))}
          >
            <span className="bolx-swatch__dot" style={{ background: p.primary.main }} />
            <span className="bolx-swatch__dot bolx-swatch__dot--small" style={{ background: p.secondary.main }} />
            {settings.themePresetId === p.id && <CheckOutlined className="bolx-swatch__check" style={{ color: p.primary.main }} />}
          </button>
        </Tooltip>
      ))}
    </div>
  );

  return (
    <Drawer
      title={t('customizer.title')}
      open={open}
      width={340}
      placement={rtl ? 'left' : 'right'}
      onClose={() => dispatch(customizerToggled(false))}
      footer={
        <Button block onClick={() => dispatch(settingsReset())}>
          {t('customizer.reset')}
        </Button>
      }
    >
      <Tabs
        items={[
          { key: 'sidebar', label: t('customizer.tabs.sidebar'), children: sidebarTab },
          { key: 'theme', label: t('customizer.tabs.theme'), children: themeTab },
        ]}
      />
      <div className="bolx-customizer__rows">
        <div className="bolx-customizer__row">
          <span>{t('customizer.rtl')}</span>
          <Switch checked={rtl} onChange={(on) => dispatch(directionChanged(on ? 'rtl' : 'ltr'))} aria-label={t('customizer.rtl')} />
        </div>
        <div className="bolx-customizer__row">
          <span>{t('customizer.footer')}</span>
          <Switch checked={settings.showFooter} onChange={(on) => dispatch(footerToggled(on))} aria-label={t('customizer.footer')} />
        </div>
        <div className="bolx-customizer__block">
          <span>{t('customizer.navStyle')}</span>
          <Segmented<NavStyle>
            block
            value={settings.navStyle}
            onChange={(v) => dispatch(navStyleChanged(v))}
            options={[
              { value: 'drawer', label: t('customizer.navStyle.drawer') },
              { value: 'mini', label: t('customizer.navStyle.mini') },
            ]}
          />
        </div>
        <div className="bolx-customizer__block">
          <span>{t('customizer.layout')}</span>
          <Segmented<LayoutType>
            block
            value={settings.layout}
            onChange={(v) => dispatch(layoutChanged(v))}
            options={[
              { value: 'full-width', label: t('customizer.layout.fullWidth') },
              { value: 'boxed', label: t('customizer.layout.boxed') },
            ]}
          />
        </div>
        <div className="bolx-customizer__block">
          <span>{t('customizer.menuStyle')}</span>
          <Select<MenuStyle>
            value={settings.menuStyle}
            onChange={(v) => dispatch(menuStyleChanged(v))}
            options={MENU_STYLES.map((m) => ({ value: m, label: t(MENU_STYLE_IDS[m]) }))}
          />
        </div>
      </div>
    </Drawer>
  );
}
