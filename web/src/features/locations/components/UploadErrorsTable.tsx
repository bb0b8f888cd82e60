import { useEffect, useRef } from 'react';
import { Alert, Table, Tag, Typography } from 'antd';
import { useT } from '../../../lib/i18n/use-t';
import type { RowError } from '../../../lib/api/upload-errors';

/** A refused upload: the server's summary, then every row's problem (nothing was written). */
export function UploadErrorsTable({ message, rows, more }: { message: string; rows: RowError[]; more: string | null }) {
  const t = useT();
  const ref = useRef<HTMLDivElement>(null);
  // The problems appear below the form; bring them into view.
  useEffect(() => ref.current?.scrollIntoView({ behavior: 'smooth', block: 'start' }), [message]);
  return (
    <div className="bolx-loc-upload__errors" data-testid="upload-errors" ref={ref}>
      <Alert type="error" showIcon message={message} description={t('locations.upload.nothingWritten')} style={{ marginBottom: 16 }} />
      {rows.length > 0 && (
        <Table<RowError>
          size="small"
          rowKey="key"
          dataSource={rows}
          locale={{ emptyText: t('table.noRecord') }}
          pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
          columns={[
            { title: t('locations.upload.row'), dataIndex: 'row', width: 90 },
            { title: t('locations.upload.column'), dataIndex: 'column', width: 180, render: (c: string) => <Tag>{c}</Tag> },
            { title: t('locations.upload.problem'), dataIndex: 'message' },
          ]}
        />
      )}
      {more && <Typography.Text type="secondary">{more}</Typography.Text>}
    </div>
  );
}
