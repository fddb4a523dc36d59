import { UploadFileError } from './upload-file-error.ts';

/** The longest markup (a tag with its attributes) a sheet may hold; Excel's are well under 1 KB. */
export const MAX_MARKUP_CHARS = 64 * 1024;
const MAX_ENTITY_CHARS = 16;

/**
 * Cuts every text run of an XML stream to `maxText` characters (+1, so the reader still sees it
 * was longer) before it reaches the SAX parser, which would otherwise buffer a whole text node:
 * a sheet with a 150 MB cell costs a counter, not 150 MB. An entity open at the cut is kept whole,
 * so the XML stays well-formed. A tag longer than MAX_MARKUP_CHARS refuses the file.
 */
export class XmlTextCap {
  private readonly maxText: number;
  private inMarkup = false;
  private markupLength = 0;
  private textLength = 0;
  /** The current text run was cut (its filler emitted). */
  private cut = false;
  /** Inside an entity (`&…;`) of the emitted text, with its length so far; -1 when not. */
  private entity = -1;

  constructor(maxText: number) {
    this.maxText = maxText + 1;
  }

  filter(chunk: string): string {
    let out = '';
    let position = 0;
    const length = chunk.length;
    while (position < length) {
      if (this.inMarkup) {
        const close = chunk.indexOf('>', position);
        const end = close === -1 ? length : close + 1;
        this.markupLength += end - position;
        if (this.markupLength > MAX_MARKUP_CHARS) {
          throw new UploadFileError('Файл XLSX повреждён: в листе недопустимо длинный элемент разметки');
        }
        out += chunk.slice(position, end);
        position = end;
        if (close !== -1) {
          this.inMarkup = false;
          this.textLength = 0;
          this.cut = false;
          this.entity = -1;
        }
        continue;
      }
      const open = chunk.indexOf('<', position);
      const end = open === -1 ? length : open;
      const room = this.maxText - this.textLength;
      if (end - position <= room) {
        this.track(chunk, position, end);
        out += chunk.slice(position, end);
        this.textLength += end - position;
      } else {
        let cut = position + Math.max(0, room);
        this.track(chunk, position, cut);
        // Finish an entity the cut would split (`&am` + `<` is not XML).
        while (this.entity >= 0 && cut < end && this.entity < MAX_ENTITY_CHARS) {
          const char = chunk.charCodeAt(cut++);
          this.entity = char === 59 ? -1 : this.entity + 1; // ;
        }
        // Entities make the kept markup decode shorter than it is: a filler run makes sure the
        // reader still sees a value over the cap.
        out += chunk.slice(position, cut) + (this.cut ? '' : '…'.repeat(this.maxText));
        this.cut = true;
        this.textLength = this.maxText;
      }
      position = end;
      if (open !== -1) {
        this.inMarkup = true;
        this.markupLength = 0;
      }
    }
    return out;
  }

  /** Follows entities over chunk[from, to) (a loop over the kept text only: linear, no rescans). */
  private track(chunk: string, from: number, to: number): void {
    let entity = this.entity;
    for (let i = from; i < to; i++) {
      const char = chunk.charCodeAt(i);
      if (char === 38) {
        entity = 0; // &
      } else if (char === 59) {
        entity = -1; // ;
      } else if (entity >= 0) {
        entity++;
      }
    }
    this.entity = entity;
  }
}
