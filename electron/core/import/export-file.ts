import { createReadStream, existsSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { pipeline, Transform, type Readable } from 'node:stream'
import type { Entry, ZipFile } from 'yauzl'
import { ImportSourceError } from './hermes-import'

const CONVERSATIONS = 'conversations.json'

/** Where an export's `conversations.json` is: a file of its own, or an entry in the export's zip. */
export interface ExportLocation {
  /** How problems name it: `conversations.json`, or `export.zip:conversations.json`. */
  label: string
  open(): Promise<OpenedExport>
}

export interface OpenedExport {
  stream: Readable
  close(): void
}

/** One element of the top-level array, by its 0-based position. */
export interface ArrayElement {
  index: number
  value: unknown
}

/** The file is not JSON (or not an array of conversations); `offset` is about where reading stopped. */
export class ExportJsonError extends Error {
  constructor(
    message: string,
    readonly offset: number
  ) {
    super(message)
    this.name = 'ExportJsonError'
  }
}

/**
 * Finds `conversations.json` given what the user pointed at: the file, the unpacked export's folder,
 * or the `.zip` the app sent (read in place: nothing is extracted to disk).
 */
export function locateExport(path: string, app: string): ExportLocation {
  if (!existsSync(path)) throw new ImportSourceError('import.no_export', { app, path })
  if (statSync(path).isDirectory()) {
    const file = join(path, CONVERSATIONS)
    if (!existsSync(file)) throw new ImportSourceError('import.export_folder_empty', { path, file: CONVERSATIONS, app })
    return fileLocation(file)
  }
  if (path.toLowerCase().endsWith('.zip')) return zipLocation(path, app)
  return fileLocation(path)
}

function fileLocation(file: string): ExportLocation {
  return {
    label: basename(file),
    open: async () => {
      const stream = createReadStream(file)
      return { stream, close: () => stream.destroy() }
    }
  }
}

function zipLocation(zipPath: string, app: string): ExportLocation {
  return {
    label: `${basename(zipPath)}:${CONVERSATIONS}`,
    open: async () => {
      const { open } = await import('yauzl')
      const zip = await new Promise<ZipFile>((resolve, reject) =>
        open(zipPath, { lazyEntries: true, autoClose: false }, (error, file) => (error ? reject(zipProblem(zipPath, error)) : resolve(file)))
      )
      try {
        const entry = await findEntry(zip).catch((error: Error) => Promise.reject(zipProblem(zipPath, error)))
        if (!entry) throw new ImportSourceError('import.export_zip_empty', { path: zipPath, file: CONVERSATIONS, app })
        const stream = await new Promise<Readable>((resolve, reject) => zip.openReadStream(entry, (error, read) => (error ? reject(zipProblem(zipPath, error)) : resolve(read))))
        const close = (): void => {
          stream.destroy()
          zip.close()
        }
        return { stream, close }
      } catch (error) {
        zip.close()
        throw error
      }
    }
  }
}

/**
 * What is wrong with a zip, as the user is told it: an entry whose path would leave the archive (yauzl
 * refuses those before anything is read), or a damaged archive. Nothing was imported either way.
 */
function zipProblem(zipPath: string, error: Error): ImportSourceError {
  const unsafe = /^(?:invalid relative path|absolute path|invalid characters in fileName): (.*)$/.exec(error.message)
  if (unsafe) {
    return new ImportSourceError('import.export_zip_unsafe', { name: basename(zipPath), entry: JSON.stringify(unsafe[1].slice(0, 200)) })
  }
  return new ImportSourceError('import.export_zip_unreadable', { name: basename(zipPath), problem: error.message.slice(0, 200) })
}

/** The shallowest entry named `conversations.json` (exports put it at the top, sometimes in one folder). */
function findEntry(zip: ZipFile): Promise<Entry | null> {
  return new Promise((resolve, reject) => {
    let best: Entry | null = null
    const depth = (entry: Entry) => entry.fileName.split('/').length
    zip.on('entry', (entry: Entry) => {
      if (basename(entry.fileName) === CONVERSATIONS && (!best || depth(entry) < depth(best))) best = entry
      zip.readEntry()
    })
    zip.on('end', () => resolve(best))
    zip.on('error', reject)
    zip.readEntry()
  })
}

/**
 * The elements of the file's top-level array one at a time (stream-json), so a 10,000-conversation
 * export never sits in memory whole. Bad JSON ends the stream with an ExportJsonError naming about
 * which byte the parser had read when it gave up.
 */
export async function* streamArrayElements(opened: OpenedExport): AsyncGenerator<ArrayElement> {
  const [{ default: parser }, { default: streamArray }] = await Promise.all([import('stream-json/parser.js'), import('stream-json/streamers/stream-array.js')])
  const { stream, close } = opened
  let offset = 0
  let failure: Error | null = null
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      offset += chunk.length
      done(null, chunk)
    }
  })
  const elements = pipeline(stream, counter, parser.asStream(), streamArray.asStream(), (error) => {
    if (error) failure = error
  }) as unknown as AsyncIterable<{ key: number; value: unknown }>
  try {
    for await (const { key, value } of elements) yield { index: key, value }
  } catch (error) {
    failure ??= error as Error
  } finally {
    close()
  }
  if (failure) throw new ExportJsonError(jsonMessage(failure as Error), offset)
}

function jsonMessage(error: Error): string {
  if (/top-level object should be an array/i.test(error.message)) return 'is not a list of conversations (its top level is not a JSON array)'
  return `is not valid JSON (${error.message.replace(/^Parser cannot parse input: /, '')})`
}
