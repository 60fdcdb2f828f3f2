/**
 * Copies text to the clipboard and confirms with a toast; the icon turns into a check for a
 * moment. `CodeBlockCopyButtons` (code-block-copy-buttons.tsx) puts one in every code block of
 * server-rendered rich text, loading this module after hydration.
 */
import { useEffect, useState } from 'react';
import lateIcons from 'virtual:icon-bundle/late';
import { addIcons, Icon } from './icon.js';
import { toast } from './toast.js';
import { Tooltip } from './tooltip.js';

// This part draws icons only after hydration: they came with it (icons-registry.ts).
addIcons(lateIcons);

const CONFIRM_MS = 2000;

async function writeClipboard(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  // Old browsers and insecure origins have no async clipboard: fall back to a selection.
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy command refused');
}

export interface CopyButtonProps {
  /** The text, or a function that reads it when clicked. */
  text: string | (() => string);
  label?: string;
  className?: string;
}

export function CopyButton({ text, label = 'Copy code', className }: CopyButtonProps) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), CONFIRM_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy(): Promise<void> {
    try {
      await writeClipboard(typeof text === 'function' ? text() : text);
      setCopied(true);
      toast.add({ title: 'Copied to clipboard', color: 'success', icon: 'lucide:circle-check' });
    } catch {
      toast.add({ title: 'Could not copy', description: 'Select the code and copy it by hand.', color: 'error', icon: 'lucide:circle-x' });
    }
  }

  return (
    <Tooltip text={copied ? 'Copied' : label}>
      <button
        type="button"
        aria-label={label}
        data-copy-button=""
        data-copied={copied || undefined}
        onClick={() => void copy()}
        className={`ui-icon-button ${className ?? ''}`}
      >
        <Icon name={copied ? 'lucide:check' : 'lucide:copy'} className="size-4" />
      </button>
    </Tooltip>
  );
}

/** The code of a block: the <code> inside <pre>, without the button's own text. */
export function codeBlockText(figure: Element): string {
  const code = figure.querySelector('pre code') ?? figure.querySelector('pre');
  return code?.textContent ?? '';
}
