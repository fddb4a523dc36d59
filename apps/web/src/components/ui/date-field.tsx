import type { SxProps, Theme } from '@mui/material/styles';
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { ruRU } from '@mui/x-date-pickers/locales';
import { format, isValid, parseISO } from 'date-fns';
import { ru } from 'date-fns/locale';
import { useMemo, useState } from 'react';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const LOCALE_TEXT = ruRU.components.MuiLocalizationProvider.defaultProps.localeText;

/**
 * A calendar day ('ГГГГ-ММ-ДД', as the API and the URL hold it) as a local Date for the picker.
 * Only the day's numbers travel, so the browser's time zone cannot shift it; Moscow time comes in
 * where a day becomes an instant (lib/moscow-time.ts), not here.
 */
export function isoToDate(value: string | null | undefined): Date | null {
  if (!value || !ISO_DATE.test(value)) {
    return null;
  }
  const date = parseISO(value);
  return isValid(date) ? date : null;
}

export const dateToIso = (date: Date): string => format(date, 'yyyy-MM-dd');

type DateFieldProps = {
  label: string;
  /** 'ГГГГ-ММ-ДД' or '' for none. */
  value: string;
  /** Called with 'ГГГГ-ММ-ДД' for a whole valid day and '' when the field is cleared; half-typed days wait. */
  onChange: (value: string) => void;
  min?: string;
  max?: string;
  name?: string;
  required?: boolean;
  disabled?: boolean;
  error?: boolean;
  helperText?: string;
  size?: 'small' | 'medium';
  sx?: SxProps<Theme>;
  onBlur?: () => void;
};

/** The one date field of the app: ДД.ММ.ГГГГ, a Russian calendar starting on Monday. */
export function DateField({
  label,
  value,
  onChange,
  min,
  max,
  name,
  required,
  disabled,
  error,
  helperText,
  size,
  sx,
  onBlur,
}: DateFieldProps) {
  // What the picker shows: the value, or the day being typed until it is whole and in range. The
  // picker wipes what is typed when its value does not follow, so it follows this state instead.
  const [shown, setShown] = useState(() => ({ value, date: isoToDate(value) }));
  let date = shown.date;
  if (shown.value !== value) {
    // The value changed from outside (a preset, «Сбросить», the URL) or the change was refused.
    date = isoToDate(value);
    setShown({ value, date });
  }
  const minDate = useMemo(() => isoToDate(min) ?? undefined, [min]);
  const maxDate = useMemo(() => isoToDate(max) ?? undefined, [max]);
  return (
    <LocalizationProvider dateAdapter={AdapterDateFns} adapterLocale={ru} localeText={LOCALE_TEXT}>
      <DatePicker
        label={label}
        value={date}
        format="dd.MM.yyyy"
        minDate={minDate}
        maxDate={maxDate}
        disabled={disabled}
        sx={sx}
        onChange={(next, context) => {
          if (next === null) {
            setShown({ value: '', date: null });
            onChange('');
          } else if (isValid(next) && context.validationError === null) {
            setShown({ value: dateToIso(next), date: next });
            onChange(dateToIso(next));
          } else {
            // A day being typed («2» is the valid year 0002) or out of range: shown, not passed on,
            // so a filter never asks the server for year 2 and the typing is not wiped.
            setShown({ value, date: next });
          }
        }}
        slotProps={{
          field: { clearable: true },
          textField: { name, required, error, helperText, size, fullWidth: true, onBlur },
        }}
      />
    </LocalizationProvider>
  );
}
