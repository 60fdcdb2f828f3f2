/** The UI shell's components, for pages and layouts. */
export { AppShell, type AppShellProps } from './app-shell.js';
export { ColorModeSwitch } from './color-mode-switch.js';
export { CopyButton } from './copy-button.js';
export { CodeBlockCopyButtons } from './code-block-copy-buttons.js';
export { Dialog } from './dialog.js';
export { DropdownMenu, type DropdownMenuItem } from './dropdown-menu.js';
export { Icon } from './icon.js';
export { Img } from './img.js';
export { Popover } from './popover.js';
export { toast, useToast, useToasts, type ToastInput } from './toast.js';
export { Tooltip } from './tooltip.js';
