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

// The browser tests use Chromium's headless shell when it is installed (a third less CPU than the full browser, the
// same Blink: ADR 046), else the full Chromium; CHROMIUM_PATH names another binary.
const candidates = process.env.CHROMIUM_PATH
  ? [process.env.CHROMIUM_PATH]
  : ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];
const found = () => candidates.some((file) => fs.existsSync(file));
if (found()) process.exit(0);

if (process.getuid?.() === 0 && !process.env.CHROMIUM_PATH) {
  console.log("Chromium's headless shell is missing: installing it with apt-get (about a minute)…");
  const install = (packages) =>
    execSync(`DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages}`, { stdio: 'inherit' });
  execSync('apt-get update -qq', { stdio: 'inherit' });
  try {
    install('chromium-headless-shell fonts-liberation');
  } catch {
    // A distribution without the shell's package: the full browser does the same work.
    install('chromium fonts-liberation');
  }
  if (found()) process.exit(0);
}
console.error(
  `Chromium was not found at ${candidates.join(' or ')}. Install it (Debian: "sudo apt-get install -y ` +
    'chromium-headless-shell", or "chromium"), or set CHROMIUM_PATH to a Chromium or Chrome binary, then run the ' +
    'tests again.',
);
process.exit(1);
