import { Suspense, lazy, useState, type ComponentType } from 'react';
import { Button, Result, Segmented, Skeleton, Space, Tooltip } from 'antd';
import { InboxOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import { useTakeNextJobMutation } from '../../../lib/api/floor-api';
import { runMutation } from '../../../lib/api/mutation-toast';
import { packStationPath, pickingPath } from '../../../lib/floor-paths';
import { useAppSelector } from '../../../lib/hooks';
import { useT } from '../../../lib/i18n/use-t';
import { selectWarehouseId } from '../../../lib/state/selectors';
import { JobsView } from '../components/JobsView';
import { ShipView } from '../components/ShipView';
import { WavesView } from '../components/WavesView';
import { batchJobViewOf, jobIdOf } from '../floor-model';
import { useFloorActor } from '../use-floor-actor';
import '../messages';
import '../floor.css';

/**
 * The picking screen and the pack station are the handheld's (features/handheld): loaded only when the URL asks
 * for them. Globbed rather than imported, so this screen builds before those pages exist.
 */
const HANDHELD_PAGES = import.meta.glob<{ default: ComponentType }>(['../../handheld/pages/PickingPage.tsx', '../../handheld/pages/PackStationPage.tsx']);
const handheldPage = (name: 'PickingPage' | 'PackStationPage') => {
  const load = HANDHELD_PAGES[`../../handheld/pages/${name}.tsx`];
  return load ? lazy(load) : null;
};
const PickingScreen = handheldPage('PickingPage');
const PackStation = handheldPage('PackStationPage');

type Tab = 'waves' | 'jobs' | 'ship';

/**
 * /BatchJob: waves and pick jobs, live, with the supervisor's moves; a picker's "Take next job"; the packed orders
 * to ship by carrier. `?job=<id>` is the picking screen on that job, `?pack=1` the pack station.
 */
export default function BatchJobPage() {
  const [search] = useSearchParams();
  const view = batchJobViewOf(search);
  if (view.kind === 'picking') return <Handheld screen={PickingScreen} />;
  if (view.kind === 'pack') return <Handheld screen={PackStation} />;
  return <SupervisorView />;
}

function Handheld({ screen: Screen }: { screen: ComponentType | null }) {
  const t = useT();
  const navigate = useNavigate();
  if (!Screen) return <Result status="info" title={t('floor.handheld.unavailable')} extra={<Button onClick={() => navigate('/BatchJob')}>{t('floor.backToJobs')}</Button>} />;
  return <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}><Screen /></Suspense>;
}

function SupervisorView() {
  const t = useT();
  const navigate = useNavigate();
  const who = useFloorActor();
  const warehouseId = useAppSelector(selectWarehouseId) ?? 0;
  const [tab, setTab] = useState<Tab>('waves');
  const [waveFilter, setWaveFilter] = useState<{ waveId: number; waveNumber: string }>();
  const [takeNext, { isLoading: taking }] = useTakeNextJobMutation();

  const onTakeNext = async () => {
    const answer = await runMutation(takeNext({ warehouseId }), { silentSuccess: true });
    const jobId = jobIdOf(answer);
    if (jobId !== null) navigate(pickingPath(jobId));
  };

  const actions = (
    <Space wrap>
      <Segmented<Tab> value={tab} onChange={setTab} data-testid="batchjob-tabs" options={[
        { value: 'waves', label: t('floor.tab.waves') },
        { value: 'jobs', label: t('floor.tab.jobs') },
        { value: 'ship', label: t('floor.tab.ship') },
      ]} />
      {who.pick && (
        <Tooltip title={warehouseId ? undefined : t('floor.chooseWarehouse')}>
          <Button type="primary" icon={<PlayCircleOutlined />} disabled={!warehouseId} loading={taking} onClick={() => void onTakeNext()} data-testid="take-next-job">
            {t('floor.takeNext')}
          </Button>
        </Tooltip>
      )}
      {who.write && <Button icon={<InboxOutlined />} onClick={() => navigate(packStationPath())} data-testid="pack-station">{t('floor.packStation')}</Button>}
    </Space>
  );

  if (tab === 'waves') {
    return <WavesView actions={actions} who={who} onJobsOf={(wave) => { setWaveFilter(wave); setTab('jobs'); }} />;
  }
  if (tab === 'jobs') return <JobsView key={waveFilter?.waveId ?? 0} actions={actions} who={who} wave={waveFilter} onClearWave={() => setWaveFilter(undefined)} />;
  return <ShipView actions={actions} who={who} warehouseId={warehouseId} />;
}
