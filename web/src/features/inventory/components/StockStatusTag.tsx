import { Tag } from 'antd';
import { useT } from '../../../lib/i18n/use-t';

const COLORS: Record<string, string> = {
  Pending: 'orange', Approved: 'green', Rejected: 'red', Posted: 'green',
  Open: 'blue', Recount: 'orange', Counted: 'purple', Cancelled: 'default', Completed: 'green',
  Expired: 'red', Expiring: 'gold',
};

/** The status of an adjustment, count, task or lot, coloured by what it asks of the user. */
export function StockStatusTag({ status }: { status: string }) {
  const t = useT();
  return <Tag color={COLORS[status] ?? 'default'}>{t(`inventory.status.${status}`)}</Tag>;
}
