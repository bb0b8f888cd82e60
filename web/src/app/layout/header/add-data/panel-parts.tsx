import type { ReactNode } from 'react';
import type { AccessNeed } from '@bolx/contracts';
import { Alert, Button, Typography, Upload, type UploadFile } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useDownload } from '../../../../components/download/use-download';
import { useT } from '../../../../lib/i18n/use-t';
import { useMayAccess } from '../../../../lib/use-access';
import { notifyError } from '../../../../lib/toast';
import { useAppSelector } from '../../../../lib/hooks';
import { selectCustomerId, selectWarehouseId } from '../../../../lib/state/selectors';
import { fileProblem, type FileKinds } from './file-rules';

/** The header's selection the panel writes to: a numeric warehouse, and a client (0 = all, none picked). */
export function useAddDataScope() {
  const warehouseId = useAppSelector(selectWarehouseId) ?? 0;
  const customerId = useAppSelector(selectCustomerId);
  const customerName = useAppSelector((s) => s.header.customerName);
  const warehouseName = useAppSelector((s) => s.header.data?.warehouseData.find((w) => w.warehouseId === warehouseId)?.warehouseName ?? '');
  return { warehouseId, customerId, warehouseName, customerName };
}

/** Says where the upload goes, or what to select first; `needsCustomer` for uploads that belong to a client. */
export function ScopeNote({ needsCustomer }: { needsCustomer: boolean }) {
  const t = useT();
  const { warehouseId, customerId, warehouseName, customerName } = useAddDataScope();
  if (!warehouseId || (needsCustomer && !customerId)) {
    return <Alert type="warning" showIcon message={t(needsCustomer ? 'addData.needCustomer' : 'addData.needWarehouse')} className="bolx-add-data-form__note" />;
  }
  return (
    <Typography.Text type="secondary" className="bolx-add-data-form__scope">
      {needsCustomer ? t('addData.scope', { warehouse: warehouseName, customer: customerName }) : t('addData.scopeWarehouse', { warehouse: warehouseName })}
    </Typography.Text>
  );
}

/**
 * The file field: files are held and sent with the form (never uploaded on their own); wrong kinds, sizes and
 * too many files are refused with a toast. Used as a Form.Item child (value/onChange).
 */
export function FilePicker({ value, onChange, max, kinds, disabled }: { value?: File[]; onChange?: (files: File[]) => void; max: number; kinds: FileKinds; disabled?: boolean }) {
  const t = useT();
  const files = value ?? [];
  const fileList: UploadFile[] = files.map((f, i) => ({ uid: `${i}-${f.name}`, name: f.name, size: f.size, status: 'done' }));
  return (
    <Upload.Dragger
      accept={kinds.extensions.join(',')}
      multiple={max > 1}
      fileList={fileList}
      disabled={disabled}
      beforeUpload={(file, batch) => {
        // antd calls this once per file of a multi-file drop: take the batch once, at its first file.
        if (file !== batch[0]) return Upload.LIST_IGNORE;
        const next = [...files];
        for (const f of batch) {
          const problem = fileProblem(f, kinds);
          if (problem) notifyError(t(problem === 'type' ? 'addData.fileType' : 'addData.fileSize', { kinds: t(kinds.label) }));
          else if (next.length >= max) {
            notifyError(t('addData.fileCount', { max }));
            break;
          } else next.push(f);
        }
        onChange?.(next);
        return Upload.LIST_IGNORE;
      }}
      onRemove={(removed) => onChange?.(files.filter((_f, i) => `${i}-${_f.name}` !== removed.uid))}
    >
      <p className="ant-upload-drag-icon"><InboxOutlined /></p>
      <p className="ant-upload-text">{max > 1 ? t('addData.dropMany', { max }) : t('addData.drop')}</p>
      <p className="ant-upload-hint">{t(kinds.label)}</p>
    </Upload.Dragger>
  );
}

/**
 * The sample template download: a link whose target is not shown (an authenticated download, not an href); only
 * for an account the download's policy (`need`) allows.
 */
export function TemplateLink({ url, fileName, need }: { url: string; fileName: string; need: AccessNeed }) {
  const t = useT();
  const [download, busy] = useDownload();
  if (!useMayAccess()(need)) return null;
  return (
    <Button type="link" size="small" icon={<DownloadOutlined />} loading={busy} className="bolx-add-data-form__template" onClick={() => void download({ url, method: 'GET' }, fileName)}>
      {t('addData.template')}
    </Button>
  );
}

/** The form's footer: the submit button, or a one-line notice when the import is not available. */
export function FormFooter({ label, disabled, notice, busy }: { label: string; disabled?: boolean; notice?: ReactNode; busy?: boolean }) {
  return (
    <div className="bolx-add-data-form__footer">
      {notice && <Alert type="info" showIcon message={notice} data-testid="add-data-unavailable" />}
      <Button type="primary" htmlType="submit" block disabled={disabled} loading={busy}>{label}</Button>
    </div>
  );
}
