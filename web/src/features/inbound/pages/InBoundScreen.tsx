import { useSearchParams } from 'react-router';
import { useCanWrite } from '../../../lib/use-can-write';
import RoListPage from './RoListPage';
import { RoDetailPage } from './RoDetailPage';
import '../inbound.css';

/**
 * /InBound: the receiving orders, or one RO when the address names it (/InBound?roid=12), so an RO can be linked
 * to and survives a reload while the screen keeps the spec's path.
 */
export default function InBoundScreen() {
  const [params, setParams] = useSearchParams();
  const canWrite = useCanWrite('InBound');
  const id = Number(params.get('roid'));
  if (!Number.isInteger(id) || id <= 0) return <RoListPage />;
  return <RoDetailPage key={id} receivingOrderId={id} canWrite={canWrite} onBack={() => setParams({})} />;
}
