// Preloaded into the portal's process by `npm run bench` with BENCH_FLOOR_IN_PORTAL=1
// (`node --import bench/floor-in-portal.mjs apps/server/dist/server.js`, FLOOR_PORT set): the floor's route
// (floor-server.mjs, unchanged) listening on FLOOR_PORT inside the portal's process. Same code as the floor, same
// libraries (Fastify, pg: one copy, the portal's), but the portal's heap, its other routes' and queries' use of those
// libraries, and its timers: the floor's CPU per request there against its own process is what the portal's process
// costs code that does none of the portal's work (issue 22, ADR 048). The portal answers its own requests as usual.
setTimeout(() => {
  import('./floor-server.mjs').catch((error) => {
    console.error('the floor in the portal did not start:', error);
    process.exit(1);
  });
}, 0);
