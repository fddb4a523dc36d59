import { SOURCE_PROVIDER_LABELS } from '@pledgewatch/contract';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './env.ts';
import { SOURCE_PROVIDER_NAMES } from './source-providers.ts';

describe('SOURCE_<TYPE>_PROVIDER', () => {
  it('serves a type by a named provider at its published address unless SOURCE_<TYPE>_URL moves it', () => {
    const config = loadConfig({
      SOURCE_PLEDGES_PROVIDER: 'parser-api',
      SOURCE_PLEDGES_TOKEN: 'key-1',
      SOURCE_BANKRUPTCY_PROVIDER: 'fedresurs',
      SOURCE_BANKRUPTCY_TOKEN: 'bank:secret',
      SOURCE_BANKRUPTCY_URL: 'http://127.0.0.1:4010/fedresurs/',
      SOURCE_WANTED_PROVIDER: 'dataset',
    });
    expect(config.remoteSources.pledges).toMatchObject({
      provider: 'parser-api',
      url: 'https://parser-api.com',
      token: 'key-1',
    });
    expect(config.remoteSources.bankruptcy).toMatchObject({
      provider: 'fedresurs',
      url: 'http://127.0.0.1:4010/fedresurs',
    });
    expect(config.remoteSources.wanted).toBeUndefined();
  });

  it('keeps SOURCE_<TYPE>_URL alone meaning our JSON protocol', () => {
    const config = loadConfig({ SOURCE_PASSPORT_URL: 'http://127.0.0.1:9/passport' });
    expect(config.remoteSources.passport).toMatchObject({ provider: 'json-service' });
  });

  it('lets one provider serve several types', () => {
    const env = { SOURCE_PLEDGES_PROVIDER: 'avtocod', SOURCE_WANTED_PROVIDER: 'avtocod' };
    const config = loadConfig({ ...env, SOURCE_PLEDGES_TOKEN: 'u@bank:p', SOURCE_WANTED_TOKEN: 'u@bank:p' });
    expect(config.remoteSources.pledges?.provider).toBe('avtocod');
    expect(config.remoteSources.wanted?.url).toBe('https://b2b-api.spectrumdata.ru/b2b/api/v1');
  });

  it.each([
    [
      { SOURCE_PLEDGES_PROVIDER: 'reestr' },
      /SOURCE_PLEDGES_PROVIDER «reestr» is not a provider; allowed: dataset, json-service, parser-api, api-cloud, fedresurs, avtocod\./,
    ],
    [
      { SOURCE_PLEDGES_PROVIDER: '' },
      /SOURCE_PLEDGES_PROVIDER is empty; set it to one of: dataset, json-service/,
    ],
    [
      { SOURCE_WANTED_TOKEN: 'k' },
      /SOURCE_WANTED_PROVIDER is missing while SOURCE_WANTED_TOKEN is set; set it to one of: dataset/,
    ],
    [
      { SOURCE_PLEDGES_PROVIDER: 'fedresurs', SOURCE_PLEDGES_TOKEN: 'a:b' },
      /«fedresurs» does not serve the pledges source; providers for it: dataset, json-service, parser-api, api-cloud, avtocod\./,
    ],
    [{ SOURCE_PLEDGES_PROVIDER: 'api-cloud' }, /SOURCE_PLEDGES_TOKEN is required for the api-cloud provider/],
    [{ SOURCE_BANKRUPTCY_PROVIDER: 'fedresurs', SOURCE_BANKRUPTCY_TOKEN: 'nopassword' }, /is login:password/],
    [
      { SOURCE_PASSPORT_PROVIDER: 'json-service' },
      /SOURCE_PASSPORT_URL is required for the json-service provider/,
    ],
  ])('stops the start on %o with a sentence naming what is allowed', (env, message) => {
    expect(() => loadConfig(env as NodeJS.ProcessEnv)).toThrow(message);
  });
});

describe('the providers’ names', () => {
  it('has a name a user knows for every provider, and none for one that does not exist', () => {
    expect(Object.keys(SOURCE_PROVIDER_LABELS).sort()).toEqual([...SOURCE_PROVIDER_NAMES].sort());
  });
});
