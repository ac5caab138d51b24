/** The Lucene of every filter a document holds, checked wherever it sits, with the column of each problem. */
import { diagnostic, type Diagnostic } from '../diagnostics.js'
import { checkLucene } from './lucene.js'
import { formatPath, type PathSegment } from './path.js'
import type { ParsedDocument } from './yaml.js'

/**
 * Every `where` in the document, whatever else is wrong with it: a filter typo is worth reporting even
 * in a manifest that also has a schema error. Errors point at the column inside the expression.
 */
export function checkFilters(doc: ParsedDocument): Diagnostic[] {
  const out: Diagnostic[] = []
  // Depth-first over one shared path (the depth is bounded by the YAML limits), last child first: the
  // order of the stack walk this replaced, without a path array per value of every manifest.
  const path: PathSegment[] = []
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== 'object') return
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) visitChild(i, value[i])
      return
    }
    const record = value as Record<string, unknown>
    // A tile's or filter's `where`, and a dashboard's saved query, in Lucene unless they say otherwise.
    for (const [field, language] of FILTER_FIELDS) {
      const text = record[field]
      const lang = record[language]
      if (typeof text !== 'string' || (lang !== undefined && lang !== 'lucene')) continue
      const problem = checkLucene(text)
      if (!problem) continue
      const fieldPath = [...path, field]
      const scalar = doc.scalarAt(fieldPath)
      // On a one-line scalar we can point at the exact column; otherwise at the scalar.
      const at = scalar
        ? { ...scalar.location, column: scalar.columnOf(problem.offset) }
        : doc.locate(fieldPath)
      out.push(diagnostic('validate', 'error', problem.message, { ...at, field: formatPath(fieldPath) }))
    }
    const keys = Object.keys(record)
    for (let i = keys.length - 1; i >= 0; i--) visitChild(keys[i]!, record[keys[i]!])
  }
  const visitChild = (segment: PathSegment, value: unknown): void => {
    if (value === null || typeof value !== 'object') return
    path.push(segment)
    visit(value)
    path.pop()
  }
  visit(doc.value)
  return out
}

const FILTER_FIELDS = [
  ['where', 'whereLanguage'],
  ['savedQuery', 'savedQueryLanguage']
] as const
