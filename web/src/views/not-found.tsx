import { Link } from '../router';

/** A path of the app that names no view. */
export function NotFoundView() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        Nothing lives at this address. Go to your <Link href="/bins">bins</Link>.
      </p>
    </section>
  );
}
