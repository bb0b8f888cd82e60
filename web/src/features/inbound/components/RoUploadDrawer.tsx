import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Col, DatePicker, Form, Input, Row, Table, Tag, Typography, Upload, type UploadFile } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { RO_DOCUMENT_MAX_BYTES, RO_UPLOAD_COLUMNS } from '@bolx/contracts';
import { useDownload } from '../../../components/download/use-download';
import { FormDrawer } from '../../../components/form-drawer/FormDrawer';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useT } from '../../../lib/i18n/use-t';
import { notifyError } from '../../../lib/toast';
import { errorBodyOf, inboundFiles, useUploadReceivingOrderMutation } from '../inbound-api';
import { rowErrorsOf, type RowError } from '../../../lib/api/upload-errors';
import { RO_FILE_EXTENSIONS, roFileProblem } from '../inbound-model';
import { ScopeFields, useRoScope } from './ScopeFields';

interface UploadValues {
  warehouseId?: number;
  customerId?: number;
  supplier?: string;
  expectedDeliveryDate?: Dayjs;
  referenceNumber?: string;
}

const REQUIRED_COLUMNS: readonly string[] = ['SKU', 'Expected Quantity'];

/**
 * Receiving orders from one CSV or XLSX sheet: rows sharing supplier, date and reference make one RO; the form's
 * supplier and date fill rows without them. Any bad row refuses the whole file and every problem is listed.
 */
export function RoUploadDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useT();
  const [form] = Form.useForm<UploadValues>();
  const { initial } = useRoScope();
  const [upload, { error, reset }] = useUploadReceivingOrderMutation();
  const [download, downloading] = useDownload();
  const [file, setFile] = useState<File | null>(null);
  const body = errorBodyOf(error);
  const { rows, notes } = rowErrorsOf(body?.details);
  const errorsRef = useRef<HTMLDivElement>(null);
  // The problems appear below the form: bring them into view.
  useEffect(() => {
    if (error) errorsRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, [error]);

  const close = () => {
    setFile(null);
    reset();
    onClose();
  };
  const submit = (v: UploadValues) => {
    if (!file) {
      notifyError(t('inbound.upload.fileRequired'));
      return Promise.resolve(undefined);
    }
    return runMutation(upload({
      warehouseId: v.warehouseId!, customerId: v.customerId!, file,
      supplier: v.supplier?.trim() || undefined,
      expectedDeliveryDate: v.expectedDeliveryDate?.format('YYYY-MM-DD'),
      referenceNumber: v.referenceNumber?.trim() || undefined,
    })).then((done) => {
      if (done) setFile(null);
      return done;
    });
  };
  const fileList: UploadFile[] = file ? [{ uid: 'file', name: file.name, size: file.size, status: 'done' }] : [];

  return (
    <FormDrawer<UploadValues>
      open={open}
      title={t('inbound.upload.title')}
      onClose={close}
      form={form}
      width={760}
      initialValues={initial}
      onSubmit={submit}
      submitLabel={t('inbound.upload.submit')}
      onValuesChange={() => reset()}
      extraActions={
        <Button icon={<DownloadOutlined />} loading={downloading} onClick={() => download(inboundFiles.template(), 'receiving-order-template.xlsx')}>
          {t('inbound.upload.template')}
        </Button>
      }
    >
      <ScopeFields />
      <Row gutter={16}>
        <Col xs={24} md={8}>
          <Form.Item name="supplier" label={t('inbound.fields.supplier')} extra={t('inbound.upload.defaultHint')} rules={[{ max: 128 }]}>
            <Input maxLength={128} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="expectedDeliveryDate" label={t('inbound.fields.expectedDeliveryDate')}>
            <DatePicker style={{ width: '100%' }} format="YYYY-MM-DD" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="referenceNumber" label={t('inbound.fields.referenceNumber')} rules={[{ max: 64 }]}>
            <Input maxLength={64} autoComplete="off" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item label={t('inbound.upload.file')} required>
        <Upload.Dragger
          accept={RO_FILE_EXTENSIONS.join(',')}
          maxCount={1}
          fileList={fileList}
          beforeUpload={(f) => {
            const problem = roFileProblem(f, RO_DOCUMENT_MAX_BYTES);
            if (problem) notifyError(t(`inbound.files.${problem}`));
            else {
              setFile(f);
              reset();
            }
            // Held here and sent with the form, never uploaded on its own.
            return Upload.LIST_IGNORE;
          }}
          onRemove={() => {
            setFile(null);
            reset();
          }}
        >
          <p className="ant-upload-drag-icon"><InboxOutlined /></p>
          <p className="ant-upload-text">{t('inbound.upload.drop')}</p>
          <p className="ant-upload-hint">{t('inbound.upload.columns', { columns: RO_UPLOAD_COLUMNS.join(', ') })}</p>
        </Upload.Dragger>
      </Form.Item>
      <Typography.Paragraph type="secondary" className="bolx-ro-upload__rules">
        {t('inbound.upload.rules', { required: REQUIRED_COLUMNS.join(', ') })}
      </Typography.Paragraph>
      {error && (
        <div data-testid="upload-errors" ref={errorsRef}>
          <Alert type="error" showIcon message={body?.message ?? t('inbound.upload.failed')} description={t('inbound.upload.nothingWritten')} style={{ marginBottom: 12 }} />
          {rows.length > 0 && (
            <Table<RowError>
              size="small"
              rowKey="key"
              dataSource={rows}
              pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
              columns={[
                { title: t('inbound.upload.row'), dataIndex: 'row', width: 80 },
                { title: t('inbound.upload.column'), dataIndex: 'column', width: 180, render: (c: string) => <Tag>{c}</Tag> },
                { title: t('inbound.upload.problem'), dataIndex: 'message' },
              ]}
            />
          )}
          {notes.map((n) => <Typography.Text key={n} type="secondary">{n}</Typography.Text>)}
        </div>
      )}
    </FormDrawer>
  );
}
