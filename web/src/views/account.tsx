import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { RelativeTime } from '../components/relative-time';
import { useSession, type Account } from '../session';

const count = new Intl.NumberFormat();

/** Used credits from this share of the limit on, the meter shows the limit is near. */
const NEAR_LIMIT = 0.8;

/** The month's credits: a meter and "N of M used, R left", or "Unlimited" on a plan without a limit. */
function Credits({ credits }: { credits: Account['credits'] }) {
  const { limit, used, remaining } = credits;
  if (limit === null) {
    return (
      <>
        <span>Unlimited</span>
        <span class="hint"> · {count.format(used)} used this month</span>
      </>
    );
  }
  return (
    <div class="account-credits">
      <meter aria-label="Credits used" min={0} max={limit} value={used} low={limit * NEAR_LIMIT} high={limit * NEAR_LIMIT} optimum={0} />
      <span>
        {count.format(used)} of {count.format(limit)} used, {count.format(remaining ?? 0)} left
      </span>
    </div>
  );
}

/**
 * The signed-in key: its plan, areas, credits, rate limit, when the credits reset, and its id and
 * name. The numbers are fetched again on opening (the session's are from sign-in); until they
 * arrive the sign-in ones show.
 */
export function AccountView() {
  const session = useSession();
  const [account, setAccount] = useState<Account>(session.account);
  const [refreshing, setRefreshing] = useState(true);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    session.api.get('/v1/account', { signal: controller.signal }).then(
      (fresh) => {
        setAccount(fresh);
        setRefreshing(false);
      },
      (err: unknown) => {
        if (controller.signal.aborted) return;
        setError(err instanceof ApiError ? err.detail : `Something went wrong: ${String(err)}`);
        setRefreshing(false);
      },
    );
    return () => controller.abort();
  }, [session.api]);

  const rate = account.rate_limit_per_minute;
  return (
    <section class="account" aria-busy={refreshing}>
      <h1>Account</h1>
      {error !== null && (
        <p class="error" role="alert">
          The numbers below are from sign-in: refreshing them failed. {error}
        </p>
      )}
      <dl class="account-facts card">
        <dt>Plan</dt>
        <dd>{account.plan}</dd>
        <dt>Areas</dt>
        <dd>
          <ul class="account-areas">
            {account.areas.map((area) => (
              <li key={area}>{area}</li>
            ))}
          </ul>
        </dd>
        <dt>Credits</dt>
        <dd>
          <Credits credits={account.credits} />
        </dd>
        <dt>Credits reset</dt>
        <dd>
          <RelativeTime iso={account.credits.resets_at} />
        </dd>
        <dt>Rate limit</dt>
        <dd>{rate === null ? 'No rate limit' : `${count.format(rate)} requests per minute`}</dd>
        <dt>Key ID</dt>
        <dd>{account.key_id === null ? <span class="hint">None (anonymous)</span> : <code>{account.key_id}</code>}</dd>
        <dt>Key name</dt>
        <dd>{account.name === '' ? <span class="hint">Unnamed</span> : account.name}</dd>
      </dl>
    </section>
  );
}
