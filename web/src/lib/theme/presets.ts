/**
 * Spec section 3 and 9: 17 theme presets (16 light, 1 dark) and 21 sidebar colour presets (ids 0–21, 13 is not
 * used). The first theme preset is the product's default: primary #1890ff.
 */
export const PRIMARY_COLOR = '#1890ff';

export interface ThemePreset {
  id: number;
  title: string;
  mode: 'light' | 'dark';
  primary: { main: string };
  secondary: { main: string };
  background: { paper: string; default: string };
  text: { primary: string; secondary: string; disabled: string };
}

const light = (id: number, title: string, primary: string, secondary: string, backgroundDefault = '#f0f2f5'): ThemePreset => ({
  id,
  title,
  mode: 'light',
  primary: { main: primary },
  secondary: { main: secondary },
  background: { paper: '#ffffff', default: backgroundDefault },
  text: { primary: 'rgba(0, 0, 0, 0.88)', secondary: 'rgba(0, 0, 0, 0.65)', disabled: 'rgba(0, 0, 0, 0.25)' },
});

export const THEME_PRESETS: ThemePreset[] = [
  light(1, 'Daybreak Blue', PRIMARY_COLOR, '#13c2c2'),
  light(2, 'Geek Blue', '#2f54eb', '#722ed1'),
  light(3, 'Golden Purple', '#722ed1', '#eb2f96'),
  light(4, 'Magenta', '#eb2f96', '#722ed1'),
  light(5, 'Dust Red', '#f5222d', '#fa8c16'),
  light(6, 'Volcano', '#fa541c', '#faad14'),
  light(7, 'Sunset Orange', '#fa8c16', '#f5222d'),
  light(8, 'Calendula Gold', '#d48806', '#fa8c16', '#f7f5ef'),
  light(9, 'Lime', '#7cb305', '#13c2c2', '#f3f6ee'),
  light(10, 'Polar Green', '#52c41a', '#1890ff'),
  light(11, 'Cyan', '#13c2c2', '#1890ff', '#eef5f5'),
  light(12, 'Ocean', '#0e6ba8', '#0aa1dd', '#eef3f7'),
  light(13, 'Indigo', '#3f51b5', '#ff4081'),
  light(14, 'Teal', '#00897b', '#ffb300', '#eef4f3'),
  light(15, 'Slate', '#475569', '#0ea5e9', '#f1f5f9'),
  light(16, 'Berry', '#9c27b0', '#00bcd4'),
  {
    id: 17,
    title: 'Midnight',
    mode: 'dark',
    primary: { main: '#177ddc' },
    secondary: { main: '#13a8a8' },
    background: { paper: '#1f1f1f', default: '#141414' },
    text: { primary: 'rgba(255, 255, 255, 0.85)', secondary: 'rgba(255, 255, 255, 0.65)', disabled: 'rgba(255, 255, 255, 0.3)' },
  },
];
export const DEFAULT_THEME_PRESET_ID = 1;

export interface SidebarColorPreset {
  id: number;
  mode: 'light' | 'dark';
  sidebarBgColor: string;
  sidebarTextColor: string;
  sidebarHeaderColor: string;
  sidebarMenuSelectedBgColor: string;
  sidebarMenuSelectedTextColor: string;
}

const sidebar = (
  id: number, mode: 'light' | 'dark', bg: string, text: string, header: string, selectedBg: string, selectedText: string,
): SidebarColorPreset => ({
  id, mode, sidebarBgColor: bg, sidebarTextColor: text, sidebarHeaderColor: header,
  sidebarMenuSelectedBgColor: selectedBg, sidebarMenuSelectedTextColor: selectedText,
});

export const SIDEBAR_PRESETS: SidebarColorPreset[] = [
  sidebar(0, 'light', '#ffffff', 'rgba(0, 0, 0, 0.75)', '#ffffff', '#e6f4ff', PRIMARY_COLOR),
  sidebar(1, 'dark', '#001529', 'rgba(255, 255, 255, 0.75)', '#002140', PRIMARY_COLOR, '#ffffff'),
  sidebar(2, 'dark', '#1f1f1f', 'rgba(255, 255, 255, 0.75)', '#141414', '#177ddc', '#ffffff'),
  sidebar(3, 'dark', '#0d1b2a', '#cfd8e3', '#0b1622', '#1b263b', '#4cc9f0'),
  sidebar(4, 'dark', '#1e293b', '#cbd5e1', '#0f172a', '#334155', '#38bdf8'),
  sidebar(5, 'dark', '#22075e', '#d3adf7', '#120338', '#391085', '#ffffff'),
  sidebar(6, 'dark', '#003a8c', '#bae0ff', '#002c6b', '#0958d9', '#ffffff'),
  sidebar(7, 'dark', '#00474f', '#b5f5ec', '#002329', '#006d75', '#ffffff'),
  sidebar(8, 'dark', '#135200', '#d9f7be', '#092b00', '#237804', '#ffffff'),
  sidebar(9, 'dark', '#5c0011', '#ffccc7', '#2a0008', '#820014', '#ffffff'),
  sidebar(10, 'dark', '#612500', '#ffe7ba', '#3d1600', '#873800', '#ffffff'),
  sidebar(11, 'dark', '#520339', '#ffd6e7', '#2e0120', '#780650', '#ffffff'),
  sidebar(12, 'dark', '#263238', '#eceff1', '#1c262b', '#37474f', '#80cbc4'),
  sidebar(14, 'light', '#f0f5ff', '#1d39c4', '#d6e4ff', '#adc6ff', '#10239e'),
  sidebar(15, 'light', '#f6ffed', '#237804', '#d9f7be', '#b7eb8f', '#135200'),
  sidebar(16, 'light', '#fff7e6', '#ad4e00', '#ffe7ba', '#ffd591', '#873800'),
  sidebar(17, 'light', '#f9f0ff', '#531dab', '#efdbff', '#d3adf7', '#391085'),
  sidebar(18, 'light', '#e6fffb', '#006d75', '#b5f5ec', '#87e8de', '#00474f'),
  sidebar(19, 'light', '#fff0f6', '#9e1068', '#ffd6e7', '#ffadd2', '#780650'),
  sidebar(20, 'light', '#f5f5f5', '#262626', '#e8e8e8', '#d9d9d9', '#000000'),
  sidebar(21, 'light', '#fafafa', '#434343', '#ffffff', '#fff1b8', '#ad6800'),
];
export const DEFAULT_SIDEBAR_PRESET_ID = 0;

export const themePresetById = (id: number): ThemePreset => THEME_PRESETS.find((p) => p.id === id) ?? THEME_PRESETS[0];
export const sidebarPresetById = (id: number): SidebarColorPreset => SIDEBAR_PRESETS.find((p) => p.id === id) ?? SIDEBAR_PRESETS[0];
