import { Alert, Card, Empty, Skeleton, Space, Statistic, Tag, Typography } from 'antd';
import { toApiError } from '../../../lib/api/api-error';
import { useT } from '../../../lib/i18n/use-t';
import type { LocationPatternPreview } from '../locations-api';

interface Props {
  preview: LocationPatternPreview | undefined;
  error: unknown;
  loading: boolean;
  /** False while the form lacks a required part. */
  ready: boolean;
  /** This very pattern was just created: its codes exist because of that, which is no conflict to warn about. */
  justCreated?: boolean;
}

/** What the pattern will make: how many, the first and last codes, and any that already exist. */
export function PatternPreview({ preview, error, loading, ready, justCreated = false }: Props) {
  const t = useT();
  let body;
  if (!ready) body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('locations.pattern.previewWaiting')} />;
  else if (error) body = <Alert type="error" showIcon message={t('locations.pattern.previewInvalid')} description={toApiError(error).details} />;
  else if (!preview) body = <Skeleton active paragraph={{ rows: 4 }} />;
  else {
    const more = preview.count - preview.sample.length;
    const clashes = justCreated ? 0 : preview.conflictCount;
    body = (
      <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="pattern-preview">
        <Statistic
          title={t(justCreated ? 'locations.pattern.countCreated' : 'locations.pattern.count')}
          value={preview.count}
          valueStyle={{ color: preview.withinLimit && clashes === 0 ? undefined : '#f5222d' }}
          suffix={<span className="bolx-loc-preview__range">{preview.lastCode ? `${preview.sample[0]} … ${preview.lastCode}` : ''}</span>}
        />
        {!preview.withinLimit && (
          <Alert type="error" showIcon message={t('locations.pattern.overLimit', { count: preview.count, limit: preview.limit })} />
        )}
        {justCreated && <Alert type="success" showIcon message={t('locations.pattern.justCreated', { count: preview.count })} />}
        {clashes > 0 && (
          <Alert
            type="warning"
            showIcon
            message={t('locations.pattern.conflicts', { count: preview.conflictCount })}
            description={preview.conflicts.join(', ') + (preview.conflictCount > preview.conflicts.length ? ' …' : '')}
          />
        )}
        {preview.sample.length > 0 && (
          <div>
            <Typography.Text type="secondary">{t('locations.pattern.firstCodes')}</Typography.Text>
            <div className="bolx-loc-preview__codes">
              {preview.sample.map((code) => (
                <Tag key={code} color={justCreated ? 'green' : preview.conflicts.includes(code) ? 'red' : undefined}>
                  {code}
                </Tag>
              ))}
              {more > 0 && <Typography.Text type="secondary">{t('locations.pattern.andMore', { count: more })}</Typography.Text>}
            </div>
          </div>
        )}
      </Space>
    );
  }
  return (
    <Card className="bolx-loc-preview" title={t('locations.pattern.preview')} extra={loading && ready ? <Typography.Text type="secondary">{t('layout.loading')}…</Typography.Text> : null}>
      {body}
    </Card>
  );
}
