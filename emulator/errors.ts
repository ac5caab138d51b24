/**
 * How an error body looks on a self-hosted route (FACTS.md "Errors": they differ by route):
 * 'text' is plain text (dashboard 404/403), 'message' is `{message}`, 'error' is `{error}` (charts).
 * Managed routes ignore the shape and always answer `{status, error, requestId}`.
 */
export type ErrorShape = 'text' | 'message' | 'error'

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly shape: ErrorShape = 'message'
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

export interface Issue {
  path: string
  message: string
}

/**
 * The server's zod-style 400: `Body validation failed: <path>: <msg>; ...`, an issue without a path as its message
 * alone (packages/api/src/utils/enhancedErrors.ts).
 */
export function bodyValidationError(issues: Issue[], shape: ErrorShape = 'message'): ApiError {
  return new ApiError(400, `Body validation failed: ${formatIssues(issues)}`, shape)
}

export function formatIssues(issues: Issue[]): string {
  return issues.map(issue => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ')
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
