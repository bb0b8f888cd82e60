import { LocationListScreen } from '../components/LocationListScreen';

/** /Location: storage locations (rack, shelf, zone, aisle). */
export default function LocationPage() {
  return <LocationListScreen category="storage" />;
}
