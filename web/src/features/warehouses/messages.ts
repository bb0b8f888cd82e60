import { addMessages } from '../../lib/i18n/catalog';

/** This screen area's English texts, added to the catalogue when its lazy chunk loads (not in the main bundle). */
addMessages({
  'warehouse.title': 'Warehouses',
  'warehouse.subtitle': 'The warehouses you run, their addresses, time zones and capacity',
  'warehouse.searchPlaceholder': 'Warehouse',
  'warehouse.add': 'Add Warehouse',
  'warehouse.form.addTitle': 'Add Warehouse',
  'warehouse.form.editTitle': 'Edit Warehouse',
  'warehouse.fields.warehouseCode': 'Code',
  'warehouse.fields.warehouseName': 'Warehouse Name',
  'warehouse.fields.city': 'City',
  'warehouse.fields.state': 'State',
  'warehouse.fields.country': 'Country',
  'warehouse.fields.timezone': 'Time Zone',
  'warehouse.fields.capacity': 'Capacity',
  'warehouse.fields.capacityHint': 'Number of storage locations, used for the occupancy percentage',
  'warehouse.fields.isActive': 'Status',
});
