/** Plans: which areas a key may use, its monthly credits and its rate limit (CONTRACT §1). */

export const AREA_NAMES = ['webhook', 'devtools', 'auth', 'dns', 'email', 'geo'] as const;
export type Area = (typeof AREA_NAMES)[number];

export interface Plan {
  name: string;
  areas: Area[];
  /** `null` = unlimited. */
  monthlyCredits: number | null;
  /** `null` = unlimited. */
  rateLimitPerMinute: number | null;
  /** Credits per successful call, by area; areas not listed use {@link DEFAULT_AREA_COSTS}. */
  areaCosts: Partial<Record<Area, number>>;
}

export interface PlanCatalog {
  defaultPlan: string;
  plans: Record<string, Plan>;
}

/** Devtools calls cost 1 credit; every other area is free unless a plan says otherwise. */
export const DEFAULT_AREA_COSTS: Record<Area, number> = { webhook: 0, devtools: 1, auth: 0, dns: 0, email: 0, geo: 0 };

export const BUILT_IN_PLANS: PlanCatalog = {
  defaultPlan: 'free',
  plans: {
    free: { name: 'free', areas: [...AREA_NAMES], monthlyCredits: 1000, rateLimitPerMinute: 60, areaCosts: {} },
    pro: { name: 'pro', areas: [...AREA_NAMES], monthlyCredits: 100000, rateLimitPerMinute: 600, areaCosts: {} },
    unlimited: { name: 'unlimited', areas: [...AREA_NAMES], monthlyCredits: null, rateLimitPerMinute: null, areaCosts: {} },
  },
};

/**
 * The plan named `name`, or undefined. Only the catalogue's own entries count: a name such as
 * `constructor` or `__proto__` is no plan (it would otherwise find Object.prototype's members).
 *
 * @example
 *   findPlan(BUILT_IN_PLANS, 'pro')?.rateLimitPerMinute // 600
 *   findPlan(BUILT_IN_PLANS, 'constructor') // undefined
 */
export function findPlan(catalog: PlanCatalog, name: string): Plan | undefined {
  return Object.hasOwn(catalog.plans, name) ? catalog.plans[name] : undefined;
}

/** Members a plan in `PLANS_FILE` may have; any other is a mistake (a typo would otherwise mean "unlimited"). */
const PLAN_MEMBERS = ['areas', 'monthly_credits', 'rate_limit_per_minute', 'area_costs'];

/** Members that only annotate the file (`$schema`, `$comment`, `_note`, `description`) and mean nothing to the service. */
function isAnnotation(member: string): boolean {
  return member.startsWith('$') || member.startsWith('_') || member === 'description';
}

/** Credits one successful call in `area` costs on `plan`. */
export function costOf(plan: Plan, area: Area): number {
  return plan.areaCosts[area] ?? DEFAULT_AREA_COSTS[area];
}

function isArea(value: unknown): value is Area {
  return typeof value === 'string' && (AREA_NAMES as readonly string[]).includes(value);
}

function limitOf(value: unknown, where: string): number | null {
  if (value === null) return null;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  throw new TypeError(`${where} must be a non-negative integer or null`);
}

/**
 * Merge a `PLANS_FILE` document over the built-in plans. Throws a TypeError naming the bad part.
 *
 * @example
 *   parsePlans({ default_plan: 'pro', plans: { team: { areas: ['webhook'], monthly_credits: 10,
 *     rate_limit_per_minute: 5 } } })
 */
export function parsePlans(doc: unknown): PlanCatalog {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new TypeError('must be a JSON object');
  const input = doc as Record<string, unknown>;
  const unknownTop = Object.keys(input).filter((member) => member !== 'plans' && member !== 'default_plan' && !isAnnotation(member));
  if (unknownTop.length > 0)
    throw new TypeError(`unknown member ${unknownTop.map((m) => JSON.stringify(m)).join(', ')} (known: default_plan, plans)`);
  // No prototype: a plan may be named `constructor` or `__proto__` like any other name.
  const plans: Record<string, Plan> = Object.assign(Object.create(null) as Record<string, Plan>, BUILT_IN_PLANS.plans);
  if (input.plans !== undefined) {
    if (typeof input.plans !== 'object' || input.plans === null || Array.isArray(input.plans)) {
      throw new TypeError('"plans" must be an object');
    }
    for (const [name, raw] of Object.entries(input.plans as Record<string, unknown>)) {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new TypeError(`plan "${name}" must be an object`);
      const p = raw as Record<string, unknown>;
      const unknown = Object.keys(p).filter((member) => !PLAN_MEMBERS.includes(member) && !isAnnotation(member));
      if (unknown.length > 0)
        throw new TypeError(
          `plan "${name}": unknown member ${unknown.map((m) => JSON.stringify(m)).join(', ')} (known: ${PLAN_MEMBERS.join(', ')})`,
        );
      const areas = p.areas ?? [...AREA_NAMES];
      if (!Array.isArray(areas)) throw new TypeError(`plan "${name}": "areas" must be an array`);
      for (const a of areas) {
        if (!isArea(a)) throw new TypeError(`plan "${name}": unknown area "${String(a)}" (known: ${AREA_NAMES.join(', ')})`);
      }
      const areaCosts: Partial<Record<Area, number>> = {};
      if (p.area_costs !== undefined) {
        if (typeof p.area_costs !== 'object' || p.area_costs === null || Array.isArray(p.area_costs))
          throw new TypeError(`plan "${name}": "area_costs" must be an object`);
        for (const [a, c] of Object.entries(p.area_costs as Record<string, unknown>)) {
          if (!isArea(a)) throw new TypeError(`plan "${name}": unknown area "${a}" in area_costs`);
          if (typeof c !== 'number' || !Number.isInteger(c) || c < 0)
            throw new TypeError(`plan "${name}": area_costs.${a} must be a non-negative integer`);
          areaCosts[a] = c;
        }
      }
      plans[name] = {
        name,
        areas: areas as Area[],
        monthlyCredits: limitOf(p.monthly_credits ?? null, `plan "${name}": monthly_credits`),
        rateLimitPerMinute: limitOf(p.rate_limit_per_minute ?? null, `plan "${name}": rate_limit_per_minute`),
        areaCosts,
      };
    }
  }
  const defaultPlan = input.default_plan ?? BUILT_IN_PLANS.defaultPlan;
  if (typeof defaultPlan !== 'string' || !Object.hasOwn(plans, defaultPlan)) {
    throw new TypeError(`"default_plan" names no known plan: ${JSON.stringify(defaultPlan)}`);
  }
  return { defaultPlan, plans };
}
