import { parseArgs, type ParseArgsConfig } from 'node:util'
import { UsageError } from './io'

type Options = NonNullable<ParseArgsConfig['options']>

type Parsed<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>>

/** node:util parseArgs with strict checking, turning its errors into usage errors (exit 2). */
export function parseCommandArgs<O extends Options>(args: string[], options: O): Parsed<O> {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

export function parseLimit(value: string | undefined, fallback: number, max = 10_000): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`--limit must be a whole number from 1 to ${max}.`)
  return n
}
