import { useState } from 'react';
import { Button, Form, Input, Select, Space, Typography, Upload, type UploadFile } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { DownloadOutlined, EditOutlined, UploadOutlined } from '@ant-design/icons';
import { useIntl } from 'react-intl';
import { CUSTOMER_DOCUMENT_MAX_BYTES, type CustomerDocument } from '@bolx/contracts';
import { useDownload } from '../../../components/download/use-download';
import { FormDrawer, useFormDrawer } from '../../../components/form-drawer/FormDrawer';
import { selectProps } from '../../../components/form/select-props';
import { TabList } from '../../../components/tab-list/TabList';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useT } from '../../../lib/i18n/use-t';
import { DOCUMENT_ACCEPT, documentProblem, fileSize } from '../customer-model';
import { useAddCustomerDocumentMutation, useGetClientDocumentTypesQuery, useGetDocumentTypesQuery, useUpdateCustomerDocumentMutation } from '../customers-api';

/** A customer's documents: upload (type and size checked first), change type/notes or replace the file, download. */
export function DocumentsTab({ customerId, canWrite }: { customerId: number; canWrite: boolean }) {
  const t = useT();
  const intl = useIntl();
  const { data: documents = [], isFetching } = useGetClientDocumentTypesQuery(customerId);
  const drawer = useFormDrawer<CustomerDocument>();
  const [download, downloading] = useDownload();
  const [downloadingId, setDownloadingId] = useState<number>();

  const onDownload = async (d: CustomerDocument) => {
    setDownloadingId(d.documentId);
    await download({ url: 'Warehouse/Customer/DownloadCustomerDocument', method: 'GET', params: { documentId: d.documentId } }, d.fileName);
    setDownloadingId(undefined);
  };

  const columns: ColumnsType<CustomerDocument> = [
    { key: 'documentTypeName', dataIndex: 'documentTypeName', title: t('customer.documents.type') },
    { key: 'fileName', title: t('customer.documents.file'), render: (_, d) => <Typography.Text>{d.fileName}</Typography.Text> },
    { key: 'sizeBytes', title: t('customer.documents.size'), align: 'right', render: (_, d) => fileSize(d.sizeBytes) },
    { key: 'notes', dataIndex: 'notes', title: t('customer.documents.notes'), render: (v: string | null) => v || '—' },
    { key: 'uploadedBy', dataIndex: 'uploadedBy', title: t('customer.documents.uploadedBy'), render: (v: string | null) => v || '—' },
    { key: 'updatedAt', title: t('customer.documents.updatedAt'), render: (_, d) => intl.formatDate(d.updatedAt, { dateStyle: 'medium', timeStyle: 'short' }) },
    {
      key: 'actions', title: t('table.actions'),
      render: (_, d) => (
        <Space size={0}>
          <Button
            type="link" size="small" icon={<DownloadOutlined />} loading={downloading && downloadingId === d.documentId}
            aria-label={`${t('customer.documents.download')} ${d.fileName}`} onClick={() => onDownload(d)}
          >
            {t('customer.documents.download')}
          </Button>
          {canWrite && (
            <Button type="link" size="small" icon={<EditOutlined />} aria-label={`${t('table.edit')} ${d.fileName}`} onClick={() => drawer.openEdit(d)}>
              {t('table.edit')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <TabList<CustomerDocument>
      intro={t('customer.documents.hint', { size: fileSize(CUSTOMER_DOCUMENT_MAX_BYTES) })}
      add={canWrite ? { label: t('customer.documents.upload'), icon: <UploadOutlined />, onClick: drawer.openCreate } : undefined}
      columns={columns}
      rows={documents}
      rowKey="documentId"
      loading={isFetching}
    >
      <DocumentFormDrawer customerId={customerId} open={drawer.open} document={drawer.editing} onClose={drawer.close} />
    </TabList>
  );
}

interface DocumentValues {
  documentTypeId: number;
  notes?: string;
  file?: UploadFile[];
}

function DocumentFormDrawer({ customerId, open, document, onClose }: { customerId: number; open: boolean; document?: CustomerDocument; onClose: () => void }) {
  const t = useT();
  const [form] = Form.useForm<DocumentValues>();
  const { data: types = [] } = useGetDocumentTypesQuery(undefined, { skip: !open });
  const [add] = useAddCustomerDocumentMutation();
  const [update] = useUpdateCustomerDocumentMutation();

  const submit = (values: DocumentValues) => {
    const body = new FormData();
    if (document) body.append('documentId', String(document.documentId));
    else body.append('customerId', String(customerId));
    body.append('documentTypeId', String(values.documentTypeId));
    if (values.notes?.trim()) body.append('notes', values.notes.trim());
    const file = values.file?.[0]?.originFileObj;
    // Fields first, the file last: the server reads the parts in order.
    if (file) body.append('file', file, file.name);
    return runMutation(document ? update({ customerId, form: body }) : add({ customerId, form: body }));
  };

  const fileRule = {
    validator: (_: unknown, list: UploadFile[] | undefined) => {
      const file = list?.[0];
      if (!file) return document ? Promise.resolve() : Promise.reject(new Error(t('customer.documents.fileRequired')));
      const problem = documentProblem({ name: file.name, size: file.size ?? 0 });
      if (problem === 'type') return Promise.reject(new Error(t('customer.documents.badType')));
      if (problem === 'empty') return Promise.reject(new Error(t('customer.documents.emptyFile')));
      if (problem === 'size') return Promise.reject(new Error(t('customer.documents.tooLarge', { size: fileSize(CUSTOMER_DOCUMENT_MAX_BYTES) })));
      return Promise.resolve();
    },
  };

  return (
    <FormDrawer<DocumentValues>
      open={open}
      title={t(document ? 'customer.documents.editTitle' : 'customer.documents.addTitle')}
      onClose={onClose}
      form={form}
      width={520}
      submitLabel={t(document ? 'form.save' : 'customer.documents.upload')}
      initialValues={document ? { documentTypeId: document.documentTypeId, notes: document.notes ?? '' } : {}}
      onSubmit={submit}
    >
      <Form.Item name="documentTypeId" label={t('customer.documents.type')} rules={[{ required: true, message: t('customer.documents.typeRequired') }]}>
        <Select {...selectProps} options={types.map((ty) => ({ value: ty.documentTypeId, label: ty.documentTypeName }))} />
      </Form.Item>
      <Form.Item
        name="file"
        label={t(document ? 'customer.documents.replaceFile' : 'customer.documents.file')}
        valuePropName="fileList"
        getValueFromEvent={(e: { fileList: UploadFile[] }) => e.fileList.slice(-1)}
        extra={t('customer.documents.hint', { size: fileSize(CUSTOMER_DOCUMENT_MAX_BYTES) })}
        rules={[fileRule]}
      >
        <Upload accept={DOCUMENT_ACCEPT} maxCount={1} beforeUpload={() => false}>
          <Button icon={<UploadOutlined />}>{t('customer.documents.choose')}</Button>
        </Upload>
      </Form.Item>
      <Form.Item name="notes" label={t('customer.documents.notes')}>
        <Input.TextArea rows={3} maxLength={1000} showCount />
      </Form.Item>
    </FormDrawer>
  );
}
