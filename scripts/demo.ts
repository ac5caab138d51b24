/**
 * `npm run demo`: the whole job on the embedded emulator, with the built CLI (dist/cli/index.js) as a
 * user would run it: validate (the examples, and a deliberately broken manifest), plan, apply, plan
 * again (no changes), drift after a change made by hand, service settings at a release, and two stacks
 * of one repository planned and applied together. Then a webhook (its url and token from secret
 * variables), a saved search with a saved-search alert on two channels, and a raw-SQL tile with its alert
 * (examples/alerting): planned and applied in one run, with the secrets shown only as changed or unchanged.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { startEmulator } from '../emulator/index.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const cli = path.join(root, 'dist', 'cli', 'index.js')
const out = path.join(root, '.obsdeploy', 'demo')
const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s)

if (!existsSync(cli)) {
  console.error('dist/cli/index.js is missing: run `npm run build` first.')
  process.exit(1)
}
rmSync(out, { recursive: true, force: true })
mkdirSync(out, { recursive: true })

const emu = await startEmulator({ port: 0 })
console.log(`Emulator of both API modes on ${emu.url} (self-hosted /api/v2, managed /v1/organizations/...)\n`)

let step = 0
/** Runs the CLI bundle in a child process (asynchronously: the emulator serves from this process). */
async function obsdeploy(
  title: string,
  args: string[],
  env: Record<string, string> = {},
  expectExit = 0
): Promise<void> {
  step++
  const summary = path.join(out, `${String(step).padStart(2, '0')}-${args[0]}.md`)
  console.log(bold(`── ${step}. ${title}`))
  console.log(`$ obsdeploy ${args.join(' ')}`)
  const child = spawn(process.execPath, [cli, ...args, '--summary', summary], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, OBSDEPLOY_API_KEY: emu.credentials.apiKey, ...env }
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const status = await new Promise<number | null>(resolve => child.on('close', resolve))
  process.stdout.write(stdout)
  process.stdout.write(stderr.replace(/^(?=.)/gm, '  '))
  console.log(
    `exit ${status}${status === expectExit ? '' : ` (expected ${expectExit})`}; markdown summary: ${path.relative(root, summary)}\n`
  )
  if (status !== expectExit) throw new Error(`step ${step} exited ${status}, expected ${expectExit}`)
}

const api = ['--api-url', emu.url, '--stack', 'demo', '--out', '.obsdeploy/demo/plan.json']
try {
  await obsdeploy('validate the examples (offline: no credentials, no network)', [
    'validate',
    'examples/observability'
  ])
  await obsdeploy(
    'validate a deliberately broken manifest: every problem, with file:line:col',
    ['validate', 'examples/broken'],
    {},
    1
  )
  await obsdeploy('plan against the empty emulator', ['plan', 'examples/observability', ...api])
  await obsdeploy('apply', ['apply', 'examples/observability', ...api])
  await obsdeploy('plan again: nothing to do', ['plan', 'examples/observability', ...api])

  // A change by hand, as someone would make in the UI.
  const checkout = [...emu.selfHosted.dashboards.values()].find(d => d.name === 'Checkout')!
  emu.selfHosted.updateDashboard(checkout.id, {
    name: checkout.name,
    tags: checkout.tags,
    tiles: checkout.tiles.map(t =>
      t.name === 'Errors'
        ? { ...t, w: 12, config: { ...t.config, select: [{ aggFn: 'count', where: 'level:fatal' }] } }
        : t
    )
  })
  console.log(bold('Someone widened the "Errors" tile of "Checkout" and changed its filter in the UI.\n'))
  await obsdeploy('drift finds it (exit 1)', ['drift', 'examples/observability', ...api], {}, 1)
  await obsdeploy('apply puts it back', ['apply', 'examples/observability', ...api])

  const managed = [
    '--mode',
    'managed',
    '--api-url',
    emu.url,
    '--organization-id',
    emu.credentials.organizationId,
    '--service-id',
    emu.credentials.serviceId,
    '--stack',
    'demo',
    '--out',
    '.obsdeploy/demo/plan-managed.json'
  ]
  const keys = { OBSDEPLOY_KEY_ID: emu.credentials.keyId, OBSDEPLOY_KEY_SECRET: emu.credentials.keySecret }
  await obsdeploy(
    'managed mode: the service settings change waits for a release',
    ['plan', 'examples/managed', ...managed],
    keys
  )
  await obsdeploy(
    'managed mode: applied at a release',
    ['apply', 'examples/managed', ...managed, '--release'],
    keys
  )
  await obsdeploy(
    'managed mode: nothing left to do',
    ['plan', 'examples/managed', ...managed, '--release'],
    keys
  )

  // Many stacks in one repository: examples/stacks/payments and examples/stacks/search, each with a
  // stack.yaml, and each with a dashboard named "Overview".
  const stacks = ['--stacks', '--api-url', emu.url, '--out', '.obsdeploy/demo/plan-stacks.json']
  await obsdeploy('two stacks in one repository: validate each with its own variables', [
    'validate',
    'examples/stacks',
    '--stacks'
  ])
  await obsdeploy('plan both stacks from one read of the live state: each has its own "Overview"', [
    'plan',
    'examples/stacks',
    ...stacks
  ])
  await obsdeploy('apply both stacks', ['apply', 'examples/stacks', ...stacks])
  await obsdeploy('plan one stack (--stack search): nothing to do', [
    'plan',
    'examples/stacks',
    ...stacks,
    '--stack',
    'search'
  ])

  // Secrets come from the environment (the action: the `secret-vars` input), never from a file.
  const secrets = {
    OBSDEPLOY_SECRET_ONCALL_WEBHOOK_URL: 'https://hooks.example.com/demo/oncall-7f3a9c',
    OBSDEPLOY_SECRET_ONCALL_TOKEN: 'Bearer demo-token-5b81e2'
  }
  const alerting = ['examples/observability', 'examples/alerting', ...api]
  await obsdeploy(
    'a webhook, a saved-search alert on two channels and a raw-SQL tile: planned in one run',
    ['plan', ...alerting],
    secrets
  )
  await obsdeploy(
    'apply them (the saved search and webhook first, then what refers to them)',
    ['apply', ...alerting],
    secrets
  )
  await obsdeploy(
    'plan again: nothing to do (the token compares by fingerprint)',
    ['plan', ...alerting],
    secrets
  )
  await obsdeploy(
    'the token changes: the plan says so, without showing either value',
    ['plan', ...alerting],
    { ...secrets, OBSDEPLOY_SECRET_ONCALL_TOKEN: 'Bearer demo-token-rotated' }
  )

  const writes = emu.requestLog.filter(r => r.method !== 'GET').length
  console.log(
    bold(
      `Done: ${emu.requestLog.length} requests to the emulator (${writes} writes), all summaries in ${path.relative(root, out)}/.`
    )
  )
} finally {
  await emu.close()
}
