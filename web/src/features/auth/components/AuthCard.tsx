import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useT } from '../../../lib/i18n/use-t';
import { BrandMark } from '../../../components/BrandMark';

interface AuthCardProps {
  titleId: string;
  subtitleId: string;
  footer: { textId: string; linkId: string; to: string };
  children: ReactNode;
}

/**
 * The centred card every public screen uses: brand, title, subtitle, form, footer link. Plain elements rather
 * than antd Card/Typography, which would pull tabs, menus and clipboard code into the sign-in route.
 */
export function AuthCard({ titleId, subtitleId, footer, children }: AuthCardProps) {
  const t = useT();
  return (
    <main className="bolx-auth">
      <section className="bolx-auth__card">
        <div className="bolx-auth__brand">
          <BrandMark size={44} />
        </div>
        <h1 className="bolx-auth__title">{t(titleId)}</h1>
        <p className="bolx-auth__subtitle">{t(subtitleId)}</p>
        {children}
        <div className="bolx-auth__footer">
          {t(footer.textId)} <Link to={footer.to}>{t(footer.linkId)}</Link>
        </div>
      </section>
    </main>
  );
}
