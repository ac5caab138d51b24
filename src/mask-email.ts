/**
 * Emails are personal data: a report names a person by a masked email, enough for a reviewer who knows the
 * team to tell two people apart, and no more. `alice@example.com` -> `a***e@example.com #3f2a`: the first and
 * last letters of the name (fewer of a short one, never the whole name: `bob` -> `b***`, `ab` -> `a***`,
 * `a` -> `***`), the domain, and a tag, 16 bits of an HMAC-SHA256 of the whole (lowercased) email.
 *
 * Why keyed: a plain hash of an email can be checked against a list of guesses by anyone who reads the
 * comment. The key is derived (HKDF) from the API credential the run talks with, as the registry's
 * fingerprints' is (kinds/fingerprint-key.ts, under another label, so neither tells anything of the other):
 * whoever holds it can list the team's emails through the API anyway, and everyone else cannot test a
 * guess. So a person reads the same in every output of a run and in every run with the same credential.
 * Without a credential (an offline validate), the key is random: the same throughout the run only.
 *
 * The key is the run's: run() sets it around everything it does (withEmailMask; an AsyncLocalStorage, so two
 * runs in one process keep their own), and every place that names a person (the plan's labels, policy
 * findings) asks maskEmail, so no two outputs can name one differently.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { createHmac, hkdfSync, randomBytes } from 'node:crypto'
import { credentialOf } from './config/credential.js'
import type { Auth } from './config/types.js'

/** Hex digits of the tag: two people of one mask share a tag once in 65,536 (the plan then numbers them). */
const TAG_LENGTH = 4

export class EmailMask {
  readonly #key: Buffer

  private constructor(key: Buffer) {
    this.#key = key
  }

  /** The mask of a run with this credential; with none, a random one. */
  static forCredential(auth: Auth): EmailMask {
    const credential = credentialOf(auth)
    if (credential === undefined) return EmailMask.random()
    return new EmailMask(Buffer.from(hkdfSync('sha256', credential, 'obsdeploy', 'email masks v1', 32)))
  }

  static random(): EmailMask {
    return new EmailMask(randomBytes(32))
  }

  /** The keyed tag of a value (mask-value.ts tags the data's personal-looking values with it). */
  tag(value: string): string {
    return createHmac('sha256', this.#key).update(value).digest('hex').slice(0, TAG_LENGTH)
  }

  mask(email: string): string {
    const lower = email.toLowerCase()
    const tag = this.tag(lower)
    const at = lower.lastIndexOf('@')
    if (at < 0) return `*** #${tag}`
    // By code point: a name in another script keeps whole letters.
    const name = Array.from(lower.slice(0, at))
    const first = name.length >= 2 ? name[0] : ''
    const last = name.length >= 4 ? name.at(-1) : ''
    return `${first}***${last}${lower.slice(at)} #${tag}`
  }

  /** Never serialized with what carries it. */
  toJSON(): undefined {
    return undefined
  }
}

const runs = new AsyncLocalStorage<EmailMask>()
/** Outside any run (a unit test of the planner): one random key for the process. */
let outsideRuns: EmailMask | undefined

/** Runs `work` with `mask` as the mask of every email it names. */
export function withEmailMask<T>(mask: EmailMask, work: () => T): T {
  return runs.run(mask, work)
}

/** The run's mask (outside any run, the process's). */
export function runMask(): EmailMask {
  return runs.getStore() ?? (outsideRuns ??= EmailMask.random())
}

/** The email as this run names it in every output. */
export function maskEmail(email: string): string {
  return runMask().mask(email)
}
