import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'coverage/',
      'node_modules/',
      'schema/',
      'tmp/',
      'bench/.work/',
      '.stryker-tmp/',
      'reports/'
    ]
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly' }
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off'
    }
  },
  {
    // Only the edges talk to the outside world: HTTP lives in src/api, GitHub in src/github.
    files: ['src/**/*.ts'],
    ignores: ['src/api/**', 'src/github/**', 'src/main.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'undici', message: 'Only src/api/ talks HTTP.' },
            { name: '@actions/core', message: 'Only src/github/ talks to GitHub.' },
            { name: '@actions/github', message: 'Only src/github/ talks to GitHub.' }
          ]
        }
      ]
    }
  }
)
