import Stack from '@mui/material/Stack';
import { texts } from '@/config/texts';
import { DateField } from './date-field';

type DateRangeFieldsProps = {
  /** 'ГГГГ-ММ-ДД' or '' for none, as DateField. */
  from: string;
  to: string;
  onFromChange: (value: string) => void;
  onToChange: (value: string) => void;
  /** Each day bounds the other's calendar, so «С» cannot be picked after «По». */
  bounded?: boolean;
  disabled?: boolean;
};

/**
 * The «С»/«По» pair of a period. Stacked on a phone (a date field does not shrink below its
 * ДД.ММ.ГГГГ and calendar button, so two in a row leave a 390 px screen), side by side above.
 */
export function DateRangeFields({
  from,
  to,
  onFromChange,
  onToChange,
  bounded,
  disabled,
}: DateRangeFieldsProps) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
      <DateField
        sx={{ flex: 1, minWidth: 0 }}
        size="small"
        label={texts.common.dateFrom}
        value={from}
        max={bounded ? to : undefined}
        disabled={disabled}
        onChange={onFromChange}
      />
      <DateField
        sx={{ flex: 1, minWidth: 0 }}
        size="small"
        label={texts.common.dateTo}
        value={to}
        min={bounded ? from : undefined}
        disabled={disabled}
        onChange={onToChange}
      />
    </Stack>
  );
}
