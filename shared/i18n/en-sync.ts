/** Words for sync across devices over git (Settings → Data, the timeline's `sync` rows). Part of `en.ts`. */
export const enSync = {
  'source.sync': 'Sync',
  'memory.info.sync': 'Synced from another device {when}'
}
