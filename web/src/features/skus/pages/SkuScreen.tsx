import { useSearchParams } from 'react-router';
import { useCanWrite } from '../../../lib/use-can-write';
import { SKU_TABS, SkuDetailPage, type SkuTab } from './SkuDetailPage';
import SkuListPage from './SkuListPage';
import '../skus.css';

/**
 * /SKU: the list, or one SKU's detail when the address names it (/SKU?skuid=12&tab=package), so a SKU and its
 * tab can be linked to and survive a reload while the screen keeps the spec's path.
 */
export default function SkuScreen() {
  const [params, setParams] = useSearchParams();
  const canWrite = useCanWrite('SKU');
  const skuId = Number(params.get('skuid'));
  const tabParam = params.get('tab') as SkuTab | null;
  const tab = tabParam && SKU_TABS.includes(tabParam) ? tabParam : null;

  if (!Number.isInteger(skuId) || skuId <= 0) return <SkuListPage />;
  return (
    <SkuDetailPage
      key={skuId}
      skuId={skuId}
      tab={tab}
      canWrite={canWrite}
      onTab={(next) => setParams({ skuid: String(skuId), tab: next }, { replace: true })}
      onBack={() => setParams({})}
    />
  );
}
