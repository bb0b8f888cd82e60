import { useEffect, useMemo, useReducer } from 'react';
import { Col, Form, Input, InputNumber, Row, Select, Tag } from 'antd';
import { PACKAGE_TYPES, type PackageNode, type Sku } from '@bolx/contracts';
import { FormDrawer, useFormDrawer } from '../../../components/form-drawer/FormDrawer';
import { selectProps } from '../../../components/form/select-props';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useT } from '../../../lib/i18n/use-t';
import { flattenPackages, initialPackageDropdown, packageDropdownReducer } from '../package-dropdown';
import { formatDimensions, formatWeight } from '../sku-format';
import { skuRules } from '../sku-rules';
import { useAddPackageMutation, useDeletePackageMutation, useGetPackageTreeQuery, useUpdatePackageMutation } from '../skus-api';
import { PartTab } from './PartTab';

interface PackageValues {
  packageType: (typeof PACKAGE_TYPES)[number];
  packageName: string;
  parentId?: number | null;
  childId?: number | null;
  quantity: number;
  lengthCm?: number | null;
  widthCm?: number | null;
  heightCm?: number | null;
  weightKg?: number | null;
  gtin?: string | null;
}

/** A tree row: childPackages only when there are some, so leaves show no expand button. */
type PackageRow = Omit<PackageNode, 'childPackages'> & { childPackages?: PackageRow[] };
const toRows = (nodes: PackageNode[]): PackageRow[] =>
  nodes.map((n) => ({ ...n, childPackages: n.childPackages.length ? toRows(n.childPackages) : undefined }));

/** The ids of a package and everything inside it: a package cannot move inside itself. */
function selfAndDescendants(node: PackageNode | undefined): Set<number> {
  const ids = new Set<number>();
  const walk = (n: PackageNode) => { ids.add(n.uniqueId); n.childPackages.forEach(walk); };
  if (node) walk(node);
  return ids;
}

/**
 * The SKU's packaging levels as a hierarchy (pallet › case › inner › each), each with its quantity per parent,
 * dimensions, weight and GTIN. The parent is chosen with the spec's parent/child dropdown pair (section 4).
 */
export function PackageTab({ sku, canWrite }: { sku: Sku; canWrite: boolean }) {
  const t = useT();
  const s = skuRules(t);
  const drawer = useFormDrawer<PackageRow>();
  const [form] = Form.useForm<PackageValues>();
  const { data: tree, isFetching } = useGetPackageTreeQuery({ skuid: sku.skuId });
  const [add] = useAddPackageMutation();
  const [update] = useUpdatePackageMutation();
  const [remove] = useDeletePackageMutation();
  const editing = drawer.editing;

  // The parent list is every package of the SKU (any depth); reloading it clears both lists.
  const flat = useMemo(() => flattenPackages(tree ?? []), [tree]);
  const [dropdown, dispatch] = useReducer(packageDropdownReducer, initialPackageDropdown);
  useEffect(() => {
    dispatch(isFetching ? { type: 'parentsReloading' } : { type: 'parentsLoaded', parents: flat.map((f) => f.node) });
  }, [flat, isFetching]);
  const pathOf = useMemo(() => new Map(flat.map((f) => [f.node.uniqueId, f.path])), [flat]);

  const blocked = useMemo(
    () => (editing ? selfAndDescendants(flat.find((f) => f.node.uniqueId === editing.uniqueId)?.node) : new Set<number>()),
    [editing, flat],
  );
  const parentOptions = dropdown.parents.filter((p) => !blocked.has(p.uniqueId)).map((p) => ({ value: p.uniqueId, label: pathOf.get(p.uniqueId) ?? p.packageName }));
  const childOptions = dropdown.children.filter((c) => !blocked.has(c.uniqueId)).map((c) => ({ value: c.uniqueId, label: c.packageName }));

  // Opening the drawer puts the pair on the record's parent (or none).
  useEffect(() => {
    if (drawer.open) dispatch({ type: 'parentSelected', parentId: editing?.parentPackageId ?? null });
  }, [drawer.open, editing]);

  const onValuesChange = (changed: Partial<PackageValues>) => {
    if ('parentId' in changed) {
      dispatch({ type: 'parentSelected', parentId: changed.parentId ?? null });
      form.setFieldValue('childId', null);
    }
    if ('childId' in changed) dispatch({ type: 'childSelected', childId: changed.childId ?? null });
  };

  const onSubmit = (v: PackageValues) => {
    const body = {
      packageType: v.packageType, packageName: v.packageName.trim(), parentPackageId: v.childId ?? v.parentId ?? null, quantity: v.quantity,
      lengthCm: v.lengthCm ?? null, widthCm: v.widthCm ?? null, heightCm: v.heightCm ?? null, weightKg: v.weightKg ?? null,
      gtin: v.gtin?.trim() ? v.gtin.trim() : null,
    };
    return editing
      ? runMutation(update({ SkuPackId: editing.packageid, skuId: sku.skuId, body }))
      : runMutation(add({ ...body, skuId: sku.skuId, customerid: sku.customerId }));
  };

  const measure = (name: keyof PackageValues, label: string, unit: string) => (
    <Col xs={12} md={6}>
      <Form.Item name={name} label={label} rules={[s.measure(label)]}>
        <InputNumber min={0} addonAfter={unit} style={{ width: '100%' }} />
      </Form.Item>
    </Col>
  );

  return (
    <PartTab<PackageRow>
      intro={t('skus.packages.intro')}
      rows={tree ? toRows(tree) : undefined}
      rowKey="packageid"
      loading={isFetching}
      canWrite={canWrite}
      addLabel={t('skus.packages.add')}
      onAdd={drawer.openCreate}
      onEdit={drawer.openEdit}
      onDelete={(p) => runMutation(remove({ packageid: p.packageid, skuId: sku.skuId }))}
      describe={(p) => p.packageName}
      childrenColumnName="childPackages"
      columns={[
        { key: 'packageName', title: t('skus.packages.name'), dataIndex: 'packageName' },
        { key: 'packageType', title: t('skus.packages.type'), dataIndex: 'packageType', render: (pt: string) => <Tag>{pt}</Tag> },
        {
          key: 'quantity', title: t('skus.packages.quantity'), dataIndex: 'quantity', align: 'right',
          render: (q: number, p) => (p.parentPackageId == null ? q : t('skus.packages.perParent', { quantity: q, parent: pathOf.get(p.parentPackageId)?.split(' › ').pop() ?? '' })),
        },
        { key: 'dimensions', title: t('skus.col.dimensions'), render: (_, p) => formatDimensions(p) },
        { key: 'weight', title: t('skus.col.weight'), render: (_, p) => formatWeight(p.weightKg) },
        { key: 'gtin', title: t('skus.packages.gtin'), dataIndex: 'gtin', render: (g: string | null) => (g ? <span className="bolx-mono">{g}</span> : '—') },
      ]}
    >
      <FormDrawer<PackageValues>
        open={drawer.open}
        title={editing ? t('skus.packages.edit', { name: editing.packageName }) : t('skus.packages.add')}
        onClose={drawer.close}
        form={form}
        initialValues={editing
          ? { packageType: editing.packageType as PackageValues['packageType'], packageName: editing.packageName, parentId: editing.parentPackageId,
              childId: null, quantity: editing.quantity, lengthCm: editing.lengthCm, widthCm: editing.widthCm, heightCm: editing.heightCm,
              weightKg: editing.weightKg, gtin: editing.gtin }
          : { packageType: 'Case', quantity: 1, parentId: null, childId: null }}
        onValuesChange={onValuesChange}
        onSubmit={onSubmit}
        width={640}
      >
        <Row gutter={16}>
          <Col xs={24} md={10}>
            <Form.Item name="packageType" label={t('skus.packages.type')} rules={[{ required: true, message: t('skus.validation.packageType') }]}>
              <Select {...selectProps} options={PACKAGE_TYPES.map((pt) => ({ value: pt, label: pt }))} />
            </Form.Item>
          </Col>
          <Col xs={24} md={14}>
            <Form.Item name="packageName" label={t('skus.packages.name')} rules={[{ required: true, whitespace: true, message: t('skus.validation.packageName') }, { max: 100 }]}>
              <Input maxLength={100} placeholder={t('skus.packages.namePlaceholder')} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="parentId" label={t('skus.packages.parent')} extra={t('skus.packages.parentHint')}>
              <Select {...selectProps} allowClear options={parentOptions} placeholder={t('skus.packages.noParent')}
                notFoundContent={t('skus.packages.noPackages')} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="childId" label={t('skus.packages.child')} extra={t('skus.packages.childHint')}>
              <Select {...selectProps} allowClear options={childOptions} disabled={!childOptions.length}
                placeholder={dropdown.parentId == null ? t('skus.packages.pickParentFirst') : t('skus.packages.noChildren')} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="quantity" label={t('skus.packages.quantity')} extra={t('skus.packages.quantityHint')}
              rules={[{ required: true, message: t('skus.validation.quantity') }]}>
              <InputNumber min={1} max={1000000} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="gtin" label={t('skus.packages.gtin')} rules={[s.gtin()]}>
              <Input maxLength={14} inputMode="numeric" />
            </Form.Item>
          </Col>
          {measure('lengthCm', t('skus.field.length'), 'cm')}
          {measure('widthCm', t('skus.field.width'), 'cm')}
          {measure('heightCm', t('skus.field.height'), 'cm')}
          {measure('weightKg', t('skus.field.weight'), 'kg')}
        </Row>
      </FormDrawer>
    </PartTab>
  );
}
