/**
 * Tag colours of the stock screens' statuses, by what they ask of the user: orange waits for someone, green and
 * cyan changed stock (cyan posted at once, green after an approval), red was refused.
 */
const COLORS: Record<string, string> = {
  Posted: 'cyan', Pending: 'orange', Approved: 'green', Rejected: 'red',
  Open: 'blue', Recount: 'orange', Counted: 'purple', Cancelled: 'default', Completed: 'green',
  Expired: 'red', Expiring: 'gold',
};

export const stockStatusColor = (status: string): string => COLORS[status] ?? 'default';
