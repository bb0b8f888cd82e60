import type { ReactNode } from 'react';
import {
  AppstoreOutlined, BarChartOutlined, CarOutlined, CustomerServiceOutlined, DashboardOutlined, DollarOutlined,
  EnvironmentOutlined, InboxOutlined, ImportOutlined, RollbackOutlined, SettingOutlined, ShoppingCartOutlined,
  TagsOutlined,
} from '@ant-design/icons';

/** An icon per module, by the words in its name; anything unknown gets a neutral one. */
const ICONS: [RegExp, ReactNode][] = [
  [/dashboard/i, <DashboardOutlined />],
  [/admin|user|client management/i, <SettingOutlined />],
  [/sku|catalog|dimension/i, <TagsOutlined />],
  [/location|qr/i, <EnvironmentOutlined />],
  [/inbound|receiv|\bro\b/i, <ImportOutlined />],
  [/inventory|move|adjust|count|replenish|expir/i, <InboxOutlined />],
  [/order|batch|kit|ship|backorder/i, <ShoppingCartOutlined />],
  [/return|rma/i, <RollbackOutlined />],
  [/billing|invoice/i, <DollarOutlined />],
  [/report|labor|job|productivity/i, <BarChartOutlined />],
  [/freight/i, <CarOutlined />],
  [/help|service/i, <CustomerServiceOutlined />],
];

export function moduleIcon(name: string): ReactNode {
  return ICONS.find(([pattern]) => pattern.test(name))?.[1] ?? <AppstoreOutlined />;
}
