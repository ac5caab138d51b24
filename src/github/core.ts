/**
 * The part of @actions/core the action uses, without its OIDC client. The package's entry imports
 * @actions/http-client for `getIDToken`, and with it undici: half of the action bundle, evaluated at every
 * start-up (a validate run spent more time there than in validating), for a token this action never asks
 * for. The modules that hold the workflow commands, the output file and the job summary import none of
 * it, so they are imported here by path (the package's exports map names only its entry), and the few
 * one-line functions of the entry that wrap them are written here as the entry writes them
 * (test/unit/github-core.test.ts checks that both print and write the same).
 */
import { EOL } from 'node:os'
import type { AnnotationProperties } from '@actions/core'
import { issueCommand } from '../../node_modules/@actions/core/lib/command.js'
import {
  issueFileCommand,
  prepareKeyValueMessage
} from '../../node_modules/@actions/core/lib/file-command.js'
import { toCommandProperties, toCommandValue } from '../../node_modules/@actions/core/lib/utils.js'

export { summary } from '../../node_modules/@actions/core/lib/summary.js'
export type { AnnotationProperties }

/** An input of the step (`INPUT_<NAME>`), trimmed; '' when unset. */
export function getInput(name: string): string {
  return (process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim()
}

export function setOutput(name: string, value: unknown): void {
  if (process.env.GITHUB_OUTPUT) {
    issueFileCommand('OUTPUT', prepareKeyValueMessage(name, value))
    return
  }
  process.stdout.write(EOL)
  issueCommand('set-output', { name }, toCommandValue(value))
}

/** Masks the value in the job's log from now on. */
export function setSecret(secret: string): void {
  issueCommand('add-mask', {}, secret)
}

/**
 * The runner obeys a line of the log that starts, after white space, with `::` or the older `##[`. A
 * plain line that would be read so gets a backslash in front: the one difference from @actions/core.
 */
const COMMAND_LINE = /^(?=(?:[^\S\r\n]|\u0085)*(?:::|##\[))/gm

export function info(message: string): void {
  process.stdout.write(message.replace(COMMAND_LINE, '\\') + EOL)
}

export function debug(message: string): void {
  issueCommand('debug', {}, message)
}

export function error(message: string, properties: AnnotationProperties = {}): void {
  issueCommand('error', toCommandProperties(properties), message)
}

export function warning(message: string, properties: AnnotationProperties = {}): void {
  issueCommand('warning', toCommandProperties(properties), message)
}

export function notice(message: string, properties: AnnotationProperties = {}): void {
  issueCommand('notice', toCommandProperties(properties), message)
}

/** Logs the error and makes the step fail when the process exits. */
export function setFailed(message: string): void {
  process.exitCode = 1
  error(message)
}
