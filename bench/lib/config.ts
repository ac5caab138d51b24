/**
 * run() configured as a user would configure the CLI, against an emulator (the approach of
 * test/support/harness.ts, without importing test files).
 */
import path from 'node:path'
import type { RawSettings } from '../../src/config/inputs.js'
import { parseConfig } from '../../src/config/parse.js'
import type { Config } from '../../src/config/types.js'
import { serviceGateFor } from '../../src/github/events.js'

export interface Target {
  url: string
  credentials: {
    apiKey: string
    keyId: string
    keySecret: string
    organizationId: string
    serviceId: string
  }
}

export function configFor(
  target: Target,
  cwd: string,
  command: 'plan' | 'apply' | 'drift',
  settings: RawSettings = {}
): Config {
  const managed = settings.mode === 'managed'
  const raw: RawSettings = {
    command,
    'api-url': target.url,
    stack: 'bench',
    'rate-limit': 'off',
    ...(managed
      ? {
          'key-id': target.credentials.keyId,
          'key-secret': target.credentials.keySecret,
          'organization-id': target.credentials.organizationId,
          'service-id': target.credentials.serviceId
        }
      : { 'api-key': target.credentials.apiKey }),
    ...settings
  }
  const { config, diagnostics } = parseConfig(raw, {
    cwd,
    defaultStack: 'bench',
    defaultPlanPath: path.join(cwd, '.obsdeploy', 'plan.json'),
    serviceGate: policy => serviceGateFor(undefined, policy),
    label: name => `--${name}`
  })
  if (!config) throw new Error(`bad settings: ${diagnostics.map(d => d.message).join('; ')}`)
  return config
}
