import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { dropFirstDataOfAnotherSession } from './lib/first-data';
import { mirrorSessionCookie } from './lib/session-token';
import './index.css';

// The page's data is this session's only if the cookie it was read with is this session's token (ADR 045).
dropFirstDataOfAnotherSession();
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
