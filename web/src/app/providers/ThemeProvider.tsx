import { useEffect, type ReactNode } from 'react';
import { ConfigProvider, theme as antdTheme, type ThemeConfig } from 'antd';
import { useAppSelector } from '../../lib/hooks';
import { themePresetById, type ThemePreset } from '../../lib/theme/presets';

/** Spec section 9: antd's breakpoints as the spec lists them (they are also antd's defaults). */
export const BREAKPOINTS = { xs: 480, sm: 576, md: 768, lg: 992, xl: 1200, xxl: 1600 } as const;

export function antdThemeOf(preset: ThemePreset): ThemeConfig {
  return {
    algorithm: preset.mode === 'dark' ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    token: {
      colorPrimary: preset.primary.main,
      colorInfo: preset.primary.main,
      colorLink: preset.primary.main,
      colorBgLayout: preset.background.default,
      colorBgContainer: preset.background.paper,
      colorText: preset.text.primary,
      colorTextSecondary: preset.text.secondary,
      colorTextDisabled: preset.text.disabled,
      borderRadius: 6,
      fontFamily:
        "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
      screenXS: BREAKPOINTS.xs,
      screenSM: BREAKPOINTS.sm,
      screenMD: BREAKPOINTS.md,
      screenLG: BREAKPOINTS.lg,
      screenXL: BREAKPOINTS.xl,
      screenXXL: BREAKPOINTS.xxl,
    },
  };
}

/** antd theme and direction from the customizer; keeps <html dir> and the page background in step. */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const direction = useAppSelector((s) => s.settings.direction);
  const presetId = useAppSelector((s) => s.settings.themePresetId);
  const preset = themePresetById(presetId);

  useEffect(() => {
    document.documentElement.dir = direction;
    document.documentElement.dataset.theme = preset.mode;
    document.documentElement.style.setProperty('--bolx-primary', preset.primary.main);
    document.documentElement.style.setProperty('--bolx-bg', preset.background.default);
  }, [direction, preset]);

  return (
    <ConfigProvider direction={direction} theme={antdThemeOf(preset)}>
      {children}
    </ConfigProvider>
  );
}
