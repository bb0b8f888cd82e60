import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Button, Progress, Select, Space, Typography } from 'antd';
import { CloudDownloadOutlined, PlayCircleOutlined } from '@ant-design/icons';
import type { JobView, ReportArea, ReportFilters, ReportFormat, ReportJobResult, ReportKey } from '@bolx/contracts';
import { useDownload } from '../../../components/download/use-download';
import { followJob, jobsApi } from '../../../lib/api/jobs-api';
import { useRunReportJobMutation } from '../../../lib/api/reports-api';
import { errorToastText, toApiError } from '../../../lib/api/api-error';
import { useAppStore } from '../../../lib/hooks';
import { notifyError } from '../../../lib/toast';
import { useT } from '../../../lib/i18n/use-t';
import '../messages';

const FORMATS: ReportFormat[] = ['xlsx', 'csv', 'pdf'];

/**
 * A report refused on screen for its range (the limit named in `message`), offered as a background job: its
 * progress follows the hub (and the status API when events may have been missed), and its file downloads when done.
 */
export function ReportJob({ area, report, filters, message }: { area: ReportArea; report: ReportKey; filters: ReportFilters; message: string }) {
  const t = useT();
  const store = useAppStore();
  const [format, setFormat] = useState<ReportFormat>('xlsx');
  const [job, setJob] = useState<JobView | null>(null);
  const [run, { isLoading }] = useRunReportJobMutation();
  const [download, downloading] = useDownload();
  const stop = useRef<(() => void) | null>(null);
  useEffect(() => () => stop.current?.(), []);
  // Other filters: another job (the one in hand goes on, its file stays in its owner's jobs).
  useEffect(() => { stop.current?.(); setJob(null); }, [report, filters]);

  const fetchJob = useCallback(async (jobId: number) => (await store.dispatch(jobsApi.endpoints.getJob.initiate(jobId, { subscribe: false, forceRefetch: true }))).data, [store]);
  const start = async () => {
    try {
      const queued = await run({ area, report, filters, format }).unwrap();
      stop.current?.();
      stop.current = followJob(queued.data.jobId, { fetchJob, onChange: setJob, onDone: setJob });
    } catch (e) {
      notifyError(errorToastText(toApiError(e)));
    }
  };
  const result = job?.status === 'succeeded' ? (job.result as ReportJobResult) : null;
  const running = job !== null && (job.status === 'queued' || job.status === 'running');

  return (
    <Alert
      type={job?.status === 'failed' ? 'error' : 'info'} showIcon className="bolx-report__error" data-testid="report-job"
      message={job?.status === 'failed' ? job.error?.message ?? t('reports.job.failed') : message}
      description={(
        <Space direction="vertical" className="bolx-report__job">
          <Space wrap>
            <Select aria-label={t('reports.job.format')} value={format} onChange={setFormat} disabled={running} className="bolx-report__format"
              options={FORMATS.map((f) => ({ value: f, label: t(`reports.export.${f}`) }))} />
            <Button type="primary" icon={<PlayCircleOutlined />} loading={isLoading} disabled={running} onClick={() => void start()}>{t('reports.job.run')}</Button>
            {result && (
              <Button icon={<CloudDownloadOutlined />} loading={downloading}
                onClick={() => void download({ url: 'Warehouse/Report/DownloadReportJob', params: { jobId: job!.jobId } }, result.fileName)}>
                {t('reports.job.download', { file: result.fileName })}
              </Button>
            )}
          </Space>
          {job && job.status !== 'failed' && (
            <div>
              <Progress percent={job.progress.percent ?? 0} size="small" status={job.status === 'succeeded' ? 'success' : 'active'} />
              <Typography.Text type="secondary">{job.progress.message ?? (job.status === 'queued' ? t('reports.job.waiting') : '')}</Typography.Text>
            </div>
          )}
        </Space>
      )}
    />
  );
}
