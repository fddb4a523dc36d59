import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { DOCUMENT_TYPE_CODES, DOCUMENT_TYPES, type DocumentType } from '@pledgewatch/identifiers';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { texts } from '@/features/dashboard/texts';

const t = texts.dashboard;

const VIN_KIND = 'vin';
type QuickKind = typeof VIN_KIND | DocumentType;

export function QuickCheck() {
  const navigate = useNavigate();
  const [kind, setKind] = useState<QuickKind>(VIN_KIND);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const text = value.trim();
    if (!text) {
      setError(t.quickCheck.required);
      return;
    }
    const params: Record<string, string> =
      kind === VIN_KIND ? { vin: text } : { documentType: kind, documentNumber: text };
    void navigate(`${paths.oneTimeCheck.getHref()}?${new URLSearchParams(params)}`);
  };
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="form" onSubmit={onSubmit} noValidate>
      <Typography variant="h6" component="h2">
        {t.quickCheck.heading}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t.quickCheck.hint}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'flex-start' }}>
        <TextField
          select
          size="small"
          label={t.quickCheck.kind}
          value={kind}
          onChange={(event) => setKind(event.target.value as QuickKind)}
          sx={{ flex: '1 1 170px' }}
        >
          <MenuItem value={VIN_KIND}>{t.quickCheck.vin}</MenuItem>
          {DOCUMENT_TYPE_CODES.map((code) => (
            <MenuItem key={code} value={code}>
              {DOCUMENT_TYPES[code]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label={t.quickCheck.number}
          value={value}
          onChange={(event) => {
            setValue(event.target.value);
            setError(null);
          }}
          error={Boolean(error)}
          helperText={error ?? ' '}
          sx={{ flex: '2 1 220px' }}
          slotProps={{ htmlInput: { 'data-testid': 'dashboard-quick-check' } }}
        />
        <Button type="submit" variant="contained" sx={{ height: 40, flex: '0 0 auto' }}>
          {t.quickCheck.submit}
        </Button>
      </Box>
    </Paper>
  );
}
