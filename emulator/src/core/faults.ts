import { mulberry32 } from "./random";

/** Deterministic fault injection: one seeded PRNG stream, drawn a fixed number of times per request. */

export interface FaultSpec {
  rate429: number;
  rate503: number;
  rateReset: number;
  latencyMs?: { min: number; max: number };
}

export type FaultOutcome = "none" | "reset" | 429 | 503;

export interface FaultDecision {
  latencyMs: number;
  outcome: FaultOutcome;
}

export const NO_FAULTS: FaultSpec = { rate429: 0, rate503: 0, rateReset: 0 };

/** Parses "429=0.2,503=0.1,reset=0.05,latency=50-200"; an empty spec means no faults. */
export function parseFaultSpec(spec: string): FaultSpec {
  const parsed: FaultSpec = { ...NO_FAULTS };
  for (const part of spec.split(",").map((p) => p.trim()).filter(Boolean)) {
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
    if (key === "429") parsed.rate429 = rate;
    else if (key === "503") parsed.rate503 = rate;
    else if (key === "reset") parsed.rateReset = rate;
    else throw new Error(`unknown fault "${key}" (expected 429, 503, reset or latency)`);
  }
  if (parsed.rate429 + parsed.rate503 + parsed.rateReset > 1) throw new Error("fault rates add up to more than 1");
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
    const { rate429, rate503, rateReset, latencyMs } = this.spec;
    return rate429 + rate503 + rateReset > 0 || latencyMs !== undefined;
  }

  /** Always draws twice so the outcome of request N depends only on the seed and N. */
  next(): FaultDecision {
    const outcomeDraw = this.random();
    const latencyDraw = this.random();
    const { rate429, rate503, rateReset, latencyMs } = this.spec;
    const latency = latencyMs ? Math.round(latencyMs.min + latencyDraw * (latencyMs.max - latencyMs.min)) : 0;
    let outcome: FaultOutcome = "none";
    if (outcomeDraw < rate429) outcome = 429;
    else if (outcomeDraw < rate429 + rate503) outcome = 503;
    else if (outcomeDraw < rate429 + rate503 + rateReset) outcome = "reset";
    return { latencyMs: latency, outcome };
  }
}
