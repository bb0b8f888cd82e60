import { useState } from 'react';
import { Form, Input, InputNumber, Select, Space } from 'antd';
import { PALLET_DIMENSION_MAX_CM, PALLET_TYPES, PALLET_WEIGHT_MAX_KG, type PalletType } from '@bolx/contracts';
import { selectProps } from '../../../../components/form/select-props';
import { runMutation } from '../../../../lib/api/mutation-toast';
import { useT } from '../../../../lib/i18n/use-t';
import { useCreatePalletMutation } from '../../../../features/inventory/pallet-register-api';
import { FILE_LIMITS, SHEETS } from './file-rules';
import { FilePicker, FormFooter, ScopeNote, TemplateLink, useAddDataScope } from './panel-parts';
import { useUploadRunner } from './use-upload-runner';
import { TEMPLATE_NEEDS } from './cards';

interface PalletValues {
  palletType?: PalletType; length?: number; width?: number; height?: number; weightCapacity?: number; currentLocation?: string; files?: File[];
}

/**
 * Pallet: Pallet Type, Dimensions (cm), Weight Capacity (kg), Current Location, file. With a file, UploadPallets
 * registers every row of it (with a progress card); without one, CreatePallet registers the pallet of the fields
 * (its id: the SSCC when the header's client has a GS1 prefix, else a PLT- number).
 */
export function PalletForm({ onStarted }: { onStarted: () => void }) {
  const t = useT();
  const [form] = Form.useForm<PalletValues>();
  const files = Form.useWatch('files', form) ?? [];
  const { warehouseId, customerId } = useAddDataScope();
  const { start } = useUploadRunner();
  const [create] = useCreatePalletMutation();
  const [busy, setBusy] = useState(false);
  const client = customerId ? { customerId } : {};
  const submit = async (v: PalletValues) => {
    const file = v.files?.[0];
    if (file) {
      start('PLT', { url: 'Warehouse/Pallet/UploadPallets', file, fields: { warehouseId, ...client } }, ['PalletRegister']);
      onStarted();
      return;
    }
    setBusy(true);
    const done = await runMutation(create({
      warehouseId, ...client, palletType: v.palletType as PalletType, lengthCm: v.length as number, widthCm: v.width as number, heightCm: v.height as number,
      weightCapacityKg: v.weightCapacity as number, locationCode: v.currentLocation?.trim().toUpperCase() ?? '',
    }));
    setBusy(false);
    if (done) form.resetFields();
  };
  const dimension = { min: 0.1, max: PALLET_DIMENSION_MAX_CM, style: { width: '34%' } };
  return (
    <Form form={form} layout="vertical" onFinish={submit} className="bolx-add-data-form">
      <ScopeNote needsCustomer={false} />
      <Form.Item name="palletType" label={t('addData.fields.palletType')} required>
        <Select {...selectProps} options={PALLET_TYPES.map((k) => ({ value: k, label: t(`addData.palletTypes.${k}`) }))} data-testid="pallet-type" />
      </Form.Item>
      <Form.Item label={t('addData.fields.dimensions')} required>
        <Space.Compact block>
          <Form.Item name="length" noStyle><InputNumber {...dimension} placeholder={t('addData.fields.length')} /></Form.Item>
          <Form.Item name="width" noStyle><InputNumber {...dimension} style={{ width: '33%' }} placeholder={t('addData.fields.width')} /></Form.Item>
          <Form.Item name="height" noStyle><InputNumber {...dimension} style={{ width: '33%' }} placeholder={t('addData.fields.height')} /></Form.Item>
        </Space.Compact>
      </Form.Item>
      <Form.Item name="weightCapacity" label={t('addData.fields.weightCapacity')} required>
        <InputNumber min={0.1} max={PALLET_WEIGHT_MAX_KG} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="currentLocation" label={t('addData.fields.currentLocation')} required>
        <Input maxLength={32} autoComplete="off" />
      </Form.Item>
      <Form.Item name="files" label={t('addData.fields.palletFile')} extra={t('addData.hints.pallet')}>
        <FilePicker max={FILE_LIMITS.pallets} kinds={SHEETS} />
      </Form.Item>
      <TemplateLink url="Warehouse/Pallet/DownloadPalletTemplate" fileName="pallet-template.xlsx" need={TEMPLATE_NEEDS.pallets} />
      <FormFooter label={t(files.length ? 'addData.submit' : 'addData.create')} disabled={!warehouseId} busy={busy} />
    </Form>
  );
}
