import { Button, InputNumber, Popconfirm } from 'antd';
import { TagsOutlined } from '@ant-design/icons';
import { DEAD_STOCK_DEFAULT_DAYS, STAFF_ROLES, type ReportFilters } from '@bolx/contracts';
import { useCanWrite } from '../../../lib/use-can-write';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { errorToastText, toApiError } from '../../../lib/api/api-error';
import { useApplyAbcClassesMutation } from '../../../lib/api/reports-api';
import { useMayAccess } from '../../../lib/use-access';
import { useT } from '../../../lib/i18n/use-t';
import { ReportPage } from '../components/ReportPage';

/** Stores the velocity report's ABC classes on the SKUs (cycle counts select by them): staff with write only. */
function ApplyAbc({ filters }: { filters: ReportFilters }) {
  const t = useT();
  const [apply, { isLoading }] = useApplyAbcClassesMutation();
  const go = async () => {
    try {
      const r = await apply({ filters }).unwrap();
      notifySuccess(`${r.message} (A ${r.data.A} · B ${r.data.B} · C ${r.data.C})`);
    } catch (e) {
      notifyError(errorToastText(toApiError(e)));
    }
  };
  return (
    <Popconfirm title={t('reports.other.applyAbcConfirm')} description={t('reports.other.applyAbcHint')} onConfirm={() => void go()}>
      <Button type="primary" icon={<TagsOutlined />} loading={isLoading}>{t('reports.other.applyAbc')}</Button>
    </Popconfirm>
  );
}

/** /OtherReports: location utilisation, empty locations, SKU velocity with ABC, dead stock, the audit log, dock-to-stock. */
export default function OtherReportsPage() {
  const t = useT();
  const canWrite = useCanWrite('/OtherReports');
  // The location lists and the audit log are the staff's (the server refuses them to a client account).
  const isClient = !useMayAccess()({ roles: STAFF_ROLES });
  return (
    <ReportPage
      area="OtherReport"
      reports={isClient ? ['location-utilisation', 'sku-velocity', 'dead-stock', 'dock-to-stock']
        : ['location-utilisation', 'empty-locations', 'sku-velocity', 'dead-stock', 'audit-log', 'dock-to-stock']}
      ownFilters={(report, value, onChange) => report === 'dead-stock' && (
        <InputNumber aria-label={t('reports.other.deadStockLabel')} min={1} max={3650} addonBefore={t('reports.other.deadStockBefore')} addonAfter={t('reports.other.deadStockAfter')} placeholder={String(DEAD_STOCK_DEFAULT_DAYS)}
          value={value.days} onChange={(v) => onChange(v ? { days: v } : {})} />
      )}
      actions={(report, filters) => report === 'sku-velocity' && canWrite && <ApplyAbc filters={filters} />}
    />
  );
}
