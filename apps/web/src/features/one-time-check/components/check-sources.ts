import { type ItemKind, SOURCE_TYPES, type SourceType } from '@pledgewatch/contract';
import type { DocumentType } from '@pledgewatch/identifiers';

/** The sources a check of this kind asks, in the contract's order (what the server will run). */
export function sourcesFor(kind: ItemKind, documentType: DocumentType | null): SourceType[] {
  return (Object.keys(SOURCE_TYPES) as SourceType[]).filter((type) => {
    const info = SOURCE_TYPES[type];
    if (!info.itemKinds.includes(kind)) {
      return false;
    }
    return (
      kind === 'vin' ||
      !info.documentTypes ||
      (documentType !== null && info.documentTypes.includes(documentType))
    );
  });
}
