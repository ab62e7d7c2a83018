// ESLint: typescript-eslint's recommended rules with type information, plus the checks the
// design asks for (every switch over a union is exhaustive, no promise is left floating).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules', 'cdk.out/', '.data/', '**/dist/', 'coverage/', 'web/src/api-types.ts', 'functions/http/edge-checks.generated.*'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      // `import { z } from 'zod'` keeps all of zod (its 40 locales: 350 KB in every Lambda bundle);
      // `import * as z from 'zod'` lets esbuild drop what is not used.
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'][importKind='value'] > ImportSpecifier[imported.name='z'][importKind='value']",
          message: "import * as z from 'zod' (tree-shakes to what is used)",
        },
      ],
    },
  },
  // Tests poke at wire shapes and fixtures where a loose type is the honest one.
  { files: ['tests/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
);
