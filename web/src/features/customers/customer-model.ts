import { CUSTOMER_DOCUMENT_MAX_BYTES, CUSTOMER_DOCUMENT_TYPES } from '@bolx/contracts';
import type { CustomerIntegration } from '@bolx/contracts';
import type { IntegrationBody, IntegrationProperty } from './customers-api';

/** Pure rules of the customer screens (unit-tested). */

/** File extensions accepted for a customer document (the server checks content too). */
export const DOCUMENT_EXTENSIONS = CUSTOMER_DOCUMENT_TYPES.flatMap((t) => (t === 'jpeg' ? ['jpeg', 'jpg'] : [t]));
export const DOCUMENT_ACCEPT = DOCUMENT_EXTENSIONS.map((e) => `.${e}`).join(',');

export type DocumentProblem = 'type' | 'size' | 'empty' | null;

/** Why a picked file cannot be uploaded, before it is sent. */
export function documentProblem(file: { name: string; size: number }): DocumentProblem {
  const ext = file.name.includes('.') ? file.name.split('.').pop()!.toLowerCase() : '';
  if (!DOCUMENT_EXTENSIONS.includes(ext)) return 'type';
  if (file.size === 0) return 'empty';
  if (file.size > CUSTOMER_DOCUMENT_MAX_BYTES) return 'size';
  return null;
}

/** 1536 → "1.5 KB". */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 10 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}

export interface IntegrationFormValues {
  integrationId?: number;
  accountName: string;
  isActive: boolean;
  /** Property values by property id ('p<id>' keys so antd keeps them as one object). */
  props: Record<string, string | undefined>;
}

export const propKey = (propertyId: number) => `p${propertyId}`;

/** An existing integration as the form's values; secrets stay as answered (masked) and are sent back unchanged. */
export function integrationFormValues(item: CustomerIntegration): IntegrationFormValues {
  return {
    integrationId: item.integrationId,
    accountName: item.accountName,
    isActive: item.isActive,
    props: Object.fromEntries(item.properties.map((p) => [propKey(p.propertyId), p.value])),
  };
}

/** The form's values as the request body: every property of the type, empty ones as ''. */
export function integrationBody(values: IntegrationFormValues, properties: IntegrationProperty[]): IntegrationBody {
  return {
    accountName: values.accountName.trim(),
    isActive: values.isActive,
    properties: properties.map((p) => ({ propertyId: p.uniqueid, value: (values.props?.[propKey(p.uniqueid)] ?? '').trim() })),
  };
}

/** Integration types a customer can still add (one account per carrier or channel). */
export function addableTypes<T extends { integrationId: number }>(types: T[], existing: { integrationId: number }[]): T[] {
  const used = new Set(existing.map((e) => e.integrationId));
  return types.filter((t) => !used.has(t.integrationId));
}
