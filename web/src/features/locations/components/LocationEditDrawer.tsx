import { Form } from 'antd';
import type { Location, UpdateLocationInput } from '@bolx/contracts';
import { FormDrawer } from '../../../components/form-drawer/FormDrawer';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useT } from '../../../lib/i18n/use-t';
import { useUpdateLocationMutation } from '../locations-api';
import { LocationFields } from './LocationFields';

type Values = Omit<UpdateLocationInput, 'locationId'>;
const blankToNull = (v: string | null | undefined) => (v && v.trim() ? v.trim() : null);

/** Edits one location (its warehouse stays; deactivating one that holds stock is refused by the server). */
export function LocationEditDrawer({ location, onClose }: { location?: Location; onClose: () => void }) {
  const t = useT();
  const [form] = Form.useForm<Values>();
  const [update] = useUpdateLocationMutation();

  const submit = (v: Values) =>
    runMutation(
      update({
        ...v,
        locationId: location!.locationId,
        zone: blankToNull(v.zone), aisle: blankToNull(v.aisle), rack: blankToNull(v.rack), level: blankToNull(v.level), bin: blankToNull(v.bin),
        description: blankToNull(v.description), maxWeightKg: v.maxWeightKg ?? null,
      }),
    );

  return (
    <FormDrawer<Values>
      open={Boolean(location)}
      title={location ? t('locations.edit.title', { code: location.locationCode, warehouse: location.warehouseName }) : ''}
      onClose={onClose}
      form={form}
      initialValues={location}
      onSubmit={submit}
      width={720}
    >
      <LocationFields editing />
    </FormDrawer>
  );
}
