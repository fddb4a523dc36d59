import Alert from '@mui/material/Alert';

/** A form-level error (wrong credentials, rate limit, expired token…). */
export function FormAlert({ message }: { message: string | null | undefined }) {
  if (!message) {
    return null;
  }
  return (
    <Alert severity="error" role="alert">
      {message}
    </Alert>
  );
}
