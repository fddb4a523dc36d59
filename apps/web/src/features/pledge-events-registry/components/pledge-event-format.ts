import { DOCUMENT_TYPE_LABELS, type PledgeEvent } from '@pledgewatch/contract';
import { texts } from '@/features/pledge-events-registry/texts';

const t = texts.pledgeEventsRegistry;

/** `2024-05-31` as `31.05.2024`, a dash when absent. */
export const ruDate = (iso: string | null | undefined) =>
  iso ? iso.split('-').reverse().join('.') : texts.common.dash;

/** Chip colours of a pledge event's submission status. */
export const STATUS_COLORS: Record<string, 'default' | 'info' | 'warning' | 'success' | 'error'> = {
  new: 'default',
  draft: 'info',
  ready: 'warning',
  sent: 'info',
  registered: 'success',
  rejected: 'error',
};

export const vehicleText = (v: PledgeEvent['vehicles'][number]) =>
  v.vin ?? (v.bodyNumber ? `кузов ${v.bodyNumber}` : `шасси ${v.chassisNumber ?? ''}`);

export function partyLines(party: PledgeEvent['pledgor']): string[] {
  if (party.type === 'company') {
    return [party.name, `ИНН ${party.inn ?? ''} · ОГРН ${party.ogrn ?? ''}`];
  }
  return [
    party.name,
    `${party.documentType ? DOCUMENT_TYPE_LABELS[party.documentType] : ''} ${party.documentNumber ?? ''} · ${t.detail.birth(ruDate(party.birthDate))}`,
  ];
}
