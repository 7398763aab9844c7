// The Liquid engine for file-name templates: brec's filters and {% random %} tag, no file access, DoS limits.
import { Liquid, Tag, type Context, type Emitter, type FS, type Liquid as LiquidType, type TagToken, type Template, type TopLevelToken } from 'liquidjs';
import { formatDotnetDate, ZonedTime } from './dotnet-date.js';
import { toZonedTime } from './date-input.js';
import { formatQn } from './qn.js';
import { zoneOffsetMinutes } from './time-zone.js';

/** The instant "now" means and the random source, fixed for one (synchronous) render. */
interface RenderState {
  now: number;
  random: () => number;
}
let current: RenderState = { now: Date.now(), random: Math.random };

class RandomTag extends Tag {
  private readonly digits: number;

  constructor(token: TagToken, remain: TopLevelToken[], liquid: LiquidType) {
    super(token, remain, liquid);
    const arg = token.args.trim();
    // brec: N random digits, 3 when N is not an integer; capped so a template cannot ask for megabytes.
    this.digits = /^\d+$/.test(arg) ? Math.min(Number(arg), 64) : 3;
  }

  render(_ctx: Context, emitter: Emitter): void {
    let s = '';
    for (let i = 0; i < this.digits; i++) s += Math.floor(current.random() * 10) % 10;
    emitter.write(s);
  }
}

// Templates are user input: partials ({% include %}, {% render %}, {% layout %}) must never read files.
const NO_FILES: FS = {
  exists: async () => false,
  existsSync: () => false,
  readFile: async (p) => { throw new Error(`file access is disabled in file-name templates (${p})`); },
  readFileSync: (p) => { throw new Error(`file access is disabled in file-name templates (${p})`); },
  resolve: (_dir, file) => file,
  contains: async () => false,
  containsSync: () => false,
};

function createEngine(): Liquid {
  const engine = new Liquid({
    fs: NO_FILES,
    root: [],
    relativeReference: false,
    cache: false,
    ownPropertyOnly: true,
    parseLimit: 1_000_000,
    // Wall time of one render: file names are tiny, so a template that needs more is a loop bomb.
    renderLimit: 500,
    memoryLimit: 10_000_000,
  });
  engine.registerFilter('time_zone', (input: unknown, zone: unknown) => {
    const t = toZonedTime(input, current.now);
    if (!t || typeof zone !== 'string') return input;
    const offset = zoneOffsetMinutes(t.epochMs, zone);
    return offset === null ? t : new ZonedTime(t.epochMs, offset);
  });
  engine.registerFilter('format_date', (input: unknown, format: unknown) => {
    const t = toZonedTime(input, current.now);
    return t ? formatDotnetDate(t, typeof format === 'string' ? format : '') : input;
  });
  engine.registerFilter('format_qn', (qn: unknown) => formatQn(qn));
  engine.registerTag('random', RandomTag);
  return engine;
}

let engine: Liquid | null = null;
const parsed = new Map<string, Template[]>();

/** Parses (cached, bounded) a template; throws liquidjs' ParseError/TokenizationError on syntax errors. */
function parse(template: string): Template[] {
  engine ??= createEngine();
  let t = parsed.get(template);
  if (!t) {
    t = engine.parse(template);
    if (parsed.size >= 32) parsed.delete(parsed.keys().next().value as string);
    parsed.set(template, t);
  }
  return t;
}

/** Parses and renders synchronously; throws on syntax and render errors (the caller reports TemplateError). */
export function renderTemplate(template: string, scope: Record<string, unknown>, now: number, random: () => number = Math.random): string {
  const tpl = parse(template);
  const previous = current;
  current = { now, random };
  try {
    return String(engine!.renderSync(tpl, scope));
  } finally {
    current = previous;
  }
}
