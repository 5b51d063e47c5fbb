import web, { MOCKING_TEST_FILES } from './vite.config.ts';

/** The web tests that mock a module (`vi.mock`), each file in its own module graph (see vite.config.ts). */
export default {
  ...web,
  test: { ...web.test, name: 'web-mocks', include: MOCKING_TEST_FILES, exclude: [], isolate: true },
};
