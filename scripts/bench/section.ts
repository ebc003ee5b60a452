/** One section of `npm run bench`: a title and the lines it prints (figures and ratios). */
export interface BenchSection {
  title: string;
  lines: string[];
}

/** A benchmark module's default export. */
export type Bench = () => Promise<BenchSection>;
