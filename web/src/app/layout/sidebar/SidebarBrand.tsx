import { useNavigate } from 'react-router';
import { BrandMark } from '../../../components/BrandMark';
import { useT } from '../../../lib/i18n/use-t';
import { useAppDispatch } from '../../../lib/hooks';
import { serviceSelected } from '../../../lib/state/auth-slice';

/** Spec section 2: clicking the logo clears the service selection and goes to ServiceSelection. */
export function useLogoClick() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return () => {
    dispatch(serviceSelected(null));
    navigate('/ServiceSelection');
  };
}

export function SidebarBrand({ collapsed, background, color }: { collapsed: boolean; background: string; color: string }) {
  const t = useT();
  const onClick = useLogoClick();
  return (
    <button type="button" className="bolx-sidebar__brand" style={{ background, color }} onClick={onClick} aria-label={t('selection.service.title')}>
      <BrandMark size={32} showWord={!collapsed} />
    </button>
  );
}
