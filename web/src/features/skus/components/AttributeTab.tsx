import { Form, Input } from 'antd';
import type { Sku, SkuAttribute } from '@bolx/contracts';
import { FormDrawer, useFormDrawer } from '../../../components/form-drawer/FormDrawer';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useT } from '../../../lib/i18n/use-t';
import { useAddAttributeMutation, useDeleteAttributeMutation, useGetAttributesQuery, useUpdateAttributeMutation } from '../skus-api';
import { PartTab } from './PartTab';

interface AttributeValues {
  attributeName: string;
  attributeValue: string;
}

/** Name/value attributes of the SKU (colour, material, country of origin…), one value per name. */
export function AttributeTab({ sku, canWrite }: { sku: Sku; canWrite: boolean }) {
  const t = useT();
  const drawer = useFormDrawer<SkuAttribute>();
  const [form] = Form.useForm<AttributeValues>();
  const { data, isFetching } = useGetAttributesQuery(sku.skuId);
  const [add] = useAddAttributeMutation();
  const [update] = useUpdateAttributeMutation();
  const [remove] = useDeleteAttributeMutation();
  const editing = drawer.editing;

  const onSubmit = (v: AttributeValues) => {
    const body = { attributeName: v.attributeName.trim(), attributeValue: v.attributeValue.trim() };
    return editing
      ? runMutation(update({ attributeid: editing.uniqueid, skuId: sku.skuId, body }))
      : runMutation(add({ ...body, skuId: sku.skuId }));
  };

  return (
    <PartTab<SkuAttribute>
      intro={t('skus.attributes.intro')}
      rows={data}
      rowKey="uniqueid"
      loading={isFetching}
      canWrite={canWrite}
      addLabel={t('skus.attributes.add')}
      onAdd={drawer.openCreate}
      onEdit={drawer.openEdit}
      onDelete={(a) => runMutation(remove({ attributeid: a.uniqueid, skuId: sku.skuId }))}
      describe={(a) => a.attributeName}
      columns={[
        { key: 'attributeName', title: t('skus.attributes.name'), dataIndex: 'attributeName' },
        { key: 'attributeValue', title: t('skus.attributes.value'), dataIndex: 'attributeValue' },
        { key: 'updatedAt', title: t('skus.parts.updated'), dataIndex: 'updatedAt', render: (d: string) => new Date(d).toLocaleString() },
      ]}
    >
      <FormDrawer<AttributeValues>
        open={drawer.open}
        title={editing ? t('skus.attributes.edit') : t('skus.attributes.add')}
        onClose={drawer.close}
        form={form}
        initialValues={editing ? { attributeName: editing.attributeName, attributeValue: editing.attributeValue } : {}}
        onSubmit={onSubmit}
        width={480}
      >
        <Form.Item name="attributeName" label={t('skus.attributes.name')} rules={[{ required: true, whitespace: true, message: t('skus.validation.attributeName') }, { max: 100 }]}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="attributeValue" label={t('skus.attributes.value')} rules={[{ required: true, whitespace: true, message: t('skus.validation.attributeValue') }, { max: 500 }]}>
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 6 }} />
        </Form.Item>
      </FormDrawer>
    </PartTab>
  );
}
