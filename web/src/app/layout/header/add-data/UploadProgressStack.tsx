import { Button, Progress, Tag, Tooltip, Typography } from 'antd';
import { CloseOutlined, DownOutlined, ShrinkOutlined, StopOutlined, UpOutlined } from '@ant-design/icons';
import { useT } from '../../../../lib/i18n/use-t';
import { useAppDispatch, useAppSelector } from '../../../../lib/hooks';
import { isRunning, percentOf, uploadShrunk, uploadVisibilityToggled, type UploadItem } from '../../../../lib/state/uploads-slice';
import { useUploadRunner } from './use-upload-runner';

/** How many row errors a card lists; the rest are counted. */
const SHOWN_ROWS = 5;

const statusOf = (item: UploadItem) =>
  item.phase === 'failed' ? 'exception' : item.phase === 'done' ? 'success' : 'active';

/** Spec section 2: floating progress cards, bottom-right and stacked, one per upload. */
export function UploadProgressStack() {
  const items = useAppSelector((s) => s.uploads.items);
  // Beside the open panel, never over its form's buttons.
  const besidePanel = useAppSelector((s) => s.ui.addDataOpen);
  if (items.length === 0) return null;
  return (
    <div className={`bolx-upload-stack${besidePanel ? ' bolx-upload-stack--beside-panel' : ''}`} data-testid="upload-stack">
      {items.map((item) => (item.circle ? <UploadCircle key={item.id} item={item} /> : <UploadCard key={item.id} item={item} />))}
    </div>
  );
}

function UploadCircle({ item }: { item: UploadItem }) {
  const t = useT();
  const dispatch = useAppDispatch();
  const percent = percentOf(item);
  return (
    <Tooltip title={item.title} placement="left">
      <button
        type="button"
        className={`bolx-upload-circle bolx-upload-circle--${item.phase}`}
        aria-label={t('addData.progress.circle', { code: item.kind, percent })}
        data-testid="upload-circle"
        onClick={() => dispatch(uploadShrunk({ id: item.id, circle: false }))}
      >
        <Progress
          type="circle"
          size={64}
          percent={percent}
          status={statusOf(item)}
          format={(p) => (
            <span className="bolx-upload-circle__text">
              <strong>{p}%</strong>
              <small>{item.kind}</small>
            </span>
          )}
        />
      </button>
    </Tooltip>
  );
}

function UploadCard({ item }: { item: UploadItem }) {
  const t = useT();
  const dispatch = useAppDispatch();
  const { stop } = useUploadRunner();
  const running = isRunning(item);
  const percent = percentOf(item);
  return (
    <section className={`bolx-upload-card bolx-upload-card--${item.phase}`} data-testid="upload-card" data-phase={item.phase} aria-label={item.title}>
      <header className="bolx-upload-card__head">
        <Tag color="blue" className="bolx-upload-card__code">{item.kind}</Tag>
        <Typography.Text strong ellipsis={{ tooltip: item.title }} className="bolx-upload-card__title">{item.title}</Typography.Text>
        <Tooltip title={t(item.visible ? 'addData.progress.hide' : 'addData.progress.show')}>
          <Button type="text" size="small" aria-label={t(item.visible ? 'addData.progress.hide' : 'addData.progress.show')}
            icon={item.visible ? <DownOutlined /> : <UpOutlined />} onClick={() => dispatch(uploadVisibilityToggled(item.id))} />
        </Tooltip>
        <Tooltip title={t('addData.progress.shrink')}>
          <Button type="text" size="small" aria-label={t('addData.progress.shrink')} icon={<ShrinkOutlined />}
            onClick={() => dispatch(uploadShrunk({ id: item.id, circle: true }))} />
        </Tooltip>
        <Tooltip title={t(running ? 'addData.progress.stop' : 'addData.progress.dismiss')}>
          <Button type="text" size="small" danger={running} aria-label={t(running ? 'addData.progress.stop' : 'addData.progress.dismiss')}
            icon={running ? <StopOutlined /> : <CloseOutlined />} onClick={() => stop(item.id)} />
        </Tooltip>
      </header>
      {item.visible && (
        <div className="bolx-upload-card__body">
          <Progress percent={percent} size="small" status={statusOf(item)} />
          <Typography.Text type={item.phase === 'failed' ? 'danger' : item.phase === 'done' ? 'success' : 'secondary'} className="bolx-upload-card__status" data-testid="upload-status">
            {item.phase === 'uploading' && t('addData.progress.uploading', { percent })}
            {item.phase === 'processing' && t('addData.progress.processing')}
            {(item.phase === 'done' || item.phase === 'failed') && item.message}
          </Typography.Text>
          {item.rowErrors.length > 0 && (
            <ul className="bolx-upload-card__rows" data-testid="upload-row-errors">
              {item.rowErrors.slice(0, SHOWN_ROWS).map((r) => (
                <li key={`${r.row}.${r.column}`}>{t('addData.progress.row', { row: r.row, column: r.column, message: r.message })}</li>
              ))}
              {item.rowErrors.length > SHOWN_ROWS && <li>{t('addData.progress.moreRows', { count: item.rowErrors.length - SHOWN_ROWS })}</li>}
            </ul>
          )}
          {item.notes.map((n) => <Typography.Text key={n} type="secondary" className="bolx-upload-card__note">{n}</Typography.Text>)}
        </div>
      )}
    </section>
  );
}
