import { useEffect, useState } from 'react';
import { Descriptions, Form, Input, InputNumber } from 'antd';
import { FormDrawer } from '../../../components/form-drawer/FormDrawer';
import { rules } from '../../../lib/form-rules';
import { useT } from '../../../lib/i18n/use-t';
import { useKeyedAction } from '../../../lib/action-key';
import { useMoveItemsMutation, type StockRow } from '../inventory-api';
import { useResolveLocation } from './use-resolve-location';
import { ScanField } from '../../../components/scan/ScanField';
import { quantityAfterScan } from '../../../components/scan/scan-match';
import { useRefusableInput } from '../../../components/scan/use-refusable-input';

interface MoveValues { quantity: number; toLocationCode: string; note?: string }

/** Move a quantity of one stock place (SKU, lot, pallet at a location) to another location; scan the target and Enter. */
export function MoveDrawer({ row, onClose }: { row?: StockRow; onClose: () => void }) {
  const t = useT();
  const r = rules(t);
  const [form] = Form.useForm<MoveValues>();
  const [move] = useMoveItemsMutation();
  const resolve = useResolveLocation();
  const act = useKeyedAction();
  // Once a scan has counted units, the next scan adds to them rather than to the available quantity preset.
  const [scanned, setScanned] = useState(false);
  useEffect(() => setScanned(false), [row]);
  const { ref: toLocation, refuse } = useRefusableInput(form, 'toLocationCode');

  const submit = async (v: MoveValues) => {
    if (!row) return undefined;
    const { location: to, error } = await resolve(row.warehouseId, v.toLocationCode);
    if (!to) {
      refuse(error ?? t('inventory.move.unknownLocation'));
      return undefined;
    }
    if (to.locationId === row.locationId) {
      refuse(t('inventory.move.sameLocation'));
      return undefined;
    }
    return act(`move:${row.uniqueid}`, {
      warehouseId: row.warehouseId, customerId: row.customerId, skuId: row.skuId, locationId: row.locationId,
      lot: row.lot, pallet: row.pallet, toLocationId: to.locationId, quantity: v.quantity, note: v.note || undefined,
    }, move);
  };

  return (
    <FormDrawer<MoveValues>
      open={row !== undefined}
      title={t('inventory.move.title')}
      onClose={onClose}
      form={form}
      initialValues={{ quantity: row?.available }}
      onSubmit={submit}
      submitLabel={t('inventory.move.submit')}
    >
      {row && (
        <Descriptions size="small" column={1} bordered items={[
          { key: 'sku', label: t('inventory.fields.sku'), children: `${row.skuCode} — ${row.skuDescription}` },
          { key: 'from', label: t('inventory.fields.fromLocation'), children: row.locationCode },
          ...(row.lot ? [{ key: 'lot', label: t('inventory.fields.lot'), children: row.lot }] : []),
          ...(row.pallet ? [{ key: 'pallet', label: t('inventory.fields.pallet'), children: row.pallet }] : []),
          { key: 'available', label: t('inventory.fields.available'), children: row.available },
        ]} />
      )}
      {row && (
        <div style={{ marginTop: 16 }}>
          {/* Scanning the SKU (or a case of it) counts units; scanning a location sets the destination. */}
          <ScanField warehouseId={row.warehouseId} customerId={row.customerId} want={['sku', 'location'] as const}
            placeholder={t('inventory.move.scanPlaceholder')}
            onMatch={(m) => {
              if (m.kind === 'location') {
                form.setFields([{ name: 'toLocationCode', value: m.locationCode, errors: [] }]);
                return undefined;
              }
              if (m.skuId !== row.skuId) return t('inventory.move.otherSku', { sku: m.skuCode, moving: row.skuCode });
              const counted = form.isFieldTouched('quantity') || scanned;
              form.setFields([{ name: 'quantity', value: quantityAfterScan(counted ? form.getFieldValue('quantity') : 0, m.unitsPerScan, true), touched: true }]);
              setScanned(true);
              return undefined;
            }} />
        </div>
      )}
      {/* No min/max on the input: it would clamp 999 to what is available and move less than asked, silently. */}
      <Form.Item name="quantity" label={t('inventory.fields.quantity')} rules={[r.required('quantity'), r.atLeastOne(), r.atMostAvailable(row?.available ?? 0)]}>
        <InputNumber precision={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="toLocationCode" label={t('inventory.fields.toLocation')} rules={[r.required('toLocation')]} extra={t('inventory.scanHint')}>
        <Input ref={toLocation} autoFocus autoComplete="off" placeholder={t('inventory.fields.locationPlaceholder')}
          onChange={() => form.setFields([{ name: 'toLocationCode', errors: [] }])} />
      </Form.Item>
      <Form.Item name="note" label={t('inventory.fields.note')}>
        <Input.TextArea rows={2} maxLength={255} />
      </Form.Item>
    </FormDrawer>
  );
}
