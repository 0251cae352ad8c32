import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // CLI tests spawn node processes; on 2 cores they need more than the 5 s default under load.
    testTimeout: 30000,
    reporters: ['default', './test/closing-line.ts'],
  },
});
