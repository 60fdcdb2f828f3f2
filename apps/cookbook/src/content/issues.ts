/** Content problems, each naming the file and the field, gathered so one build reports them all. */

export interface ContentIssue {
  /** Path relative to the project root, e.g. `content/recipes/git-undo-commit.md`. */
  file: string;
  /** The front-matter field (or `body (line N)`, or `id` for the file name). */
  field: string;
  message: string;
}

export class ContentValidationError extends Error {
  readonly issues: ContentIssue[];

  constructor(issues: ContentIssue[]) {
    const lines = issues.map((i) => `  ${i.file}: ${i.field}: ${i.message}`);
    super(`content is invalid (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n${lines.join('\n')}`);
    this.name = 'ContentValidationError';
    this.issues = issues;
  }
}

/** Collects issues; `throwIfAny` ends the build when there is at least one. */
export class IssueList {
  readonly items: ContentIssue[] = [];

  add(file: string, field: string, message: string): void {
    this.items.push({ file, field, message });
  }

  throwIfAny(): void {
    if (this.items.length > 0) throw new ContentValidationError(this.items);
  }
}
