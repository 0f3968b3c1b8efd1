/** Words for importing from other assistants in Settings → Data. Part of `en.ts`. */
export const enImport = {}
