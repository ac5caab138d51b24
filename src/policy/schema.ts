/**
 * The `kind: Policy` document: an organisation's rules over the manifests (and over the plan), each a CEL
 * expression that must hold. Validated with the same diagnostics as every other kind; the editor schema
 * (scripts/generated-files.ts) carries its descriptions as hover text.
 */
import { z } from 'zod'
import { MANIFEST_KINDS } from '../manifest/vocabulary.js'

/** A rule id: what a suppression names, so a plain word (`alert-has-channel`, `recommended/owner-tag`). */
export const RULE_ID = /^[a-z0-9][a-z0-9_./-]{0,79}$/

export const PolicyRuleSchema = z.strictObject({
  id: z
    .string()
    .regex(RULE_ID, 'must be lower-case letters, digits and - _ . /, at most 80 characters')
    .describe('The rule id, unique across policies: what findings and suppressions name.'),
  kinds: z
    .array(z.enum(MANIFEST_KINDS))
    .min(1)
    .optional()
    .describe('The kinds of manifest the rule reads (every kind when absent).'),
  stacks: z
    .array(z.string().min(1))
    .min(1)
    .optional()
    .describe('The stacks the rule holds in, by name (every stack when absent).'),
  severity: z
    .enum(['error', 'warning'])
    .describe('An error fails validate and plan, so nothing is applied; a warning is reported only.'),
  message: z.string().min(1).max(500).describe('What a finding says to fix.'),
  check: z
    .string()
    .min(1)
    .max(4000)
    .describe(
      "A CEL expression that must be true, over `resource` (the manifest as written); with `on: plan` also over `change`, `plan` and `labels` (the pull request's)."
    ),
  on: z
    .enum(['manifest', 'plan'])
    .optional()
    .describe(
      'When the rule runs: over each manifest in validate (the default), or over each change of the plan, which needs the live state.'
    ),
  field: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'Where a finding points in the resource, e.g. `channels` or `tiles[1]` (its first line when absent).'
    ),
  suppressible: z
    .boolean()
    .optional()
    .describe(
      'false: no resource may be excused from the rule; a suppression of it is an error at its line (default true).'
    )
})
export type PolicyRule = z.infer<typeof PolicyRuleSchema>

export const PolicySchema = z.strictObject({
  apiVersion: z
    .literal('obsdeploy/v1')
    .optional()
    .describe('The manifest language version, obsdeploy/v1 (optional).'),
  kind: z.literal('Policy').describe('Rules over the other manifests and the plan, written in CEL.'),
  name: z.string().min(1).max(200).describe('The policy name, quoted in each finding.'),
  recommended: z
    .boolean()
    .optional()
    .describe('Turns on the rule pack shipped with obsdeploy (off by default).'),
  rules: z.array(PolicyRuleSchema).max(500).optional().describe('The rules, each a CEL check that must hold.')
})
export type PolicySpec = z.infer<typeof PolicySchema>
