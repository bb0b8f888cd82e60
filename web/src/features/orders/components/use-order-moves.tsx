import { useState } from 'react';
import { Modal } from 'antd';
import type { AllocationResult, OrderBatchResult, OrderStatus } from '@bolx/contracts';
import { toApiError, errorToastText } from '../../../lib/api/api-error';
import { notifyError } from '../../../lib/toast';
import { useT } from '../../../lib/i18n/use-t';
import { summarizeBatch, type BatchSummary, type MatchingBatch, type OrderAction } from '../order-model';
import {
  useAllocateOrdersMutation, useCancelOrdersMutation, useHoldOrdersMutation, useReleaseHoldsMutation, useUnallocateOrdersMutation,
} from '../orders-api';
import { BatchResultModal } from './BatchResultModal';

export interface MoveTarget { orderId: number; soNumber: string; status: OrderStatus }

/**
 * Bulk moves (allocate, unallocate, hold, release hold, cancel) on orders, with the answer shown: what was done,
 * what was refused and why, and for allocation the short lines by reason. Orders the move does not apply to in
 * their status are not sent; they are listed as refused with that reason. Cancel asks first.
 */
export function useOrderMoves() {
  const t = useT();
  const [allocate] = useAllocateOrdersMutation();
  const [unallocate] = useUnallocateOrdersMutation();
  const [hold] = useHoldOrdersMutation();
  const [releaseHolds] = useReleaseHoldsMutation();
  const [cancel] = useCancelOrdersMutation();
  const [answer, setAnswer] = useState<{ action: OrderAction; summary: BatchSummary }>();
  const [busy, setBusy] = useState(false);

  const send = async (action: OrderAction, body: { orderIds: number[] } | MatchingBatch, skipped: MoveTarget[] = []) => {
    const calls: Record<OrderAction, () => { unwrap(): Promise<OrderBatchResult | AllocationResult> }> = {
      allocate: () => allocate(body), unallocate: () => unallocate(body), hold: () => hold(body), releaseHold: () => releaseHolds(body), cancel: () => cancel(body),
    };
    setBusy(true);
    try {
      const summary = summarizeBatch(await calls[action]().unwrap());
      summary.refused.push(...skipped.map((o) => ({ soNumber: o.soNumber, message: t('outbound.action.notInStatus', { status: t(`outbound.status.${o.status}`) }) })));
      setAnswer({ action, summary });
    } catch (raw) {
      notifyError(errorToastText(toApiError(raw)));
    } finally {
      setBusy(false);
    }
  };

  /** Runs the move on the orders it applies to (`eligible`), reporting the rest of `selected` as refused. */
  const run = (action: OrderAction, eligible: MoveTarget[], selected: MoveTarget[] = eligible) => {
    const skipped = selected.filter((o) => !eligible.some((e) => e.orderId === o.orderId));
    if (!eligible.length) return;
    if (action !== 'cancel') return send(action, { orderIds: eligible.map((o) => o.orderId) }, skipped);
    Modal.confirm({
      title: t('outbound.action.cancel'),
      content: t('outbound.action.confirmCancel', { count: eligible.length }),
      okText: t('outbound.action.cancel'),
      okButtonProps: { danger: true },
      cancelText: t('form.close'),
      onOk: () => send(action, { orderIds: eligible.map((o) => o.orderId) }, skipped),
    });
  };

  /**
   * Runs the move on every order the list's filters and search match (`total` of them); the server refuses, per
   * order, those the move does not apply to in their status.
   */
  const runMatching = (action: OrderAction, matching: MatchingBatch, total: number) => {
    if (action !== 'cancel') return send(action, matching);
    Modal.confirm({
      title: t('outbound.action.cancel'),
      content: t('outbound.action.confirmCancel', { count: total }),
      okText: t('outbound.action.cancel'),
      okButtonProps: { danger: true },
      cancelText: t('form.close'),
      onOk: () => send(action, matching),
    });
  };

  const modal = answer && <BatchResultModal action={answer.action} summary={answer.summary} onClose={() => setAnswer(undefined)} />;
  return { run, runMatching, busy, modal };
}
