import { lazy, Suspense, useState } from 'react';
import { useAppSelector } from '../../../lib/hooks';

/** The panel and its forms load on first open (their own chunk), and stay mounted so progress cards keep showing. */
const AddDataPanel = lazy(() => import('./add-data/AddDataPanel'));

export function AddDataDrawer() {
  const open = useAppSelector((s) => s.ui.addDataOpen);
  const [opened, setOpened] = useState(false);
  if (open && !opened) setOpened(true);
  if (!open && !opened) return null;
  return (
    <Suspense fallback={null}>
      <AddDataPanel />
    </Suspense>
  );
}
