const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/**
 * A LoCoMo session date ("1:56 pm on 8 May, 2023") as an ISO 8601 UTC datetime for `occurredAt`, or null when it does
 * not read as one. The data names no time zone: UTC is assumed, the same for every session, so their order holds.
 *
 * @example
 * sessionDateToIso('1:56 pm on 8 May, 2023'); // '2023-05-08T13:56:00.000Z'
 */
export function sessionDateToIso(text: string | null): string | null {
  if (text === null) return null;
  const match = /^(\d{1,2}):(\d{2})\s*([ap]m)\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})$/i.exec(text.trim());
  if (match === null) return null;
  const [, hours, minutes, half, day, monthName, year] = match;
  const month = MONTHS.indexOf(String(monthName).toLowerCase());
  if (month < 0) return null;
  const hour = (Number(hours) % 12) + (String(half).toLowerCase() === 'pm' ? 12 : 0);
  const time = Date.UTC(Number(year), month, Number(day), hour, Number(minutes));
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}
