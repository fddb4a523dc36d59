import WarningAmberRoundedIcon from '@mui/icons-material/WarningAmberRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { VinDecoded } from '@pledgewatch/identifiers';
import { type DefinitionLine, DefinitionList } from '@/components/ui/definition-list';
import { texts } from '@/features/one-time-check/texts';

const t = texts.oneTimeCheck;

/** The lines of a decoded VIN, in the order the results and the document show them. */
export function vinDecodingLines(decoded: {
  wmi: string;
  manufacturer: string | null;
  country: string | null;
  region: string | null;
  modelYear: number | null;
}): DefinitionLine[] {
  return [
    { label: t.decoding.manufacturer, value: decoded.manufacturer ?? t.decoding.unknown },
    { label: t.decoding.country, value: decoded.country ?? t.decoding.unknown },
    { label: t.decoding.region, value: decoded.region ?? t.decoding.unknown },
    { label: t.decoding.wmi, value: decoded.wmi },
    {
      label: t.decoding.modelYear,
      value: decoded.modelYear ? String(decoded.modelYear) : t.decoding.unknown,
    },
  ];
}

/** What the typed VIN already says, before any source is asked. */
export function VinPreview({ decoded, warnings }: { decoded: VinDecoded; warnings: string[] }) {
  const lines = [
    ...vinDecodingLines(decoded),
    {
      label: t.decoding.checkDigit,
      value: decoded.checkDigit.valid
        ? t.decoding.checkDigitOk(decoded.checkDigit.actual)
        : t.decoding.checkDigitMismatch(decoded.checkDigit.actual, decoded.checkDigit.expected),
    },
  ];
  return (
    <Box data-testid="vin-preview">
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {t.decoding.title}
      </Typography>
      <DefinitionList lines={lines} />
      {warnings.map((warning) => (
        <Alert key={warning} severity="warning" icon={<WarningAmberRoundedIcon />} sx={{ mt: 1.5 }}>
          {warning}
        </Alert>
      ))}
    </Box>
  );
}
