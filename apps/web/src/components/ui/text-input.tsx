import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import { type ReactNode, type Ref, useId } from 'react';

type TextInputProps = Omit<OutlinedInputProps, 'ref' | 'inputRef' | 'label' | 'error'> & {
  label: string;
  error?: boolean;
  helperText?: ReactNode;
  /** The input element itself (react-hook-form's `register` ref focuses it on an error). */
  ref?: Ref<HTMLInputElement>;
};

/**
 * An outlined, full-width text field for the signed-out screens. MUI's TextField also brings its
 * Select (menu, popover, modal, transitions): about 20 KB gzip the sign-in page does not need.
 */
export function TextInput({ label, error = false, helperText, ref, id, ...inputProps }: TextInputProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const helperId = helperText ? `${inputId}-helper-text` : undefined;
  return (
    <FormControl fullWidth error={error} variant="outlined">
      <InputLabel htmlFor={inputId}>{label}</InputLabel>
      <OutlinedInput {...inputProps} id={inputId} label={label} inputRef={ref} aria-describedby={helperId} />
      {helperText && <FormHelperText id={helperId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
