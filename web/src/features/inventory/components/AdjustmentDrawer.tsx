import { useState } from 'react';
import { DatePicker, Form, Input, InputNumber, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { FormDrawer } from '../../../components/form-drawer/FormDrawer';
import { selectProps } from '../../../components/form/select-props';
import { rules } from '../../../lib/form-rules';
import { useT } from '../../../lib/i18n/use-t';
import { notifyInfo, notifySuccess } from '../../../lib/toast';
import { useKeyedAction } from '../../../lib/action-key';
import { useCreateAdjustmentMutation, useGetReasonCodesQuery, type ReasonCode } from '../inventory-api';
import { useInventoryScope } from '../use-inventory-scope';
import { PlaceFields, type PlaceValues } from './PlaceFields';
import { useResolveLocation } from './use-resolve-location';
import { ScanField } from '../../../components/scan/ScanField';
import { quantityAfterScan, type MatchOf } from '../../../components/scan/scan-match';
import { skuLabel } from '../../../components/sku-select/SkuSelect';
import { adjustmentFields, type SkuTracking } from '../adjustment-fields';

type AdjustmentValues = PlaceValues & { quantityChange: number; reasonCode: ReasonCode; expiryDate?: Dayjs; note?: string };

/** Add (+) or remove (−) stock with a reason; above the client's threshold the server holds it for approval. */
export function AdjustmentDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useT();
  const r = rules(t);
  const [form] = Form.useForm<AdjustmentValues>();
  const { warehouseId, customerId } = useInventoryScope('Adjustment');
  const { data: reasons = [] } = useGetReasonCodesQuery();
  const [create] = useCreateAdjustmentMutation();
  const resolve = useResolveLocation();
  const act = useKeyedAction();
  const formWarehouseId = Form.useWatch('warehouseId', form) as number | undefined;
  const formCustomerId = Form.useWatch('customerId', form) as number | undefined;
  // The scanned SKU's label, shown by the SKU dropdown until a search lists it.
  const [scannedSku, setScannedSku] = useState<string>();
  // What the chosen SKU tracks: the server refuses a lot or expiry on a SKU that tracks neither, so they are offered only then.
  const [tracking, setTracking] = useState<SkuTracking>();
  const offered = adjustmentFields(tracking, Form.useWatch('quantityChange', form) as number | undefined);
  const chooseTracking = (next: SkuTracking | undefined) => {
    setTracking(next);
    if (next && !next.lot) form.setFieldsValue({ lot: undefined });
    if (next && !next.expiry) form.setFieldsValue({ expiryDate: undefined });
  };

  /**
   * A scan fills the form: a SKU (or a package level of it) sets the client and SKU and adds the units it
   * stands for to the quantity; a location sets the location; a pallet sets the pallet and where it is.
   */
  const onScan = (m: MatchOf<'sku' | 'location' | 'pallet'>) => {
    if (m.kind === 'sku') {
      const same = form.getFieldValue('skuId') === m.skuId;
      form.setFieldsValue({ customerId: m.customerId, skuId: m.skuId, quantityChange: quantityAfterScan(form.getFieldValue('quantityChange'), m.unitsPerScan, same) });
      setScannedSku(skuLabel(m));
      chooseTracking({ lot: m.isLotTracked, expiry: m.isExpiryTracked });
    } else if (m.kind === 'location') {
      form.setFields([{ name: 'locationCode', value: m.locationCode, errors: [] }]);
    } else {
      form.setFields([{ name: 'pallet', value: m.pallet }, { name: 'locationCode', value: m.locationCode, errors: [] }]);
    }
    return undefined;
  };

  const submit = async (v: AdjustmentValues) => {
    const { location, error } = await resolve(v.warehouseId, v.locationCode);
    if (!location) {
      form.setFields([{ name: 'locationCode', errors: [error ?? t('inventory.move.unknownLocation')] }]);
      return undefined;
    }
    const result = await act('adjustment', {
      warehouseId: v.warehouseId, customerId: v.customerId, skuId: v.skuId, locationId: location.locationId,
      lot: v.lot?.trim() ?? '', pallet: v.pallet?.trim() ?? '', quantityChange: v.quantityChange, reasonCode: v.reasonCode,
      expiryDate: v.quantityChange > 0 ? v.expiryDate?.format('YYYY-MM-DD') : undefined, note: v.note || undefined,
    }, create, { silentSuccess: true });
    // Held for approval is not a failure, but nothing moved yet: say so in an info toast, not a success one.
    if (result) (result.data.status === 'Pending' ? notifyInfo : notifySuccess)(result.message);
    return result;
  };

  return (
    <FormDrawer<AdjustmentValues>
      open={open}
      title={t('inventory.adjustment.addTitle')}
      onClose={onClose}
      form={form}
      initialValues={{ warehouseId: warehouseId || undefined, customerId: customerId || undefined }}
      onSubmit={submit}
    >
      <ScanField warehouseId={formWarehouseId} customerId={formCustomerId} want={['sku', 'location', 'pallet'] as const}
        placeholder={t('inventory.adjustment.scanPlaceholder')} onMatch={onScan} autoFocus />
      <PlaceFields form={form} skuLabel={scannedSku} tracksLot={offered.lot}
        onSkuChange={(sku) => chooseTracking(sku && { lot: sku.isLotTracked, expiry: sku.isExpiryTracked })} />
      <Form.Item name="quantityChange" label={t('inventory.fields.quantityChange')} rules={[
        r.required('quantity'),
        { validator: (_, v) => (v === 0 ? Promise.reject(new Error(t('inventory.adjustment.notZero'))) : Promise.resolve()) },
      ]} extra={t('inventory.adjustment.quantityHint')}>
        <InputNumber precision={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="reasonCode" label={t('inventory.fields.reason')} rules={[r.required('reason')]}>
        <Select {...selectProps} options={reasons.map((x) => ({ value: x.code, label: x.name }))} />
      </Form.Item>
      {offered.expiry && (
        <Form.Item name="expiryDate" label={t('inventory.fields.expiryDate')}>
          <DatePicker style={{ width: '100%' }} format="YYYY-MM-DD" />
        </Form.Item>
      )}
      <Form.Item name="note" label={t('inventory.fields.note')}>
        <Input.TextArea rows={2} maxLength={255} />
      </Form.Item>
    </FormDrawer>
  );
}
