/**
 * Plans written by hand, shaped like the ones the planner makes for the example manifests: one fixture
 * per kind of change, a plan of every kind together, a huge plan, and a plan full of hostile text.
 */
import type { ApplyResult } from '../../src/apply/types.js'
import type { Diagnostic } from '../../src/diagnostics.js'
import { NOUNS } from '../../src/kinds/nouns.js'
import { REFERENCES_VERSION, type Change, type Plan } from '../../src/plan/types.js'
import type { ReportInput } from '../../src/report/input.js'

export const ORG = '3f2d8a5e-1b7c-4e9a-9d3f-6a1b2c3d4e5f'
export const SERVICE = '9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'

/** What a plan names, as a planner writes it in the plan's references (planner.ts referencesOf). */
export interface FixtureNames {
  sources?: Record<string, string>
  webhooks?: Record<string, string>
  /** The dashboard of each alert, by alert name. */
  alertDashboards?: Record<string, string>
}

/** The references the planner writes for these changes: every dashboard is seen on itself. */
export function referencesFor(
  changes: readonly Change[],
  names: FixtureNames = {}
): NonNullable<Plan['references']> {
  const keys: NonNullable<Plan['references']>['keys'] = {}
  if (names.sources) {
    keys.sourceId = { as: 'source', names: names.sources }
    keys.appliesToSourceIds = { as: 'appliesToSources', names: names.sources }
  }
  if (names.webhooks) keys.webhookId = { as: 'webhook', names: names.webhooks }
  const seenOn: NonNullable<Plan['references']>['seenOn'] = {}
  for (const c of changes) if (c.kind === 'Dashboard') seenOn[c.address] = { dashboard: c.name, own: true }
  for (const [alert, dashboard] of Object.entries(names.alertDashboards ?? {}))
    seenOn[`Alert/${alert}`] = { dashboard }
  const nouns = Object.fromEntries(Object.entries(NOUNS).map(([kind, [one, many]]) => [kind, [one, many]]))
  return { version: REFERENCES_VERSION, keys, seenOn, nouns: nouns as Record<string, [string, string]> }
}

export function makePlan(changes: Change[], overrides: Partial<Plan> & { names?: FixtureNames } = {}): Plan {
  const { names, ...rest } = overrides
  return {
    schemaVersion: 1,
    tool: { name: 'obsdeploy', version: '0.1.0' },
    createdAt: '2025-03-14T09:26:53Z',
    command: 'plan',
    mode: 'self-hosted',
    stack: 'shop',
    ownershipTag: 'obsdeploy:stack=shop',
    prune: false,
    fingerprint: {
      live: 'sha256:4f1c0d2e9a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d',
      desired: 'sha256:0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9'
    },
    changes,
    diagnostics: [],
    references: referencesFor(changes, names),
    ...rest
  }
}

export function makeInput(overrides: Partial<ReportInput> = {}): ReportInput {
  return {
    command: 'plan',
    mode: 'self-hosted',
    stack: 'shop',
    diagnostics: [],
    planFile: '/home/runner/work/_temp/obsdeploy-plan.json',
    serviceGate: { open: false, reason: 'waits for a release (service-update: on-release)' },
    trigger: 'pull_request #42',
    github: {
      serverUrl: 'https://github.com',
      repository: 'acme/shop',
      sha: HEAD_SHA,
      runId: '1234567890',
      runAttempt: '1'
    },
    time: '2025-03-14T09:27:10Z',
    ...overrides
  }
}

/** The head commit of the pull request under review. */
export const HEAD_SHA = '6dcb09b5b57875f334f61aebed695e2e4193db5e'

const change = (c: Omit<Change, 'notes' | 'dependsOn' | 'fields'> & Partial<Change>): Change => ({
  fields: [],
  notes: [],
  dependsOn: [],
  ...c
})

export const createPayments = change({
  kind: 'Dashboard',
  name: 'Payments API',
  address: 'Dashboard/Payments API',
  action: 'create',
  source: { file: 'observability/dashboards/payments.yaml', line: 1, column: 1 },
  fields: [
    { path: 'tags', after: ['team:payments', 'obsdeploy:stack=shop'] },
    {
      path: 'tiles["Requests"]',
      after: {
        name: 'Requests',
        x: 0,
        y: 0,
        w: 6,
        h: 3,
        series: [
          { type: 'time', dataSource: 'events', aggFn: 'count', where: 'service:payments', groupBy: [] }
        ]
      }
    }
  ]
})

export const updateCheckout = change({
  kind: 'Dashboard',
  name: 'Checkout',
  address: 'Dashboard/Checkout',
  action: 'update',
  id: '65f1c0ffee00000000000abc',
  source: { file: 'observability/dashboards/checkout.yaml', line: 3, column: 1 },
  fields: [
    { path: 'tiles["Errors"].select[0].where', before: 'level:error', after: 'level:error OR level:fatal' },
    { path: 'tiles["Latency p95"].w', before: 4, after: 6 },
    { path: 'tags', before: ['team:checkout'], after: ['team:checkout', 'tier:1'] }
  ]
})

export const updateAlertWithEvidence = change({
  kind: 'Alert',
  name: 'Checkout error spike',
  address: 'Alert/Checkout error spike',
  action: 'update',
  id: '65f1c0ffee00000000000def',
  source: { file: 'observability/alerts/checkout.yaml', line: 8, column: 3 },
  fields: [{ path: 'threshold', before: 50, after: 20 }],
  dependsOn: ['Dashboard/Checkout'],
  evidence: ['At threshold 20 this alert would have fired 3 times in the last 24 hours (at 50: once).']
})

export const replaceInventory = change({
  kind: 'Dashboard',
  name: 'Inventory',
  address: 'Dashboard/Inventory',
  action: 'replace',
  id: '65f1c0ffee00000000000111',
  source: { file: 'observability/dashboards/inventory.yaml', line: 1, column: 1 },
  fields: [{ path: 'tiles["Stock levels"].name', before: 'Stock levels', after: 'Stock by warehouse' }],
  notes: [
    'Tile "Stock levels" is renamed to "Stock by warehouse" without an `id:`: the server gives it a new id.',
    'Links to this dashboard change: a replace deletes it and creates it again.'
  ]
})

export const droppedLowStockAlert = change({
  kind: 'Alert',
  name: 'Low stock',
  address: 'Alert/Low stock',
  action: 'delete',
  id: '65f1c0ffee00000000000222',
  droppedByServer: true,
  notes: [
    'Its tile "Stock levels" goes away with the replace of dashboard "Inventory"; the server deletes the alert.'
  ]
})

export const deleteLegacy = change({
  kind: 'Dashboard',
  name: 'Legacy checkout',
  address: 'Dashboard/Legacy checkout',
  action: 'delete',
  id: '65f1c0ffee00000000000333'
})

export const prunePendingFunnel = change({
  kind: 'Dashboard',
  name: 'Old funnel',
  address: 'Dashboard/Old funnel',
  action: 'delete',
  id: '65f1c0ffee00000000000444',
  deferred: 'prune'
})

export const releasePendingService = change({
  kind: 'ServiceSettings',
  name: 'shop-prod',
  address: 'ServiceSettings/shop-prod',
  action: 'update',
  id: SERVICE,
  source: { file: 'observability/service.yaml', line: 1, column: 1 },
  deferred: 'release',
  fields: [
    {
      path: 'ipAccessList',
      before: [{ source: '198.51.100.0/24', description: 'old office' }],
      after: [{ source: '203.0.113.0/24', description: 'office' }]
    },
    { path: 'releaseChannel', before: 'default', after: 'slow' }
  ],
  request: {
    method: 'PATCH',
    path: `/v1/organizations/${ORG}/services/${SERVICE}`,
    body: {
      ipAccessList: {
        remove: [{ source: '198.51.100.0/24', description: 'old office' }],
        add: [{ source: '203.0.113.0/24', description: 'office' }]
      },
      releaseChannel: 'slow'
    }
  }
})

export const noopOrders = change({
  kind: 'Dashboard',
  name: 'Orders',
  address: 'Dashboard/Orders',
  action: 'noop',
  id: '65f1c0ffee00000000000555',
  source: { file: 'observability/dashboards/orders.yaml', line: 1, column: 1 }
})

export const noopOrdersAlert = change({
  kind: 'Alert',
  name: 'Orders stalled',
  address: 'Alert/Orders stalled',
  action: 'noop',
  id: '65f1c0ffee00000000000666',
  source: { file: 'observability/alerts/orders.yaml', line: 1, column: 1 }
})

export const serviceApplied: ApplyResult = {
  outcomes: [
    {
      address: 'ServiceSettings/shop-prod',
      kind: 'ServiceSettings',
      name: 'shop-prod',
      action: 'update',
      status: 'applied',
      id: SERVICE,
      requestId: 'req_7f3a9c2e1b',
      result: {
        id: SERVICE,
        name: 'shop-prod',
        state: 'running',
        releaseChannel: 'slow',
        ipAccessList: [{ source: '203.0.113.0/24', description: 'office' }],
        endpoints: [
          {
            protocol: 'nativesecure',
            host: 'abc123.eu-west-1.aws.example.cloud',
            port: 9440,
            username: 'default'
          }
        ]
      }
    }
  ],
  complete: true,
  convergence: { converged: true, remaining: [] }
}

export const failedApply: ApplyResult = {
  outcomes: [
    {
      address: 'Dashboard/Checkout',
      kind: 'Dashboard',
      name: 'Checkout',
      action: 'update',
      status: 'applied',
      id: '65f1c0ffee00000000000abc'
    },
    {
      address: 'Dashboard/Payments API',
      kind: 'Dashboard',
      name: 'Payments API',
      action: 'create',
      status: 'adopted',
      id: '65f1c0ffee00000000000777',
      message: 'The create response was lost; found the dashboard by its name and ownership tag.'
    },
    {
      address: 'Alert/Checkout error spike',
      kind: 'Alert',
      name: 'Checkout error spike',
      action: 'update',
      status: 'failed',
      message: '400 Bad Request: "threshold" must be a positive number',
      requestId: 'req_0b1c2d'
    },
    {
      address: 'ServiceSettings/shop-prod',
      kind: 'ServiceSettings',
      name: 'shop-prod',
      action: 'update',
      status: 'skipped'
    }
  ],
  complete: false,
  convergence: {
    converged: false,
    remaining: ['ipAccessList: 203.0.113.0/24 is missing', 'releaseChannel: default, want slow']
  }
}

export const validationErrors: Diagnostic[] = [
  {
    severity: 'warning',
    message: 'tile "Latency" has no series; it renders empty',
    file: 'observability/dashboards/checkout.yaml',
    line: 21,
    column: 7,
    field: 'tiles[2].series',
    stage: 'validate'
  },
  {
    severity: 'error',
    message: 'must be an integer between 1 and 12, got 2.5',
    file: 'observability/dashboards/checkout.yaml',
    line: 14,
    column: 12,
    field: 'tiles[0].w',
    stage: 'validate'
  },
  {
    severity: 'error',
    message: 'unknown dashboard "Chekout"; did you mean "Checkout"?',
    file: 'observability/alerts/checkout.yaml',
    line: 4,
    column: 16,
    field: 'dashboard',
    stage: 'validate'
  },
  {
    severity: 'error',
    message: 'thresholdType must be one of above, below, got "abve"',
    file: 'observability/alerts/checkout.yaml',
    line: 6,
    column: 20,
    field: 'thresholdType',
    stage: 'validate'
  }
]

/** Every kind of change in one plan, as a pull request would show it. */
export const everyKindOfChange: Change[] = [
  createPayments,
  updateCheckout,
  updateAlertWithEvidence,
  replaceInventory,
  droppedLowStockAlert,
  deleteLegacy,
  prunePendingFunnel,
  releasePendingService,
  noopOrders
]

const ACTIONS_CYCLE = ['create', 'update', 'update', 'replace', 'delete', 'noop'] as const

/** A plan of `n` changes of every kind and action, with multi-byte names, deterministic. */
export function hugePlan(n: number): Plan {
  const changes: Change[] = []
  for (let i = 0; i < n; i++) {
    const action = ACTIONS_CYCLE[i % ACTIONS_CYCLE.length]
    const kind = i % 10 === 9 ? 'Alert' : 'Dashboard'
    const name = `${kind === 'Alert' ? 'Alert' : 'Service'} ${String(i).padStart(5, '0')} – Überwachung 🚀 日本語`
    changes.push(
      change({
        kind,
        name,
        address: `${kind}/${name}`,
        action,
        id: action === 'create' ? undefined : `65f1c0ffee${String(i).padStart(14, '0')}`,
        source:
          action === 'delete'
            ? undefined
            : { file: `observability/generated/team-${i % 37}.yaml`, line: 1 + (i % 400), column: 1 },
        fields:
          action === 'update' || action === 'replace'
            ? [
                {
                  path: `tiles["Errors ${i}"].select[0].where`,
                  before: 'level:error',
                  after: 'level:error OR level:fatal'
                },
                { path: 'tags', before: ['team:a'], after: ['team:a', `shard:${i % 7}`] }
              ]
            : [],
        notes:
          action === 'replace'
            ? ['Tile "Errors" is renamed without an `id:`: the server gives it a new id.']
            : [],
        deferred: i % 250 === 0 && action === 'delete' ? 'prune' : undefined
      })
    )
  }
  return makePlan(changes)
}

/** Text meant to break out of a table, a <details>, a code block, or to ping and link. */
export const HOSTILE = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '@org/team',
  '@user',
  'a | b || c',
  '`tick` ``` fence ````',
  '</details></summary>',
  '[x](javascript:alert(1))',
  'https://evil.example',
  'www.evil.example'
].join(' ')

export function hostileInput(): ReportInput {
  const hostile = (c: Partial<Change> & Pick<Change, 'kind' | 'action'>): Change =>
    change({ name: HOSTILE, address: `${c.kind}/${HOSTILE}/${c.action}/${c.deferred ?? 'now'}`, ...c })
  const source = { file: `observability/${HOSTILE}.yaml`, line: 2, column: 1 }
  return makeInput({
    command: 'apply',
    stack: 'shop',
    planFile: `/tmp/${HOSTILE}.json`,
    trigger: HOSTILE,
    serviceGate: { open: false, reason: `release ${HOSTILE} published` },
    diagnostics: [
      {
        severity: 'error',
        message: HOSTILE,
        file: `observability/${HOSTILE}.yaml`,
        line: 1,
        column: 1,
        field: HOSTILE,
        stage: 'validate'
      }
    ],
    plan: makePlan([
      hostile({
        kind: 'Dashboard',
        action: 'update',
        id: '65f1c0ffee00000000000abc',
        source,
        fields: [{ path: HOSTILE, before: HOSTILE, after: { where: HOSTILE } }],
        notes: [HOSTILE],
        evidence: [HOSTILE]
      }),
      hostile({ kind: 'Alert', action: 'delete', id: `../../${HOSTILE}`, droppedByServer: true }),
      hostile({ kind: 'Dashboard', action: 'delete', deferred: 'prune', id: HOSTILE }),
      hostile({
        kind: 'ServiceSettings',
        action: 'update',
        deferred: 'release',
        source,
        fields: [{ path: 'name', before: HOSTILE, after: 'shop' }],
        request: { method: 'PATCH', path: `/v1/${HOSTILE}`, body: { name: HOSTILE, [HOSTILE]: [HOSTILE] } }
      })
    ]),
    apply: {
      outcomes: [
        {
          address: `Dashboard/${HOSTILE}/update/now`,
          kind: 'Dashboard',
          name: HOSTILE,
          action: 'update',
          status: 'failed',
          message: HOSTILE,
          requestId: HOSTILE
        },
        {
          address: `ServiceSettings/${HOSTILE}/update/release`,
          kind: 'ServiceSettings',
          name: HOSTILE,
          action: 'update',
          status: 'applied',
          requestId: HOSTILE,
          result: { name: HOSTILE }
        }
      ],
      complete: false,
      convergence: { converged: false, remaining: [HOSTILE] }
    }
  })
}
