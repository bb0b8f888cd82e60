import { useState } from 'react';
import { Button, Input, Select, Space, Upload } from 'antd';
import { CameraOutlined, CheckOutlined, ExportOutlined } from '@ant-design/icons';
import { RETURN_CONDITIONS, RETURN_DISPOSITIONS, type ReturnItem } from '@bolx/contracts';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useT } from '../../../lib/i18n/use-t';
import { useAddPhotoMutation, useDisposeItemMutation, useGetReturnLocationsQuery, useInspectItemMutation } from '../returns-api';
import { useKeyedAction } from '../../../lib/action-key';

/** Inspect (condition, notes, photos) and dispose of one returned item, in its table row. */
export function ReturnItemActions({ item }: { item: ReturnItem }) {
  const t = useT();
  const [inspect] = useInspectItemMutation();
  const [dispose] = useDisposeItemMutation();
  const act = useKeyedAction();
  const [addPhoto] = useAddPhotoMutation();
  const [condition, setCondition] = useState<string>(item.condition ?? 'new');
  const [disposition, setDisposition] = useState<string>('restock');
  const [locationId, setLocationId] = useState<number | undefined>();
  const [reason, setReason] = useState('');
  const purpose = disposition === 'dispose' ? null : disposition;
  const locations = useGetReturnLocationsQuery({ warehouseId: item.warehouseId, purpose: purpose ?? 'restock' }, { skip: !purpose || item.status !== 'Inspected' });
  if (item.status === 'Disposed') return null;
  return (
    <Space wrap size={4} data-testid={`item-actions-${item.itemId}`}>
      <Select size="small" style={{ width: 110 }} value={condition} onChange={setCondition} aria-label="condition"
        options={RETURN_CONDITIONS.map((c) => ({ value: c, label: t(`returns.condition.${c}`) }))} />
      <Button size="small" icon={<CheckOutlined />} onClick={() => act('inspect', { itemId: item.itemId, condition }, inspect)}>
        {t('returns.desk.inspect')}
      </Button>
      <Upload accept="image/png,image/jpeg" showUploadList={false}
        beforeUpload={(file) => { void runMutation(addPhoto({ itemId: item.itemId, file })); return false; }}>
        <Button size="small" icon={<CameraOutlined />}>{t('returns.desk.addPhoto')}</Button>
      </Upload>
      {item.status === 'Inspected' && (
        <>
          <Select size="small" style={{ width: 120 }} value={disposition} onChange={(v) => { setDisposition(v); setLocationId(undefined); }} aria-label="disposition"
            options={RETURN_DISPOSITIONS.map((d) => ({ value: d, label: t(`returns.disposition.${d}`) }))} />
          {purpose ? (
            <Select size="small" style={{ width: 140 }} placeholder={t('returns.fields.location')} value={locationId} onChange={setLocationId} aria-label="disposition location"
              showSearch optionFilterProp="label" options={(locations.data ?? []).map((l) => ({ value: l.locationId, label: l.code }))} />
          ) : (
            <Input size="small" style={{ width: 160 }} placeholder={t('returns.desk.disposeReason')} value={reason} onChange={(e) => setReason(e.target.value)} aria-label="dispose reason" />
          )}
          <Button size="small" type="primary" icon={<ExportOutlined />} disabled={purpose ? !locationId : !reason.trim()}
            onClick={() => act('dispose', { itemId: item.itemId, disposition, ...(purpose ? { locationId } : { reason: reason.trim() }) }, dispose)}>
            {t('returns.desk.dispose')}
          </Button>
        </>
      )}
    </Space>
  );
}
