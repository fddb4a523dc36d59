import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';

type CardSortFieldProps<Field extends string> = {
  label: string;
  options: readonly (readonly [Field, string])[];
  value: Field;
  order: 'asc' | 'desc';
  /** What the direction button says in each state (it flips the order when pressed). */
  ascendingLabel: string;
  descendingLabel: string;
  onField: (field: Field) => void;
  onFlip: () => void;
};

/**
 * The sort of a list shown as cards (phones have no column headers to click): a field choice and a
 * direction button, placed by the caller above the cards.
 */
export function CardSortField<Field extends string>(props: CardSortFieldProps<Field>) {
  return (
    <>
      <TextField
        select
        size="small"
        label={props.label}
        value={props.value}
        sx={{ flex: 1, minWidth: 180 }}
        onChange={(event) => props.onField(event.target.value as Field)}
      >
        {props.options.map(([field, label]) => (
          <MenuItem key={field} value={field}>
            {label}
          </MenuItem>
        ))}
      </TextField>
      <IconButton
        aria-label={props.order === 'asc' ? props.ascendingLabel : props.descendingLabel}
        onClick={props.onFlip}
      >
        {props.order === 'asc' ? <ArrowUpwardIcon /> : <ArrowDownwardIcon />}
      </IconButton>
    </>
  );
}
