import { Tag } from 'antd';
import { useT } from '../../../lib/i18n/use-t';
import { stockStatusColor } from '../status-color';

/** The status of an adjustment, count, task or lot, coloured by what it asks of the user. */
export function StockStatusTag({ status }: { status: string }) {
  const t = useT();
  return <Tag color={stockStatusColor(status)}>{t(`inventory.status.${status}`)}</Tag>;
}
