/**
 * The registry's notifications and packages change by other people's hands (maker-checker: an admin
 * approves an analyst's package, marks it sent, uploads the registry's answer), so a screen that shows
 * them reads them again each time it is shown, over what it holds, instead of trusting a read for the
 * app's usual 30 s (lib/react-query.ts): an analyst back on the list sees the registry's answer.
 */
export const SHARED_WORK_STALE_MS = 0;
