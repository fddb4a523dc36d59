import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';
import { DateField } from './date-field';

type FormDateFieldProps<Values extends FieldValues, Output> = {
  control: Control<Values, unknown, Output>;
  name: Path<Values>;
  label: string;
  required?: boolean;
  /** The field's message from the form's errors. */
  error?: string;
};

/** A react-hook-form date through the shared picker; the form keeps 'ГГГГ-ММ-ДД' as the API takes it. */
export function FormDateField<Values extends FieldValues, Output>({
  control,
  name,
  label,
  required,
  error,
}: FormDateFieldProps<Values, Output>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <DateField
          name={field.name}
          label={label}
          value={typeof field.value === 'string' ? field.value : ''}
          onChange={field.onChange}
          onBlur={field.onBlur}
          required={required}
          error={Boolean(error)}
          helperText={error}
        />
      )}
    />
  );
}
