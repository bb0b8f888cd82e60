import { LocationListScreen } from '../components/LocationListScreen';

/** /OtherLocations: staging, dock, returns and quarantine areas. */
export default function OtherLocationsPage() {
  return <LocationListScreen category="other" />;
}
