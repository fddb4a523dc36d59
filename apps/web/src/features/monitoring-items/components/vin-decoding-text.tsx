import WarningAmberRoundedIcon from '@mui/icons-material/WarningAmberRounded';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { VinDecoding } from '@pledgewatch/contract';
import { texts } from '@/features/monitoring-items/texts';

const t = texts.monitoringItems;

/** «Lada (АвтоВАЗ) · 2021 · Европа, Россия» — what the VIN itself says about the vehicle. */
export function describeVin(vin: VinDecoding): string {
  const parts = [
    vin.manufacturer,
    vin.modelYear ? t.modelYear(vin.modelYear) : null,
    [vin.region, vin.country].filter(Boolean).join(', ') || null,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : t.vinUnknown;
}

/** One line for a table cell: the make without the plant, and the model year. */
export function describeVinShort(vin: VinDecoding): string {
  const make = vin.manufacturer?.replace(/\s*\(.*\)\s*$/, '') ?? vin.country ?? vin.region;
  const parts = [make, vin.modelYear ? t.modelYearShort(vin.modelYear) : null].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : t.vinUnknown;
}

export function CheckDigitWarning({ vin }: { vin: VinDecoding }) {
  if (vin.checkDigitValid) {
    return null;
  }
  const message = vin.warning ?? t.checkDigitWarning(vin.checkDigitExpected);
  return (
    <Tooltip title={message}>
      <WarningAmberRoundedIcon
        color="warning"
        fontSize="small"
        aria-label={message}
        role="img"
        data-testid="check-digit-warning"
      />
    </Tooltip>
  );
}

/** The identifier cell: display form, with the check-digit warning and the decoding under a VIN. */
export function IdentifierCell({
  displayIdentifier,
  vin,
  documentTypeLabel,
}: {
  displayIdentifier: string;
  vin: VinDecoding | null;
  documentTypeLabel: string | null;
}) {
  return (
    <Stack spacing={0.25}>
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
        <Typography
          variant="body2"
          sx={{
            fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
            whiteSpace: 'nowrap',
          }}
        >
          {displayIdentifier}
        </Typography>
        {vin && <CheckDigitWarning vin={vin} />}
      </Stack>
      {/* The make wraps under the VIN rather than widening the column past it (a long make pushed the
          items table out of its card at 1400 px). */}
      <Typography
        variant="caption"
        color="text.secondary"
        title={vin ? describeVin(vin) : undefined}
        sx={{ display: 'block' }}
      >
        {vin ? describeVinShort(vin) : documentTypeLabel}
      </Typography>
    </Stack>
  );
}
