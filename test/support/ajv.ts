/**
 * Ajv as the tests that check the committed JSON Schemas (schema/) use it. Strict mode is raised from
 * console warnings to errors, so a keyword or type ajv does not understand fails the test that compiles the
 * schema instead of printing a stack trace. `allowUnionTypes`: zod writes a union of primitives as a type
 * list (the plan's tile ids, `"type": ["string", "number"]`), which draft-07 allows and strict mode only
 * wants allowed explicitly. `date-time` is known but not checked by ajv: the schemas' pattern checks it.
 */
import { Ajv } from 'ajv'

export function schemaAjv(): Ajv {
  return new Ajv({ strict: true, allowUnionTypes: true, allErrors: true, formats: { 'date-time': true } })
}
