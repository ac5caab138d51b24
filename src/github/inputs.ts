/** The action's inputs, read once from the runner and handed to config/parse.ts as a raw map. */
import * as core from './core.js'
import { INPUTS, type RawSettings } from '../config/inputs.js'

export function readActionInputs(): RawSettings {
  const raw: RawSettings = {}
  for (const input of INPUTS) {
    const value = core.getInput(input.name)
    if (input.type.kind === 'secret' && value) core.setSecret(value)
    raw[input.name] = value
  }
  // Basic auth sends base64(id:secret): mask that form too, in case anything ever echoes a header.
  if (raw['key-id'] && raw['key-secret']) {
    core.setSecret(Buffer.from(`${raw['key-id']}:${raw['key-secret']}`).toString('base64'))
  }
  return raw
}
