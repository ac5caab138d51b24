/**
 * Manifests of the kinds without tags, for scenarios that apply them against the emulator: a connection whose
 * password and a webhook whose URL are secrets (`SECRETS` gives both), and a log source on a connection.
 */
export const SECRETS = 'DB_PASSWORD: "db-password-1"\nHOOK_URL: "https://hooks.example.com/a"'

export const connection = (name: string) => `---
kind: Connection
name: ${name}
host: https://${name.toLowerCase()}.example.com:8443
username: reader
password: \${secret.DB_PASSWORD}
`
export const logSource = (name: string, conn: string) => `---
kind: Source
name: ${name}
sourceKind: log
connection: ${conn}
from: { databaseName: app, tableName: logs }
timestampValueExpression: Timestamp
defaultTableSelectExpression: Timestamp, Body
`
export const webhook = (name: string) => `---
kind: Webhook
name: ${name}
service: generic
url: \${secret.HOOK_URL}
`
