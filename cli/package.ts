/** The package's bundled fixtures, found from the package root (`ide-adapter/package-files.ts`). */
import { packageFile } from '../ide-adapter/package-files.js';

/** A bundled fixture workspace (`fixtures/NAME`), relative to the package, never to the cwd. */
export function bundledFixture(name: string): string {
  return packageFile('fixtures', name);
}
