/**
 * The toast list on Radix Toast, loaded by ./toaster.tsx when the first toast is added (or the
 * visitor first presses something). The provider carries docs/spec.md §9's defaults: 5000 ms,
 * swipe threshold 50 px in the direction of the corner, F8 to focus the viewport, bottom-right.
 */
import { Toast } from 'radix-ui';
import { CLOSE_ACTION_LABEL, TOAST_SWIPE_THRESHOLD_PX, TOAST_VIEWPORT_HOTKEY } from './toast-store.js';
import lateIcons from 'virtual:icon-bundle/late';
import { addIcons, Icon } from './icon.js';
import { toast, useToasts, type ToastColor, type ToastItem } from './toast.js';
import { swipeDirectionFor, type ToasterPosition } from './toaster-position.js';

// This part draws icons only after hydration: they came with it (icons-registry.ts).
addIcons(lateIcons);

const POSITION_CLASS: Record<ToasterPosition, string> = {
  'top-left': 'top-0 left-0',
  'top-center': 'top-0 left-1/2 -translate-x-1/2',
  'top-right': 'top-0 right-0',
  'bottom-left': 'bottom-0 left-0',
  'bottom-center': 'bottom-0 left-1/2 -translate-x-1/2',
  'bottom-right': 'bottom-0 right-0',
};

const COLOR_CLASS: Record<ToastColor, string> = {
  primary: 'text-primary',
  secondary: 'text-secondary',
  success: 'text-success',
  info: 'text-info',
  warning: 'text-warning',
  error: 'text-error',
  neutral: 'text-muted',
};

export function RadixToaster({ position, duration }: { position: ToasterPosition; duration: number }) {
  const toasts = useToasts();
  return (
    <Toast.Provider duration={duration} swipeDirection={swipeDirectionFor(position)} swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}>
      {toasts.map((item) => (
        <ToastCard key={item.id} item={item} />
      ))}
      <Toast.Viewport
        hotkey={[TOAST_VIEWPORT_HOTKEY]}
        data-position={position}
        className={`fixed z-[100] flex w-96 max-w-[100vw] flex-col gap-2 p-4 outline-none ${POSITION_CLASS[position]}`}
      />
    </Toast.Provider>
  );
}

function ToastCard({ item }: { item: ToastItem }) {
  const color = item.color ?? 'primary';
  return (
    <Toast.Root
      open={item.open}
      onOpenChange={(open) => (open ? undefined : toast.remove(item.id))}
      {...(item.duration === undefined ? {} : { duration: item.duration })}
      data-color={color}
      className="ui-toast flex items-start gap-3 rounded-lg border border-default bg-elevated p-4 text-default shadow-lg"
    >
      {item.icon ? <Icon name={item.icon} className={`size-5 shrink-0 ${COLOR_CLASS[color]}`} /> : null}
      <div className="min-w-0 flex-1">
        {item.title ? <Toast.Title className="text-sm font-semibold">{item.title}</Toast.Title> : null}
        {item.description ? <Toast.Description className="mt-1 text-sm text-muted">{item.description}</Toast.Description> : null}
        {item.actions?.length ? (
          <div className="mt-2 flex gap-2">
            {item.actions.map((action) => (
              <Toast.Action key={action.label} altText={action.altText ?? action.label} asChild>
                <button type="button" onClick={action.onClick} className="ui-button-soft text-xs">
                  {action.label}
                </button>
              </Toast.Action>
            ))}
          </div>
        ) : null}
      </div>
      {item.close === false ? null : (
        <Toast.Close aria-label={CLOSE_ACTION_LABEL} className="ui-icon-button -m-1">
          <Icon name="lucide:x" className="size-4" />
        </Toast.Close>
      )}
    </Toast.Root>
  );
}
