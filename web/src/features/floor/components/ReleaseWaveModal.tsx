import { useState } from 'react';
import { Alert, Form, InputNumber, List, Modal, Radio, Space, Typography } from 'antd';
import { MAX_TOTES_PER_JOB, PICK_STRATEGIES, type BatchRuleCriteria, type PickStrategy } from '@bolx/contracts';
import { useCreateWaveMutation, type CreateWaveResult } from '../../../lib/api/floor-api';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useT } from '../../../lib/i18n/use-t';

const DEFAULT_TOTES = 8;

/**
 * Release the rule's allocated orders to the floor as one wave: the pick strategy (discrete, cluster with totes
 * per job, zone), then what was released and what was refused, and why.
 */
export function ReleaseWaveModal({ open, criteria, onClose }: { open: boolean; criteria: BatchRuleCriteria | null; onClose: () => void }) {
  const t = useT();
  const [strategy, setStrategy] = useState<PickStrategy>('cluster');
  const [totes, setTotes] = useState<number>(DEFAULT_TOTES);
  const [result, setResult] = useState<CreateWaveResult>();
  const [createWave, { isLoading }] = useCreateWaveMutation();
  const close = () => {
    setResult(undefined);
    onClose();
  };
  const release = async () => {
    if (!criteria) return;
    const answer = await runMutation(createWave({
      warehouseId: criteria.warehouseId, criteria, strategy, ...(strategy === 'cluster' ? { totesPerJob: totes } : {}),
    } as Parameters<typeof createWave>[0]));
    if (answer) setResult(answer.data);
  };
  return (
    <Modal
      open={open}
      title={t('floor.release.title')}
      onCancel={close}
      okText={result ? t('form.close') : t('floor.release.ok')}
      onOk={result ? close : release}
      okButtonProps={{ loading: !result && isLoading, disabled: !criteria }}
      cancelButtonProps={result ? { style: { display: 'none' } } : undefined}
      destroyOnHidden
    >
      {result ? <ReleaseResult result={result} /> : (
        <Form layout="vertical">
          <Typography.Paragraph type="secondary">{t('floor.release.help')}</Typography.Paragraph>
          <Form.Item label={t('floor.release.strategy')} required>
            <Radio.Group value={strategy} onChange={(e) => setStrategy(e.target.value as PickStrategy)}>
              <Space direction="vertical">
                {PICK_STRATEGIES.map((s) => (
                  <Radio key={s} value={s}>
                    <Typography.Text strong>{t(`floor.strategy.${s}`)}</Typography.Text>
                    <div><Typography.Text type="secondary">{t(`floor.strategyHelp.${s}`)}</Typography.Text></div>
                  </Radio>
                ))}
              </Space>
            </Radio.Group>
          </Form.Item>
          {strategy === 'cluster' && (
            <Form.Item label={t('floor.release.totesPerJob')} help={t('floor.release.totesHelp', { max: MAX_TOTES_PER_JOB })}>
              <InputNumber min={1} max={MAX_TOTES_PER_JOB} precision={0} value={totes} onChange={(v) => setTotes(v ?? DEFAULT_TOTES)} />
            </Form.Item>
          )}
        </Form>
      )}
    </Modal>
  );
}

/** A release's answer: the wave, the orders released and each refused one with why. */
export function ReleaseResult({ result }: { result: CreateWaveResult }) {
  const t = useT();
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="release-result">
      <Alert
        type={result.refused.length ? 'warning' : 'success'}
        showIcon
        message={t('floor.release.done', { wave: result.wave.waveNumber, released: result.released.length, jobs: result.wave.jobCount, refused: result.refused.length })}
      />
      {result.refused.length > 0 && (
        <List
          size="small"
          header={<Typography.Text strong>{t('floor.result.refused')}</Typography.Text>}
          dataSource={result.refused}
          renderItem={(r) => <List.Item><Typography.Text><Typography.Text strong>{r.soNumber ?? `#${r.orderId}`}</Typography.Text> — {r.message}</Typography.Text></List.Item>}
        />
      )}
    </Space>
  );
}
