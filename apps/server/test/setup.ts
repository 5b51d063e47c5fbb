// Server tests build the app with `buildApp` and a shared per-worker database (see helpers/test-app.ts).
export {};
