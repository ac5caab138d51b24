import type { Auth } from './types.js'

/**
 * The API credential a run talks with, as one string that names its kind, to key what is derived from it
 * (a saved plan's seal, the registry's fingerprints, the masks of emails); undefined without one.
 */
export function credentialOf(auth: Auth): string | undefined {
  if (auth.kind === 'bearer') return `bearer:${auth.apiKey}`
  if (auth.kind === 'basic') return `basic:${auth.keyId}:${auth.keySecret}`
  return undefined
}
