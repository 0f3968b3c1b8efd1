export { defaultHermesHome, importHermes, ImportSourceError, type HermesImportOptions } from './hermes-import'
export { ImportBatches, type ImportBatch } from './import-batches'
export { undoImport, type UndoConflict, type UndoResult } from './undo-import'
export * from './types'
