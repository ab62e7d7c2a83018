// A player's notification settings (GET /v1/me/settings) in words.

/** GET /v1/me/settings in words. */
export function formatSettings(
  s: {
    email: string | null;
    emailVerification?: { status: string; expiresAt?: string } | null;
    emailOff?: readonly string[];
    remindersOff?: readonly string[];
    digest?: { hour: number; timeZone: string } | null;
    webhooks: readonly { id: string; url: string; format: string; secretHint?: string; secret?: string; disabled?: { reason: string } }[];
  },
  me: string,
): string {
  const lines = [`Notifications for ${me}:`];
  const status = s.emailVerification?.status;
  const state =
    status === 'verified'
      ? 'confirmed'
      : status === 'pending'
        ? `waiting for confirmation: run  npm run cli -- verify-email <code>  with the code mailed to it (until ${s.emailVerification?.expiresAt})`
        : status
          ? `not confirmed (${status}): ask for a new code with POST /v1/me/email/resend`
          : '';
  lines.push(`  email:    ${s.email ? `${s.email}${state ? ` (${state})` : ''}` : 'none (set one with  npm run cli -- settings email <address>)'}`);
  if (s.email) {
    const off = s.emailOff ?? [];
    lines.push(
      `  mailed:   ${off.length ? `every notice but ${off.join(', ')} (turn one back on with  settings mail <kind> on)` : 'every notice (your move, started, ended, invited)'}`,
    );
  }
  const remindersOff = s.remindersOff ?? [];
  lines.push(
    `  reminders: ${remindersOff.length ? `all but ${remindersOff.join(', ')} (settings reminder <level> on)` : 'at 50% and 80% of your move time and when a day is left (settings reminder <level> off)'}`,
  );
  lines.push(
    `  digest:   ${s.digest ? `one mail a day at ${String(s.digest.hour).padStart(2, '0')}:00 ${s.digest.timeZone} listing your games on move, instead of each "your move" mail (settings digest off)` : 'off: a mail for each move (settings digest <hour> [--tz Zone])'}`,
  );
  if (!s.webhooks.length) lines.push('  webhooks: none (add one with  npm run cli -- settings add-webhook <url> --format json|discord|slack)');
  else {
    lines.push('  webhooks:');
    for (const w of s.webhooks)
      lines.push(
        `    ${w.id}  ${w.format.padEnd(7)} ${w.url}${w.secretHint ? `  (secret ${w.secretHint})` : ''}${w.disabled ? `  SWITCHED OFF: ${w.disabled.reason}` : ''}`,
      );
    lines.push('  remove one with  npm run cli -- settings remove-webhook <id>');
  }
  return lines.join('\n');
}
