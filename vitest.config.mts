import { defineConfig } from 'vitest/config';

export default defineConfig({
  // @src/* and @test/*, from tsconfig.base.json's `paths` (declared once, there).
  resolve: { tsconfigPaths: true },
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/renderer/**/*.test.{ts,tsx}'],
    // Playwright specs live in test/e2e and run under Playwright, not here.
    exclude: ['test/e2e/**', 'node_modules/**'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
