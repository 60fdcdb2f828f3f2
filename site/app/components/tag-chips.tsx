/** A recipe's tags as chips, each a link to the tag's page (`/tags/{tag}`). */
import { Link } from 'react-router';

export function TagChips({ tags }: { tags: readonly string[] }) {
  if (tags.length === 0) return null;
  return (
    <ul aria-label="Tags" className="mt-2 flex flex-wrap gap-2 text-xs">
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
