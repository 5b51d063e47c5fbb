import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { mirrorSessionCookie } from './lib/session-token';
import './index.css';

mirrorSessionCookie();
const root = document.getElementById('root');
if (!root) throw new Error('The #root element is missing from index.html');
const reactRoot = createRoot(root);
// ADR 045: the first render as a transition, which React renders in slices of a few milliseconds, yielding to the
// browser between them, instead of one long task that blocks input (Total Blocking Time) until the dashboard is up.
startTransition(() => {
  reactRoot.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
