/**
 * The recommended rule pack, shipped with obsdeploy and off by default: a Policy with
 * `recommended: true` turns it on. Written in CEL like any user rule, so each one is also an example.
 * That an alert's tile exists is no rule here: the manifests' validation already refuses an alert on a
 * missing tile.
 */
import type { PolicyRule } from './schema.js'

export const RECOMMENDED_RULES: readonly PolicyRule[] = [
  {
    id: 'recommended/alert-channel',
    kinds: ['Alert'],
    severity: 'error',
    message: 'an alert must notify someone: give it a `channel` or at least one of `channels`',
    check: 'has(resource.channel) || (has(resource.channels) && size(resource.channels) > 0)',
    field: 'channels'
  },
  {
    id: 'recommended/owner-tag',
    kinds: ['Dashboard', 'SavedSearch'],
    severity: 'warning',
    message: 'needs an owner: add a tag `owner:<team>`',
    check: "has(resource.tags) && resource.tags.exists(t, t.startsWith('owner:') && size(t) > 6)",
    field: 'tags'
  },
  {
    id: 'recommended/runbook-link',
    kinds: ['Alert'],
    severity: 'warning',
    message: 'the alert message should link a runbook (an http:// or https:// URL)',
    check: "has(resource.message) && resource.message.matches('https?://[^\\\\s]+')",
    field: 'message'
  },
  {
    id: 'recommended/alert-interval',
    kinds: ['Alert'],
    severity: 'warning',
    message:
      'a 1-minute alert runs its query 1,440 times a day: use 5m or longer unless it must page that fast',
    check: "resource.interval != '1m'",
    field: 'interval'
  },
  {
    id: 'recommended/name-pattern',
    kinds: ['Connection', 'Source', 'SavedSearch', 'Webhook', 'Dashboard', 'Alert'],
    severity: 'warning',
    message: 'a name should be at most 100 characters, start with a letter or digit and end without spaces',
    check:
      "!has(resource.name) || (size(resource.name) <= 100 && resource.name.matches('^[A-Za-z0-9](.*[^\\\\s])?$'))",
    field: 'name'
  },
  {
    id: 'recommended/role-manage-all',
    kinds: ['Role'],
    severity: 'warning',
    message:
      'grants `manage all`: whoever has this role may change and delete everything, access included. Grant what the role needs (`manage Dashboard`, `read Source`), or use the predefined Admin role',
    // CASL: `manage` is every action, `all` every subject; a denial (inverted) narrows, it does not grant.
    check:
      "!has(resource.permissions) || !resource.permissions.exists(p, p.action == 'manage' && p.subject == 'all' && !(has(p.inverted) && p.inverted))",
    field: 'permissions'
  },
  {
    id: 'recommended/dashboard-name-unique',
    kinds: ['Dashboard'],
    on: 'plan',
    severity: 'warning',
    message:
      'another stack manages a dashboard of this name: readers cannot tell them apart in the dashboard list',
    // plan.elsewhere: the names other stacks manage, from the live ownership tags and this run's stacks.
    check: "change.action == 'delete' || !(change.name in plan.elsewhere.Dashboard)",
    field: 'name'
  },
  {
    id: 'recommended/alert-query-data',
    kinds: ['Alert'],
    on: 'plan',
    severity: 'warning',
    message:
      "the alert's query returned no data over the last 7 days: check its tile's source and filter (with check-queries)",
    // change.query: check-queries' replay of the alert; `unchecked` when it did not run, which the plan says.
    check: "change.query.status != 'empty'",
    field: 'tile'
  }
]
