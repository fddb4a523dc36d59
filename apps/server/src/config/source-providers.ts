import { SOURCE_TYPE_CODES, type SourceType } from '@pledgewatch/contract';

/**
 * The providers a source type can be served by (SOURCE_<TYPE>_PROVIDER), what each serves, its
 * published production address (SOURCE_<TYPE>_URL's default) and whether SOURCE_<TYPE>_TOKEN is a key
 * or `login:password`. Their adapters live in modules/checks/sources/providers/<name>/; docs/providers.md.
 */
export const SOURCE_PROVIDERS = {
  'json-service': { types: SOURCE_TYPE_CODES, defaultUrl: null, token: 'optional' },
  'parser-api': { types: ['pledges'], defaultUrl: 'https://parser-api.com', token: 'key' },
  'api-cloud': {
    types: ['pledges', 'restrictions', 'wanted', 'accidents', 'registration'],
    defaultUrl: 'https://api-cloud.ru',
    token: 'key',
  },
  fedresurs: {
    types: ['bankruptcy'],
    defaultUrl: 'https://bank-publications-prod.fedresurs.ru',
    token: 'login:password',
  },
  avtocod: {
    types: ['pledges', 'restrictions', 'wanted', 'accidents', 'registration'],
    defaultUrl: 'https://b2b-api.spectrumdata.ru/b2b/api/v1',
    token: 'login:password',
  },
} as const satisfies Record<
  string,
  { types: readonly SourceType[]; defaultUrl: string | null; token: 'optional' | 'key' | 'login:password' }
>;

export type SourceProviderName = keyof typeof SOURCE_PROVIDERS;
export const SOURCE_PROVIDER_NAMES = Object.keys(SOURCE_PROVIDERS) as SourceProviderName[];
/** SOURCE_<TYPE>_PROVIDER's values: the dataset (the default) or a provider. */
export const SOURCE_PROVIDER_VALUES = ['dataset', ...SOURCE_PROVIDER_NAMES] as const;

export function providersServing(type: SourceType): SourceProviderName[] {
  return SOURCE_PROVIDER_NAMES.filter((name) =>
    (SOURCE_PROVIDERS[name].types as readonly SourceType[]).includes(type),
  );
}

/** Where `npm run providers` listens by default (PROVIDERS_PORT moves it). */
export const PROVIDER_SIMULATOR_URL = 'http://127.0.0.1:4010';

/** The variables that point the app's sources at a running simulator. */
export function simulatorEnv(url: string = PROVIDER_SIMULATOR_URL): Record<string, string> {
  return {
    SOURCE_PLEDGES_PROVIDER: 'parser-api',
    SOURCE_PLEDGES_URL: `${url}/parser-api`,
    SOURCE_PLEDGES_TOKEN: 'demo-key',
    SOURCE_RESTRICTIONS_PROVIDER: 'api-cloud',
    SOURCE_RESTRICTIONS_URL: `${url}/api-cloud`,
    SOURCE_RESTRICTIONS_TOKEN: 'demo-key',
    SOURCE_WANTED_PROVIDER: 'avtocod',
    SOURCE_WANTED_URL: `${url}/avtocod`,
    SOURCE_WANTED_TOKEN: 'demo@bank:demo',
    SOURCE_ACCIDENTS_PROVIDER: 'avtocod',
    SOURCE_ACCIDENTS_URL: `${url}/avtocod`,
    SOURCE_ACCIDENTS_TOKEN: 'demo@bank:demo',
    SOURCE_REGISTRATION_PROVIDER: 'avtocod',
    SOURCE_REGISTRATION_URL: `${url}/avtocod`,
    SOURCE_REGISTRATION_TOKEN: 'demo@bank:demo',
    SOURCE_BANKRUPTCY_PROVIDER: 'fedresurs',
    SOURCE_BANKRUPTCY_URL: `${url}/fedresurs`,
    SOURCE_BANKRUPTCY_TOKEN: 'demo:demo',
  };
}

/** `KEY=value …` on one line, to paste before `npm start`. */
export const simulatorEnvLine = (url: string = PROVIDER_SIMULATOR_URL): string =>
  Object.entries(simulatorEnv(url))
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
