import { useState } from 'react';
import { Form, Input, InputNumber, Select } from 'antd';
import { selectProps } from '../../../../components/form/select-props';
import { runMutation } from '../../../../lib/api/mutation-toast';
import { useT } from '../../../../lib/i18n/use-t';
import { locationTypeOptions } from '../../../../features/locations/location-type-options';
import { useCreateLocationMutation, useGetLocationTypesQuery } from '../../../../features/locations/locations-api';
import { FILE_LIMITS, SHEETS } from './file-rules';
import { FilePicker, FormFooter, ScopeNote, TemplateLink, useAddDataScope } from './panel-parts';
import { useUploadRunner } from './use-upload-runner';
import { TEMPLATE_NEEDS } from './cards';
import { staffWrite } from '../../../../lib/access';
import { useMayAccess } from '../../../../lib/use-access';

interface LocationValues { locationType?: string; locationCode?: string; capacity?: number; description?: string; files?: File[] }

/**
 * Location: Location Type, Location Code, Capacity, Description, file. With a file, UploadLocations creates
 * every row of it (with a progress card); without one, CreateLocation creates the location of the fields.
 */
export function LocationForm({ onStarted }: { onStarted: () => void }) {
  const t = useT();
  const [form] = Form.useForm<LocationValues>();
  const files = Form.useWatch('files', form) ?? [];
  const { warehouseId } = useAddDataScope();
  const { start } = useUploadRunner();
  const { data: types } = useGetLocationTypesQuery();
  const [create] = useCreateLocationMutation();
  const [busy, setBusy] = useState(false);
  // The card is offered for either call; each part of the form only when its call would be allowed.
  const may = useMayAccess();
  const canUpload = may(staffWrite('LocationUpload'));
  const canCreate = may(staffWrite('CreateLocation'));
  const submit = async (v: LocationValues) => {
    const file = v.files?.[0];
    if (file) {
      start('LOC', { url: 'warehouse/Location/UploadLocations', file, fields: { warehouseId } }, [{ type: 'Location', id: 'LIST' }, { type: 'Location', id: 'OTHER_LIST' }, 'Dashboard']);
      onStarted();
      return;
    }
    setBusy(true);
    const done = await runMutation(create({
      warehouseId, locationCode: v.locationCode?.trim().toUpperCase() ?? '', locationType: v.locationType ?? '',
      capacity: v.capacity as number, description: v.description?.trim() || undefined,
    }));
    setBusy(false);
    if (done) form.resetFields();
  };
  return (
    <Form form={form} layout="vertical" onFinish={submit} className="bolx-add-data-form">
      <ScopeNote needsCustomer={false} />
      <Form.Item name="locationType" label={t('addData.fields.locationType')} required>
        <Select {...selectProps} options={locationTypeOptions(types, t)} />
      </Form.Item>
      <Form.Item name="locationCode" label={t('addData.fields.locationCode')} required>
        <Input maxLength={32} autoComplete="off" />
      </Form.Item>
      <Form.Item name="capacity" label={t('addData.fields.capacity')} required>
        <InputNumber min={0} precision={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="description" label={t('addData.fields.description')}>
        <Input.TextArea maxLength={255} autoSize={{ minRows: 2, maxRows: 4 }} />
      </Form.Item>
      {canUpload && (
        <Form.Item name="files" label={t('addData.fields.locationFile')} extra={t('addData.hints.location')}>
          <FilePicker max={FILE_LIMITS.locations} kinds={SHEETS} />
        </Form.Item>
      )}
      <TemplateLink url="warehouse/Location/DownloadLocationTemplate" fileName="location-template.xlsx" need={TEMPLATE_NEEDS.locations} />
      <FormFooter label={t(files.length ? 'addData.submit' : 'addData.create')} disabled={!warehouseId || (!files.length && !canCreate)} busy={busy} />
    </Form>
  );
}
