import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { UploadDetail, UploadFileColumn } from '@pledgewatch/contract';
import { useState } from 'react';
import { texts } from '@/config/texts';
import { getErrorMessage } from '@/lib/api-client';
import { useMapUploadColumns, useSelectUploadSheet } from './upload-columns-api';

const t = texts.uploadColumns;
const SKIP = '';

function MatchMark({ column }: { column: UploadFileColumn }) {
  const marks = [
    column.field && column.match === 'synonym' ? { label: t.guessed, color: 'info' as const } : null,
    column.field && column.match === 'remembered' ? { label: t.remembered, color: 'default' as const } : null,
    column.ambiguous ? { label: t.ambiguous, color: 'warning' as const } : null,
  ].filter((mark) => mark !== null);
  return marks.map((mark) => (
    <Chip
      key={mark.label}
      size="small"
      variant="outlined"
      color={mark.color}
      label={mark.label}
      data-testid="column-mark"
    />
  ));
}

/**
 * The mapping step: each file column with its header and first values, and the field it goes
 * into or «Не загружать». One card per column, in one column on a phone.
 */
export function UploadMappingForm({ upload, onCancel }: { upload: UploadDetail; onCancel?: () => void }) {
  const [fields, setFields] = useState<string[]>(() =>
    upload.fileColumns.map((column) => column.field ?? SKIP),
  );
  const [error, setError] = useState<string | null>(null);
  const map = useMapUploadColumns({ onError: (failure) => setError(getErrorMessage(failure)) });
  const titleOf = new Map(upload.fields.map((field) => [field.field, field.title]));

  const submit = () => {
    setError(null);
    map.mutate({
      id: upload.id,
      columns: upload.fileColumns.map((column, i) => ({ column: column.index, field: fields[i] || null })),
    });
  };

  return (
    <Stack spacing={2} data-testid="upload-mapping">
      <div>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          {t.mappingTitle}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t.mappingHint}
        </Typography>
      </div>
      {error && (
        <Alert severity="error" role="alert" onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      <Box
        sx={{
          display: 'grid',
          gap: 1.5,
          gridTemplateColumns: {
            xs: '1fr',
            sm: 'repeat(2, minmax(0, 1fr))',
            lg: 'repeat(3, minmax(0, 1fr))',
          },
        }}
      >
        {upload.fileColumns.map((column, i) => (
          <Paper
            key={column.index}
            variant="outlined"
            sx={{ p: 1.5, minWidth: 0 }}
            data-testid="mapping-column"
          >
            <Stack spacing={1}>
              <Stack
                direction="row"
                spacing={1}
                sx={{ alignItems: 'baseline', flexWrap: 'wrap', rowGap: 0.5 }}
              >
                <Typography variant="body1" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                  {column.header || t.noHeader}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {t.column(column.index)}
                </Typography>
                <MatchMark column={column} />
              </Stack>
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                {`${t.samples}: ${column.samples.length > 0 ? column.samples.join(' · ') : t.noSamples}`}
              </Typography>
              <TextField
                select
                size="small"
                fullWidth
                label={t.field}
                value={fields[i] ?? SKIP}
                onChange={(event) =>
                  setFields((current) => current.map((value, j) => (j === i ? event.target.value : value)))
                }
                slotProps={{
                  htmlInput: { 'aria-label': `${t.field}: ${column.header || t.column(column.index)}` },
                  select: { displayEmpty: true },
                  inputLabel: { shrink: true },
                }}
              >
                <MenuItem value={SKIP}>{t.skip}</MenuItem>
                {upload.fields.map((field) => (
                  <MenuItem key={field.field} value={field.field}>
                    {field.key ? t.keyField(titleOf.get(field.field) ?? field.title) : field.title}
                  </MenuItem>
                ))}
              </TextField>
            </Stack>
          </Paper>
        ))}
      </Box>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
        <Button variant="contained" onClick={submit} loading={map.isPending}>
          {t.apply}
        </Button>
        {onCancel && <Button onClick={onCancel}>{t.cancelEdit}</Button>}
      </Stack>
    </Stack>
  );
}

/** A workbook's sheets, when it has several: another one is read and checked when chosen. */
export function UploadSheetPicker({ upload }: { upload: UploadDetail }) {
  const [error, setError] = useState<string | null>(null);
  const sheet = useSelectUploadSheet({ onError: (failure) => setError(getErrorMessage(failure)) });
  if (upload.sheets.length < 2) {
    return null;
  }
  return (
    <Stack spacing={1}>
      {error && (
        <Alert severity="error" role="alert" onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      <TextField
        select
        size="small"
        label={t.sheet}
        value={upload.sheet ?? 0}
        disabled={sheet.isPending}
        onChange={(event) => {
          setError(null);
          sheet.mutate({ id: upload.id, sheet: Number(event.target.value) });
        }}
        sx={{ maxWidth: { sm: 320 } }}
      >
        {upload.sheets.map((entry) => (
          <MenuItem key={entry.index} value={entry.index}>
            {entry.name}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}

/**
 * Above the preview: the sheet read (a workbook's other sheets can be chosen), the header row found,
 * how each column is used with a mark on the guessed ones, and the totals or notes skipped.
 */
export function UploadHeaderSummary({
  upload,
  onEditMapping,
}: {
  upload: UploadDetail;
  onEditMapping: () => void;
}) {
  const titleOf = new Map(upload.fields.map((field) => [field.field, field.title]));
  if (upload.fileColumns.length === 0) {
    return null;
  }
  return (
    <Stack spacing={1.5} data-testid="upload-header-summary">
      <UploadSheetPicker upload={upload} />
      <Typography variant="body2" color="text.secondary" data-testid="header-row">
        {upload.skippedAbove ?? t.headerAtFirstRow}
      </Typography>
      {upload.mapping.source === 'remembered' && (
        <Typography variant="body2" color="text.secondary">
          {t.rememberedNote}
        </Typography>
      )}
      <div>
        <Typography variant="subtitle2" component="h3">
          {t.columnsTitle}
        </Typography>
        <Stack
          component="ul"
          spacing={0.5}
          sx={{ listStyle: 'none', p: 0, m: 0 }}
          data-testid="column-mapping"
        >
          {upload.fileColumns.map((column) => (
            <Stack
              component="li"
              key={column.index}
              direction="row"
              spacing={1}
              sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}
            >
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                {`${column.header || t.column(column.index)} → ${column.field ? (titleOf.get(column.field) ?? column.field) : t.notLoaded}`}
              </Typography>
              <MatchMark column={column} />
            </Stack>
          ))}
        </Stack>
      </div>
      <Box>
        <Button size="small" variant="outlined" onClick={onEditMapping}>
          {t.editMapping}
        </Button>
      </Box>
      {upload.counts.skipped > 0 && (
        <Typography variant="body2" color="text.secondary" data-testid="skipped-rows">
          {t.skippedRows(
            upload.counts.skipped,
            upload.skippedRows.map((row) => t.skippedRow(row.rowNumber, row.text)).join('; '),
          )}
        </Typography>
      )}
    </Stack>
  );
}
