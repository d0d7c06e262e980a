import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * Boundaries the linter keeps (README, Architecture): the console's parts import one way
 * (shared -> features -> app) and no feature imports another; the packages import only what
 * their place allows (below).
 */
const consoleBoundaries = {
  files: ['console/src/**/*.{ts,tsx}'],
  plugins: { boundaries },
  settings: {
    'boundaries/elements': [
      { type: 'app', pattern: 'console/src/app' },
      { type: 'feature', pattern: 'console/src/features/*', capture: ['feature'] },
      { type: 'shared', pattern: 'console/src/{components,lib,locales}' },
    ],
  },
  rules: {
    'boundaries/dependencies': [
      'error',
      {
        default: 'allow',
        policies: [
          {
            from: { element: { type: 'feature' } },
            disallow: {
              to: { element: { type: 'feature', captured: { feature: '!{{ from.element.captured.feature }}' } } },
            },
            message:
              'A feature does not import another feature: move the shared piece to components/ or compose them in app/.',
          },
          {
            from: { element: { type: 'shared' } },
            disallow: { to: { element: { types: { anyOf: ['feature', 'app'] } } } },
            message: 'Shared code (components/, lib/) does not import features or app/.',
          },
        ],
      },
    ],
  },
};

const serverPackages = '^(node:|fastify|@fastify/|pg$|kafkajs|@electric-sql/|argon2)';
const services = ['command-api', 'query-api', 'projector', 'relay'];
const packageBoundary = (files, regex, message) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns: [{ regex, message }] }] },
});

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'console/dist.*/**', 'data/**', '.kafka/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ['console/src/**/*.{ts,tsx}'], ...reactHooks.configs.flat['recommended-latest'] },
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  consoleBoundaries,
  packageBoundary(
    ['console/src/**'],
    `${serverPackages}|^@portal/(?!contracts/)`,
    'The console imports only @portal/contracts (events, rules, answers and views): server packages stay out of the bundle.',
  ),
  packageBoundary(
    ['contracts/**'],
    `${serverPackages}|^@portal/(?!contracts/)`,
    'contracts/ is browser-safe: it imports zod and @noble/curves, never the platform, a service or Node.',
  ),
  packageBoundary(
    ['platform/src/**'],
    '^@portal/(?!contracts/|platform/)',
    'platform/ serves the services; of the workspaces it imports only @portal/contracts.',
  ),
  ...services.map((service) =>
    packageBoundary(
      [`${service}/src/**`],
      '^@portal/(?!contracts/|platform/|read-models/)',
      'A service does not import another service: shared code goes to platform/, contracts/ or read-models/, composition to deploy/.',
    ),
  ),
  packageBoundary(
    ['read-models/src/**'],
    '^@portal/(?!contracts/|platform/|read-models/)',
    'read-models/ is shared by the projector and query-api: it imports contracts/ and platform/, never a service.',
  ),
);
