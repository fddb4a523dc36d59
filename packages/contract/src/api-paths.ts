/**
 * Every API path the web client calls, in one place. The seed's calls keep their exact paths;
 * the rest follow the same `/api/v1/` conventions.
 */
export const API = {
  buildInfo: '/api/v1/build/info',
  login: '/api/v1/auth/login',
  logout: '/api/v1/auth/logout',
  me: '/api/v1/auth/me',
  profile: '/api/v1/user/profile',
  email: '/api/v1/user/email',
  changePassword: '/api/v1/user/change-password',
  resetPassword: '/api/v1/user/reset-password',
  resetPasswordConfirm: '/api/v1/user/reset-password/confirm',
  verifyEmail: '/api/v1/user/verify-email',
  sessions: '/api/v1/user/sessions',
  session: (id: string) => `/api/v1/user/sessions/${encodeURIComponent(id)}`,
  members: '/api/v1/users',
  member: (id: string) => `/api/v1/users/${encodeURIComponent(id)}`,
  outbox: '/api/v1/platform/outbox',
} as const;
