/**
 * The second line of defence behind "rules never see a resolved secret" (manifest/load.ts gives rules each
 * secret field as its placeholder): text a rule's evaluation produced (an error's words, a value it
 * describes) is printed only when it holds no secret value, in any letter case, and no 8 characters in a row
 * of one. Redaction of the exact value (log.ts) would miss `upperAscii()` or a `substring`: such text is
 * withheld whole instead.
 */

/** Runs shorter than this are too common in ordinary text to withhold it for. */
const RUN = 8

export const WITHHELD = 'its text is withheld: it may quote a secret value'

/** A test of text against the run's secret values: true when the text may be printed. */
export function secretFree(secrets: readonly string[]): (text: string) => boolean {
  const probes = new Set<string>()
  for (const secret of secrets) {
    const value = secret.toLowerCase()
    if (value.length === 0) continue
    if (value.length <= RUN) probes.add(value)
    else for (let i = 0; i + RUN <= value.length; i++) probes.add(value.slice(i, i + RUN))
  }
  if (probes.size === 0) return () => true
  return text => {
    const lower = text.toLowerCase()
    for (const probe of probes) if (lower.includes(probe)) return false
    return true
  }
}
