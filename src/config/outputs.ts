/** The action's outputs, defined once: action.yml and the README's outputs table are generated from them. */
export const OUTPUTS: ReadonlyArray<{ name: string; description: string }> = [
  {
    name: 'has-changes',
    description:
      'true when the live state differs from the manifests: something to apply, or service settings that wait for a release.'
  },
  { name: 'creates', description: 'Number of resources the plan creates.' },
  { name: 'updates', description: 'Number of resources the plan updates or replaces.' },
  { name: 'deletes', description: 'Number of resources the plan deletes.' },
  { name: 'plan-file', description: 'Path of the plan as JSON (schema/plan.schema.json).' },
  {
    name: 'comment-url',
    description: 'URL of the sticky pull request comment, when one was posted or updated.'
  },
  {
    name: 'matrix',
    description:
      'The stacks this run covers, as JSON for a job matrix (`strategy.matrix.include`): with `stacks`, `[{"stack":"payments","folder":"observability/payments"}]` for each stack it runs (on a pull request, the ones it changes); otherwise `[{"stack":"<stack>"}]`.'
  }
]
