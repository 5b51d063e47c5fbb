import { createBrowserRouter, Navigate } from 'react-router';
import { AppShell } from './app-shell';
import { ForgotPasswordPage } from './routes/forgot-password-page';
import { LoginPage } from './routes/login-page';
import { MyKeysPage } from './routes/my-keys-page';
import { NotFoundPage } from './routes/not-found-page';
import { ResetPasswordPage } from './routes/reset-password-page';
import { SignupPage } from './routes/signup-page';

export function createRouter() {
  return createBrowserRouter([
    { path: '/', element: <Navigate to="/customer/my-keys" replace /> },
    { path: '/login', element: <LoginPage /> },
    { path: '/signup', element: <SignupPage /> },
    { path: '/forgot-password', element: <ForgotPasswordPage /> },
    { path: '/reset-password', element: <ResetPasswordPage /> },
    {
      path: '/customer',
      element: <AppShell />,
      children: [
        { index: true, element: <Navigate to="/customer/my-keys" replace /> },
        { path: 'my-keys', element: <MyKeysPage /> },
      ],
    },
    { path: '*', element: <NotFoundPage /> },
  ]);
}
