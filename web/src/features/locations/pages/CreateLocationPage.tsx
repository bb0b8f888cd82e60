import { Card, Tabs } from 'antd';
import { AppstoreAddOutlined, PlusOutlined } from '@ant-design/icons';
import { useT } from '../../../lib/i18n/use-t';
import { PageHeading } from '../components/PageHeading';
import { PatternForm } from '../components/PatternForm';
import { SingleLocationForm } from '../components/SingleLocationForm';
import '../locations.css';

/** /CreateLocation: one location, or many at once by zone-aisle-rack-level-bin ranges. */
export default function CreateLocationPage() {
  const t = useT();
  return (
    <div className="bolx-page">
      <PageHeading title={t('routes.CreateLocation')} subtitle={t('locations.create.subtitle')} />
      <Card>
        <Tabs
          destroyInactiveTabPane={false}
          items={[
            { key: 'single', label: t('locations.create.single'), icon: <PlusOutlined />, children: <SingleLocationForm /> },
            { key: 'pattern', label: t('locations.create.pattern'), icon: <AppstoreAddOutlined />, children: <PatternForm /> },
          ]}
        />
      </Card>
    </div>
  );
}
