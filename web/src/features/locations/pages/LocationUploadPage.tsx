import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, Button, Card, Col, Form, Row, Space, Typography, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { DownloadOutlined, InboxOutlined, UploadOutlined } from '@ant-design/icons';
import { LOCATION_UPLOAD_COLUMNS } from '@bolx/contracts';
import { useDownload } from '../../../components/download/use-download';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useT } from '../../../lib/i18n/use-t';
import { notifyError } from '../../../lib/toast';
import { PageHeading } from '../components/PageHeading';
import { UploadErrorsTable } from '../components/UploadErrorsTable';
import { WarehouseField } from '../components/WarehouseField';
import { errorBodyOf, locationFiles, useUploadLocationsMutation } from '../locations-api';
import { rowErrorsOf } from '../../../lib/api/upload-errors';
import { UPLOAD_EXTENSIONS, uploadFileProblem } from '../upload-errors';
import { useWarehouseChoice } from '../use-warehouse-choice';
import '../locations.css';

interface Values {
  warehouseId?: number;
}

/** /LocationUpload: one CSV or XLSX sheet of locations; any bad row refuses the whole file and lists every problem. */
export default function LocationUploadPage() {
  const t = useT();
  const [form] = Form.useForm<Values>();
  const { initial } = useWarehouseChoice();
  const [download, downloading] = useDownload();
  const [upload, { isLoading, error, data, reset }] = useUploadLocationsMutation();
  const [file, setFile] = useState<File | null>(null);

  const errorBody = errorBodyOf(error);
  const rowErrors = rowErrorsOf(errorBody?.details);

  const onFinish = async ({ warehouseId }: Values) => {
    if (!file || !warehouseId) return;
    // A file taken is cleared, so the same rows are not sent twice.
    if (await runMutation(upload({ warehouseId, file }))) setFile(null);
  };

  const fileList: UploadFile[] = file ? [{ uid: 'file', name: file.name, size: file.size, status: 'done' }] : [];

  return (
    <div className="bolx-page">
      <PageHeading
        title={t('routes.LocationUpload')}
        subtitle={t('locations.upload.subtitle')}
        extra={
          <Button icon={<DownloadOutlined />} loading={downloading} onClick={() => download(locationFiles.template(), 'location-template.xlsx')}>
            {t('locations.upload.template')}
          </Button>
        }
      />
      <Row gutter={[20, 20]}>
        <Col xs={24} xl={14}>
          <Card title={t('locations.upload.fileCard')}>
            <Form<Values> form={form} layout="vertical" onFinish={onFinish} initialValues={{ warehouseId: initial }} onValuesChange={() => reset()}>
              <WarehouseField />
              <Form.Item label={t('locations.upload.file')} required>
                <Upload.Dragger
                  accept={UPLOAD_EXTENSIONS.join(',')}
                  maxCount={1}
                  fileList={fileList}
                  beforeUpload={(f) => {
                    const problem = uploadFileProblem(f);
                    if (problem) notifyError(t(`locations.upload.${problem === 'type' ? 'wrongType' : 'tooLarge'}`));
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
                  <p className="ant-upload-drag-icon">
                    <InboxOutlined />
                  </p>
                  <p className="ant-upload-text">{t('locations.upload.drop')}</p>
                  <p className="ant-upload-hint">{t('locations.upload.hint')}</p>
                </Upload.Dragger>
              </Form.Item>
              <Button type="primary" htmlType="submit" icon={<UploadOutlined />} loading={isLoading} disabled={!file}>
                {t('locations.upload.submit')}
              </Button>
            </Form>
          </Card>
          {data && (
            <Alert
              type="success"
              showIcon
              style={{ marginTop: 20 }}
              message={data.message}
              description={data.data.fileName}
              action={<Link to="/Location">{t('locations.create.viewList')}</Link>}
            />
          )}
          {error && (
            <Card style={{ marginTop: 20 }} title={t('locations.upload.errorsTitle')}>
              <UploadErrorsTable message={errorBody?.message ?? t('locations.upload.failed')} rows={rowErrors.rows} more={rowErrors.notes.join(' ') || null} />
            </Card>
          )}
        </Col>
        <Col xs={24} xl={10}>
          <Card title={t('locations.upload.formatTitle')}>
            <Space direction="vertical" size="small" style={{ width: '100%' }}>
              <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
                {t('locations.upload.formatText')}
              </Typography.Paragraph>
              <ul className="bolx-loc-upload__columns">
                {LOCATION_UPLOAD_COLUMNS.map((c) => (
                  <li key={c}>
                    <Typography.Text strong={['Location Code', 'Location Type', 'Capacity'].includes(c)}>{c}</Typography.Text>
                    {['Location Code', 'Location Type', 'Capacity'].includes(c) && <Typography.Text type="danger"> *</Typography.Text>}
                  </li>
                ))}
              </ul>
              <Typography.Text type="secondary">{t('locations.upload.rules')}</Typography.Text>
            </Space>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
