/** The action's inputs, read once from the runner and handed to config/parse.ts as a raw map. */
import * as core from './core.js'
import { INPUTS, type RawSettings } from '../config/inputs.js'
import { maskedForms } from '../log.js'
import { yamlLibrary } from '../yaml-library.js'

/** The values of the `secret-vars` mapping (nothing when it does not parse: config reports that). */
function secretVarValues(text: string | undefined): string[] {
  if (!text) return []
  const { parse } = yamlLibrary()
  try {
    const parsed: unknown = parse(text)
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return []
    return Object.values(parsed as Record<string, unknown>)
      .filter(v => v !== null && typeof v !== 'object')
      .map(String)
  } catch {
    return []
  }
}

export function readActionInputs(): RawSettings {
  const raw: RawSettings = {}
  for (const input of INPUTS) {
    const value = core.getInput(input.name)
    if (input.type.kind === 'secret' && value) core.setSecret(value)
    raw[input.name] = value
  }
  // Each secret variable on its own too: the mapping's text is masked as a whole only.
  for (const value of secretVarValues(raw['secret-vars']))
    for (const form of maskedForms(value)) core.setSecret(form)
  // Basic auth sends base64(id:secret): mask that form too, in case anything ever echoes a header.
  if (raw['key-id'] && raw['key-secret']) {
    core.setSecret(Buffer.from(`${raw['key-id']}:${raw['key-secret']}`).toString('base64'))
  }
  return raw
}
