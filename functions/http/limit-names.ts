/** The fair limits (http/limits.ts) by name: what FIELDPOST_LIMITS may set (http/schemas.ts limitsOverride). */
export const LIMIT_NAMES = ['create', 'export', 'settings', 'mail', 'public'] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];
