// Parity cases for the slim-sprig functions added after the first corpus: numbers (maxf, minf, round,
// seq, toDecimal), base32, splitn, the os* paths and the must* list twins — results and, where a
// function fails, Go's very message.
import type { TemplateCase } from "./resourceset-template-corpus.js";

const errorCase = (name: string, template: string): TemplateCase => ({
  name: `error: ${name}`,
  template,
  inputs: [null],
  sameError: true,
});

export const SPRIG_CORPUS: TemplateCase[] = [
  {
    name: "maxf, minf, round",
    template: `<< maxf 1 2.5 "3.25" >> << minf 1 -2.5 "x" >> << maxf inputs.f >> << minf 0 -0.0 >> << maxf "a" >>
<< round 3.14159 2 >> << round 2.5 0 >> << round 2.4 0 >> << round 2.45 1 0.3 >> << round -2.5 0 >> << round "7.777" 1 >> << round 1234.5 -2 >>`,
    inputs: [{ f: 7.5 }],
  },
  {
    name: "seq",
    template: `[<< seq >>] [<< seq 5 >>] [<< seq -3 >>] [<< seq 0 >>] [<< seq 2 5 >>] [<< seq 5 2 >>] [<< seq 0 2 10 >>] [<< seq 10 -3 1 >>] [<< seq 10 3 1 >>] [<< seq 1 0 3 >>] [<< seq 1 2 3 4 >>]`,
    inputs: [null],
  },
  {
    name: "toDecimal",
    template: `<< toDecimal "0777" >> << toDecimal 644 >> << toDecimal "-17" >> << toDecimal "8" >> << toDecimal "" >> << toDecimal 1.5 >> << toDecimal true >>`,
    inputs: [null],
  },
  {
    name: "b32enc and b32dec",
    template: `<< b32enc "" >>|<< b32enc "f" >>|<< b32enc "fo" >>|<< b32enc "foo" >>|<< b32enc "foob" >>|<< b32enc "fooba" >>|<< b32enc "foobar" >>|<< b32enc "héllo" >>
<< b32dec "MZXW6YTBOI======" >>|<< b32dec (b32enc "héllo") >>|<< b32dec "MZXW6===" >>|<< b32dec "MZXW6YQ=" >>
<< b32dec "MZXW6" >>|<< b32dec "MZ!W6===" >>|<< b32dec "M=======" >>|<< b32dec "MZX=====" >>|<< b32dec "MZXW6=A=" >>|<< b32dec "MZXW6YTBOI===" >>|<< b32dec "mzxw6===" >>`,
    inputs: [null],
  },
  {
    name: "splitn",
    template: `<< splitn "," 2 "a,b,c" >> << (splitn "," 2 "a,b,c")._1 >> << splitn "," 0 "a,b" >> << splitn "," -1 "a,b,c" >> << splitn "," 5 "a,b" >> << splitn "" 2 "abc" >> << splitn "x" 3 "" >>`,
    inputs: [null],
  },
  {
    name: "os paths",
    template: `<< osBase "/a/b.txt" >> << osBase "" >> << osBase "/" >> << osBase "a/b/" >> << osClean "a//b/../c/" >> << osClean "" >> << osDir "/a/b" >> << osDir "b" >> << osExt "x.tar.gz" >> << osExt "a.b/c" >> << osIsAbs "/x" >> << osIsAbs "x" >>`,
    inputs: [null],
  },
  {
    name: "must* list twins",
    template: `<< mustPush (list 1) 2 >> << mustAppend (list 1) 2 >> << mustPrepend (list 1) 0 >> << mustFirst (list 1 2) >> << mustLast (list 1 2) >> << mustRest (list 1 2) >> << mustInitial (list 1 2) >>
<< mustReverse (list 1 2) >> << mustUniq (list 1 1) >> << mustWithout (list 1 2) 1 >> << mustHas 1 (list 1) >> << mustHas 1 nil >> << mustSlice (list 1 2 3) 1 >> << mustCompact (list "" 1) >> << mustChunk 2 (list 1 2 3) >>`,
    inputs: [null],
  },
  errorCase("mustPush on a string", `<< mustPush "s" 1 >>`),
  errorCase("mustFirst on a map", `<< mustFirst (dict "a" 1) >>`),
  errorCase("mustChunk on a number", `<< mustChunk 2 3 >>`),
  errorCase("chunk on a number", `<< chunk 2 3 >>`),
  errorCase("mustSlice on a string", `<< mustSlice "abc" 1 >>`),
  errorCase("slice on a number", `<< slice 1 0 >>`),
  errorCase("mustHas on a number", `<< mustHas 1 2 >>`),
  errorCase("round with a string for places", `<< round 1.5 "x" >>`),
  errorCase("seq with a string", `<< seq "x" >>`),
];
