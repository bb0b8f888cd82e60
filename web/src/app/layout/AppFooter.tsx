import { useT } from '../../lib/i18n/use-t';

/** Spec section 1 and 9: the fixed 31px footer, 'Powered By' the provider and the version label. */
export function AppFooter() {
  const t = useT();
  return (
    <footer className="bolx-footer">
      <span>
        {t('layout.footer.poweredBy')} <strong>{t('layout.footer.provider')}</strong>
      </span>
      <span className="bolx-footer__version">{t('layout.footer.version')}</span>
    </footer>
  );
}
