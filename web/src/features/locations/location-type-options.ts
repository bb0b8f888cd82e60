import type { SelectProps } from 'antd';
import type { LocationType } from '@bolx/contracts';
import type { Translate } from '../../lib/i18n/use-t';

/** Location types of one kind as select options. */
export function typesOfCategory(types: LocationType[] | undefined, category: LocationType['category']) {
  return (types ?? []).filter((x) => x.category === category).map((x) => ({ value: x.code, label: x.name }));
}

/** Every location type as select options, storage kinds first (spec section 9: rack, shelf, zone, aisle), grouped. */
export function locationTypeOptions(types: LocationType[] | undefined, t: Translate): SelectProps['options'] {
  return [
    { label: t('locations.types.storage'), options: typesOfCategory(types, 'storage') },
    { label: t('locations.types.other'), options: typesOfCategory(types, 'other') },
  ].filter((g) => g.options.length > 0);
}
