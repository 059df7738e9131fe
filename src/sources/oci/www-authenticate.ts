// Parsing `WWW-Authenticate` challenges (RFC 7235) as registries send them:
//   Bearer realm="https://auth.example/token",service="registry.example",scope="repository:app:pull"
//   Basic realm="Registry Realm"
// Several challenges may share one header; quoted values may hold commas and escaped quotes.

export interface AuthChallenge {
  /** Lowercased: "basic", "bearer", ... */
  scheme: string;
  params: Record<string, string>;
}

const TOKEN = /[!#$%&'*+\-.^_`|~0-9A-Za-z]+/y;
// Unquoted values are tokens in the RFC; registries also send URLs unquoted: anything to a comma or space.
const BARE_VALUE = /[^\s,]+/y;

export function parseWwwAuthenticate(header: string): AuthChallenge[] {
  const out: AuthChallenge[] = [];
  let i = 0;
  const skip = (chars: RegExp) => {
    while (i < header.length && chars.test(header[i]!)) i++;
  };
  const token = (): string | undefined => {
    TOKEN.lastIndex = i;
    const m = TOKEN.exec(header);
    if (!m) return undefined;
    i += m[0].length;
    return m[0];
  };
  const bare = (): string => {
    BARE_VALUE.lastIndex = i;
    const m = BARE_VALUE.exec(header);
    i += m ? m[0].length : 0;
    return m?.[0] ?? "";
  };
  const quoted = (): string => {
    let value = "";
    i++; // opening quote
    while (i < header.length && header[i] !== '"') {
      if (header[i] === "\\" && i + 1 < header.length) i++;
      value += header[i++];
    }
    i++; // closing quote
    return value;
  };
  while (i < header.length) {
    skip(/[\s,]/);
    const scheme = token();
    if (!scheme) break;
    const challenge: AuthChallenge = { scheme: scheme.toLowerCase(), params: {} };
    out.push(challenge);
    for (;;) {
      skip(/[\s,]/);
      const start = i;
      const key = token();
      if (!key) break;
      skip(/\s/);
      if (header[i] !== "=") {
        i = start; // the next challenge's scheme
        break;
      }
      i++;
      skip(/\s/);
      const value = header[i] === '"' ? quoted() : bare();
      challenge.params[key.toLowerCase()] = value;
    }
  }
  return out;
}
