import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The boundaries `npm run check` keeps (eslint.config.js): each case is a line a newcomer might
 * write, linted as if it were in the named file. The imported files exist, so the plugin can
 * tell which part of the console they belong to.
 */
const eslint = new ESLint({ cwd: new URL('../..', import.meta.url).pathname });

async function refusals(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = [imported];\n`, { filePath });
  return result!.messages
    .filter((message) => message.ruleId === 'no-restricted-imports' || message.ruleId === 'boundaries/dependencies')
    .map((message) => message.message);
}

describe('import boundaries', () => {
  it.each([
    [
      'console/src/lib/x.ts',
      "import { openDatabase as imported } from '@portal/platform/store/open';",
      'server packages',
    ],
    ['console/src/lib/x.ts', "import imported from 'fastify';", 'server packages'],
    ['console/src/lib/x.ts', "import { createHash as imported } from 'node:crypto';", 'server packages'],
    ['console/src/lib/x.ts', "import { queryApi as imported } from '@portal/query-api/app';", 'server packages'],
    ['contracts/src/x.ts', "import { randomBytes as imported } from 'node:crypto';", 'browser-safe'],
    [
      'contracts/src/x.ts',
      "import { seal as imported } from '@portal/platform/privacy/personal-data';",
      'browser-safe',
    ],
    [
      'platform/src/x.ts',
      "import { commandApi as imported } from '@portal/command-api/app';",
      'imports only @portal/contracts',
    ],
    ['command-api/src/x.ts', "import { queryApi as imported } from '@portal/query-api/app';", 'another service'],
    [
      'read-models/src/x.ts',
      "import { coursesProjection as imported } from '@portal/projector/projections/courses/projection';",
      'never a service',
    ],
    ['projector/src/x.ts', "import { startRelay as imported } from '@portal/relay/kafka-relay';", 'another service'],
    [
      'contracts/src/views/x.ts',
      "import { languageOf as imported } from '@portal/query-api/core/overview';",
      'browser-safe',
    ],
    [
      'console/src/features/dashboard/components/x.tsx',
      "import { CourseCard as imported } from '../../courses/components/course-card.tsx';",
      'A feature does not import another feature',
    ],
    [
      'console/src/components/ui/x.tsx',
      "import { CourseCard as imported } from '../../features/courses/components/course-card.tsx';",
      'Shared code',
    ],
  ])('refuses, in %s: %s', async (file, code, reason) => {
    const messages = await refusals(file, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(reason);
  });

  it.each([
    ['console/src/lib/x.ts', "import { roles as imported } from '@portal/contracts/accounts/roles';"],
    ['console/src/lib/x.ts', "import { CourseView as imported } from '@portal/contracts/views/course';"],
    [
      'console/src/app/routes/x.tsx',
      "import { CourseCard as imported } from '../../features/courses/components/course-card.tsx';",
    ],
    ['console/src/features/courses/components/x.tsx', "import { CourseCard as imported } from './course-card.tsx';"],
    [
      'console/src/features/courses/components/x.tsx',
      "import { Modal as imported } from '../../../components/ui/modal.tsx';",
    ],
    ['command-api/src/x.ts', "import { HttpError as imported } from '@portal/platform/http/errors';"],
    ['query-api/src/x.ts', "import { courses as imported } from '@portal/read-models/courses';"],
    ['deploy/src/x.ts', "import { commandApi as imported } from '@portal/command-api/app';"],
  ])('lets through, in %s: %s', async (file, code) => {
    expect(await refusals(file, code)).toEqual([]);
  });
});
