import { useEffect, useState } from 'react';
import { Button, Drawer, Form, Input, InputNumber, List, Space, Switch, Tag, Typography } from 'antd';
import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { CartonType } from '@bolx/contracts';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useT } from '../../../lib/i18n/use-t';
import { useGetCartonTypesQuery, useSaveCartonTypeMutation } from '../handheld-api';

interface CartonTypeForm {
  code: string; name: string; lengthCm: number; widthCm: number; heightCm: number; tareWeightKg: number; maxWeightKg?: number | null; isActive: boolean;
}

/** A manager's carton types of the warehouse: the list, and a form to add one or change one. */
export function CartonTypesDrawer({ open, warehouseId, onClose }: { open: boolean; warehouseId: number; onClose(): void }) {
  const t = useT();
  const { data } = useGetCartonTypesQuery({ warehouseId }, { skip: !open || !warehouseId });
  const [save, { isLoading }] = useSaveCartonTypeMutation();
  const [editing, setEditing] = useState<CartonType | 'new'>();
  const [form] = Form.useForm<CartonTypeForm>();

  useEffect(() => {
    if (editing === 'new') form.setFieldsValue({ code: '', name: '', lengthCm: undefined, widthCm: undefined, heightCm: undefined, tareWeightKg: 0, maxWeightKg: null, isActive: true } as never);
    else if (editing) form.setFieldsValue(editing);
  }, [editing, form]);

  const submit = async (v: CartonTypeForm) => {
    const saved = await runMutation(save({
      ...v, warehouseId, maxWeightKg: v.maxWeightKg ?? null,
      ...(editing && editing !== 'new' ? { cartonTypeId: editing.cartonTypeId } : {}),
    }));
    if (saved) setEditing(undefined);
  };
  const required = (field: string) => [{ required: true, message: t('handheld.cartonTypes.required', { field: field.toLowerCase() }) }];
  const size = (name: keyof CartonTypeForm, label: string) => (
    <Form.Item name={name} label={label} rules={required(label)}>
      <InputNumber min={0.1} max={1000} step={0.5} style={{ width: '100%' }} />
    </Form.Item>
  );

  return (
    <Drawer open={open} onClose={onClose} title={t('handheld.cartonTypes.title')} width="min(420px, 100vw)" destroyOnHidden
      extra={<Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>{t('handheld.cartonTypes.add')}</Button>}>
      {editing && (
        <Form form={form} layout="vertical" onFinish={(v) => { void submit(v); }} style={{ marginBottom: 16 }}>
          <Form.Item name="code" label={t('handheld.cartonTypes.code')} rules={required(t('handheld.cartonTypes.code'))}>
            <Input maxLength={32} autoFocus />
          </Form.Item>
          <Form.Item name="name" label={t('handheld.cartonTypes.name')} rules={required(t('handheld.cartonTypes.name'))}>
            <Input maxLength={64} />
          </Form.Item>
          {size('lengthCm', t('handheld.cartonTypes.length'))}
          {size('widthCm', t('handheld.cartonTypes.width'))}
          {size('heightCm', t('handheld.cartonTypes.height'))}
          <Form.Item name="tareWeightKg" label={t('handheld.cartonTypes.tare')} rules={required(t('handheld.cartonTypes.tare'))}>
            <InputNumber min={0} max={1000} step={0.05} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="maxWeightKg" label={t('handheld.cartonTypes.max')}>
            <InputNumber min={0.1} max={10000} step={1} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="isActive" label={t('handheld.cartonTypes.active')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" loading={isLoading}>{t('handheld.cartonTypes.save')}</Button>
            <Button onClick={() => setEditing(undefined)}>{t('handheld.pack.cancel')}</Button>
          </Space>
        </Form>
      )}
      <List
        dataSource={data?.items ?? []}
        rowKey="cartonTypeId"
        renderItem={(c) => (
          <List.Item actions={[<Button key="edit" type="link" icon={<EditOutlined />} onClick={() => setEditing(c)} aria-label={`${t('handheld.cartonTypes.edit')} ${c.code}`}>{t('handheld.cartonTypes.edit')}</Button>]}>
            <List.Item.Meta
              title={<Space><Typography.Text strong>{c.code}</Typography.Text>{!c.isActive && <Tag>{t('handheld.cartonTypes.inactive')}</Tag>}</Space>}
              description={`${c.name} · ${t('handheld.cartonTypes.size', { l: c.lengthCm, w: c.widthCm, h: c.heightCm })} · ${c.tareWeightKg} kg${c.maxWeightKg ? ` (≤ ${c.maxWeightKg} kg)` : ''}`}
            />
          </List.Item>
        )}
      />
    </Drawer>
  );
}
