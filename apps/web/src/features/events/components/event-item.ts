import type { MonitoringEvent } from '@pledgewatch/contract';
import { DOCUMENT_TYPES, formatDocument, isDocumentType } from '@pledgewatch/identifiers';
import { paths } from '@/config/paths';
import { texts } from '@/features/events/texts';

/** The item's card on the portfolio screen. */
export const itemHref = (item: MonitoringEvent['item']) =>
  `${paths.monitoringItems.getHref()}?${new URLSearchParams({ ...(item.kind === 'document' ? { entity: 'document' } : {}), item: item.id })}`;

/** «45 06 123456» for documents, the VIN as is. */
export const displayIdentifier = (item: MonitoringEvent['item']) =>
  item.kind === 'document' && isDocumentType(item.documentType)
    ? formatDocument(item.documentType, item.identifier)
    : item.identifier;

export const kindLabel = (item: MonitoringEvent['item']) =>
  item.kind === 'document' && isDocumentType(item.documentType)
    ? DOCUMENT_TYPES[item.documentType]
    : texts.events.vin;
