import type { enImport } from './en-import'

/** Words for importing from other assistants in Settings → Data. */
export const zhCNImport: Record<keyof typeof enImport, string> = {}
