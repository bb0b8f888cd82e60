import { describe, expect, it } from 'vitest';
import { SIDEBAR_PRESETS, THEME_PRESETS, PRIMARY_COLOR } from '../theme/presets';
import { DEFAULT_SETTINGS, directionChanged, loadSettings, saveSettings, settingsReducer, SETTINGS_STORAGE_KEY } from './settings-slice';

const memory = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k) };
};

describe('customizer settings', () => {
  it('default to drawer navigation, full width, LTR and the #1890ff preset', () => {
    expect(DEFAULT_SETTINGS).toMatchObject({ navStyle: 'drawer', layout: 'full-width', direction: 'ltr', showFooter: true });
    expect(THEME_PRESETS.find((p) => p.id === DEFAULT_SETTINGS.themePresetId)?.primary.main).toBe(PRIMARY_COLOR);
    expect(PRIMARY_COLOR).toBe('#1890ff');
  });
  it('survive a reload through storage', () => {
    const store = memory();
    saveSettings(settingsReducer(DEFAULT_SETTINGS, directionChanged('rtl')), store);
    expect(loadSettings(store).direction).toBe('rtl');
  });
  it('fall back field by field on bad saved values', () => {
    const store = memory();
    store.setItem(SETTINGS_STORAGE_KEY, JSON.stringify({ direction: 'sideways', layout: 'boxed' }));
    expect(loadSettings(store)).toMatchObject({ direction: 'ltr', layout: 'boxed' });
    store.setItem(SETTINGS_STORAGE_KEY, '{not json');
    expect(loadSettings(store)).toEqual(DEFAULT_SETTINGS);
  });
  it('offer 17 theme presets (16 light, 1 dark) and 21 sidebar presets, ids 0-21 without 13', () => {
    expect(THEME_PRESETS).toHaveLength(17);
    expect(THEME_PRESETS.filter((p) => p.mode === 'dark')).toHaveLength(1);
    expect(SIDEBAR_PRESETS.map((p) => p.id)).toEqual([...Array(22).keys()].filter((i) => i !== 13));
  });
});
