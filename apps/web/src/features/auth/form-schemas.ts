import { zodResolver } from '@hookform/resolvers/zod';
// Deep imports: the chunking in vite.config.ts reads the contract's index as its light part only.
import { loginBodySchema } from '@pledgewatch/contract/auth';
import { passwordConfirmationField } from '@pledgewatch/contract/common';
import { resetPasswordBodySchema, resetPasswordConfirmBodySchema } from '@pledgewatch/contract/user';
import { texts } from '@/config/texts-signed-out';

/**
 * Validation of the sign-in forms (the contract's schemas). The forms load this module lazily
 * (see lib/lazy-resolver.ts), so zod is not part of the sign-in page's first load.
 */
export const loginResolver = zodResolver(loginBodySchema.pick({ username: true, password: true }));

export const resetPasswordRequestResolver = zodResolver(resetPasswordBodySchema);

export const resetPasswordConfirmResolver = zodResolver(
  resetPasswordConfirmBodySchema
    .pick({ new_password: true })
    .extend({ confirm_password: passwordConfirmationField })
    .refine((values) => values.new_password === values.confirm_password, {
      path: ['confirm_password'],
      error: texts.common.passwordsMismatch,
    }),
);
