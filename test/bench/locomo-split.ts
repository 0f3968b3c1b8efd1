/**
 * The LoCoMo conversations ranking changes were tuned on, and the ones held out (never looked at
 * while tuning; their figure is the honest one). Chosen before any tuning, by sample id order.
 */
export const TUNING_CONVERSATIONS = ['conv-26', 'conv-30', 'conv-41', 'conv-42', 'conv-43']
export const HELD_OUT_CONVERSATIONS = ['conv-44', 'conv-47', 'conv-48', 'conv-49', 'conv-50']
