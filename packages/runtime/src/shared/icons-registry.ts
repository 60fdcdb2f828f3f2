/**
 * Icon names the UI uses in code that the bundle scan could miss (names built at runtime).
 * The icon bundle plugin always includes these, plus every literal `collection:name` found in
 * the app's source files and the icon names of dist/content/content.json.
 */
/**
 * UI icons only ever drawn after hydration, by parts that load on use (toasts, the copy button, the
 * colour-mode menu): in the browser they travel in a bundle of their own (`virtual:icon-bundle/late`),
 * which those parts import, not in every page's first load.
 */
const LATE_NAMES = [
  'lucide:copy',
  'lucide:check',
  'lucide:circle-check',
  'lucide:circle-alert',
  'lucide:circle-x',
  'lucide:info',
  'lucide:triangle-alert',
] as const;

export const LATE_UI_ICON_NAMES: ReadonlySet<string> = new Set(LATE_NAMES);

export const UI_ICON_NAMES = [
  'lucide:x',
  'lucide:sun',
  'lucide:moon',
  'lucide:monitor',
  'lucide:sun-moon',
  ...LATE_NAMES,
  'lucide:chevron-down',
] as const;
