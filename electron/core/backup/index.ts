export { createBackup, type BackupProgress, type BackupResult, type CreateBackupOptions } from './create-backup'
export { listBackups, pruneBackups, resolveBackupFolder, type BackupFile } from './backup-folder'
export { restoreBackup, type ReplacePlan, type RestoreOptions, type RestoreResult } from './restore-backup'
export { BackupError, latestSchemaVersion, type BackupManifest } from './manifest'
