import { useState } from 'react';
import { DatePicker, Form, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { selectProps } from '../../../../components/form/select-props';
import { useT } from '../../../../lib/i18n/use-t';
import { useGetLocationsQuery } from '../../../../features/locations/locations-api';
import { FILE_LIMITS, SHEETS } from './file-rules';
import { FilePicker, FormFooter, ScopeNote, TemplateLink, useAddDataScope } from './panel-parts';
import { useUploadRunner } from './use-upload-runner';
import { TEMPLATE_NEEDS } from './cards';

interface InventoryValues { inventoryType?: string; locationId?: number; countDate?: Dayjs; files?: File[] }

/** Inventory: Inventory Type, Location, Count Date, count sheet → UploadInventory (through the stock ledger). */
export function InventoryForm({ onStarted }: { onStarted: () => void }) {
  const t = useT();
  const [form] = Form.useForm<InventoryValues>();
  const files = Form.useWatch('files', form) ?? [];
  const { warehouseId, customerId } = useAddDataScope();
  const { start } = useUploadRunner();
  const [search, setSearch] = useState('');
  const { data: locations, isFetching } = useGetLocationsQuery(
    { filters: { warehouseId, isActive: 'active' }, searchQuery: search, pageNumber: 1, pageSize: 50 },
    { skip: !warehouseId },
  );
  const ready = warehouseId > 0 && customerId > 0;
  const submit = (v: InventoryValues) => {
    start('INV', {
      url: 'Warehouse/Inventory/UploadInventory', file: v.files![0],
      fields: { warehouseId, customerId, inventoryType: v.inventoryType, locationId: v.locationId, countDate: v.countDate?.format('YYYY-MM-DD') },
    }, ['Stock', 'Pallet', 'StockReport', 'Dashboard']);
    onStarted();
  };
  return (
    <Form form={form} layout="vertical" onFinish={submit} initialValues={{ countDate: dayjs() }} className="bolx-add-data-form">
      <ScopeNote needsCustomer />
      <Form.Item name="inventoryType" label={t('addData.fields.inventoryType')} rules={[{ required: true, message: t('addData.validation.inventoryType') }]} extra={t('addData.hints.inventory')}>
        <Select {...selectProps} options={[
          { value: 'Opening Stock', label: t('addData.inventoryTypes.opening') },
          { value: 'Stock Count', label: t('addData.inventoryTypes.count') },
        ]} />
      </Form.Item>
      <Form.Item name="locationId" label={t('addData.fields.location')} rules={[{ required: true, message: t('addData.validation.location') }]}>
        <Select
          {...selectProps}
          showSearch
          filterOption={false}
          onSearch={setSearch}
          loading={isFetching}
          options={(locations?.items ?? []).map((l) => ({ value: l.locationId, label: l.locationCode }))}
        />
      </Form.Item>
      <Form.Item name="countDate" label={t('addData.fields.countDate')} rules={[{ required: true, message: t('addData.validation.countDate') }]}>
        <DatePicker style={{ width: '100%' }} format="YYYY-MM-DD" />
      </Form.Item>
      <Form.Item name="files" label={t('addData.fields.countSheet')}>
        <FilePicker max={FILE_LIMITS.inventory} kinds={SHEETS} />
      </Form.Item>
      <TemplateLink url="Warehouse/Inventory/DownloadInventoryTemplate" fileName="inventory-template.xlsx" need={TEMPLATE_NEEDS.inventory} />
      <FormFooter label={t('addData.submit')} disabled={!ready || files.length === 0} />
    </Form>
  );
}
