import { Tag } from 'antd';
import { useT } from '../lib/i18n/use-t';

/** Active / Inactive, the same everywhere. */
export function StatusTag({ active }: { active: boolean }) {
  const t = useT();
  return <Tag color={active ? 'success' : 'default'}>{t(active ? 'common.active' : 'common.inactive')}</Tag>;
}
