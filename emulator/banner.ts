/**
 * What `npm run emulator` prints: the values to pass to obsdeploy for each mode (the base URL is the
 * server's address; obsdeploy adds /api/v2 or /v1/... itself), the credentials as the variables the CLI
 * reads, and the faults in effect.
 */
import { describeFaultRule } from './fault-spec.js'
import type { Emulator, FaultRule } from './types.js'

export function banner(
  emulator: Pick<Emulator, 'url' | 'credentials'> & { user?: { email: string }; mcp?: boolean },
  faults: readonly FaultRule[] = []
): string {
  const { url, credentials: c } = emulator
  const basic = Buffer.from(`${c.keyId}:${c.keySecret}`).toString('base64')
  return [
    `Observability API emulator listening on ${url}`,
    '',
    `Self-hosted: pass --api-url ${url}  (its routes are under ${url}/api/v2)`,
    `  export OBSDEPLOY_API_KEY=${c.apiKey}`,
    `  obsdeploy plan observability/ --api-url ${url}`,
    `  ingestion key ${c.ingestionKey}   (refused by the management API)`,
    `  web UI routes (/dashboards, PUT /alerts/{id}): POST ${url}/login/password {"email": "${emulator.user?.email ?? ''}", "password": "${c.userPassword ?? ''}"}`,
    emulator.mcp
      ? `  MCP: POST ${url}/mcp (Bearer key; clickstack_patch_dashboard)`
      : '  MCP: off (--mcp serves POST /mcp)',
    '',
    `Managed: pass --mode managed --api-url ${url} and the organization and service`,
    `  export OBSDEPLOY_KEY_ID=${c.keyId} OBSDEPLOY_KEY_SECRET=${c.keySecret}`,
    `  obsdeploy plan observability/ --mode managed --api-url ${url} --organization-id ${c.organizationId} --service-id ${c.serviceId}`,
    `  (routes under ${url}/v1/organizations/${c.organizationId}/services/${c.serviceId}; Authorization: Basic ${basic})`,
    `  read-only key ${c.readOnlyKeyId} / ${c.readOnlyKeySecret}`,
    `  services      ${c.serviceId} (production), ${c.devServiceId} (development)`,
    '',
    faults.length === 0
      ? 'Faults: none (add some with --fault; see --help)'
      : ['Faults, in order:', ...faults.map(f => `  ${describeFaultRule(f)}`)].join('\n'),
    '',
    'Press Ctrl+C to stop.'
  ].join('\n')
}
