import { computeVinCheckDigit } from '@pledgewatch/identifiers';

/** A valid VIN (ISO 3779 check digit) of a Lada model year 2024, with a serial no demo item has. */
export function newVin(): string {
  const serial = String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0');
  const draft = `XTA21099_RY${serial}`;
  return draft.replace('_', computeVinCheckDigit(draft.replace('_', '0')));
}
