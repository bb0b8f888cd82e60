import { Form, Input, Select, Tag } from 'antd';
import { BARCODE_TYPES, type BarcodeType, type Sku, type SkuBarcode } from '@bolx/contracts';
import { FormDrawer, useFormDrawer } from '../../../components/form-drawer/FormDrawer';
import { selectProps } from '../../../components/form/select-props';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useT } from '../../../lib/i18n/use-t';
import { isGtinType, skuRules } from '../sku-rules';
import { useAddBarcodeMutation, useDeleteBarcodeMutation, useGetBarcodesQuery, useUpdateBarcodeMutation } from '../skus-api';
import { PartTab } from './PartTab';

interface BarcodeValues {
  barcodeType: BarcodeType;
  barcode: string;
}

/** The SKU's barcodes: unique per client; UPC, EAN and GTIN codes must carry a correct check digit. */
export function BarcodeTab({ sku, canWrite }: { sku: Sku; canWrite: boolean }) {
  const t = useT();
  const s = skuRules(t);
  const drawer = useFormDrawer<SkuBarcode>();
  const [form] = Form.useForm<BarcodeValues>();
  const type = Form.useWatch('barcodeType', form);
  const { data, isFetching } = useGetBarcodesQuery(sku.skuId);
  const [add] = useAddBarcodeMutation();
  const [update] = useUpdateBarcodeMutation();
  const [remove] = useDeleteBarcodeMutation();
  const editing = drawer.editing;

  const onSubmit = (v: BarcodeValues) => {
    const body = { barcodeType: v.barcodeType, barcode: v.barcode.trim() };
    return editing
      ? runMutation(update({ skuBarcodeId: editing.uniqueid, skuId: sku.skuId, body }))
      : runMutation(add({ ...body, skuId: sku.skuId }));
  };

  return (
    <PartTab<SkuBarcode>
      intro={t('skus.barcodes.intro')}
      rows={data}
      rowKey="uniqueid"
      loading={isFetching}
      canWrite={canWrite}
      addLabel={t('skus.barcodes.add')}
      onAdd={drawer.openCreate}
      onEdit={drawer.openEdit}
      onDelete={(b) => runMutation(remove({ barcodeid: b.uniqueid, skuId: sku.skuId }))}
      describe={(b) => b.barcode}
      columns={[
        { key: 'barcode', title: t('skus.barcodes.barcode'), dataIndex: 'barcode', render: (c: string) => <span className="bolx-mono">{c}</span> },
        { key: 'barcodeType', title: t('skus.barcodes.type'), dataIndex: 'barcodeType', render: (bt: BarcodeType) => <Tag color={isGtinType(bt) ? 'blue' : 'default'}>{bt}</Tag> },
        { key: 'updatedAt', title: t('skus.parts.updated'), dataIndex: 'updatedAt', render: (d: string) => new Date(d).toLocaleString() },
      ]}
    >
      <FormDrawer<BarcodeValues>
        open={drawer.open}
        title={editing ? t('skus.barcodes.edit') : t('skus.barcodes.add')}
        onClose={drawer.close}
        form={form}
        initialValues={editing ? { barcodeType: editing.barcodeType, barcode: editing.barcode } : { barcodeType: 'UPC' }}
        onSubmit={onSubmit}
        width={480}
      >
        <Form.Item name="barcodeType" label={t('skus.barcodes.type')} rules={[{ required: true, message: t('skus.validation.barcodeType') }]}>
          <Select {...selectProps} options={BARCODE_TYPES.map((bt) => ({ value: bt, label: bt }))} />
        </Form.Item>
        <Form.Item
          name="barcode"
          label={t('skus.barcodes.barcode')}
          dependencies={['barcodeType']}
          extra={isGtinType(type) ? t('skus.barcodes.checkDigitHint') : undefined}
          rules={[{ required: true, whitespace: true, message: t('skus.validation.barcode') }, { max: 64 }, s.barcode('barcodeType')]}
        >
          <Input maxLength={64} autoComplete="off" inputMode={isGtinType(type) ? 'numeric' : 'text'} />
        </Form.Item>
      </FormDrawer>
    </PartTab>
  );
}
