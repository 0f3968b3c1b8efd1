import type { enIncognito } from './en-incognito'

/** 简体中文: incognito chats (the keys of `en-incognito.ts`). */
export const zhCNIncognito: Record<keyof typeof enIncognito, string> = {
  'incognito.notice': '无痕模式：此对话不会保存，Cairn 也不会从中学习。',
  'incognito.label': '无痕',
  'incognito.turnOn': '以无痕模式开始此对话（不保存，不学习）',
  'incognito.turnOff': '为此对话关闭无痕模式',
  'incognito.close': '关闭无痕对话',
  'incognito.confirmClose': '关闭这个无痕对话？它从未保存，其中的消息将全部消失。',
  'incognito.placeholder': '以无痕模式提问…',
  'shortcuts.newIncognitoChat': '新建无痕对话',
  'menu.newIncognitoChat': '新建无痕对话'
}
