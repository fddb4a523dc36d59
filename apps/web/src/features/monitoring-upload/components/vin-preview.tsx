import WarningAmberRoundedIcon from '@mui/icons-material/WarningAmberRounded';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { validateVin } from '@pledgewatch/identifiers';
import { type DefinitionLine, DefinitionList } from '@/components/ui/definition-list';
import { texts } from '@/features/monitoring-upload/texts';

const t = texts.monitoringUpload.single;

/** What the typed VIN decodes to, shown as soon as it is valid. */
export function VinPreview({ value }: { value: string }) {
  const result = validateVin(value);
  if (!result.ok) {
    return null;
  }
  const { decoded } = result;
  const facts: DefinitionLine[] = [
    { label: t.decodedManufacturer, value: decoded.manufacturer ?? t.decodedUnknown },
    {
      label: t.decodedRegion,
      value: [decoded.region, decoded.country].filter(Boolean).join(', ') || t.decodedUnknown,
    },
    { label: t.decodedModelYear, value: decoded.modelYear ? String(decoded.modelYear) : t.decodedUnknown },
    {
      label: t.decodedCheckDigit,
      value: decoded.checkDigit.valid ? t.checkDigitOk : t.checkDigitBad(decoded.checkDigit.expected),
    },
  ];
  return (
    <Box
      data-testid="vin-preview"
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5, bgcolor: 'action.hover' }}
      aria-live="polite"
    >
      <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
        {t.decodedTitle(result.value)}
      </Typography>
      <DefinitionList lines={facts} dense />
      {result.warnings.map((warning) => (
        <Stack
          key={warning}
          direction="row"
          spacing={0.75}
          sx={{ mt: 1, color: 'warning.main', alignItems: 'flex-start' }}
        >
          <WarningAmberRoundedIcon fontSize="small" />
          <Typography variant="body2">{warning}</Typography>
        </Stack>
      ))}
    </Box>
  );
}
