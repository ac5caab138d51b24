/** The tool's version, reported in plans and the User-Agent. A test keeps it equal to package.json's. */
export const VERSION = '0.1.0'
