/**
 * Tag colours of a lot's expiry status on the expiry screen (documents' statuses take theirs from the contracts'
 * status machine: components/StatusTag).
 */
const COLORS: Record<string, string> = { Expired: 'red', Expiring: 'gold' };

export const stockStatusColor = (status: string): string => COLORS[status] ?? 'default';
