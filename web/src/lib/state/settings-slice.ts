import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { DEFAULT_SIDEBAR_PRESET_ID, DEFAULT_THEME_PRESET_ID } from '../theme/presets';
import { browserStore, type KeyValueStore } from '../session-storage';
import { DEFAULT_LOCALE } from '../i18n/fallback';

/** Spec section 2 and 9: the customizer's choices. They survive a reload (localStorage). */
export type Direction = 'ltr' | 'rtl';
export type LayoutType = 'full-width' | 'boxed';
export type NavStyle = 'drawer' | 'mini';
export const MENU_STYLES = ['standard', 'rounded', 'rounded-reverse', 'curved-menu', 'default'] as const;
export type MenuStyle = (typeof MENU_STYLES)[number];

export interface SettingsState {
  direction: Direction;
  layout: LayoutType;
  navStyle: NavStyle;
  menuStyle: MenuStyle;
  showFooter: boolean;
  sidebarPresetId: number;
  themePresetId: number;
  locale: string;
}

export const SETTINGS_STORAGE_KEY = 'bolx.customizer';

export const DEFAULT_SETTINGS: SettingsState = {
  direction: 'ltr',
  layout: 'full-width',
  navStyle: 'drawer',
  menuStyle: 'default',
  showFooter: true,
  sidebarPresetId: DEFAULT_SIDEBAR_PRESET_ID,
  themePresetId: DEFAULT_THEME_PRESET_ID,
  locale: DEFAULT_LOCALE,
};

/** Reads the saved choices; anything unreadable falls back to the default, field by field. */
export function loadSettings(store: KeyValueStore = browserStore()): SettingsState {
  let saved: Partial<Record<keyof SettingsState, unknown>>;
  try {
    saved = JSON.parse(store.getItem(SETTINGS_STORAGE_KEY) ?? '{}') ?? {};
  } catch {
    return DEFAULT_SETTINGS;
  }
  const pick = <K extends keyof SettingsState>(key: K, ok: (v: unknown) => boolean): SettingsState[K] =>
    ok(saved[key]) ? (saved[key] as SettingsState[K]) : DEFAULT_SETTINGS[key];
  return {
    direction: pick('direction', (v) => v === 'ltr' || v === 'rtl'),
    layout: pick('layout', (v) => v === 'full-width' || v === 'boxed'),
    navStyle: pick('navStyle', (v) => v === 'drawer' || v === 'mini'),
    menuStyle: pick('menuStyle', (v) => MENU_STYLES.includes(v as MenuStyle)),
    showFooter: pick('showFooter', (v) => typeof v === 'boolean'),
    sidebarPresetId: pick('sidebarPresetId', (v) => typeof v === 'number'),
    themePresetId: pick('themePresetId', (v) => typeof v === 'number'),
    locale: pick('locale', (v) => typeof v === 'string'),
  };
}

export function saveSettings(settings: SettingsState, store: KeyValueStore = browserStore()): void {
  store.setItem(SETTINGS_STORAGE_KEY, JSON.stringify(settings));
}

const settingsSlice = createSlice({
  name: 'settings',
  initialState: DEFAULT_SETTINGS,
  reducers: {
    directionChanged(state, action: PayloadAction<Direction>) {
      state.direction = action.payload;
    },
    layoutChanged(state, action: PayloadAction<LayoutType>) {
      state.layout = action.payload;
    },
    navStyleChanged(state, action: PayloadAction<NavStyle>) {
      state.navStyle = action.payload;
    },
    menuStyleChanged(state, action: PayloadAction<MenuStyle>) {
      state.menuStyle = action.payload;
    },
    footerToggled(state, action: PayloadAction<boolean>) {
      state.showFooter = action.payload;
    },
    sidebarPresetChosen(state, action: PayloadAction<number>) {
      state.sidebarPresetId = action.payload;
    },
    themePresetChosen(state, action: PayloadAction<number>) {
      state.themePresetId = action.payload;
    },
    localeChanged(state, action: PayloadAction<string>) {
      state.locale = action.payload;
    },
    settingsReset: () => DEFAULT_SETTINGS,
  },
});

export const {
  directionChanged, layoutChanged, navStyleChanged, menuStyleChanged, footerToggled,
  sidebarPresetChosen, themePresetChosen, localeChanged, settingsReset,
} = settingsSlice.actions;
export const settingsReducer = settingsSlice.reducer;
