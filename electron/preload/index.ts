import { contextBridge } from 'electron'

contextBridge.exposeInMainWorld('cairn', { version: 1 })
