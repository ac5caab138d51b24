/**
 * The mark of a policy suppression, `# obsdeploy: allow <rule-id> -- <reason>` (src/policy/suppress.ts reads
 * it). The loader keeps the lines of a file that has one, so policies never read the files a second time;
 * most files have none.
 */
const ANY_MARK = /#\s*obsdeploy:\s*allow\b/

/** Whether a file's text has any suppression comment. */
export const mentionsSuppression = (text: string): boolean => ANY_MARK.test(text)
