import { Tag } from 'antd';
import type { DocumentKind } from '@bolx/contracts';
import { useT } from '../lib/i18n/use-t';
import { STATUS_LABEL_PREFIX, documentStatusColour } from '../lib/status-actions';

type Props = { active: boolean } | { kind: DocumentKind; status: string };

/**
 * The one status tag. Active / Inactive, the same everywhere; or a document's status, coloured as the contracts'
 * status machine says (the server's own table), with its label from the kind's messages.
 */
export function StatusTag(props: Props) {
  const t = useT();
  if ('active' in props) return <Tag color={props.active ? 'success' : 'default'}>{t(props.active ? 'common.active' : 'common.inactive')}</Tag>;
  return <Tag color={documentStatusColour(props.kind, props.status)} data-status={props.status}>{t(`${STATUS_LABEL_PREFIX[props.kind]}.${props.status}`)}</Tag>;
}
