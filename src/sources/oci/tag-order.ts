// "Newest first" for a list of tags, which a registry gives without dates: semver tags by version,
// highest first (a prerelease below its release), then every other tag in reverse order of the
// registry's (lexical) listing. Used where a message lists the tags that exist.

const SEMVER = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

function compareSemver(a: RegExpExecArray, b: RegExpExecArray): number {
  for (let i = 1; i <= 3; i++) if (Number(a[i]) !== Number(b[i])) return Number(a[i]) - Number(b[i]);
  if (!a[4] || !b[4]) return a[4] ? -1 : b[4] ? 1 : 0;
  return a[4] < b[4] ? -1 : a[4] > b[4] ? 1 : 0;
}

export function newestFirst(tags: string[]): string[] {
  const semver = tags.map((t) => [t, SEMVER.exec(t)] as const).filter((p): p is [string, RegExpExecArray] => !!p[1]);
  const others = tags.filter((t) => !SEMVER.test(t));
  semver.sort((x, y) => compareSemver(y[1], x[1]));
  return [...semver.map(([t]) => t), ...[...others].sort().reverse()];
}
