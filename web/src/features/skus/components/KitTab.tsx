import { Alert, Form, InputNumber, Tag } from 'antd';
import type { KitComponent, Sku } from '@bolx/contracts';
import { FormDrawer, useFormDrawer } from '../../../components/form-drawer/FormDrawer';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useT } from '../../../lib/i18n/use-t';
import { useAddKitComponentMutation, useDeleteKitComponentMutation, useGetKitComponentsQuery, useUpdateKitComponentMutation } from '../skus-api';
import { PartTab } from './PartTab';
import { SkuSelect } from '../../../components/sku-select/SkuSelect';

interface KitValues {
  componentSkuId: number;
  quantity: number;
}

/**
 * A kit's components: SKUs of the same client with a quantity per kit. A kit can never contain itself, directly
 * or through another kit; the server decides (it sees every kit) and its message shows on the field and as a toast.
 */
export function KitTab({ sku, canWrite }: { sku: Sku; canWrite: boolean }) {
  const t = useT();
  const drawer = useFormDrawer<KitComponent>();
  const [form] = Form.useForm<KitValues>();
  const { data, isFetching } = useGetKitComponentsQuery(sku.skuId, { skip: !sku.iskititem });
  const [add] = useAddKitComponentMutation();
  const [update] = useUpdateKitComponentMutation();
  const [remove] = useDeleteKitComponentMutation();
  const editing = drawer.editing;

  const onSubmit = (v: KitValues) => {
    const showOnField = { onError: (e: { details: string }) => form.setFields([{ name: 'componentSkuId', errors: [e.details] }]) };
    return editing
      ? runMutation(update({ uniqueid: editing.uniqueid, componentSkuId: v.componentSkuId, quantity: v.quantity, kitSkuId: sku.skuId }), showOnField)
      : runMutation(add({ kitSkuId: sku.skuId, componentSkuId: v.componentSkuId, quantity: v.quantity }), showOnField);
  };

  return (
    <PartTab<KitComponent>
      intro={t('skus.kits.intro', { code: sku.skuCode })}
      rows={data}
      rowKey="uniqueid"
      loading={isFetching}
      canWrite={canWrite}
      addLabel={t('skus.kits.add')}
      onAdd={drawer.openCreate}
      onEdit={drawer.openEdit}
      onDelete={(k) => runMutation(remove({ kitid: k.uniqueid, kitSkuId: sku.skuId }))}
      describe={(k) => k.componentSkuCode}
      notice={sku.iskititem ? undefined : <Alert type="info" showIcon message={t('skus.kits.notKit')} description={t('skus.kits.notKitHint')} />}
      columns={[
        { key: 'componentSkuCode', title: t('skus.kits.component'), dataIndex: 'componentSkuCode' },
        { key: 'componentDescription', title: t('skus.col.description'), dataIndex: 'componentDescription' },
        { key: 'quantity', title: t('skus.kits.quantity'), dataIndex: 'quantity', align: 'right' },
        { key: 'componentIsKit', title: t('skus.col.type'), dataIndex: 'componentIsKit', render: (k: boolean) => (k ? <Tag color="purple">{t('skus.kit')}</Tag> : t('skus.standard')) },
      ]}
    >
      <FormDrawer<KitValues>
        open={drawer.open}
        title={editing ? t('skus.kits.edit', { code: editing.componentSkuCode }) : t('skus.kits.add')}
        onClose={drawer.close}
        form={form}
        initialValues={editing ? { componentSkuId: editing.componentSkuId, quantity: editing.quantity } : { quantity: 1 }}
        onSubmit={onSubmit}
        width={520}
      >
        <Form.Item name="componentSkuId" label={t('skus.kits.component')} rules={[{ required: true, message: t('skus.validation.component') }]}
          extra={t('skus.kits.componentHint')}>
          <SkuSelect customerId={sku.customerId} exclude={[sku.skuId]}
            initialLabel={editing ? `${editing.componentSkuCode} — ${editing.componentDescription}` : undefined} />
        </Form.Item>
        <Form.Item name="quantity" label={t('skus.kits.quantity')} rules={[{ required: true, message: t('skus.validation.quantity') }]}>
          <InputNumber min={1} max={1000000} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </FormDrawer>
    </PartTab>
  );
}
