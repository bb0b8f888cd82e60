import { useMemo, useState } from 'react';
import { Alert, Button, Checkbox, Col, Form, Input, Modal, Row, Space, Tag, Tooltip, Typography } from 'antd';
import { SaveOutlined, SendOutlined, ThunderboltOutlined } from '@ant-design/icons';
import type { BatchRuleCriteria, SavedBatchRule } from '@bolx/contracts';
import { useRunBatchAllocationMutation, useSaveBatchRuleMutation } from '../../../lib/api/floor-api';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useAppSelector } from '../../../lib/hooks';
import { useT } from '../../../lib/i18n/use-t';
import { selectCustomerId, selectWarehouseId } from '../../../lib/state/selectors';
import { AllocationProgressCard } from '../components/AllocationProgressCard';
import { ReleaseWaveModal } from '../components/ReleaseWaveModal';
import { RuleForm, toRuleFields, type RuleFields } from '../components/RuleForm';
import { RulePreview } from '../components/RulePreview';
import { SavedRules } from '../components/SavedRules';
import { useAllocationRun } from '../components/use-allocation-run';
import { criteriaKey, criteriaOf, formValuesOf, jobOfAnswer, type RuleFormValues } from '../floor-model';
import { useDebounced } from '../../../lib/use-debounced';
import { useClientOptions } from '../../../lib/use-client-options';
import { useMayAllocate } from '../use-floor-actor';
import '../messages';
import '../floor.css';

/**
 * /BatchAllocation: choose orders by a rule with a live preview, allocate them as a background job followed on
 * its progress card to its summary, release them to the floor as a wave, and keep rules to run again.
 */
export default function BatchAllocationPage() {
  const t = useT();
  const mayAllocate = useMayAllocate();
  const warehouseId = useAppSelector(selectWarehouseId) ?? 0;
  const headerCustomer = useAppSelector(selectCustomerId) || 0;
  const customers = useClientOptions(warehouseId);
  const customerName = (id: number) => customers.find((c) => c.value === id)?.label;

  const [form] = Form.useForm<RuleFields>();
  // The header's client starts the rule on that client.
  const [values, setValues] = useState<RuleFormValues>(() => ({ lineShape: 'any', ...(headerCustomer ? { customerId: headerCustomer } : {}) }));
  const [initialFields] = useState(() => toRuleFields(values));
  const [activeRule, setActiveRule] = useState<SavedBatchRule>();
  const criteria = useMemo(() => criteriaOf(values, warehouseId), [values, warehouseId]);
  const key = criteriaKey(criteria);
  const settledKey = useDebounced(key);
  // The preview asks with the criteria once they stop changing.
  const previewCriteria = useMemo<BatchRuleCriteria | null>(() => (settledKey ? (JSON.parse(settledKey) as [string, unknown][]).reduce(
    (o, [k, v]) => ({ ...o, [k]: v }), {} as BatchRuleCriteria) : null), [settledKey]);

  const { run, follow, dismiss } = useAllocationRun();
  const running = run !== null && (run.phase === 'queued' || run.phase === 'running');
  const [allocate, { isLoading: starting }] = useRunBatchAllocationMutation();
  const [saveRule, { isLoading: saving }] = useSaveBatchRuleMutation();
  const [releaseOpen, setReleaseOpen] = useState(false);
  const [saveOpen, setSaveOpen] = useState(false);

  const startRun = async (runCriteria: BatchRuleCriteria, ruleId?: number) => {
    const answer = await runMutation(allocate({ criteria: runCriteria, ...(ruleId ? { ruleId } : {}) }), { silentSuccess: true });
    const job = jobOfAnswer(answer);
    if (job) follow(job);
  };

  const applyRule = (rule: SavedBatchRule) => {
    const next = formValuesOf(rule.criteria);
    form.resetFields();
    form.setFieldsValue(toRuleFields(next));
    setValues(next);
    setActiveRule(rule);
  };

  const noWarehouse = !warehouseId;
  return (
    <div className="bolx-page bolx-floor">
      <div className="bolx-floor__titlebar">
        <div>
          <Typography.Title level={3}>{t('routes.BatchAllocation')}</Typography.Title>
          <Typography.Text type="secondary">{t('floor.allocation.subtitle')}</Typography.Text>
        </div>
      </div>
      {noWarehouse && <Alert type="info" showIcon message={t('floor.chooseWarehouse')} className="bolx-floor__notice" />}
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={17}>
          <Space direction="vertical" size={16} style={{ width: '100%' }}>
            <div className="bolx-floor-card">
              <div className="bolx-floor-card__head">
                <Typography.Title level={5}>{t('floor.rule.title')}</Typography.Title>
                {activeRule && <Tag color="blue" closable onClose={() => setActiveRule(undefined)}>{activeRule.name}</Tag>}
              </div>
              <RuleForm form={form} customers={customers} disabled={noWarehouse} initialValues={initialFields} onChange={setValues} />
              {mayAllocate && (
                <Space wrap className="bolx-floor-actions">
                  <Tooltip title={t('floor.allocate.help')}>
                    <Button type="primary" icon={<ThunderboltOutlined />} disabled={!criteria || running} loading={starting}
                      onClick={() => criteria && void startRun(criteria, activeRule?.ruleId)} data-testid="allocate">
                      {t('floor.allocate')}
                    </Button>
                  </Tooltip>
                  <Tooltip title={t('floor.release.help')}>
                    <Button icon={<SendOutlined />} disabled={!criteria || running} onClick={() => setReleaseOpen(true)} data-testid="release-wave">
                      {t('floor.release.button')}
                    </Button>
                  </Tooltip>
                  <Button icon={<SaveOutlined />} disabled={!criteria} onClick={() => setSaveOpen(true)} data-testid="save-rule">{t('floor.rules.save')}</Button>
                </Space>
              )}
            </div>
            {run && <AllocationProgressCard run={run} onDismiss={dismiss} />}
            <RulePreview criteria={previewCriteria} extra={key !== settledKey ? <Typography.Text type="secondary">{t('floor.preview.updating')}</Typography.Text> : null} />
          </Space>
        </Col>
        <Col xs={24} xl={7}>
          {warehouseId > 0 && (
            <SavedRules
              warehouseId={warehouseId}
              activeRuleId={activeRule?.ruleId}
              canWrite={mayAllocate}
              running={running || starting}
              customerName={customerName}
              onUse={applyRule}
              onRun={(rule) => { applyRule(rule); void startRun({ ...rule.criteria, warehouseId }, rule.ruleId); }}
            />
          )}
        </Col>
      </Row>
      <ReleaseWaveModal open={releaseOpen} criteria={criteria} onClose={() => setReleaseOpen(false)} />
      {saveOpen && criteria && (
        <SaveRuleModal
          initialName={activeRule?.name ?? ''}
          canUpdate={activeRule !== undefined}
          saving={saving}
          onCancel={() => setSaveOpen(false)}
          onSave={async (name, asNew) => {
            const answer = await runMutation(saveRule({ name, criteria, ...(activeRule && !asNew ? { ruleId: activeRule.ruleId } : {}) }));
            if (!answer) return;
            setActiveRule(answer.data);
            setSaveOpen(false);
          }}
        />
      )}
    </div>
  );
}

function SaveRuleModal({ initialName, canUpdate, saving, onCancel, onSave }: {
  initialName: string;
  canUpdate: boolean;
  saving: boolean;
  onCancel: () => void;
  onSave: (name: string, asNew: boolean) => unknown;
}) {
  const t = useT();
  const [form] = Form.useForm<{ name: string; asNew: boolean }>();
  return (
    <Modal open title={t('floor.rules.saveTitle')} okText={t('floor.rules.save')} onCancel={onCancel} confirmLoading={saving} onOk={() => form.submit()}>
      <Form form={form} layout="vertical" initialValues={{ name: initialName, asNew: false }} onFinish={(v) => onSave(v.name.trim(), v.asNew)}>
        <Form.Item name="name" label={t('floor.rules.name')} rules={[{ required: true, whitespace: true, message: t('floor.rules.nameRequired') }, { max: 64 }]}>
          <Input maxLength={64} autoFocus />
        </Form.Item>
        {canUpdate && (
          <Form.Item name="asNew" valuePropName="checked">
            <Checkbox>{t('floor.rules.saveAsNew')}</Checkbox>
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
