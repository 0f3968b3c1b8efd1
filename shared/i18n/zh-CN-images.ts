import type { enImages } from './en-images'

/** 已发送图片的中文文案（issue 29，part E）：对话与输入框中的缩略图，以及图片查看器。 */
export const zhCNImages: Record<keyof typeof enImages, string> = {
  'images.open': '打开 {name}',
  'images.viewer': '图片查看器',
  'images.position': '第 {index} 张，共 {count} 张',
  'images.previous': '上一张图片',
  'images.next': '下一张图片',
  'images.close': '关闭图片查看器',
  'images.loading': '正在加载图片…',
  'images.unavailable': '无法再显示这张图片：它保存的副本已不存在。',
  'images.keys': '← → 切换图片 · Esc 关闭',
  'images.escCloses': 'Esc 关闭'
}
