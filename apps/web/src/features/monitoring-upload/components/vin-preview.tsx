import WarningAmberRoundedIcon from '@mui/icons-material/WarningAmberRounded';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { validateVin } from '@pledgewatch/identifiers';
import { texts } from '@/features/monitoring-upload/texts';

const t = texts.monitoringUpload.single;

/** What the typed VIN decodes to, shown as soon as it is valid. */
export function VinPreview({ value }: { value: string }) {
  const result = validateVin(value);
  if (!result.ok) {
    return null;
  }
  const { decoded } = result;
  const facts: [string, string][] = [
    [t.decodedManufacturer, decoded.manufacturer ?? t.decodedUnknown],
    [t.decodedRegion, [decoded.region, decoded.country].filter(Boolean).join(', ') || t.decodedUnknown],
    [t.decodedModelYear, decoded.modelYear ? String(decoded.modelYear) : t.decodedUnknown],
    [
      t.decodedCheckDigit,
      decoded.checkDigit.valid ? t.checkDigitOk : t.checkDigitBad(decoded.checkDigit.expected),
    ],
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
      <Box
        component="dl"
        sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.25 }}
      >
        {facts.map(([label, value]) => (
          <Box key={label} sx={{ display: 'contents' }}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {label}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0 }}>
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
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
