import UploadFileOutlinedIcon from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Source } from '@pledgewatch/contract';
import { useId, useState } from 'react';
import { texts } from '@/features/checks/texts';
import { getErrorMessage } from '@/lib/api-client';
import { formatBytes, formatNumber } from '@/lib/format';
import { useImportSourceDataset } from '../api/import-source-dataset';

const t = texts.checks.import;

type ImportDatasetDialogProps = { source: Source | null; onClose: () => void };

/** Staff upload a new version of a source's dataset; the answer lists the rejected rows. */
export function ImportDatasetDialog({ source, onClose }: ImportDatasetDialogProps) {
  const titleId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const upload = useImportSourceDataset();
  const result = upload.data;

  const close = () => {
    if (upload.isPending) {
      return;
    }
    setFile(null);
    setPercent(null);
    upload.reset();
    onClose();
  };

  return (
    <Dialog open={source !== null} onClose={close} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{source ? t.title(source.name) : ''}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            {source?.type === 'passport' ? t.passportHint : t.hint}
          </Typography>
          <Button
            component="label"
            variant="outlined"
            startIcon={<UploadFileOutlinedIcon />}
            disabled={upload.isPending}
          >
            {file ? t.change : t.choose}
            <input
              hidden
              type="file"
              accept={
                source?.type === 'passport' ? '.csv,.bz2,text/csv' : '.csv,.json,text/csv,application/json'
              }
              onChange={(event) => {
                setFile(event.target.files?.[0] ?? null);
                upload.reset();
              }}
            />
          </Button>
          {file && (
            <Typography variant="body2">
              {file.name} · {formatBytes(file.size)}
            </Typography>
          )}
          {upload.isPending && (
            <LinearProgress
              variant={percent === null ? 'indeterminate' : 'determinate'}
              value={percent ?? 0}
            />
          )}
          {upload.isError && <Alert severity="error">{getErrorMessage(upload.error)}</Alert>}
          {result?.status === 'importing' && <Alert severity="info">{t.queued(result.version)}</Alert>}
          {result && result.status !== 'importing' && (
            <Alert
              severity={
                result.status === 'failed' ? 'error' : result.rowsRejected > 0 ? 'warning' : 'success'
              }
            >
              {t.result(result.version, formatNumber(result.recordsTotal), formatNumber(result.rowsRejected))}
            </Alert>
          )}
          {result && result.errors.length > 0 && (
            <List dense sx={{ maxHeight: 220, overflow: 'auto' }}>
              {result.errors.map((error) => (
                <ListItem key={`${error.row}-${error.message}`} disableGutters>
                  <ListItemText primary={t.row(error.row)} secondary={error.message} />
                </ListItem>
              ))}
            </List>
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={close} disabled={upload.isPending}>
          {texts.common.close}
        </Button>
        <Button
          variant="contained"
          disabled={!file || !source || Boolean(result)}
          loading={upload.isPending}
          onClick={() => {
            if (file && source) {
              setPercent(null);
              upload.mutate({
                type: source.type,
                file,
                onProgress: (loaded, total) => setPercent(Math.round((loaded / total) * 100)),
              });
            }
          }}
        >
          {t.submit}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
