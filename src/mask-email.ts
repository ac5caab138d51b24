/**
 * Emails are personal data: a report names a person by a masked email, enough for a reviewer who knows the
 * team and no more. `jane@example.com` -> `j***@example.com`.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@')
  if (at < 0) return '***'
  return `${email.slice(0, Math.min(1, at))}***${email.slice(at)}`
}
