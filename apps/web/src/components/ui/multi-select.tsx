import Checkbox from '@mui/material/Checkbox';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';

type MultiSelectProps<T extends string> = {
  label: string;
  codes: readonly T[];
  value: T[];
  labelOf: (code: T) => string;
  onChange: (value: T[]) => void;
  /** Shown when nothing is chosen (nothing chosen = all). */
  allLabel: string;
  /** «Выбрано: 3». */
  selectedLabel: (count: number) => string;
  minWidth?: number;
};

/** A select of several codes with check boxes; an empty choice means «all». */
export function MultiSelect<T extends string>({
  label,
  codes,
  value,
  labelOf,
  onChange,
  allLabel,
  selectedLabel,
  minWidth = 200,
}: MultiSelectProps<T>) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(event) => {
        const next = event.target.value as unknown as T[] | string;
        onChange((typeof next === 'string' ? next.split(',') : next) as T[]);
      }}
      sx={{ minWidth }}
      slotProps={{
        inputLabel: { shrink: true },
        select: {
          multiple: true,
          displayEmpty: true,
          renderValue: (selected) => {
            const list = selected as T[];
            if (list.length === 0) {
              return allLabel;
            }
            return list.length === 1 ? labelOf(list[0] as T) : selectedLabel(list.length);
          },
        },
      }}
    >
      {codes.map((code) => (
        <MenuItem key={code} value={code} dense>
          <Checkbox size="small" checked={value.includes(code)} sx={{ p: 0.5, mr: 1 }} />
          <ListItemText primary={labelOf(code)} />
        </MenuItem>
      ))}
    </TextField>
  );
}
