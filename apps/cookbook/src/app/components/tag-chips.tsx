/** A recipe's tags as chips, each a link to the tag's page (`/tags/{tag}`). */
import { Link } from '@tern/ui/link';

export interface TagChipsProps {
  tags: readonly string[];
  label?: string;
  /** The list's spacing and type size: a recipe's chips are small, the search page's invitation larger. */
  className?: string;
}

export function TagChips({ tags, label = 'Tags', className = 'mt-2 text-xs' }: TagChipsProps) {
  if (tags.length === 0) return null;
  return (
    <ul aria-label={label} className={`flex flex-wrap gap-2 ${className}`}>
      {tags.map((tag) => (
        <li key={tag}>
          <Link to={`/tags/${tag}`} className="tag-chip">
            {tag}
          </Link>
        </li>
      ))}
    </ul>
  );
}
