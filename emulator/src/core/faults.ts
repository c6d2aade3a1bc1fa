import { mulberry32 } from "../shared/random";

/** Deterministic fault injection: one seeded PRNG stream, drawn a fixed number of times per request. */

export interface FaultSpec {
  rate429: number;
  rate503: number;
  rateReset: number;
  /** The request is carried out, then the connection is dropped without an answer. */
  rateLost: number;
  /**
   * The request is carried out, then answered 500, 502 or 504 with an HTML page or an empty
   * body, as the real service's 5xx bodies sometimes are (REAL-WORLD.md). Whether the work was
   * done, a client cannot tell from a 5xx: the emulator takes the case where repeating it can
   * do it twice.
   */
  rate500: number;
  rate502: number;
  rate504: number;
  latencyMs?: { min: number; max: number };
}

/** Statuses answered after the request was carried out (see FaultSpec.rate500). */
export type AfterWorkStatus = 500 | 502 | 504;

export type FaultOutcome = "none" | "reset" | "lost" | 429 | 503 | AfterWorkStatus;

export interface FaultDecision {
  latencyMs: number;
  outcome: FaultOutcome;
  /** For an after-work status: an HTML page as the body, else an empty one (each half of the status's draws). */
  htmlBody?: boolean;
}

export const NO_FAULTS: FaultSpec = { rate429: 0, rate503: 0, rateReset: 0, rateLost: 0, rate500: 0, rate502: 0, rate504: 0 };

export const isAfterWorkStatus = (outcome: FaultOutcome): outcome is AfterWorkStatus => outcome === 500 || outcome === 502 || outcome === 504;

type RateKey = Exclude<keyof FaultSpec, "latencyMs">;

/** The rated outcomes, in the order their shares of a draw are laid out: new ones last, so that a seed's faults stay as they were. */
const RATED: ReadonlyArray<{ key: string; rate: RateKey; outcome: FaultOutcome }> = [
  { key: "429", rate: "rate429", outcome: 429 },
  { key: "503", rate: "rate503", outcome: 503 },
  { key: "reset", rate: "rateReset", outcome: "reset" },
  { key: "lost", rate: "rateLost", outcome: "lost" },
  { key: "500", rate: "rate500", outcome: 500 },
  { key: "502", rate: "rate502", outcome: 502 },
  { key: "504", rate: "rate504", outcome: 504 },
];

const totalRate = (spec: FaultSpec) => RATED.reduce((sum, { rate }) => sum + spec[rate], 0);

/** Parses "429=0.2,503=0.1,reset=0.05,lost=0.05,500=0.05,latency=50-200"; an empty spec means no faults. */
export function parseFaultSpec(spec: string): FaultSpec {
  const parsed: FaultSpec = { ...NO_FAULTS };
  for (const part of spec
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [key, value] = part.split("=").map((s) => s.trim());
    if (value === undefined) throw new Error(`fault "${part}" has no value (expected key=value)`);
    if (key === "latency") {
      const match = /^(\d+)(?:-(\d+))?$/.exec(value);
      if (!match) throw new Error(`latency must be MS or MIN-MAX in milliseconds, got "${value}"`);
      const min = Number(match[1]);
      const max = match[2] === undefined ? min : Number(match[2]);
      if (max < min) throw new Error(`latency range ${value} is reversed`);
      parsed.latencyMs = { min, max };
      continue;
    }
    const rate = Number(value);
    if (!Number.isFinite(rate) || rate < 0 || rate > 1) throw new Error(`fault rate for ${key} must be between 0 and 1, got "${value}"`);
    const rated = RATED.find((entry) => entry.key === key);
    if (!rated) throw new Error(`unknown fault "${key}" (expected 429, 503, reset, lost, 500, 502, 504 or latency)`);
    parsed[rated.rate] = rate;
  }
  if (totalRate(parsed) > 1) throw new Error("fault rates add up to more than 1");
  return parsed;
}

export class FaultInjector {
  private spec: FaultSpec = NO_FAULTS;
  private random: () => number = mulberry32(0);

  configure(spec: FaultSpec, seed: number): void {
    this.spec = spec;
    this.random = mulberry32(seed);
  }

  get active(): boolean {
    return totalRate(this.spec) > 0 || this.spec.latencyMs !== undefined;
  }

  /** Always draws twice so the outcome of request N depends only on the seed and N. */
  next(): FaultDecision {
    const outcomeDraw = this.random();
    const latencyDraw = this.random();
    const { latencyMs } = this.spec;
    const latency = latencyMs ? Math.round(latencyMs.min + latencyDraw * (latencyMs.max - latencyMs.min)) : 0;
    let threshold = 0;
    for (const { rate, outcome } of RATED) {
      const share = this.spec[rate];
      threshold += share;
      if (outcomeDraw < threshold) return { latencyMs: latency, outcome, ...(isAfterWorkStatus(outcome) && { htmlBody: outcomeDraw < threshold - share / 2 }) };
    }
    return { latencyMs: latency, outcome: "none" };
  }
}
