/**
 * A stack's own file, `stack.yaml`: what makes a folder a stack in the `stacks` layout. It holds what
 * belongs to the stack rather than to the run: its name (the ownership tag), its variables and its prune
 * choice. How the run reaches the API (mode, address, credentials, pacing) stays an input: every stack of a
 * run talks to the same API through one request budget. Validated as manifests are, at file:line:col.
 */
import { z } from 'zod'
import { diagnostic, type Diagnostic, type SourceLocation } from '../diagnostics.js'
import { describeShape } from '../error-message.js'
import { readManifestFile } from '../manifest/files.js'
import { issuesToDiagnostics } from '../manifest/issues.js'
import type { PathSegment } from '../manifest/path.js'
import { parseYamlFile } from '../manifest/yaml.js'

/** The file names that make a folder a stack. */
export const STACK_FILE_NAMES = ['stack.yaml', 'stack.yml'] as const

/** What a stack name may be: it is the ownership tag's suffix and a path segment of links. */
export const STACK_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$/
export const STACK_PATTERN_TEXT =
  "1-100 letters, digits, '.', '_', '-' or '/', starting with a letter or digit"

/** What `${NAME}` may name (manifest/vars.ts). */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

export const StackFile = z
  .strictObject({
    apiVersion: z.literal('obsdeploy/v1').optional().describe('Optional: obsdeploy/v1.'),
    name: z
      .string()
      .regex(STACK_PATTERN, `must be ${STACK_PATTERN_TEXT}`)
      .describe(
        'The stack: its dashboards carry the ownership tag obsdeploy:<name>, and it only updates or prunes its own. Unique in the repository.'
      ),
    vars: z
      .record(z.string().regex(VARIABLE_NAME), z.unknown(), {
        error: issue =>
          issue.code === 'invalid_key'
            ? 'is not a variable name: letters, digits and _, not starting with a digit'
            : undefined
      })
      .optional()
      .describe(
        "Values for ${NAME} placeholders in this stack's manifests. The run's `vars` input (or --var) overrides them."
      ),
    prune: z
      .boolean()
      .optional()
      .describe(
        "Delete this stack's dashboards and alerts that are no longer in its manifests. Overrides the `prune` input for this stack."
      )
  })
  .describe('obsdeploy stack: a folder of manifests with its own ownership tag and variables')
export type StackFile = z.infer<typeof StackFile>

export const isStackFile = (file: string): boolean =>
  (STACK_FILE_NAMES as readonly string[]).includes(file.slice(file.lastIndexOf('/') + 1))

export interface ReadStackFile {
  stack?: StackFile
  /** Where its `name` is, for problems with the name that only the whole layout shows (a duplicate). */
  nameAt?: SourceLocation
  diagnostics: Diagnostic[]
}

/** A stack file read and checked: its settings, or the problems at their places. */
export async function readStackFile(file: string, cwd: string): Promise<ReadStackFile> {
  const read = await readManifestFile(file, cwd)
  if (!read.file) return { diagnostics: read.diagnostics }
  return parseStackFile(file, read.file.text)
}

/** The same for text in memory. */
export function parseStackFile(file: string, text: string): ReadStackFile {
  const parsed = parseYamlFile(file, text)
  if (parsed.diagnostics.some(d => d.severity === 'error')) return { diagnostics: parsed.diagnostics }
  const [doc, extra] = parsed.documents
  if (!doc) {
    return {
      diagnostics: [
        diagnostic(
          'validate',
          'error',
          'a stack file needs at least `name:` (the stack, and its ownership tag obsdeploy:<name>)',
          { file, line: 1, column: 1 }
        )
      ]
    }
  }
  if (extra) {
    return {
      diagnostics: [
        diagnostic(
          'validate',
          'error',
          'a stack file holds one document: its manifests go in other files of the folder',
          extra.start
        )
      ]
    }
  }
  if (doc.value === null || typeof doc.value !== 'object' || Array.isArray(doc.value)) {
    return {
      diagnostics: [
        diagnostic(
          'validate',
          'error',
          `a stack file must be a mapping with \`name:\`, got ${describeShape(doc.value)}`,
          doc.start
        )
      ]
    }
  }
  const result = StackFile.safeParse(doc.value, { reportInput: true })
  if (!result.success) {
    // A bad variable name is a key: pointed at where the key is, not at its value.
    const keys = result.error.issues.filter(i => i.code === 'invalid_key')
    return {
      diagnostics: [
        ...keys.map(i => {
          const key = String(i.path.at(-1))
          const at = doc.locateKey(i.path.slice(0, -1) as PathSegment[], key)
          return diagnostic('validate', 'error', `"${key}" ${i.message}`, { ...at, field: 'vars' })
        }),
        ...issuesToDiagnostics(
          result.error.issues.filter(i => i.code !== 'invalid_key'),
          doc,
          StackFile
        )
      ]
    }
  }
  return { stack: result.data, nameAt: doc.locate(['name']), diagnostics: [] }
}
