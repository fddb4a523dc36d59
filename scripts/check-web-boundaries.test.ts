import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkSource, checkTree } from './check-web-boundaries.ts';

const webSrc = fileURLToPath(new URL('../apps/web/src', import.meta.url));
const messages = (file: string, source: string) => checkSource(file, source).map((v) => v.message);

describe('web boundaries', () => {
  it('refuses a feature importing another feature, by alias, relative path or lazy import', () => {
    const file = path.join('features', 'report', 'components', 'report-page.tsx');
    expect(messages(file, "import { x } from '@/features/events/components/events-filters';")).toEqual([
      expect.stringContaining('features/report may not import another feature (features/events)'),
    ]);
    expect(messages(file, "import { x } from '../../events/api/get-events';")).toHaveLength(1);
    expect(
      messages(file, "const p = import('@/features/statistics/components/statistics-page');"),
    ).toHaveLength(1);
    expect(messages(file, "export { y } from '@/features/events/texts';")).toHaveLength(1);
    expect(messages(file, "import '@/app/router';")).toEqual([expect.stringContaining('the app layer')]);
  });

  it('lets a feature import itself and the shared layers', () => {
    const file = path.join('features', 'report', 'components', 'report-page.tsx');
    const source = [
      "import { a } from '../api/download-report';",
      "import { b } from '@/features/report/texts';",
      "import { c } from '@/components/ui/page';",
      "import { d } from '@/lib/query-keys';",
      "import { e } from '@/config/texts';",
      "import Button from '@mui/material/Button';",
    ].join('\n');
    expect(checkSource(file, source)).toEqual([]);
  });

  it('refuses components, lib and config importing a feature; lets app/ compose them', () => {
    expect(
      messages('components/ui/x.tsx', "import { a } from '@/features/events/api/get-events';"),
    ).toHaveLength(1);
    expect(messages('lib/x.ts', "import { a } from '../features/news/api/get-news';")).toHaveLength(1);
    expect(messages('config/x.ts', "import { a } from '@/app/router';")).toHaveLength(1);
    expect(messages('app/router.tsx', "import('@/features/news/components/news-page')")).toEqual([]);
  });

  it('refuses a literal query key in a feature', () => {
    const file = 'features/users/api/invite-user.ts';
    expect(messages(file, "queryClient.invalidateQueries({ queryKey: ['users'] });")).toEqual([
      expect.stringContaining('literal query key'),
    ]);
    expect(messages(file, "queryClient.setQueryData(['uploads', 'detail', id], upload);")).toHaveLength(1);
    expect(messages(file, 'queryClient.invalidateQueries({ queryKey: queryKeys.users.all });')).toEqual([]);
  });

  it('refuses a source file over 500 lines unless it says it is a catalogue', () => {
    const long = `${'const a = 1;\n'.repeat(501)}`;
    expect(messages('features/report/components/report-page.tsx', long)).toEqual([
      expect.stringContaining('501 lines (over 500)'),
    ]);
    expect(messages('lib/query-keys.ts', `// Catalogue: every query key.\n${long}`)).toEqual([]);
    expect(messages('lib/short.ts', 'const a = 1;\n'.repeat(500))).toEqual([]);
  });

  it('finds no violation in the web app as it is', () => {
    expect(checkTree(webSrc)).toEqual([]);
  });

  it('refuses production code importing the test harness, and lets tests use it', () => {
    const harness = "import { renderRoute } from '@/testing/render-route';";
    expect(messages('features/events/components/events-page.tsx', harness)).toEqual([
      expect.stringContaining('production code may not import the test harness'),
    ]);
    expect(messages('lib/x.ts', "import { a } from '../testing/render-route';")).toHaveLength(1);
    expect(messages('features/events/components/events-page.test.tsx', harness)).toEqual([]);
  });

  it('refuses a query key kept in a variable or built by hand, as well as a literal one', () => {
    const file = path.join('features', 'events', 'api', 'get-events.ts');
    expect(
      messages(file, 'const key = queryKeys.events.all;\nuseQuery({ queryKey: key, queryFn });'),
    ).toEqual([expect.stringContaining('a query key kept elsewhere (key)')]);
    expect(messages(file, 'queryClient.setQueryData(EVENTS_KEY, data);')).toHaveLength(1);
    expect(messages(file, "queryClient.getQueryData<Data>(['events']);")).toHaveLength(1);
    expect(messages(file, "useQuery({ queryKey: ['events', id], queryFn });")).toHaveLength(1);
    expect(
      messages(
        file,
        [
          'useQuery({ queryKey: queryKeys.events.list(query), queryFn });',
          'queryClient.invalidateQueries({ queryKey: profileQueryOptions().queryKey });',
          'queryClient.setQueryData(queryKeys.events.one(id), data);',
        ].join('\n'),
      ),
    ).toEqual([]);
  });
});
