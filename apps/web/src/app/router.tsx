import { lazy, Suspense, type ComponentType } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { AppShell } from './app-shell';
import { RequireAuth } from './require-auth';
import { RequireStaff } from './require-staff';
import { MyKeysPage } from './routes/my-keys-page';
import { paths } from '../lib/paths';

/**
 * The dashboard ships in the entry bundle (it is where almost every visit goes); every other page loads on demand,
 * which keeps the dashboard's initial JavaScript within its budget (docs/performance.md).
 */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  const Page = lazy(async () => ({ default: (await load())[name] as ComponentType }));
  return (
    <Suspense fallback={<div aria-busy="true" className="min-h-dvh" />}>
      <Page />
    </Suspense>
  );
}

const themeFileUpdatePages = () => import('./routes/theme-file-update-pages');

const TeamFeaturePage = lazy(() => import('./routes/team-feature-page').then((m) => ({ default: m.TeamFeaturePage })));

export function createRouter() {
  return createBrowserRouter([
    { path: '/', element: <Navigate to={paths.myKeys} replace /> },
    { path: paths.login, element: page(() => import('./routes/login-page'), 'LoginPage') },
    { path: paths.signup, element: page(() => import('./routes/signup-page'), 'SignupPage') },
    { path: paths.forgotPassword, element: page(() => import('./routes/forgot-password-page'), 'ForgotPasswordPage') },
    { path: paths.resetPassword, element: page(() => import('./routes/reset-password-page'), 'ResetPasswordPage') },
    {
      path: paths.customer,
      element: <AppShell />,
      children: [
        { index: true, element: <Navigate to={paths.myKeys} replace /> },
        { path: 'my-keys', element: <MyKeysPage /> },
        { path: 'my-keys/:id', element: page(() => import('./routes/key-page'), 'KeyPage') },
        { path: 'onboarding', element: page(() => import('./routes/onboarding-page'), 'OnboardingPage') },
        {
          path: 'marketplace',
          element: (
            <Suspense fallback={null}>
              <TeamFeaturePage feature="marketplace" />
            </Suspense>
          ),
        },
        {
          path: 'ai-store',
          element: (
            <Suspense fallback={null}>
              <TeamFeaturePage feature="ai-store" />
            </Suspense>
          ),
        },
        { path: 'update_file', element: page(themeFileUpdatePages, 'UpdateFilePage') },
        { path: 'upgrade_file/:slug', element: page(themeFileUpdatePages, 'UpgradeFilePage') },
        // Typos: not found, in the shell.
        { path: '*', element: page(() => import('./routes/not-found-page'), 'NotFoundInShell') },
      ],
    },
    {
      // Issue 12: the staff console, a chunk of its own that only staff load (its pages: features/staff/pages.tsx).
      path: `${paths.staff}/*`,
      element: (
        <RequireAuth>
          <RequireStaff otherwise={page(() => import('./routes/not-found-page'), 'NotFoundPage')}>
            {page(() => import('./routes/staff-console-page'), 'StaffConsolePage')}
          </RequireStaff>
        </RequireAuth>
      ),
    },
    { path: '*', element: page(() => import('./routes/not-found-page'), 'NotFoundPage') },
  ]);
}
