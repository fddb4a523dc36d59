import UploadFileIcon from '@mui/icons-material/UploadFile';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { UPLOAD_MAX_BYTES_DEFAULT } from '@pledgewatch/contract';
import { type DragEvent, useId, useRef, useState } from 'react';
import { texts } from '@/features/monitoring-upload/texts';
import { formatBytes } from '@/lib/format';

const t = texts.monitoringUpload.file;
const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

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

export function FileDropZone({
  onFile,
  onError,
}: {
  onFile: (file: File) => void;
  onError: (message: string) => void;
}) {
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();

  const take = (files: FileList | null) => {
    const file = files?.[0];
    if (!file) {
      return;
    }
    const problem = precheck(file);
    if (problem) {
      onError(problem);
    } else {
      onFile(file);
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    take(event.dataTransfer.files);
  };

  return (
    <Box
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      data-testid="drop-zone"
      sx={{
        border: 2,
        borderStyle: 'dashed',
        borderColor: dragging ? 'primary.main' : 'divider',
        bgcolor: dragging ? 'action.hover' : 'transparent',
        borderRadius: 2,
        p: { xs: 3, md: 5 },
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        textAlign: 'center',
        gap: 1.5,
        transition: 'border-color 150ms, background-color 150ms',
      }}
    >
      <UploadFileIcon color={dragging ? 'primary' : 'action'} sx={{ fontSize: 48 }} />
      <Typography variant="h6" component="p">
        {t.dropTitle}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 520 }}>
        {t.dropHint(formatBytes(UPLOAD_MAX_BYTES_DEFAULT))}
      </Typography>
      <input
        ref={input}
        id={inputId}
        type="file"
        accept={ACCEPT}
        hidden
        data-testid="file-input"
        onChange={(event) => {
          take(event.target.files);
          event.target.value = '';
        }}
      />
      <Button variant="contained" onClick={() => input.current?.click()}>
        {t.choose}
      </Button>
    </Box>
  );
}
