import AddIcon from '@mui/icons-material/Add';
import ContentPasteGoIcon from '@mui/icons-material/ContentPasteGo';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlined';
import WarningAmberRoundedIcon from '@mui/icons-material/WarningAmberRounded';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { DOCUMENT_TYPE_LABELS, FORM_ROWS_MAX, type FormDocRow, type FormVinRow } from '@pledgewatch/contract';
import { DOCUMENT_TYPE_CODES } from '@pledgewatch/identifiers';
import { type ClipboardEvent, memo, useMemo, useState } from 'react';
import { FormAlert } from '@/components/ui/form-alert';
import { texts } from '@/features/monitoring-upload/texts';
import { getErrorMessage } from '@/lib/api-client';
import { useAddDocumentItems } from '../api/add-document-items';
import { useAddVinItems } from '../api/add-vin-items';
import {
  type AddOutcome,
  emptyOutcome,
  mergeOutcomes,
  type OutcomeRow,
  toOutcome,
} from '../utils/add-outcome';
import {
  applyRowChange,
  checkRow,
  emptyRow,
  type GridRow,
  type GridRowType,
  type GridTextField,
  isMultiCellPaste,
  parsePastedRows,
  type RowCheck,
  toServerRowError,
} from '../utils/grid-rows';
import { AddResult } from './add-result';

const t = texts.monitoringUpload.grid;
const MONO = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' };
const nullIfEmpty = (value: string) => (value.trim() === '' ? null : value.trim());

/**
 * Many rows at once: paste cells from Excel or any text, fix what is marked, send. Refused rows stay
 * in the grid with the server's reason so they can be fixed and sent again.
 */
export function RowsGrid() {
  const [rows, setRows] = useState<GridRow[]>([]);
  const [pasteText, setPasteText] = useState('');
  const [pasteInfo, setPasteInfo] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<AddOutcome | null>(null);
  const [outcomeKinds, setOutcomeKinds] = useState<Map<number, 'vin' | 'document'>>(new Map());
  const [formError, setFormError] = useState<string | null>(null);
  const addVins = useAddVinItems();
  const addDocuments = useAddDocumentItems();
  const pending = addVins.isPending || addDocuments.isPending;

  const checks = useMemo(() => rows.map((row) => checkRow(row)), [rows]);
  const filled = rows.filter((_, index) => checks[index]!.state !== 'empty').length;
  const invalid = checks.filter((check) => check.state === 'error').length;
  const ready = checks.filter((check) => check.state === 'ok').length;

  const appendRows = (pasted: GridRow[]) => {
    setRows((current) =>
      [...current.filter((row) => row.identifier.trim() !== ''), ...pasted].slice(0, FORM_ROWS_MAX),
    );
    setPasteInfo(pasted.length > 0 ? t.pasted(pasted.length) : t.nothingFound);
  };

  const parse = (text: string) => {
    appendRows(parsePastedRows(text));
    setPasteText('');
  };

  const changeRow = (key: string, changes: Partial<GridRow>) =>
    setRows((current) => current.map((row) => (row.key === key ? applyRowChange(row, changes) : row)));

  const pasteIntoRow = (key: string, event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData('text');
    if (!isMultiCellPaste(text)) {
      return;
    }
    event.preventDefault();
    const pasted = parsePastedRows(text);
    setRows((current) => {
      const index = current.findIndex((row) => row.key === key);
      const before = current.slice(0, index);
      const target = current[index];
      const after = current.slice(index + 1);
      // The row pasted into is replaced when empty, otherwise the new rows come after it.
      const keep = target && target.identifier.trim() !== '' ? [target] : [];
      return [...before, ...keep, ...pasted, ...after].slice(0, FORM_ROWS_MAX);
    });
    setPasteInfo(pasted.length > 0 ? t.pasted(pasted.length) : t.nothingFound);
  };

  const submit = async () => {
    setFormError(null);
    setOutcome(null);
    const { vinRows, docRows } = readyRows(rows, checks);
    if (vinRows.length + docRows.length === 0) {
      return;
    }
    try {
      const [vinAnswer, docAnswer] = await Promise.all([
        vinRows.length > 0 ? addVins.mutateAsync({ rows: vinRows.map((entry) => entry.row) }) : null,
        docRows.length > 0 ? addDocuments.mutateAsync({ rows: docRows.map((entry) => entry.row) }) : null,
      ]);
      const { merged, kinds } = combineAnswers(vinRows, docRows, vinAnswer, docAnswer);
      const sentIndexes = new Set([...vinRows, ...docRows].map((entry) => entry.index));
      setRows((current) => rowsStillToFix(current, sentIndexes, merged));
      setOutcomeKinds(kinds);
      setOutcome(merged);
      setPasteInfo(null);
    } catch (error) {
      setFormError(getErrorMessage(error));
    }
  };

  return (
    <Stack spacing={2}>
      <TextField
        label={t.pasteLabel}
        placeholder={t.pastePlaceholder}
        multiline
        minRows={3}
        maxRows={10}
        value={pasteText}
        onChange={(event) => setPasteText(event.target.value)}
        onPaste={(event) => {
          const text = event.clipboardData.getData('text');
          if (text.trim() !== '') {
            event.preventDefault();
            parse(text);
          }
        }}
        helperText={t.pasteHint}
        slotProps={{ htmlInput: { 'data-testid': 'paste-area', spellCheck: false } }}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        <Button
          variant="outlined"
          startIcon={<ContentPasteGoIcon />}
          disabled={pasteText.trim() === ''}
          onClick={() => parse(pasteText)}
        >
          {t.parse}
        </Button>
        <Button startIcon={<AddIcon />} onClick={() => setRows((current) => [...current, emptyRow()])}>
          {t.addRow}
        </Button>
        {rows.length > 0 && (
          <Button
            color="inherit"
            onClick={() => {
              setRows([]);
              setPasteInfo(null);
            }}
          >
            {t.clear}
          </Button>
        )}
        {pasteInfo && (
          <Typography variant="body2" color="text.secondary" role="status" sx={{ ml: { sm: 1 } }}>
            {pasteInfo}
          </Typography>
        )}
      </Stack>

      {rows.length > 0 && (
        <>
          <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
            <Table
              size="small"
              aria-label={t.tableLabel}
              sx={{
                minWidth: 1000,
                '& td, & th': { px: 1 },
                '& td:first-of-type, & th:first-of-type': { pl: 2 },
              }}
            >
              <TableHead>
                <TableRow>
                  <TableCell sx={{ width: 48 }}>{t.rowNumber}</TableCell>
                  <TableCell sx={{ width: 170 }}>{t.type}</TableCell>
                  <TableCell sx={{ width: 260 }}>{t.identifier}</TableCell>
                  <TableCell>{t.label}</TableCell>
                  <TableCell>{t.contractNumber}</TableCell>
                  <TableCell>{t.pledgorName}</TableCell>
                  <TableCell sx={{ width: 48 }} />
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((row, index) => (
                  <GridRowView
                    key={row.key}
                    row={row}
                    number={index + 1}
                    check={checks[index]!}
                    onChange={changeRow}
                    onPaste={pasteIntoRow}
                    onRemove={(key) => setRows((current) => current.filter((item) => item.key !== key))}
                  />
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <FormAlert message={formError} />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
            <Button
              variant="contained"
              disabled={ready === 0}
              loading={pending}
              onClick={() => void submit()}
            >
              {t.submit(ready)}
            </Button>
            <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', rowGap: 1 }}>
              <Chip size="small" label={t.rowsTotal(filled)} />
              {invalid > 0 && (
                <Chip size="small" color="error" variant="outlined" label={t.rowsInvalid(invalid)} />
              )}
            </Stack>
          </Stack>
          {invalid > 0 && <Alert severity="warning">{t.invalidHint}</Alert>}
        </>
      )}

      {rows.length === 0 && !outcome && (
        <Typography variant="body2" color="text.secondary">
          {t.empty}
        </Typography>
      )}

      {outcome && (
        <AddResult
          outcome={outcome}
          showRowNumbers
          kindOf={(row: OutcomeRow) => outcomeKinds.get(row.rowNumber) ?? 'vin'}
        />
      )}
    </Stack>
  );
}

type GridRowViewProps = {
  row: GridRow;
  number: number;
  check: RowCheck;
  onChange: (key: string, changes: Partial<GridRow>) => void;
  onPaste: (key: string, event: ClipboardEvent<HTMLInputElement>) => void;
  onRemove: (key: string) => void;
};

const GridRowView = memo(function GridRowView({
  row,
  number,
  check,
  onChange,
  onPaste,
  onRemove,
}: GridRowViewProps) {
  const serverError = row.serverError;
  const error =
    (serverError?.field === 'identifier' ? serverError.message : null) ??
    (check.state === 'error' ? check.message : null);
  const warning = check.state === 'ok' ? check.warning : null;
  const helper =
    error ?? warning ?? (check.state === 'ok' && check.display !== row.identifier ? check.display : ' ');
  const cell = (field: GridTextField, label: string) => (
    <TableCell sx={{ verticalAlign: 'top' }}>
      <TextField
        size="small"
        fullWidth
        sx={{ minWidth: 140 }}
        error={serverError?.field === field}
        helperText={serverError?.field === field ? serverError.message : undefined}
        value={row[field]}
        onChange={(event) => onChange(row.key, { [field]: event.target.value })}
        slotProps={{ htmlInput: { 'aria-label': t.cellLabel(label, number) } }}
      />
    </TableCell>
  );

  return (
    <TableRow data-testid="grid-row" data-state={error ? 'error' : check.state}>
      <TableCell sx={{ verticalAlign: 'top', pt: 2, color: 'text.secondary' }}>{number}</TableCell>
      <TableCell sx={{ verticalAlign: 'top' }}>
        <TextField
          select
          size="small"
          fullWidth
          value={row.type}
          onChange={(event) => onChange(row.key, { type: event.target.value as GridRowType })}
          slotProps={{ htmlInput: { 'aria-label': t.cellLabel(t.type, number) } }}
        >
          <MenuItem value="vin">{t.typeVin}</MenuItem>
          {DOCUMENT_TYPE_CODES.map((code) => (
            <MenuItem key={code} value={code}>
              {DOCUMENT_TYPE_LABELS[code]}
            </MenuItem>
          ))}
        </TextField>
      </TableCell>
      <TableCell sx={{ verticalAlign: 'top' }}>
        <TextField
          size="small"
          fullWidth
          value={row.identifier}
          error={Boolean(error)}
          onChange={(event) => onChange(row.key, { identifier: event.target.value })}
          onPaste={(event: ClipboardEvent<HTMLInputElement>) => onPaste(row.key, event)}
          helperText={
            error || warning ? (
              <Stack component="span" direction="row" spacing={0.5} sx={{ alignItems: 'flex-start' }}>
                {error ? (
                  <ErrorOutlineIcon sx={{ fontSize: 14, mt: '2px' }} />
                ) : (
                  <WarningAmberRoundedIcon sx={{ fontSize: 14, mt: '2px', color: 'warning.main' }} />
                )}
                <span>{helper}</span>
              </Stack>
            ) : (
              helper
            )
          }
          slotProps={{
            htmlInput: { 'aria-label': t.cellLabel(t.identifier, number), spellCheck: false, style: MONO },
            formHelperText: {
              sx: { mx: 0, color: error ? undefined : warning ? 'warning.main' : undefined },
            },
          }}
        />
      </TableCell>
      {cell('label', t.label)}
      {cell('contractNumber', t.contractNumber)}
      {cell('pledgorName', t.pledgorName)}
      <TableCell sx={{ verticalAlign: 'top' }}>
        <IconButton size="small" aria-label={t.removeRow(number)} onClick={() => onRemove(row.key)}>
          <DeleteOutlineIcon fontSize="small" />
        </IconButton>
      </TableCell>
    </TableRow>
  );
});

type SentRow<T> = { index: number; row: T; typed: string };

/** The rows ready to send, as the VIN and the document calls take them, with their grid positions. */
function readyRows(rows: GridRow[], checks: RowCheck[]) {
  const vinRows: SentRow<FormVinRow>[] = [];
  const docRows: SentRow<FormDocRow>[] = [];
  rows.forEach((row, index) => {
    const check = checks[index]!;
    if (check.state !== 'ok') {
      return;
    }
    const extra = {
      label: nullIfEmpty(row.label),
      contractNumber: nullIfEmpty(row.contractNumber),
      pledgorName: nullIfEmpty(row.pledgorName),
    };
    if (row.type === 'vin') {
      vinRows.push({ index, row: { vin: row.identifier, ...extra }, typed: row.identifier });
    } else {
      docRows.push({
        index,
        row: { documentType: row.type, number: row.identifier, ...extra },
        typed: row.identifier,
      });
    }
  });
  return { vinRows, docRows };
}

/** The two calls' answers as one outcome numbered by grid row, and each row's kind. */
function combineAnswers(
  vinRows: SentRow<FormVinRow>[],
  docRows: SentRow<FormDocRow>[],
  vinAnswer: Parameters<typeof toOutcome>[0] | null,
  docAnswer: Parameters<typeof toOutcome>[0] | null,
) {
  const outcomeOf = (answer: Parameters<typeof toOutcome>[0] | null, sent: SentRow<unknown>[]) =>
    answer
      ? toOutcome(
          answer,
          sent.map((entry) => entry.typed),
          sent.map((entry) => entry.index + 1),
        )
      : emptyOutcome();
  const kinds = new Map<number, 'vin' | 'document'>();
  for (const entry of vinRows) {
    kinds.set(entry.index + 1, 'vin');
  }
  for (const entry of docRows) {
    kinds.set(entry.index + 1, 'document');
  }
  return { merged: mergeOutcomes(outcomeOf(vinAnswer, vinRows), outcomeOf(docAnswer, docRows)), kinds };
}

/** Only the rows that still need the user stay: refused by the server or not valid yet. */
function rowsStillToFix(current: GridRow[], sentIndexes: ReadonlySet<number>, merged: AddOutcome): GridRow[] {
  const refused = new Map(
    merged.rejected.map((row) => [row.rowNumber, toServerRowError(row.field, row.message ?? '')]),
  );
  return current
    .map((row, index) => ({ row, index }))
    .filter(({ row, index }) =>
      !sentIndexes.has(index) ? row.identifier.trim() !== '' : refused.has(index + 1),
    )
    .map(({ row, index }) =>
      refused.has(index + 1) ? { ...row, serverError: refused.get(index + 1) ?? null } : row,
    );
}
