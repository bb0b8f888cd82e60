import { useEffect, useMemo, useReducer } from 'react';
import { Col, Form, InputNumber, Row, Select, Typography } from 'antd';
import type { DimensionRow } from '@bolx/contracts';
import { FormDrawer, type DrawerTarget } from '../../../components/form-drawer/FormDrawer';
import { selectProps } from '../../../components/form/select-props';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useT } from '../../../lib/i18n/use-t';
import { flattenPackages, initialPackageDropdown, packageDropdownReducer } from '../package-dropdown';
import { skuRules } from '../sku-rules';
import { useGetPackageTreeQuery, useUpdateDimensionsMutation } from '../skus-api';
import { SkuSelect } from '../../../components/sku-select/SkuSelect';

interface DimensionValues {
  skuId?: number;
  parentId?: number | null;
  childId?: number | null;
  lengthCm?: number;
  widthCm?: number;
  heightCm?: number;
  weightKg?: number;
}

/**
 * Capture L×W×H and weight of a SKU, or of one of its packages picked with the parent/child package dropdowns
 * (spec section 4). From a row, the SKU and package are fixed; from "Capture" they are chosen.
 */
export function DimensionsDrawer({ target, onClose, customerId }: { target: DrawerTarget<DimensionRow>; onClose: () => void; customerId?: number }) {
  const t = useT();
  const s = skuRules(t);
  const [form] = Form.useForm<DimensionValues>();
  const [save] = useUpdateDimensionsMutation();
  const row = target?.mode === 'edit' ? target.record : undefined;
  const skuId = Form.useWatch('skuId', form) ?? row?.skuId;

  const { data: tree, isFetching } = useGetPackageTreeQuery({ skuid: skuId! }, { skip: !skuId || Boolean(row) });
  const flat = useMemo(() => flattenPackages(tree ?? []), [tree]);
  const [dropdown, dispatch] = useReducer(packageDropdownReducer, initialPackageDropdown);
  useEffect(() => {
    dispatch(isFetching || !skuId ? { type: 'parentsReloading' } : { type: 'parentsLoaded', parents: flat.map((f) => f.node) });
  }, [flat, isFetching, skuId]);

  const onValuesChange = (changed: Partial<DimensionValues>) => {
    if ('skuId' in changed) form.setFieldsValue({ parentId: null, childId: null });
    if ('parentId' in changed) {
      dispatch({ type: 'parentSelected', parentId: changed.parentId ?? null });
      form.setFieldValue('childId', null);
    }
    if ('childId' in changed) dispatch({ type: 'childSelected', childId: changed.childId ?? null });
  };

  const onSubmit = (v: DimensionValues) =>
    runMutation(save({
      skuId: row?.skuId ?? v.skuId!,
      packageId: row ? row.packageId : (v.childId ?? v.parentId ?? null),
      lengthCm: v.lengthCm!, widthCm: v.widthCm!, heightCm: v.heightCm!, weightKg: v.weightKg!,
    }));

  const measure = (name: keyof DimensionValues, label: string, unit: string) => (
    <Col xs={12}>
      <Form.Item name={name} label={label} rules={[{ required: true, message: t('skus.validation.measure', { label }) }, s.measure(label)]}>
        <InputNumber min={0} addonAfter={unit} style={{ width: '100%' }} />
      </Form.Item>
    </Col>
  );

  return (
    <FormDrawer<DimensionValues>
      open={target !== null}
      title={row ? t('dimensions.captureFor', { name: row.packageName ? `${row.skuCode} · ${row.packageName}` : row.skuCode }) : t('dimensions.capture')}
      onClose={onClose}
      form={form}
      width={520}
      initialValues={row
        ? { lengthCm: row.lengthCm ?? undefined, widthCm: row.widthCm ?? undefined, heightCm: row.heightCm ?? undefined, weightKg: row.weightKg ?? undefined }
        : {}}
      onValuesChange={onValuesChange}
      onSubmit={onSubmit}
    >
      {row ? (
        <Typography.Paragraph type="secondary">{row.description} · {row.customerName}</Typography.Paragraph>
      ) : (
        <>
          <Form.Item name="skuId" label={t('dimensions.sku')} rules={[{ required: true, message: t('skus.validation.sku') }]}>
            <SkuSelect customerId={customerId || undefined} />
          </Form.Item>
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item name="parentId" label={t('skus.packages.parent')} extra={t('dimensions.packageHint')}>
                <Select {...selectProps} allowClear disabled={!skuId} placeholder={t('dimensions.skuItself')}
                  options={dropdown.parents.map((p) => ({ value: p.uniqueId, label: flat.find((f) => f.node.uniqueId === p.uniqueId)?.path ?? p.packageName }))}
                  notFoundContent={t('skus.packages.noPackages')} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="childId" label={t('skus.packages.child')}>
                <Select {...selectProps} allowClear disabled={!dropdown.children.length}
                  placeholder={dropdown.parentId == null ? t('skus.packages.pickParentFirst') : t('skus.packages.noChildren')}
                  options={dropdown.children.map((c) => ({ value: c.uniqueId, label: c.packageName }))} />
              </Form.Item>
            </Col>
          </Row>
        </>
      )}
      <Row gutter={16}>
        {measure('lengthCm', t('skus.field.length'), 'cm')}
        {measure('widthCm', t('skus.field.width'), 'cm')}
        {measure('heightCm', t('skus.field.height'), 'cm')}
        {measure('weightKg', t('skus.field.weight'), 'kg')}
      </Row>
    </FormDrawer>
  );
}
