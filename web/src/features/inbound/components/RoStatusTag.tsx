import { Tag } from 'antd';
import type { ReceivingStatus } from '@bolx/contracts';
import { useT } from '../../../lib/i18n/use-t';
import { RO_STATUS_COLOR } from '../inbound-model';

/** An RO's status as a coloured tag, the same on every inbound screen. */
export function RoStatusTag({ status }: { status: ReceivingStatus }) {
  const t = useT();
  return <Tag color={RO_STATUS_COLOR[status]} data-status={status}>{t(`inbound.status.${status}`)}</Tag>;
}
