import { Timeline, Typography } from 'antd';
import type { CycleCountDetail } from '../inventory-api';
import { formatDateTime } from '../format';
import { useT } from '../../../lib/i18n/use-t';

/** A count's history from its audit rows: who created, counted, recounted, approved or cancelled it, and an override's reason. */
export function CountHistory({ history }: { history: CycleCountDetail['history'] }) {
  const t = useT();
  if (history.length === 0) return null;
  return (
    <section className="bolx-count__history" aria-label={t('inventory.count.history')}>
      <Typography.Title level={5}>{t('inventory.count.history')}</Typography.Title>
      <Timeline
        items={history.map((h, i) => ({
          key: i,
          color: h.overrideReason ? 'red' : h.action === 'approve' ? 'green' : 'blue',
          children: (
            <div data-testid="count-history-entry">
              <Typography.Text strong>{t(`inventory.count.action.${h.action}`)}</Typography.Text>
              <Typography.Text type="secondary">{` · ${h.by ?? '—'} · ${formatDateTime(h.at)}`}</Typography.Text>
              {h.overrideReason && (
                <div><Typography.Text type="danger">{t('inventory.count.overrideLabel')}</Typography.Text> {h.overrideReason}</div>
              )}
            </div>
          ),
        }))}
      />
    </section>
  );
}
