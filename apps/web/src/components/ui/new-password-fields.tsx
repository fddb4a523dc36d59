import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextInput } from '@/components/ui/text-input';
import { texts } from '@/config/texts-signed-out';

type Field = { register: UseFormRegisterReturn; label: string; error?: string };

/**
 * A new password and its confirmation (password reset, settings), with the password rule under
 * the first until the server or the form reports an error there. Light enough for the sign-in chunk.
 */
export function NewPasswordFields({
  newPassword,
  confirmPassword,
  autoFocus = false,
}: {
  newPassword: Field;
  confirmPassword: Field;
  autoFocus?: boolean;
}) {
  return (
    <>
      <TextInput
        {...newPassword.register}
        label={newPassword.label}
        type="password"
        autoComplete="new-password"
        autoFocus={autoFocus}
        error={Boolean(newPassword.error)}
        helperText={newPassword.error ?? texts.common.passwordRules}
      />
      <TextInput
        {...confirmPassword.register}
        label={confirmPassword.label}
        type="password"
        autoComplete="new-password"
        error={Boolean(confirmPassword.error)}
        helperText={confirmPassword.error}
      />
    </>
  );
}
