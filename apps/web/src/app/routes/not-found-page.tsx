import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { paths } from '../../lib/paths';

function NotFound({ className }: { className: string }) {
  return (
    <div className={`flex flex-col items-center justify-center gap-3 px-4 text-center ${className}`}>
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="text-slate-600">The page you are looking for does not exist.</p>
      <Button asChild>
        <Link to={paths.myKeys}>Go to my keys</Link>
      </Button>
    </div>
  );
}

/** Outside the app (no session needed): a page of its own. */
export function NotFoundPage() {
  return (
    <main className="min-h-dvh">
      <NotFound className="min-h-dvh" />
    </main>
  );
}

/** Under /customer/: inside the app shell, so the header and the way back stay. */
export function NotFoundInShell() {
  return <NotFound className="py-24" />;
}
