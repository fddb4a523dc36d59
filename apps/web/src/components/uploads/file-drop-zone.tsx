import UploadFileIcon from '@mui/icons-material/UploadFile';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { type DragEvent, useId, useRef, useState } from 'react';

/** What the upload screens take: CSV or XLSX. */
const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The file box of the upload screens (monitoring items, pledge notifications): drop a file or
 * choose one. It hands over the first file; the caller checks it and sends it.
 */
export function FileDropZone({
  title,
  hint,
  chooseLabel,
  onFile,
}: {
  title: string;
  hint: string;
  chooseLabel: string;
  onFile: (file: File) => void;
}) {
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();

  const take = (files: FileList | null) => {
    const file = files?.[0];
    if (file) {
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
        {title}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 520 }}>
        {hint}
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
        {chooseLabel}
      </Button>
    </Box>
  );
}
