import { Link } from 'react-router';
import { Button } from '../../components/ui/button';

export function NotFoundPage() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-3 px-4 text-center">
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="text-slate-600">The page you are looking for does not exist.</p>
      <Button asChild>
        <Link to="/customer/my-keys">Go to my keys</Link>
      </Button>
    </main>
  );
}
