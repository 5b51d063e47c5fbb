// The browser tests drive the system Chromium, and the zip tests check archives with Info-ZIP's unzip. Install what
// is missing with apt-get when running as root; otherwise stop with instructions.
import { execSync } from 'node:child_process';
import fs from 'node:fs';

function has(command) {
  try {
    execSync(`command -v ${command}`, { stdio: 'ignore', shell: '/bin/sh' });
    return true;
  } catch {
    return false;
  }
}

if (!has('unzip')) {
  if (process.getuid?.() === 0) {
    console.log('unzip is missing: installing it with apt-get…');
    execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq unzip', { stdio: 'inherit' });
  } else {
    console.error('The tests need unzip (Debian/Ubuntu: "sudo apt-get install -y unzip").');
    process.exit(1);
  }
}

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
