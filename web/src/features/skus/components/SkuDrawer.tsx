import { Form } from 'antd';
import type { Sku } from '@bolx/contracts';
import { useAppSelector } from '../../../lib/hooks';
import { FormDrawer, type DrawerTarget } from '../../../components/form-drawer/FormDrawer';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useT } from '../../../lib/i18n/use-t';
import { useAddSkuMutation, useUpdateSkuMutation } from '../skus-api';
import { SKU_FORM_DEFAULTS, SkuFormFields, skuBody, skuFormValues, type SkuFormValues } from './SkuFormFields';

/** Add or edit a SKU. `onSaved` gets the saved SKU (the list opens a new one). */
export function SkuDrawer({ target, onClose, onSaved }: { target: DrawerTarget<Sku>; onClose: () => void; onSaved?: (sku: Sku, created: boolean) => void }) {
  const t = useT();
  const [form] = Form.useForm<SkuFormValues>();
  const headerCustomer = useAppSelector((s) => s.header.clientsSelectedIDs);
  const [addSku] = useAddSkuMutation();
  const [updateSku] = useUpdateSkuMutation();
  const editing = target?.mode === 'edit' ? target.record : undefined;

  const initialValues: Partial<SkuFormValues> = editing
    ? skuFormValues(editing)
    : { ...SKU_FORM_DEFAULTS, customerId: headerCustomer || undefined };

  const onSubmit = async (values: SkuFormValues) => {
    const body = skuBody(values);
    const result = editing
      ? await runMutation(updateSku({ ...body, skuId: editing.skuId }))
      : await runMutation(addSku({ ...body, customerId: values.customerId! }));
    if (result) onSaved?.(result.data, !editing);
    return result;
  };

  return (
    <FormDrawer<SkuFormValues>
      open={target !== null}
      title={editing ? t('skus.edit', { code: editing.skuCode }) : t('skus.add')}
      onClose={onClose}
      form={form}
      initialValues={initialValues}
      onSubmit={onSubmit}
      width={760}
    >
      <SkuFormFields editing={Boolean(editing)} />
    </FormDrawer>
  );
}
