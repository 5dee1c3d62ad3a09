/**
 * A strict reader of the Prometheus text exposition format (0.0.4), for tests: every
 * line must be a HELP/TYPE comment or a sample `name{label="value",...} number`, names
 * and labels must be valid, each sample's family must have been TYPEd before it, and
 * label values may only use the format's three escapes. Throws on the first bad line.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);

function parseLabels(text: string, lineNo: number): Record<string, string> {
  const labels: Record<string, string> = {};
  let i = 0;
  while (i < text.length) {
    const eq = text.indexOf("=", i);
    const key = text.slice(i, eq);
    if (eq < 0 || !LABEL.test(key)) throw new Error(`line ${lineNo}: bad label name ${JSON.stringify(key)}`);
    if (text[eq + 1] !== '"') throw new Error(`line ${lineNo}: label ${key} value is not quoted`);
    let j = eq + 2;
    let value = "";
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] === "\\") {
        const n = text[++j];
        if (n === "n") value += "\n";
        else if (n === "\\" || n === '"') value += n;
        else throw new Error(`line ${lineNo}: bad escape \\${n}`);
      } else value += text[j];
    }
    if (text[j] !== '"') throw new Error(`line ${lineNo}: unterminated label value`);
    if (key in labels) throw new Error(`line ${lineNo}: label ${key} repeated`);
    labels[key] = value;
    i = j + 1;
    if (text[i] === ",") i++;
    else if (i < text.length) throw new Error(`line ${lineNo}: expected , after label ${key}`);
  }
  return labels;
}

export function parsePrometheusText(body: string): Sample[] {
  if (!body.endsWith("\n")) throw new Error("exposition must end with a newline");
  const typed = new Map<string, string>();
  const samples: Sample[] = [];
  body.slice(0, -1).split("\n").forEach((line, idx) => {
    const n = idx + 1;
    if (line === "") return;
    if (line.startsWith("#")) {
      const m = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
      if (!m) throw new Error(`line ${n}: comment is not HELP or TYPE: ${line}`);
      if (!NAME.test(m[2]!)) throw new Error(`line ${n}: bad metric name ${m[2]}`);
      if (m[1] === "TYPE") {
        if (!TYPES.has(m[3]!)) throw new Error(`line ${n}: bad type ${m[3]}`);
        if (typed.has(m[2]!)) throw new Error(`line ${n}: ${m[2]} typed twice`);
        typed.set(m[2]!, m[3]!);
      }
      return;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`line ${n}: not a sample: ${line}`);
    const value = m[3] === "NaN" ? NaN : m[3] === "+Inf" ? Infinity : m[3] === "-Inf" ? -Infinity : Number(m[3]);
    if (m[3] !== "NaN" && Number.isNaN(value)) throw new Error(`line ${n}: bad value ${m[3]}`);
    if (!typed.has(m[1]!)) throw new Error(`line ${n}: sample of ${m[1]} before its TYPE`);
    samples.push({ name: m[1]!, labels: m[2] ? parseLabels(m[2], n) : {}, value });
  });
  return samples;
}
