import { useState } from 'react';
import { Button, Empty, Table, Typography, Upload } from 'antd';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useIntl } from 'react-intl';
import { MAX_RO_DOCUMENTS, RO_DOCUMENT_MAX_BYTES, type ReceivingOrderDetail } from '@bolx/contracts';
import { useDownload } from '../../../components/download/use-download';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useT } from '../../../lib/i18n/use-t';
import { notifyError } from '../../../lib/toast';
import { inboundFiles, useAddReceivingOrderDocumentMutation } from '../inbound-api';
import { RO_FILE_EXTENSIONS, roFileProblem } from '../inbound-model';

type Doc = ReceivingOrderDetail['documents'][number];

/** An RO's documents (spec section 5: up to 3, Excel or CSV): download; staff add more. */
export function RoDocuments({ order, canWrite }: { order: ReceivingOrderDetail; canWrite: boolean }) {
  const t = useT();
  const intl = useIntl();
  const [download] = useDownload();
  const [busyId, setBusyId] = useState<number>();
  const [add, { isLoading }] = useAddReceivingOrderDocumentMutation();
  const full = order.documents.length >= MAX_RO_DOCUMENTS;

  return (
    <div className="bolx-ro-docs">
      <div className="bolx-ro-docs__bar">
        <Typography.Text type="secondary">{t('inbound.docs.hint', { max: MAX_RO_DOCUMENTS, size: Math.round(RO_DOCUMENT_MAX_BYTES / 1024 / 1024) })}</Typography.Text>
        {canWrite && (
          <Upload
            accept={RO_FILE_EXTENSIONS.join(',')}
            showUploadList={false}
            disabled={full || isLoading}
            beforeUpload={(file) => {
              const problem = roFileProblem(file, RO_DOCUMENT_MAX_BYTES);
              if (problem) notifyError(t(`inbound.files.${problem}`));
              else void runMutation(add({ receivingOrderId: order.receivingOrderId, file }));
              return Upload.LIST_IGNORE;
            }}
          >
            <Button icon={<UploadOutlined />} loading={isLoading} disabled={full}>{t('inbound.docs.add')}</Button>
          </Upload>
        )}
      </div>
      <Table<Doc>
        rowKey="documentId"
        size="small"
        dataSource={order.documents}
        pagination={false}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('table.noRecord')} /> }}
        columns={[
          { key: 'fileName', dataIndex: 'fileName', title: t('inbound.docs.file') },
          { key: 'sizeBytes', dataIndex: 'sizeBytes', title: t('inbound.docs.size'), align: 'right', render: (b: number) => `${intl.formatNumber(Math.max(1, Math.round(b / 1024)))} KB` },
          { key: 'uploadedAt', dataIndex: 'uploadedAt', title: t('inbound.docs.uploadedAt'), render: (v: string) => intl.formatDate(v, { dateStyle: 'medium', timeStyle: 'short' }) },
          {
            key: 'actions', title: t('table.actions'),
            render: (_, d) => (
              <Button
                type="link" size="small" icon={<DownloadOutlined />} loading={busyId === d.documentId}
                onClick={async () => { setBusyId(d.documentId); await download(inboundFiles.document(d.documentId), d.fileName); setBusyId(undefined); }}
              >
                {t('inbound.docs.download')}
              </Button>
            ),
          },
        ]}
      />
    </div>
  );
}
