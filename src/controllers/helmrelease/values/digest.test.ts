// Expected digests were computed by Go itself: fluxcd/pkg chartutil.DigestValues' code (sigs.k8s.io/yaml
// v1.6.0 JSONObjectToYAMLObject, SortMapSlice, go.yaml.in/yaml/v2 v2.4.4 Encoder) on the same JSON,
// unmarshalled with encoding/json as helm-controller reads spec.values. The first two are fluxcd/pkg's own.
import { describe, expect, it } from "vitest";
import { digestYaml, valuesDigest } from "./digest.js";

const EMPTY = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

describe("valuesDigest (chartutil.DigestValues)", () => {
  it("is the digest of nothing for empty values", () => {
    expect(valuesDigest({})).toBe(EMPTY);
  });

  it("matches fluxcd/pkg's own test vectors, whatever the key order", () => {
    const a = {
      replicas: 3,
      image: { tag: "latest", repository: "nginx" },
      ports: [
        { protocol: "TCP", port: 8080 },
        { port: 9090, protocol: "UDP" },
      ],
    };
    expect(valuesDigest(a)).toBe("sha256:fcdc2b0de1581a3633ada4afee3f918f6eaa5b5ab38c3fef03d5b48d3f85d9f6");
    const b = {
      test: {
        "632bd82398e71231a98004b6": "value4",
        "632bd80235a05f4192aefade": "value1",
        "632bd817c559818a52307da2": "value3",
        "632bd80ddf416cf32fd50679": "value2",
      },
      replicas: 3,
    };
    expect(valuesDigest(b)).toBe("sha256:8a980fcbeadd6f05818f07e8aec14070c22250ca3d96af1fcd5f93b3e85b4d70");
  });

  it("sorts keys by Go's byte order, not go-yaml's natural order (a10 before a2, é last)", () => {
    const v = { a10: 1, a2: 2, B: 3, b: 4, _x: 5, é: 6, z: 7, "10": 8, "9": 9 };
    expect(digestYaml(v)).toBe('"10": 8\n"9": 9\nB: 3\n_x: 5\na10: 1\na2: 2\nb: 4\nz: 7\né: 6\n');
    expect(valuesDigest(v)).toBe("sha256:7556c16d08170a4a52badbaa14c28f98369b6515e348c78e401ee33da1e446f0");
  });

  it("quotes strings as go-yaml v2 does (YAML 1.1 booleans, numbers, timestamps, indicators, blocks)", () => {
    const v = {
      s: {
        yes: "yes",
        on: "on",
        num: "0123",
        float: "1.0",
        empty: "",
        date: "2026-01-01",
        colon: "a: b",
        hash: "a #b",
        lead: " x",
        multi: "line1\nline2\n",
        dash: "- x",
        tilde: "~",
        nul: null,
        t: true,
        f: false,
      },
    };
    expect(digestYaml(v)).toBe(
      's:\n  colon: \'a: b\'\n  dash: \'- x\'\n  date: "2026-01-01"\n  empty: ""\n  f: false\n  float: "1.0"\n' +
        "  hash: 'a #b'\n  lead: ' x'\n  multi: |\n    line1\n    line2\n  nul: null\n  num: \"0123\"\n" +
        '  "on": "on"\n  t: true\n  tilde: "~"\n  "yes": "yes"\n',
    );
    expect(valuesDigest(v)).toBe("sha256:41811e2f5d30d3a9becef9984ecc95039a5983d1233715b5646f374ac416c238");
  });

  it("prints numbers as float64 through go-yaml: whole ones exactly, others with Go's shortest 'g' format", () => {
    const v = {
      n: {
        half: 0.5,
        whole: 3.0,
        big: 1152921504606846976,
        huge: 1e21,
        small: 0.00001,
        neg: -2,
        e20: 1e20,
        u: 12345678901234567168, // the float64 JSON makes of 12345678901234567890
        tiny: 1.5e-7,
      },
    };
    expect(digestYaml(v)).toBe(
      '"n":\n  big: 1152921504606846976\n  e20: 1e+20\n  half: 0.5\n  huge: 1e+21\n  neg: -2\n  small: 1e-05\n' +
        "  tiny: 1.5e-07\n  u: 12345678901234567168\n  whole: 3\n",
    );
    expect(valuesDigest(v)).toBe("sha256:98d684bf2fb034cf3741cb5e3450fe2c5bec3dd1d6f522030f1436691f888a6e");
  });

  it("writes nested lists, empty maps and empty lists as go-yaml v2 does, sorting maps inside lists", () => {
    const v = { l: [[1, 2], [], {}, [{ b: 1, a: [{ d: 1, c: 2 }] }]], e: {}, el: [] };
    expect(digestYaml(v)).toBe(
      "e: {}\nel: []\nl:\n- - 1\n  - 2\n- []\n- {}\n- - a:\n    - c: 2\n      d: 1\n    b: 1\n",
    );
    expect(valuesDigest(v)).toBe("sha256:4db533153d8db8fe43dbf184aad939d662ee36de610ad6160e973f09d276faca");
  });

  it("folds long plain strings at 80 columns and escapes what double quotes must escape", () => {
    const v = {
      long: "aaaaaaaaaa bbbbbbbbbb cccccccccc dddddddddd eeeeeeeeee ffffffffff gggggggggg hhhhhhhhhh iiiiiiiiii jjjjjjjjjj",
      uni: "héllo \u2028 wörld",
      tab: "a\tb",
      q: `it's "q"`,
    };
    expect(valuesDigest(v)).toBe("sha256:4cf9556a4384c83118947a1d30a5263f3f30db8f2dd05e128f9914311a7f6992");
  });
});
