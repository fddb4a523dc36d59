import type { SourceProviderName } from '../../../../config/source-providers.ts';
import { apiCloudProvider } from './api-cloud/api-cloud.provider.ts';
import { avtocodProvider } from './avtocod/avtocod.provider.ts';
import { fedresursProvider } from './fedresurs/fedresurs.provider.ts';
import { jsonServiceProvider } from './json-service/json-service.provider.ts';
import { parserApiProvider } from './parser-api/parser-api.provider.ts';
import type { Provider } from './provider.ts';

const PROVIDERS: Readonly<Record<SourceProviderName, Provider>> = {
  'json-service': jsonServiceProvider,
  'parser-api': parserApiProvider,
  'api-cloud': apiCloudProvider,
  fedresurs: fedresursProvider,
  avtocod: avtocodProvider,
};

export const providerByName = (name: SourceProviderName): Provider => PROVIDERS[name];
