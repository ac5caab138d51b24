/**
 * A desired record whose `source` (where the manifest declares it) is located when first read: positions
 * cost a parse of the file, and a plan shows them only for what changes. A class, not an object literal
 * with a getter: such a literal is a dictionary of its own with a closure each (about 450 bytes a record,
 * 7 MB at 5,000 dashboards and 10,000 alerts); here the getter is one, on the prototype.
 */
import type { SourceLocation } from '../diagnostics.js'
import type { ParsedDocument } from '../manifest/yaml.js'
import type { PathSegment } from '../manifest/path.js'
import type { Desired } from './kind.js'

export class DesiredAt<T> implements Desired<T> {
  constructor(
    readonly name: string,
    readonly address: string,
    public value: T,
    private readonly doc: ParsedDocument,
    /** The field `source` points at: the manifest's `name`. */
    private readonly field: PathSegment = 'name'
  ) {}

  get source(): SourceLocation {
    return this.doc.locate([this.field])
  }
}
