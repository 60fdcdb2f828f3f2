/** The front matter a category file and a recipe file must carry. Unknown fields are refused (typos). */
import { z } from 'zod';
import { isSlug } from './slug.js';

const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
const iconName = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*:[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be an Iconify name such as lucide:git-branch');
const imagePath = z.string().regex(/^\/images\/[\w./-]+\.(?:jpe?g|png|webp|avif)$/, 'must be a path under /images/ ending in .jpg, .png, .webp or .avif');
const order = z.number().int('must be a whole number').min(0, 'must be 0 or more').default(100);

export const categorySchema = z
  .object({
    title: text(60),
    description: text(300),
    icon: iconName,
    cover: imagePath,
    coverAlt: z.string().max(200).default(''),
    order,
  })
  .strict();

export const recipeSchema = z
  .object({
    title: text(100),
    summary: text(300),
    category: z.string().refine(isSlug, 'must be a category id (a lowercase slug)'),
    tags: z.array(z.string().refine(isSlug, 'each tag must be a lowercase slug')).min(1, 'needs at least one tag').max(8, 'at most 8 tags'),
    icon: iconName,
    cover: imagePath.optional(),
    coverAlt: z.string().max(200).default(''),
    order,
    featured: z.boolean().default(false),
  })
  .strict();

export type CategoryFrontMatter = z.infer<typeof categorySchema>;
export type RecipeFrontMatter = z.infer<typeof recipeSchema>;

export interface FieldProblem {
  field: string;
  message: string;
}

/** Parses front matter; problems name the field ("tags.2", "title") in plain words. */
export function parseFrontMatter<T extends z.ZodType>(schema: T, data: unknown): { value?: z.infer<T>; problems: FieldProblem[] } {
  const result = schema.safeParse(data);
  if (result.success) return { value: result.data, problems: [] };
  const problems = result.error.issues.flatMap((issue): FieldProblem[] => {
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ field: key, message: 'is not a known field' }));
    const field = issue.path.map(String).join('.') || '(front matter)';
    const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
    return [{ field, message: missing ? 'is required' : issue.message }];
  });
  return { problems };
}
