import { Button, Space, Tooltip, Typography } from 'antd';
import { useT } from '../../lib/i18n/use-t';
import { actionBlock, targetCount, type BatchAction, type BatchSelection, type BatchTarget } from './batch-selection';

export interface BatchBarProps<T> {
  actions: BatchAction<T>[];
  selection: BatchSelection<T>;
  target: BatchTarget<T> | undefined;
  /** Rows the filters match (the list's total). */
  total: number;
  /** Rows on the page shown. */
  pageRows: number;
  onAllMatching: () => void;
  onClear: () => void;
}

/**
 * Above the table while batch actions are offered: how many rows are selected, "select all N matching the
 * filters" once a whole page is picked and more match, clear, and the actions (each disabled with its reason).
 */
export function BatchBar<T>({ actions, selection, target, total, pageRows, onAllMatching, onClear }: BatchBarProps<T>) {
  const t = useT();
  const count = targetCount(target);
  const offerAll = selection.mode === 'rows' && count > 0 && count >= pageRows && total > count && actions.some((a) => a.allMatching);
  return (
    <div className="bolx-table__batch" role="region" aria-label={t('table.batch.region')}>
      <Space wrap>
        <Typography.Text strong={count > 0} type={count > 0 ? undefined : 'secondary'}>
          {selection.mode === 'allMatching' ? t('table.batch.allMatching', { total }) : count > 0 ? t('table.batch.selected', { count }) : t('table.batch.none')}
        </Typography.Text>
        {offerAll && <Button type="link" size="small" onClick={onAllMatching}>{t('table.batch.selectAll', { total })}</Button>}
        {count > 0 && <Button type="link" size="small" onClick={onClear}>{t('table.batch.clear')}</Button>}
      </Space>
      <Space wrap>
        {actions.map((a) => {
          const blocked = actionBlock(a, target, t);
          return (
            <Tooltip key={a.key} title={blocked}>
              <Button icon={a.icon} danger={a.danger} disabled={blocked !== undefined} onClick={() => target && a.run(target)}>
                {typeof a.label === 'function' ? a.label(count) : count > 0 ? `${a.label} (${count})` : a.label}
              </Button>
            </Tooltip>
          );
        })}
      </Space>
    </div>
  );
}
