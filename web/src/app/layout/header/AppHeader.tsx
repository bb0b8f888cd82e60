import { useLocation } from 'react-router';
import { Button, Popover, Tooltip } from 'antd';
import { BgColorsOutlined, CloudUploadOutlined, FilterOutlined, MenuFoldOutlined, MenuOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { BrandMark } from '../../../components/BrandMark';
import { useT } from '../../../lib/i18n/use-t';
import { useAppDispatch, useAppSelector } from '../../../lib/hooks';
import { selectShowHeaderFilters } from '../../../lib/state/selectors';
import { addDataToggled, customizerToggled, navDrawerToggled, sidebarCollapseToggled } from '../../../lib/state/ui-slice';
import { useLogoClick } from '../sidebar/SidebarBrand';
import { HeaderFilters } from './HeaderFilters';
import { LanguageMenu } from './LanguageMenu';
import { HubStatusTag } from './HubStatusTag';
import { NotificationsMenu } from './NotificationsMenu';
import { UserMenu } from './UserMenu';
import { offeredCards } from './add-data/cards';
import { useMayAccess } from '../../../lib/use-access';
import { headerTitle } from '../../../lib/identity';
import { findRoute } from '../../router/resolve-routes';
import { ROUTE_TABLE } from '../../router/routes';

interface AppHeaderProps {
  /** Wide screens show the sidebar beside the content; narrow ones use the drawer. */
  desktop: boolean;
  wide: boolean;
  collapsed: boolean;
  menuTitleOf: (pathname: string) => string | undefined;
}

/** The fixed header: menu toggle, title, filters, add data, notifications, language, customizer, user. */
export function AppHeader({ desktop, wide, collapsed, menuTitleOf }: AppHeaderProps) {
  const t = useT();
  const dispatch = useAppDispatch();
  const { pathname } = useLocation();
  const service = useAppSelector((s) => s.auth.selectedServiceManagement);
  const showFilters = useAppSelector(selectShowHeaderFilters);
  const onLogo = useLogoClick();
  // The Add Data icon only for an account offered at least one of its forms.
  const may = useMayAccess();
  const addData = showFilters && offeredCards(may).length > 0;
  // Screens outside the menu (selection pages, profile) fall back to their route title.
  const routeTitleId = findRoute(ROUTE_TABLE, pathname)?.titleId;
  const title = headerTitle(service, menuTitleOf(pathname) ?? (routeTitleId ? t(routeTitleId) : undefined));

  return (
    <header className="bolx-header">
      <div className="bolx-header__start">
        {desktop ? (
          <Button
            type="text"
            aria-label={t('header.toggleMenu')}
            icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
            onClick={() => dispatch(sidebarCollapseToggled())}
          />
        ) : (
          <>
            <Button type="text" aria-label={t('header.toggleMenu')} icon={<MenuOutlined />} onClick={() => dispatch(navDrawerToggled(true))} />
            <button type="button" className="bolx-header__logo" onClick={onLogo}>
              <BrandMark size={28} showWord={false} />
            </button>
          </>
        )}
        <h1 className="bolx-header__title" title={title}>
          {title}
        </h1>
      </div>
      <div className="bolx-header__end">
        {showFilters &&
          (wide ? (
            <HeaderFilters />
          ) : (
            <Popover trigger="click" placement="bottomRight" content={<HeaderFilters vertical />} title={t('header.filters.open')}>
              <Tooltip title={t('header.filters.open')}>
                <Button type="text" shape="circle" aria-label={t('header.filters.open')} icon={<FilterOutlined />} />
              </Tooltip>
            </Popover>
          ))}
        {addData && (
          <Tooltip title={t('header.addData')}>
            <Button type="text" shape="circle" aria-label={t('header.addData')} icon={<CloudUploadOutlined />} onClick={() => dispatch(addDataToggled(true))} />
          </Tooltip>
        )}
        <HubStatusTag wide={wide} />
        <NotificationsMenu />
        <LanguageMenu />
        <Tooltip title={t('header.customizer')}>
          <Button type="text" shape="circle" aria-label={t('header.customizer')} icon={<BgColorsOutlined />} onClick={() => dispatch(customizerToggled(true))} />
        </Tooltip>
        <UserMenu compact={!wide} />
      </div>
    </header>
  );
}
