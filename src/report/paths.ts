// Paths for CI formats: GitLab's Code Quality widget, SARIF viewers and GitHub's
// annotations link a violation to a file of the repository only by a path relative to it.
// The repository is CI_PROJECT_DIR (GitLab), GITHUB_WORKSPACE (GitHub), else the working
// directory; a file outside it keeps its absolute path. JSON and text keep the path as
// given (SPEC §5).

import { isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface RepoPaths {
  /** The repository's directory, absolute. */
  root: string;
  /** The directory relative input names were given in. */
  cwd: string;
}

export function repoPaths(env: NodeJS.ProcessEnv, cwd: string): RepoPaths {
  const root = env.CI_PROJECT_DIR || env.GITHUB_WORKSPACE || cwd;
  return { root: resolve(cwd, root), cwd };
}

/** Where an input is for a CI system: relative to the repository, or absolute outside it. */
export interface RepoPath {
  path: string;
  inRepo: boolean;
}

export function repoPath(file: string, p: RepoPaths): RepoPath {
  if (file === '-') return { path: '-', inRepo: true };
  const absolute = resolve(p.cwd, file);
  const rel = relative(p.root, absolute);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return { path: absolute, inRepo: false };
  return { path: rel.split(sep).join('/'), inRepo: true };
}

/** The repository as a file URI with its closing slash, for SARIF's originalUriBaseIds. */
export function rootUri(p: RepoPaths): string {
  const href = pathToFileURL(p.root).href;
  return href.endsWith('/') ? href : `${href}/`;
}

/** A path outside the repository as a file URI. */
export function fileUri(path: string): string {
  return pathToFileURL(path).href;
}
