import { useEffect, useMemo, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { ConfigProvider, Menu, Skeleton } from 'antd';
import type { MenuProps } from 'antd';
import { useGetUserModulesQuery } from '../../../lib/api/user-module-api';
import { useAppSelector } from '../../../lib/hooks';
import { sidebarPresetById } from '../../../lib/theme/presets';
import { groupChainOfPath, leafOfPath, nextOpenKeys, toMenuNodes, type MenuNode } from './menu-model';
import { moduleIcon } from './module-icons';
import { SidebarBrand } from './SidebarBrand';
import { useT } from '../../../lib/i18n/use-t';

type Item = Required<MenuProps>['items'][number];

function toItems(nodes: MenuNode[], depth = 0): Item[] {
  return nodes.map((n) => ({
    key: n.key,
    icon: depth === 0 ? moduleIcon(n.name) : undefined,
    label: n.path ? <Link to={n.path}>{n.label}</Link> : n.label,
    children: n.children ? toItems(n.children, depth + 1) : undefined,
  }));
}

/** The navigation menu from GetUserModules, coloured by the chosen sidebar preset. */
export function Sidebar({ collapsed }: { collapsed: boolean }) {
  const t = useT();
  const { pathname } = useLocation();
  const { data, isLoading } = useGetUserModulesQuery();
  const { sidebarPresetId, menuStyle } = useAppSelector((s) => s.settings);
  const preset = sidebarPresetById(sidebarPresetId);
  const nodes = useMemo(() => toMenuNodes(data?.modules ?? []), [data]);
  const items = useMemo(() => toItems(nodes), [nodes]);
  const [openKeys, setOpenKeys] = useState<string[]>(() => groupChainOfPath(nodes, pathname));

  // The current route's group opens when the path or the menu changes.
  useEffect(() => {
    const chain = groupChainOfPath(nodes, pathname);
    if (chain.length) setOpenKeys(chain);
  }, [nodes, pathname]);

  const selected = leafOfPath(nodes, pathname)?.key;
  const hover = preset.mode === 'dark' ? 'rgba(255, 255, 255, 0.08)' : 'rgba(0, 0, 0, 0.04)';

  return (
    <div
      className={`bolx-sidebar bolx-menu--${menuStyle}`}
      style={{ background: preset.sidebarBgColor, color: preset.sidebarTextColor }}
      data-mode={preset.mode}
    >
      <SidebarBrand collapsed={collapsed} background={preset.sidebarHeaderColor} color={preset.sidebarTextColor} />
      <div className="bolx-sidebar__menu">
        {isLoading ? (
          <div className="bolx-sidebar__loading">
            <Skeleton active title={false} paragraph={{ rows: 8 }} />
          </div>
        ) : nodes.length === 0 ? (
          !collapsed && <p className="bolx-sidebar__empty">{t('layout.sidebar.empty')}</p>
        ) : (
          <ConfigProvider
            theme={{
              components: {
                Menu: {
                  itemBg: preset.sidebarBgColor,
                  subMenuItemBg: preset.sidebarBgColor,
                  popupBg: preset.sidebarBgColor,
                  itemColor: preset.sidebarTextColor,
                  itemHoverColor: preset.sidebarTextColor,
                  itemHoverBg: hover,
                  itemActiveBg: hover,
                  itemSelectedBg: preset.sidebarMenuSelectedBgColor,
                  itemSelectedColor: preset.sidebarMenuSelectedTextColor,
                  groupTitleColor: preset.sidebarTextColor,
                  activeBarBorderWidth: 0,
                },
              },
            }}
          >
            <Menu
              mode="inline"
              inlineCollapsed={collapsed}
              items={items}
              selectedKeys={selected ? [selected] : []}
              {...(collapsed ? {} : { openKeys, onOpenChange: (keys: string[]) => setOpenKeys(nextOpenKeys(nodes, openKeys, keys)) })}
            />
          </ConfigProvider>
        )}
      </div>
    </div>
  );
}
