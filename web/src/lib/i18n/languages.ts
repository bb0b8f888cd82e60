/** Multilingual mode is a build setting; off (the default) means English everywhere. */
export const MULTILINGUAL = import.meta.env?.VITE_MULTILINGUAL === 'true';

export interface Language {
  locale: string;
  label: string;
  flag: string;
}

/** The languages the translation widget offers in multilingual mode. */
export const LANGUAGES: Language[] = [
  { locale: 'en-US', label: 'English', flag: '🇺🇸' },
  { locale: 'es-ES', label: 'Español', flag: '🇪🇸' },
  { locale: 'fr-FR', label: 'Français', flag: '🇫🇷' },
  { locale: 'ar-SA', label: 'العربية', flag: '🇸🇦' },
];
