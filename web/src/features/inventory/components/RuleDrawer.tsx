import { Col, Form, InputNumber, Row, Switch } from 'antd';
import { FormDrawer } from '../../../components/form-drawer/FormDrawer';
import { skuLabel } from '../../../components/sku-select/SkuSelect';
import { rules } from '../../../lib/form-rules';
import { useT } from '../../../lib/i18n/use-t';
import { useKeyedAction } from '../../../lib/action-key';
import { useSaveReplenishmentRuleMutation, type ReplenishmentRule } from '../inventory-api';
import { useInventoryScope } from '../use-inventory-scope';
import { PlaceFields, type PlaceValues } from './PlaceFields';
import { useResolveLocation } from './use-resolve-location';

type RuleValues = PlaceValues & { minQty: number; maxQty: number; isActive: boolean };

/** Min/max for a SKU at a pick location: below min, a task brings it back up to max from bulk storage. */
export function RuleDrawer({ open, rule, onClose }: { open: boolean; rule?: ReplenishmentRule; onClose: () => void }) {
  const t = useT();
  const r = rules(t);
  const [form] = Form.useForm<RuleValues>();
  const { warehouseId, customerId } = useInventoryScope('ProductReplenishment');
  const [save] = useSaveReplenishmentRuleMutation();
  const resolve = useResolveLocation();
  const act = useKeyedAction();
  const submit = async (v: RuleValues) => {
    const { location, error } = await resolve(v.warehouseId, v.locationCode);
    if (!location) {
      form.setFields([{ name: 'locationCode', errors: [error ?? t('inventory.move.unknownLocation')] }]);
      return undefined;
    }
    return act('rule', {
      warehouseId: v.warehouseId, customerId: v.customerId, skuId: v.skuId, locationId: location.locationId,
      minQty: v.minQty, maxQty: v.maxQty, isActive: v.isActive,
    }, save);
  };
  return (
    <FormDrawer<RuleValues>
      open={open}
      title={t(rule ? 'inventory.replenishment.editRule' : 'inventory.replenishment.addRule')}
      onClose={onClose}
      form={form}
      initialValues={rule
        ? { warehouseId: rule.warehouseId, customerId: rule.customerId, skuId: rule.skuId, locationCode: rule.locationCode, minQty: rule.minQty, maxQty: rule.maxQty, isActive: rule.isActive }
        : { warehouseId: warehouseId || undefined, customerId: customerId || undefined, isActive: true }}
      onSubmit={submit}
    >
      <PlaceFields form={form} lotAndPallet={false} skuLabel={rule && skuLabel({ skuCode: rule.skuCode, description: rule.skuDescription })} />
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="minQty" label={t('inventory.fields.minQty')} rules={[r.required('minQty')]}>
            <InputNumber min={0} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="maxQty" label={t('inventory.fields.maxQty')} dependencies={['minQty']} rules={[
            r.required('maxQty'),
            ({ getFieldValue }) => ({
              validator: (_, v) => (v == null || v > (getFieldValue('minQty') ?? -1) ? Promise.resolve() : Promise.reject(new Error(t('inventory.replenishment.maxAboveMin')))),
            }),
          ]}>
            <InputNumber min={1} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="isActive" label={t('inventory.fields.active')} valuePropName="checked"><Switch /></Form.Item>
    </FormDrawer>
  );
}
