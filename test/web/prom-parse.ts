// A small strict parser of the Prometheus text format 0.0.4, for tests: every line must parse or it throws.

export interface Sample { name: string; labels: Record<string, string>; value: number }
export interface Family { name: string; type: string; help: string; samples: Sample[] }

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const SUFFIXES: Record<string, string[]> = { histogram: ['_bucket', '_sum', '_count'], summary: ['_sum', '_count', ''], counter: [''], gauge: [''], untyped: [''] };

function parseValue(v: string, line: string): number {
  // Prometheus reads values with Go's strconv.ParseFloat, which takes NaN in any case (prom-client writes "Nan").
  if (/^nan$/i.test(v)) return Number.NaN;
  if (v === '+Inf') return Number.POSITIVE_INFINITY;
  if (v === '-Inf') return Number.NEGATIVE_INFINITY;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(v)) throw new Error(`bad value in: ${line}`);
  return Number(v);
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  const re = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\["\\n])*)"\s*(,|$)/y;
  let pos = 0;
  while (pos < text.length) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m) throw new Error(`bad labels in: ${line}`);
    if (m[1] in labels) throw new Error(`duplicate label ${m[1]} in: ${line}`);
    labels[m[1]] = m[2].replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
    pos = re.lastIndex;
  }
  return labels;
}

export function parsePrometheus(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const family = (name: string): Family => {
    let f = families.get(name);
    if (!f) families.set(name, (f = { name, type: 'untyped', help: '', samples: [] }));
    return f;
  };
  const seen = new Set<string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      if (!NAME.test(meta[2])) throw new Error(`bad metric name: ${line}`);
      const f = family(meta[2]);
      if (meta[1] === 'TYPE') {
        if (!(meta[3] in SUFFIXES)) throw new Error(`bad type: ${line}`);
        if (f.samples.length > 0) throw new Error(`TYPE after samples: ${line}`);
        f.type = meta[3];
      } else f.help = meta[3];
      continue;
    }
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: (-?\d+))?$/.exec(line);
    if (!m) throw new Error(`unparsable line: ${line}`);
    const [, name, labelText, value] = m;
    const base = [...families.values()].find((f) => SUFFIXES[f.type].some((suf) => name === f.name + suf));
    if (!base) throw new Error(`sample without a TYPE: ${line}`);
    const labels = parseLabels(labelText ?? '', line);
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(key)) throw new Error(`duplicate series: ${line}`);
    seen.add(key);
    base.samples.push({ name, labels, value: parseValue(value, line) });
  }
  return families;
}

/** The value of one series; undefined when absent. */
export function valueOf(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const f of families.values()) {
    const s = f.samples.find((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v));
    if (s) return s.value;
  }
  return undefined;
}
