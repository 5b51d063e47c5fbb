// The browser tests drive the system Chromium. Install it with apt-get when missing and running as root;
// otherwise stop with instructions.
import { execSync } from 'node:child_process';
import fs from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (fs.existsSync(chromium)) process.exit(0);

if (process.getuid?.() === 0) {
  console.log('Chromium is missing: installing it with apt-get (about a minute)…');
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-liberation', {
    stdio: 'inherit',
  });
  if (fs.existsSync(chromium)) process.exit(0);
}
console.error(
  `Chromium was not found at ${chromium}. Install it (Debian/Ubuntu: "sudo apt-get install -y chromium"), ` +
    'or set CHROMIUM_PATH to a Chromium or Chrome binary, then run the tests again.',
);
process.exit(1);
