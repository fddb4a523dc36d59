import { UPLOAD_MAX_BYTES_DEFAULT } from '@pledgewatch/contract';
import { FileDropZone as SharedFileDropZone } from '@/components/uploads/file-drop-zone';
import { texts } from '@/features/monitoring-upload/texts';
import { formatBytes } from '@/lib/format';

const t = texts.monitoringUpload.file;

/** The server checks the file again; this only saves a round trip for the obvious mistakes. */
function precheck(file: File): string | null {
  const extension = file.name.split('.').pop()?.toLowerCase();
  if (extension !== 'csv' && extension !== 'xlsx') {
    return t.wrongType(file.name);
  }
  if (file.size === 0) {
    return t.emptyFile(file.name);
  }
  if (file.size > UPLOAD_MAX_BYTES_DEFAULT) {
    return t.tooLarge(formatBytes(UPLOAD_MAX_BYTES_DEFAULT));
  }
  return null;
}

/** The shared drop zone with this screen's checks (type, empty file, size). */
export function FileDropZone({
  onFile,
  onError,
}: {
  onFile: (file: File) => void;
  onError: (message: string) => void;
}) {
  return (
    <SharedFileDropZone
      title={t.dropTitle}
      hint={t.dropHint(formatBytes(UPLOAD_MAX_BYTES_DEFAULT))}
      chooseLabel={t.choose}
      onFile={(file) => {
        const problem = precheck(file);
        if (problem) {
          onError(problem);
        } else {
          onFile(file);
        }
      }}
    />
  );
}
