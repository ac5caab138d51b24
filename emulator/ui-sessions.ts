/** The web UI's signed-in sessions (express-session and passport, as HyperDX 2.36 uses them): see ui-routes.ts. */
import { createHmac, randomBytes } from 'node:crypto'

export const SESSION_COOKIE = 'connect.sid'

/** The web UI's sessions: ids of signed-in sessions (in memory: a restart signs everyone out). */
export class UiSessions {
  private readonly secret = randomBytes(16).toString('hex')
  private readonly signedIn = new Set<string>()

  /** A new session, signed in or not; its cookie's value (express-session's `s:<id>.<signature>`, URL-encoded). */
  open(signIn: boolean): string {
    const id = randomBytes(24).toString('base64url')
    if (signIn) this.signedIn.add(id)
    return encodeURIComponent(`s:${id}.${this.sign(id)}`)
  }

  /** Whether a Cookie header carries a signed-in session. */
  isSignedIn(cookieHeader: string | undefined): boolean {
    const raw = cookieValue(cookieHeader, SESSION_COOKIE)
    if (raw === undefined) return false
    let value: string
    try {
      value = decodeURIComponent(raw)
    } catch {
      return false
    }
    const match = /^s:(.+)\.([^.]+)$/.exec(value)
    return match !== null && match[2] === this.sign(match[1]!) && this.signedIn.has(match[1]!)
  }

  private sign(id: string): string {
    return createHmac('sha256', this.secret).update(id).digest('base64').replace(/=+$/, '')
  }
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim()
  }
  return undefined
}
