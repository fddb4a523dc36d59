// Zod compiles its object parsers with `new Function`, which the app's Content-Security-Policy forbids
// (script-src 'self', no 'unsafe-eval'); even zod's probe for it is reported as a CSP violation.
// Zod reads its global configuration from here when its module loads; this plain script runs before
// any module of the app (module scripts are deferred), so every schema is built without eval.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
