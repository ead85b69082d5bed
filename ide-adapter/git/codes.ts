/** Error codes of git calls (and of `gitDiff`): the one owner, shared by `run.ts` and `repository.ts`. */
export const GitCode = {
  NotARepository: 'not-a-repository',
  /** git's repository folder (after `gitdir:`, a `.git` link, `commondir`, alternates) is outside the workspace. */
  RepositoryOutside: 'git-repository-outside',
  BadRevision: 'bad-revision',
  GitFailed: 'git-failed',
  GitMissing: 'git-not-found',
} as const;
