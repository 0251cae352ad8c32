import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // CLI tests spawn node processes; on 2 cores they need more than the 5 s default under load.
    testTimeout: 30000,
    // Property tests run from a fixed, printed seed (FC_SEED overrides it).
    setupFiles: ['./test/seed.ts'],
    globalSetup: ['./test/seed-banner.ts', './test/temp-root.ts'],
    reporters: ['default', './test/closing-line.ts'],
  },
});
