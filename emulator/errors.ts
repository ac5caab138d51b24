/**
 * How an error body looks on a self-hosted route (FACTS.md "Errors": they differ by route):
 * 'text' is plain text (dashboard 404/403), 'message' is `{message}`, 'error' is `{error}` (charts).
 * Managed routes answer `{status, error, requestId}`. 'route' is a path no route serves: the router's
 * (or the cloud gateway's) HTML `Cannot GET ...` page in both modes, never a resource's "not found".
 */
export type ErrorShape = 'text' | 'message' | 'error' | 'route'

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

/**
 * The self-hosted server's answer to an exception it did not expect (packages/api/src/middleware/error.ts): a 500 whose
 * message says nothing of the cause.
 */
export const UNEXPECTED_ERROR_MESSAGE = 'Something went wrong :('

/** Thrown where the real server's own code throws: the route answers 500 `{"message": "Something went wrong :("}`. */
export const unexpectedError = (): ApiError => new ApiError(500, UNEXPECTED_ERROR_MESSAGE)

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

/**
 * The 404 page for a path no route serves. Self-hosted: Express's final handler (real-server.md §0.1).
 * Managed: the cloud gateway's page, as the Terraform provider's test fixture shows it
 * (`internal/service/clickstack/client/client_cloud_test.go`).
 */
export function cannotRoutePage(method: string, path: string, mode: 'self-hosted' | 'managed'): string {
  const pre = `<pre>Cannot ${method} ${path.replace(/[<>&"]/g, c => `&#${c.charCodeAt(0)};`)}</pre>`
  return mode === 'managed'
    ? `<!DOCTYPE html><html><body>${pre}</body></html>`
    : `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n${pre}\n</body>\n</html>\n`
}

/**
 * A refusal whose body is given whole: the web UI's routes answer a validation failure with zod-express-middleware's
 * list, `[{type: 'Params' | 'Body', errors: {issues, name: 'ZodError'}}]`.
 */
export class UiBodyError extends ApiError {
  constructor(readonly body: unknown) {
    super(400, 'Bad Request')
    this.name = 'UiBodyError'
  }
}
