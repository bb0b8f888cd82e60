import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { InputNumberRef } from 'rc-input-number';
import { useSearchParams } from 'react-router';
import { Alert, Button, Form, Input, InputNumber, Modal, Popconfirm, Progress, Result, Spin, Statistic, Tag, Typography } from 'antd';
import { ArrowLeftOutlined, CheckOutlined, RightOutlined, UndoOutlined, WarningOutlined } from '@ant-design/icons';
import type { PickJobDetail, PickScanStep } from '@bolx/contracts';
import { toApiError } from '../../../lib/api/api-error';
import { useKeyedCall } from '../../../lib/action-key';
import { useT } from '../../../lib/i18n/use-t';
import { usePageTitle } from '../../../lib/use-page-title';
import { ScanBox } from '../components/ScanBox';
import { jobIdOf, jobOf, refusalOf } from '../answers';
import { useScanStation } from '../use-scan-station';
import {
  useAssignTotesMutation, useCheckPickScanMutation, useConfirmPickMutation, useGetPickJobQuery, useShortPickMutation,
  usePickerTakeNextJobMutation, useUndoPickMutation,
} from '../handheld-api';
import {
  applyCheck, applyPickResult, canConfirm, canShort, currentStop, dropsOf, jobProgress, planScan, shortRequest, slotWithoutTote, startState, stepOf,
  stopLeft, syncScans, typedQuantity, type PickMessage, type PickState, type StopScans,
} from '../pick-steps';
import '../handheld.css';

/**
 * The picking screen (/BatchJob?job=<jobId>): totes for the job's slots, then stop by stop the location, the item
 * (scan-counting), the lot where tracked and Confirm. Every scan is checked by the server before the next is
 * asked for; a wrong one is refused with a red message, a buzz and a vibration, and nothing moves.
 */
export default function PickingPage() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const jobId = Number(params.get('job')) || 0;
  const query = useGetPickJobQuery(jobId, { skip: !jobId, refetchOnMountOrArgChange: true });
  const [job, setJobState] = useState<PickJobDetail>();
  // Scans read the job from here: a scan queued behind a call runs before React has re-rendered its answer.
  const jobRef = useRef<PickJobDetail>();
  const setJob = useCallback((next: PickJobDetail | undefined) => { jobRef.current = next; setJobState(next); }, []);
  const station = useScanStation();
  const { scanBox, focus, error, notice } = station;

  // The step machine's state lives in a ref so a second Enter in the same tick sees the first one in flight.
  const machine = useRef<PickState>(startState());
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const setMachine = useCallback((change: Partial<PickState>) => {
    machine.current = { ...machine.current, ...change };
    rerender();
  }, []);

  const [shortOpen, setShortOpen] = useState(false);

  const [assignTotes] = useAssignTotesMutation();
  const [checkScan] = useCheckPickScanMutation();
  const [confirmPick] = useConfirmPickMutation();
  const [shortPick] = useShortPickMutation();
  const [undoPick] = useUndoPickMutation();
  const send = useKeyedCall();
  const [takeNext] = usePickerTakeNextJobMutation();

  usePageTitle(job ? t('handheld.pick.title', { job: job.jobNumber }) : t('handheld.pick.loading'));

  /** The job as the server last answered; the stop's scans follow it. */
  const showJob = useCallback((next: PickJobDetail, scans: StopScans | null = machine.current.scans) => {
    setJob(next);
    setMachine({ scans: syncScans(next, scans) });
  }, [setMachine, setJob]);

  useEffect(() => {
    if (query.data) showJob(query.data);
  }, [query.data, showJob]);

  const say = (m: PickMessage | string) => (typeof m === 'string' ? m : t(m.id, m.values));
  const refuse = (m: PickMessage | string) => station.refuse(say(m));
  const { accept } = station;
  /** The job as a picking step's answer leaves it (the answer carries only what the step changed). */
  const applied = (answer: Parameters<typeof applyPickResult>[1]) => applyPickResult(jobRef.current!, answer);

  /** Runs one call with every other scan ignored until it answers; a failure is refused with the server's words. */
  const inFlight = async <T,>(call: () => Promise<T>): Promise<T | undefined> => {
    setMachine({ inFlight: true });
    try {
      return await call();
    } catch (raw) {
      refuse(refusalOf(raw, t));
      return undefined;
    } finally {
      setMachine({ inFlight: false });
      focus();
    }
  };

  const reload = async () => {
    const fresh = await query.refetch();
    if (fresh.data) showJob(fresh.data);
  };

  const onScan = async (raw: string) => {
    const job = jobRef.current;
    if (!job) return;
    const plan = planScan(job, machine.current, raw);
    switch (plan.kind) {
      case 'ignore':
        return;
      case 'refuse':
        refuse(plan.message);
        return;
      case 'count':
        setMachine({ scans: plan.scans });
        accept();
        return;
      case 'assignTote': {
        const answer = await inFlight(() => assignTotes({ jobId: job.jobId, totes: [{ slot: plan.slot, toteCode: plan.toteCode }] }).unwrap());
        if (answer === undefined) return;
        accept(t('handheld.pick.toteAssigned', { tote: plan.toteCode, slot: plan.slot }));
        const answered = jobOf(answer);
        if (answered) showJob(answered);
        else await reload();
        return;
      }
      case 'check': {
        const result = await inFlight(() => checkScan({ jobId: job.jobId, stopSeq: plan.stopSeq, step: plan.step, code: plan.code }).unwrap());
        if (result === undefined) return;
        const next = applyCheck(job, machine.current.scans, plan.step as PickScanStep, plan.code, result);
        setMachine({ scans: next.scans });
        if (next.refused) refuse(next.refused);
        else accept();
        return;
      }
      case 'confirm': {
        const scans = machine.current.scans;
        const answer = await inFlight(() => send('confirm', plan.request, confirmPick));
        if (!answer) return;
        accept(answer.message);
        // The same stop (a partial confirm) keeps its location and item scans; the next stop starts empty.
        showJob(applied(answer), scans ? { ...scans, quantity: 0 } : null);
      }
    }
  };

  station.handle.current = onScan;
  const pushScan = station.push;

  const onShort = async (foundQuantity: number, reason?: string) => {
    const scans = machine.current.scans;
    if (!job || !scans) return;
    const answer = await inFlight(() => send('short', shortRequest(job, scans, foundQuantity, reason), shortPick));
    setShortOpen(false);
    if (!answer) return;
    accept(answer.message);
    showJob(applied(answer), null);
  };

  const onUndo = async () => {
    if (!job) return;
    const answer = await inFlight(() => send('undo', { jobId: job.jobId }, undoPick));
    if (!answer) return;
    accept(answer.message);
    showJob(applied(answer), null);
  };

  const onNextJob = async () => {
    if (!job) return;
    try {
      const nextId = jobIdOf(await takeNext({ warehouseId: job.warehouseId }).unwrap());
      if (!nextId) { refuse(t('handheld.pick.noNextJob')); return; }
      machine.current = startState();
      setJob(undefined);
      station.reset();
      setParams((p) => { p.set('job', String(nextId)); return p; });
    } catch (raw) {
      const e = toApiError(raw);
      refuse(e.status === 404 ? t('handheld.pick.noNextJob') : e.details);
    }
  };
  const onBack = () => setParams((p) => { p.delete('job'); return p; });

  if (!jobId) return <Alert type="info" showIcon message={t('handheld.pick.noJob')} />;
  if (!job) {
    if (query.isError) {
      return (
        <div className="bolx-hh">
          <Alert type="error" showIcon message={t('handheld.pick.notFound')} description={toApiError(query.error).details} />
          <Button size="large" icon={<ArrowLeftOutlined />} onClick={onBack} className="bolx-hh__wide">{t('handheld.pick.back')}</Button>
        </div>
      );
    }
    return <Spin size="large" tip={t('handheld.pick.loading')}><div className="bolx-hh__loading" /></Spin>;
  }

  const state = machine.current;
  const step = stepOf(job, state.scans);
  const stop = currentStop(job);
  const progress = jobProgress(job);
  const tote = slotWithoutTote(job);

  if (step === 'done') {
    return (
      <div className="bolx-hh">
        <Result
          status={progress.short > 0 ? 'warning' : 'success'}
          title={t('handheld.pick.summary.title', { job: job.jobNumber })}
          subTitle={t('handheld.pick.summary.status', { status: job.status })}
          extra={(
            <div className="bolx-hh__summary">
              <div className="bolx-hh__stats">
                <Statistic title={t('handheld.pick.summary.stops')} value={progress.stops} />
                <Statistic title={t('handheld.pick.summary.picked')} value={progress.picked} suffix={`/ ${progress.units}`} />
                <Statistic title={t('handheld.pick.summary.short')} value={progress.short} valueStyle={progress.short ? { color: '#d4380d' } : undefined} />
              </div>
              {error && <Typography.Text type="danger" role="alert">{error}</Typography.Text>}
              <Button type="primary" size="large" autoFocus icon={<RightOutlined />} onClick={() => { void onNextJob(); }} className="bolx-hh__wide">{t('handheld.pick.nextJob')}</Button>
              <Button size="large" icon={<ArrowLeftOutlined />} onClick={onBack} className="bolx-hh__wide">{t('handheld.pick.back')}</Button>
            </div>
          )}
        />
      </div>
    );
  }

  const prompt = tote
    ? t('handheld.pick.step.tote', { slot: tote.slot, order: tote.soNumber })
    : stop
      ? {
          location: t('handheld.pick.step.location', { location: stop.locationCode }),
          item: t('handheld.pick.step.item', { sku: stop.skuCode }),
          lot: t('handheld.pick.step.lot', { lot: stop.lot || t('handheld.pick.noLot') }),
          quantity: t('handheld.pick.step.quantity', { quantity: state.scans?.quantity ?? 0 }),
          tote: '',
          done: '',
        }[step]
      : '';
  const left = stop ? stopLeft(stop) : 0;
  const undoable = job.lastPick !== null && job.status !== 'Done';

  return (
    <div className="bolx-hh">
      <header className="bolx-hh__head">
        <Button type="text" icon={<ArrowLeftOutlined />} onClick={onBack} aria-label={t('handheld.pick.back')} />
        <Typography.Title level={4} className="bolx-hh__title">{job.jobNumber}</Typography.Title>
        <Tag>{job.status}</Tag>
      </header>
      <div className="bolx-hh__progress">
        <Progress percent={Math.round((100 * (progress.picked + progress.short)) / Math.max(1, progress.units))} showInfo={false} />
        <Typography.Text type="secondary">
          {t('handheld.pick.progress', { done: progress.stopsDone, total: progress.stops, picked: progress.picked, units: progress.units })}
        </Typography.Text>
      </div>

      <ScanBox ref={scanBox} label={t('handheld.pick.scanLabel')} prompt={prompt} error={error} busy={state.inFlight} onScan={pushScan} />
      {notice && !error && <Typography.Text type="success" className="bolx-hh__notice">{notice}</Typography.Text>}

      {!tote && stop && (
        <section className="bolx-hh__stop" aria-label={t('handheld.pick.stop', { seq: stop.seq })}>
          <ol className="bolx-hh__steps">
            {(['location', 'item', ...(stop.tracksLot ? ['lot'] : []), 'quantity'] as const).map((s) => {
              const order = ['location', 'item', 'lot', 'quantity'];
              const status = order.indexOf(s) < order.indexOf(step) ? 'done' : s === step ? 'now' : 'later';
              return <li key={s} className={`bolx-hh__step bolx-hh__step--${status}`}>{t(`handheld.pick.stepper.${s === 'quantity' ? 'confirm' : s}`)}</li>;
            })}
          </ol>
          <Typography.Text type="secondary">{t('handheld.pick.stop', { seq: stop.seq })}{stop.zone ? ` · ${stop.zone}` : ''}</Typography.Text>
          <div className="bolx-hh__location">{stop.locationCode}</div>
          <div className="bolx-hh__sku">
            <Typography.Text strong>{stop.skuCode}</Typography.Text>
            <Typography.Text>{stop.skuDescription}</Typography.Text>
          </div>
          {(stop.tracksLot || stop.lot || stop.expiryDate) && (
            <div className="bolx-hh__lot">
              {stop.lot ? <Tag color="purple">{t('handheld.pick.lot', { lot: stop.lot })}</Tag> : stop.tracksLot && <Tag>{t('handheld.pick.noLot')}</Tag>}
              {stop.expiryDate && <Tag color="orange">{t('handheld.pick.expiry', { date: stop.expiryDate })}</Tag>}
            </div>
          )}
          <div className="bolx-hh__qty">
            <Statistic title={t('handheld.pick.needed')} value={left} />
            <div>
              <Typography.Text type="secondary">{t('handheld.pick.counted')}</Typography.Text>
              <InputNumber
                aria-label={t('handheld.pick.quantity')}
                size="large"
                min={0}
                max={left}
                precision={0}
                inputMode="numeric"
                disabled={step !== 'quantity'}
                value={state.scans?.quantity ?? 0}
                onChange={(v) => { if (state.scans) setMachine({ scans: typedQuantity(job, state.scans, v) }); }}
                onPressEnter={focus}
                className="bolx-hh__qty-input"
              />
            </div>
          </div>
          <div className="bolx-hh__drops">
            <Typography.Text type="secondary">{t('handheld.pick.dropInto')}</Typography.Text>
            {dropsOf(stop).map((d) => (
              <div key={d.taskId} className="bolx-hh__drop">
                <span>{t('handheld.pick.slotTote', { slot: d.slot, tote: d.toteCode ?? t('handheld.pick.noTote') })}</span>
                <Typography.Text type="secondary">{d.soNumber}</Typography.Text>
                <strong>{d.quantity}</strong>
              </div>
            ))}
          </div>
        </section>
      )}

      <div className="bolx-hh__actions">
        <Button type="primary" size="large" icon={<CheckOutlined />} disabled={!canConfirm(job, state)} onClick={() => pushScan('')} className="bolx-hh__wide">
          {t('handheld.pick.confirm')}
        </Button>
        <Button size="large" danger icon={<WarningOutlined />} disabled={!canShort(job, state)} onClick={() => setShortOpen(true)}>
          {t('handheld.pick.short')}
        </Button>
        <Popconfirm
          title={t('handheld.pick.undoConfirm', { quantity: job.lastPick?.quantity ?? 0 })}
          okText={t('handheld.pick.undo')}
          cancelText={t('handheld.pick.cancel')}
          onConfirm={() => { void onUndo(); }}
          onOpenChange={(open) => { if (!open) setTimeout(focus, 0); }}
          disabled={!undoable || state.inFlight}
        >
          <Button size="large" icon={<UndoOutlined />} disabled={!undoable || state.inFlight}>{t('handheld.pick.undo')}</Button>
        </Popconfirm>
      </div>

      {stop && (
        <ShortDialog
          open={shortOpen}
          location={stop.locationCode}
          left={left}
          // Units found are picked, so they need the item scanned; before that only "none found" can be recorded.
          maxFound={state.scans?.itemCode ? Math.max(0, left - 1) : 0}
          counted={state.scans?.quantity ?? 0}
          busy={state.inFlight}
          onCancel={() => setShortOpen(false)}
          onSubmit={(found, reason) => { void onShort(found, reason); }}
          afterClose={focus}
        />
      )}
    </div>
  );
}

function ShortDialog({ open, location, left, maxFound, counted, busy, onCancel, onSubmit, afterClose }: {
  open: boolean; location: string; left: number; maxFound: number; counted: number; busy: boolean;
  onCancel(): void; onSubmit(found: number, reason?: string): void; afterClose(): void;
}) {
  const t = useT();
  const [form] = Form.useForm<{ found: number; reason?: string }>();
  const found = useRef<InputNumberRef>(null);
  useEffect(() => {
    if (open) form.setFieldsValue({ found: Math.min(counted, maxFound), reason: undefined });
  }, [open, counted, maxFound, form]);
  return (
    <Modal
      open={open}
      title={t('handheld.pick.shortTitle', { location })}
      okText={t('handheld.pick.shortSubmit')}
      cancelText={t('handheld.pick.cancel')}
      okButtonProps={{ danger: true, loading: busy, size: 'large' }}
      cancelButtonProps={{ size: 'large' }}
      onOk={() => { void form.validateFields().then((v) => onSubmit(v.found, v.reason)); }}
      onCancel={onCancel}
      afterClose={afterClose}
      afterOpenChange={(opened) => { if (opened) { found.current?.focus(); found.current?.select(); } }}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('handheld.pick.shortNeeded', { quantity: left })}</Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item name="found" label={t('handheld.pick.shortFound')} rules={[{ required: true }]} extra={maxFound === 0 && left > 1 ? t('handheld.pick.shortScanItem') : undefined}>
          <InputNumber ref={found} size="large" min={0} max={maxFound} precision={0} inputMode="numeric" autoFocus style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="reason" label={t('handheld.pick.shortReason')}>
          <Input size="large" maxLength={255} placeholder={t('handheld.pick.shortReasonPlaceholder')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
