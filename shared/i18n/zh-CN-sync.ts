import type { enSync } from './en-sync'

/** Words for sync across devices over git. */
export const zhCNSync: Record<keyof typeof enSync, string> = {
  'source.sync': '同步',
  'memory.info.sync': '{when}从其他设备同步'
}
