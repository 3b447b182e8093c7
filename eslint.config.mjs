// @ts-check
// The layers of docs/architecture.md as lint rules: one module graph without cycles,
// Electron only at the two process edges, src/shared free of Node and Electron, the
// renderer on src/shared and itself. `npm run lint` runs this and scripts/check-cycles.cjs.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = builtinModules.filter((name) => !name.startsWith('_'));

const electron = {
  paths: [{ name: 'electron', message: 'Only src/main/index.ts and src/preload import electron: pass what you need in as a dependency.' }],
  patterns: [{ group: ['electron/*'], message: 'Only src/main/index.ts and src/preload import electron.' }],
};
const nodeBuiltins = {
  paths: NODE_BUILTINS.map((name) => ({ name, message: 'This layer runs in the browser too: no Node built-ins.' })),
  patterns: [{ group: ['node:*', ...NODE_BUILTINS.map((name) => `${name}/*`)], message: 'This layer runs in the browser too: no Node built-ins.' }],
};

const testAliases = {
  patterns: [{ group: ['@src/*', '@test/*'], message: 'src/ imports by relative path: the app bundles are built without the test aliases.' }],
};

/** One `no-restricted-imports` setting made of several bans (a later config object replaces, not merges, the rule). */
function restrict(...bans) {
  return [
    'error',
    {
      paths: bans.flatMap((ban) => ban.paths ?? []),
      patterns: bans.flatMap((ban) => ban.patterns ?? []),
    },
  ];
}

/** Folder-to-folder bans, resolved to files (so `../../main/x` and `@src/main/x` are both caught). */
const zone = (target, from, message) => ({ target, from, message });

export default tseslint.config(
  {
    ignores: ['out/**', 'dist/**', 'build/**', 'coverage/**', 'test-results/**', 'playwright-report/**', '.tmp/**', 'drizzle/**', 'security/**'],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { console: 'readonly', process: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' },
    },
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    settings: {
      // Parse imported .ts files with the TypeScript parser (no-cycle follows them), no legacy resolver.
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.cjs', '.mjs', '.json'] })],
    },
    rules: {
      // tsc checks names and globals across both tsconfigs; ESLint's copy of that check would
      // only disagree with it (browser vs Node globals, declaration merging).
      'no-undef': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            zone('./src/shared', ['./src/main', './src/preload', './src/renderer'], 'src/shared is the contract every layer imports; it imports none of them.'),
            zone('./src/renderer', ['./src/main', './src/preload'], 'The renderer talks to the host through the bridge only.'),
            zone('./src/main', ['./src/renderer', './src/preload'], 'The main process never imports the renderer or the preload.'),
            zone('./src/preload', ['./src/main', './src/renderer'], 'The preload exposes the bridge from src/shared, nothing else.'),
          ],
        },
      ],
    },
  },
  {
    // Hooks exist only in the React code; Playwright's fixtures also call a `use`, which is no hook.
    files: ['src/renderer/**/*.{ts,tsx}', 'test/renderer/**/*.{ts,tsx}'],
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['test/e2e/**/*.ts'],
    // Playwright reads a fixture's dependencies from its first parameter's destructuring,
    // so a fixture that needs none must write `async ({}, use)`.
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', __filename: 'readonly' } },
    // A CommonJS file loads its dependencies with require(); the rule is for TypeScript modules.
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/main/**/*.{ts,tsx}'],
    ignores: ['src/main/index.ts'],
    rules: {
      'no-restricted-imports': 'off',
      // Type-only imports of electron are erased at build time: the shell policies type
      // against Electron's API and still run (and are tested) with no Electron loaded.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: electron.paths.map((ban) => ({ ...ban, allowTypeImports: true })),
          patterns: [...electron.patterns.map((ban) => ({ ...ban, allowTypeImports: true })), ...testAliases.patterns],
        },
      ],
    },
  },
  {
    files: ['src/main/index.ts', 'src/preload/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(testAliases) },
  },
  {
    files: ['src/shared/**/*.{ts,tsx}', 'src/renderer/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': restrict(electron, nodeBuiltins, testAliases) },
  },
);
