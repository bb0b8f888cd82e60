import { Skeleton, theme, type GlobalToken } from 'antd';
import { useIntl } from 'react-intl';
import { ORDER_STATUSES, type OrderFilters, type OrderStatus } from '@bolx/contracts';
import { documentStatusColour } from '../../../lib/status-actions';
import { useT } from '../../../lib/i18n/use-t';
import { useGetOrderStatusCountsQuery } from '../orders-api';
import '../orders.css';

/**
 * The dashboard's top row: All and each status with how many orders it holds under the list's other filters.
 * A click filters the list to that status (All clears it); the active one is marked. On a phone the row scrolls.
 */
export function StatusCounts({ filters, active, onPick }: { filters: Omit<OrderFilters, 'status'>; active: OrderStatus | undefined; onPick: (s: OrderStatus | undefined) => void }) {
  const t = useT();
  const intl = useIntl();
  const { token } = theme.useToken();
  const { data } = useGetOrderStatusCountsQuery({ filters });
  const count = (s: OrderStatus) => data?.counts.find((c) => c.status === s)?.count ?? 0;
  const tile = (key: string, label: string, n: number | undefined, status: OrderStatus | undefined) => {
    const isActive = active === status;
    return (
      <button
        key={key}
        type="button"
        className={`bolx-order-counts__tile${isActive ? ' bolx-order-counts__tile--active' : ''}`}
        aria-pressed={isActive}
        data-status={status ?? 'all'}
        onClick={() => onPick(isActive && status ? undefined : status)}
      >
        <span className="bolx-order-counts__label">
          {status && <span className="bolx-order-counts__dot" style={{ background: colourOf(token, status) }} aria-hidden />}
          {label}
        </span>
        <span className="bolx-order-counts__value">{n === undefined ? <Skeleton.Button active size="small" /> : intl.formatNumber(n)}</span>
      </button>
    );
  };
  return (
    <nav className="bolx-order-counts" aria-label={t('outbound.counts.region')}>
      {tile('all', t('outbound.counts.all'), data?.total, undefined)}
      {ORDER_STATUSES.map((s) => tile(s, t(`outbound.status.${s}`), data ? count(s) : undefined, s))}
    </nav>
  );
}

/** A status tag's colour as a CSS colour for the dot: antd's preset names (geekblue…) and status names from the theme. */
const STATUS_TOKEN = { default: 'colorTextQuaternary', processing: 'colorInfo', success: 'colorSuccess', warning: 'colorWarning', error: 'colorError' } as const;
function colourOf(token: GlobalToken, s: OrderStatus): string {
  const c = documentStatusColour('SALES_ORDER', s);
  const key = c in STATUS_TOKEN ? STATUS_TOKEN[c as keyof typeof STATUS_TOKEN] : c;
  return String((token as unknown as Record<string, unknown>)[key] ?? c);
}
